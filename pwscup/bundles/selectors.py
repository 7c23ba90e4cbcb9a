"""What the bundles read: a competition as a bundle (its manifest and ZIP), who may import."""

import datetime as dt
import hashlib
import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from pwscup.bundles.manifest import FORMAT, MANIFEST_NAME, VERSION, manifest_bytes, round_path
from pwscup.bundles.standings import standings_entries
from pwscup.bundles.zipped import zip_write
from pwscup.competitions.choice_selectors import round_choices
from pwscup.competitions.models import Competition, Round
from pwscup.competitions.selectors import may_create_competitions, user_is_organizer
from pwscup.kinds import kind_of
from pwscup.kinds.bundle_anchor import schedule_anchor
from pwscup.kinds.bundles import ExportOptions, RoundBundle, offset_from
from pwscup.presentations.selectors import competition_windows

ROLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


@dataclass(frozen=True)
class Bundle:
    manifest: dict
    data: bytes  # the ZIP

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def may_clone(*, user, competition: Competition) -> bool:
    return may_create_competitions(user=user) and user_is_organizer(
        user=user, competition=competition
    )


def competition_rounds(*, competition: Competition) -> list[Round]:
    return list(competition.rounds.order_by("order", "id").prefetch_related("phases"))


def bundle_anchor(*, competition: Competition, rounds: list[Round]) -> dt.datetime:
    """The moment every time of the bundle is an offset from (``schedule_anchor``): the
    earliest opening of any round's schedule as planned (``RoundKind.schedule_plan``: what
    the kinds export); when no round has an opening (a sequential round open since its
    creation), the earliest close; else the competition's creation. The import puts the anchor at the start it is given, so the anchor must be a
    time of the schedule itself: the creation of the competition would move with every
    import, and an exported copy would not equal its source."""
    plans = [window for round_ in rounds for window in kind_of(round_).schedule_plan(round_)]
    anchor = schedule_anchor(plans)
    return competition.created_at if anchor is None else anchor


def competition_bundle(*, competition: Competition, options: ExportOptions | None = None) -> Bundle:
    """The competition as a bundle: the manifest (no slug of the competition, no absolute
    date, no team, no upload) and the ZIP of the manifest and the rounds' files. ``options``
    (``ExportOptions``; ``None``: the defaults, no hidden data) go to every round's kind.

    Raises ``ValidationError`` when a round's kind cannot export itself."""
    options = options or ExportOptions()
    rounds = competition_rounds(competition=competition)
    anchor = bundle_anchor(competition=competition, rounds=rounds)
    members, entries = {}, []
    for round_ in rounds:
        kind = kind_of(round_)
        try:
            exported = kind.bundle_export(round_, anchor=anchor, options=options)
        except NotImplementedError:
            raise ValidationError(
                _("The round %(round)s (%(kind)s) cannot be exported: its kind has no bundles.")
                % {"round": round_.slug, "kind": kind.key}
            ) from None
        entries.append(_round_entry(round_, exported))
        for role, content in exported.files.items():
            members[round_path(round_.slug, role)] = content
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "competition": {
            "name": competition.name,
            "description": competition.description,
            "is_listed": competition.is_listed,
            "max_team_size": competition.max_team_size,
        },
        "rounds": entries,
        "presentations": [
            _window_entry(window, anchor) for window in competition_windows(competition=competition)
        ],
    }
    manifest.update(standings_entries(competition=competition))
    members[MANIFEST_NAME] = manifest_bytes(manifest)
    return Bundle(manifest=manifest, data=zip_write(members))


def _window_entry(window, anchor: dt.datetime) -> dict:
    """A presentation window as the manifest holds it: its round by address (``None``: the
    whole competition), its times as offsets, its limits; never its slides or publication."""
    return {
        "round": window.round.slug if window.round_id else None,
        "title": window.title,
        "opens_at": offset_from(window.planned_window()[0], anchor),
        "closes_at": offset_from(window.planned_window()[1], anchor),
        "time_zone": window.time_zone,
        "max_bytes": window.max_bytes,
        "daily_limit": window.daily_limit,
        "total_limit": window.total_limit,
    }


def _round_entry(round_: Round, exported: RoundBundle) -> dict:
    files = {}
    for role, content in sorted(exported.files.items()):
        if not ROLE.fullmatch(role):
            raise ValueError(f"{round_.kind} exported a file with the role {role!r}")
        files[role] = {
            "path": round_path(round_.slug, role),
            "sha256": hashlib.sha256(content).hexdigest(),
            "size": len(content),
        }
    return {
        "kind": round_.kind,
        "name": round_.name,
        "slug": round_.slug,
        "order": round_.order,
        "timezone": round_.timezone,
        "quota_reset_hour": round_.quota_reset_hour,
        "total_formula": round_.total_formula,
        "attack_top_n": round_.attack_top_n,
        "attack_top_by": round_.attack_top_by,
        "attack_top_own": round_.attack_top_own,
        "attack_top_combine": round_.attack_top_combine,
        "data_choices": [
            {"key": c.key, "label": c.label, "label_ja": c.label_ja}
            for c in round_choices(round=round_)
        ],
        "settings": exported.settings,
        "files": files,
    }
