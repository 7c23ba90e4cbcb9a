"""Exporting, importing and cloning a competition as a bundle (``docs/bundles.md``).

An import reads the ZIP in memory (``zipped.zip_read``), checks the manifest against its
schema and every listed file against its size and SHA-256, then creates the competition and
its rounds in one transaction, each round through its kind's ``bundle_import`` (the same
services as the kind's console). A clone is an export in memory followed by an import.
"""

import datetime as dt
import io

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.bundles.cleanup import files_recorded
from pwscup.bundles.closed import closed_phases_check
from pwscup.bundles.manifest import (
    MANIFEST_NAME,
    manifest_parse,
    round_error_located,
    round_files_listed,
)
from pwscup.bundles.selectors import competition_bundle, may_clone
from pwscup.bundles.standings import standings_import
from pwscup.bundles.subset import kept_start, rounds_kept
from pwscup.bundles.zipped import ZipLimits, zip_read
from pwscup.competitions.addresses import slug_check
from pwscup.competitions.choice_services import choices_set
from pwscup.competitions.dates import dates_check
from pwscup.competitions.models import AuditEntry, Competition, Round
from pwscup.competitions.selectors import may_create_competitions
from pwscup.competitions.services import (
    audit_record,
    competition_create,
    quota_reset_hour_check,
)
from pwscup.competitions.total_services import (
    attack_top_n_check,
    attack_top_rule_check,
    attack_top_rule_values,
    round_total_formula_check,
)
from pwscup.core.time_zones import time_zone_check
from pwscup.kinds import get_kind
from pwscup.kinds.bundles import BundleChecks, ExportOptions, RoundEntry, at_offset
from pwscup.presentations.services import presentation_window_create

Action = AuditEntry.Action
NAME_MAX_LENGTH = Competition._meta.get_field("name").max_length
# A bundle of before the reset hour: its rounds' daily limits reset at midnight.
DEFAULT_QUOTA_RESET_HOUR = Round._meta.get_field("quota_reset_hour").default
# A presentation window's settings besides its round, title and times, as the console sets them.
WINDOW_LIMITS = ("time_zone", "max_bytes", "daily_limit", "total_limit")


def bundle_limits() -> ZipLimits:
    return ZipLimits(
        upload_bytes=settings.PWSCUP_BUNDLE_MAX_UPLOAD_BYTES,
        total_bytes=settings.PWSCUP_BUNDLE_MAX_BYTES,
        files=settings.PWSCUP_BUNDLE_MAX_FILES,
    )


def competition_export(*, competition: Competition, user, include_hidden: bool = False) -> bytes:
    """The competition as a bundle's ZIP (recorded in its audit log). ``include_hidden``:
    with the rounds' hidden data (``ExportOptions``); without it, each kind names what it
    left out and the imported round waits for it."""
    bundle = competition_bundle(
        competition=competition, options=ExportOptions(include_hidden=include_hidden)
    )
    _export_recorded(
        competition=competition, user=user, bundle=bundle, include_hidden=include_hidden
    )
    return bundle.data


def _export_recorded(*, competition, user, bundle, include_hidden: bool, **detail) -> None:
    """The export in the competition's audit log (``detail``: a clone names its copy)."""
    audit_record(
        user=user,
        competition=competition,
        action=Action.BUNDLE_EXPORTED,
        rounds=len(bundle.manifest["rounds"]),
        sha256=bundle.sha256,
        include_hidden=include_hidden,
        **detail,
    )


def competition_import(
    *,
    bundle_file,
    name: str,
    slug: str,
    start: dt.datetime,
    user,
    rounds: set[str] | None = None,
    closed_allowed: bool = True,
):
    """A new competition organized by ``user`` from the bundle ``bundle_file`` (a binary
    file object), its times ``start`` plus the bundle's offsets; ``name`` empty: the
    bundle's. ``rounds``: the addresses of the bundle's rounds to import (``None``: every
    one), the others left out as a clone leaves them (``rounds_kept``), the earliest time of
    those imported on ``start`` (``kept_start``). Without
    ``closed_allowed`` (the console's pages and ``bundle_import`` unless the organizer
    confirms), a start that leaves a phase closed already is refused
    (``closed.closed_phases_check``). Needs the right to create competitions.

    Raises ``ValidationError``: keyed ``name``, ``slug``, ``start`` or ``rounds`` for those,
    else messages naming the bundle's file and field. Nothing is left on failure: no row,
    no file in the storage."""
    if not may_create_competitions(user=user):
        raise PermissionDenied
    return _import(
        bundle_file=bundle_file,
        name=name,
        slug=slug,
        start=start,
        user=user,
        action=Action.COMPETITION_IMPORTED,
        keep=rounds,
        closed_allowed=closed_allowed,
    )


def competition_clone(
    *,
    competition: Competition,
    name: str,
    slug: str,
    start: dt.datetime,
    user,
    rounds: set[str] | None = None,
    closed_allowed: bool = True,
) -> Competition:
    """A new competition like ``competition`` (its settings, rounds and files, hidden data
    included: the copy stays on this platform, with the same organizer; no team, no upload),
    starting at ``start``: the export and the import of a bundle, in memory. Both logs say
    so: the copy's (*Cloned*, with its source) and the source's (the export, with the copy's
    address), as for an export that left the server. ``rounds``: the addresses of the rounds
    the copy keeps (``None``: every one; see ``rounds_kept``); ``closed_allowed`` as for
    ``competition_import``."""
    if not may_clone(user=user, competition=competition):
        raise PermissionDenied
    bundle = competition_bundle(competition=competition, options=ExportOptions(include_hidden=True))
    with transaction.atomic():
        copy = _import(
            bundle_file=io.BytesIO(bundle.data),
            name=name,
            slug=slug,
            start=start,
            user=user,
            action=Action.COMPETITION_CLONED,
            keep=rounds,
            closed_allowed=closed_allowed,
            source=competition.slug,
        )
        _export_recorded(
            competition=competition,
            user=user,
            bundle=bundle,
            include_hidden=True,
            cloned_into=copy.slug,
        )
    return copy


def _target_check(*, name: str, slug: str, start: dt.datetime) -> None:
    errors = {}
    if len(name) > NAME_MAX_LENGTH:
        errors["name"] = _("A name has at most %(max)s characters.") % {"max": NAME_MAX_LENGTH}
    try:
        slug_check(slug=slug)
    except ValidationError as error:
        errors.update(error.message_dict)
    try:
        dates_check({"start": start}, labels={"start": _("Start")})
    except ValidationError as error:
        errors.update(error.message_dict)
    if errors:
        raise ValidationError(errors)


def _import(
    *, bundle_file, name, slug, start, user, action, keep=None, closed_allowed=True, **detail
) -> Competition:
    name = (name or "").strip()
    _target_check(name=name, slug=slug, start=start)
    members = zip_read(bundle_file, limits=bundle_limits())
    if MANIFEST_NAME not in members:
        raise ValidationError(
            _("The bundle has no %(file)s at its root: is it a competition bundle?")
            % {"file": MANIFEST_NAME}
        )
    manifest = manifest_parse(members.pop(MANIFEST_NAME))
    round_files = round_files_listed(manifest, members)
    if keep is not None:
        start = kept_start(manifest, keep, start)
        round_files = rounds_kept(manifest, round_files, keep)
    with files_recorded(), transaction.atomic():
        described = manifest["competition"]
        competition = competition_create(
            name=name or described["name"],
            slug=slug,
            description=described["description"],
            organizers=[user],
        )
        Competition.objects.filter(pk=competition.pk).update(
            is_listed=described["is_listed"], max_team_size=described["max_team_size"]
        )
        competition.refresh_from_db()
        # Every round is imported, each in a savepoint, so that one answer names the errors of
        # every round; the windows and the standings name rounds, so they wait for them all.
        errors = []
        for index, (entry, files) in enumerate(zip(manifest["rounds"], round_files, strict=True)):
            try:
                with transaction.atomic():
                    _round_import(
                        competition=competition,
                        index=index,
                        entry=entry,
                        files=files,
                        start=start,
                        user=user,
                    )
            except ValidationError as error:
                errors.extend(error.messages)
        if errors:
            raise ValidationError(errors)
        for index, entry in enumerate(manifest.get("presentations", [])):
            _window_import(
                competition=competition, index=index, entry=entry, start=start, user=user
            )
        standings_import(competition=competition, manifest=manifest, user=user)
        if not closed_allowed:
            closed_phases_check(competition=competition)
        audit_record(
            user=user,
            competition=competition,
            action=action,
            name=competition.name,
            rounds=len(manifest["rounds"]),
            **detail,
        )
    return competition


def _round_import(*, competition, index: int, entry: dict, files, start, user) -> Round:
    where = f"rounds[{index}] ({entry['slug']})"
    round_entry = RoundEntry(
        name=entry["name"],
        slug=entry["slug"],
        order=entry["order"],
        timezone=entry["timezone"],
        settings=entry["settings"],
        files=files,
    )
    try:
        kind = get_kind(entry["kind"])
        # The round's own fields first: its kind reads its dates in its time zone.
        checks = BundleChecks()
        checks.run(slug_check, slug=entry["slug"], competition=competition)
        checks.run(time_zone_check, entry["timezone"])
        reset_hour = entry.get("quota_reset_hour", DEFAULT_QUOTA_RESET_HOUR)
        checks.run(quota_reset_hour_check, reset_hour)
        checks.done()
        try:
            round_ = kind.bundle_import(
                competition=competition, entry=round_entry, start=start, user=user
            )
        except NotImplementedError:
            raise ValidationError(
                {
                    "kind": _("The kind %(kind)s cannot import bundles on this site.")
                    % {"kind": entry["kind"]}
                }
            ) from None
    except ValidationError as error:
        raise ValidationError(
            round_error_located(error, where=where, slug=entry["slug"], roles=files)
        ) from None
    # The core's own fields no kind's import sets, on the new round's row.
    core = {"order": entry["order"], "quota_reset_hour": reset_hour}
    changed = {field: value for field, value in core.items() if getattr(round_, field) != value}
    if changed:
        Round.objects.filter(pk=round_.pk).update(**changed)
        for field, value in changed.items():
            setattr(round_, field, value)
    _total_import(round_, entry, where=where, files=files)
    _choices_import(round_, entry, where=where, files=files, user=user)
    return round_


def _choices_import(round_: Round, entry: dict, *, where: str, files, user) -> None:
    """The round's data packs (``choices_set``: the console's check); no team's pick."""
    rows = entry.get("data_choices") or []
    if not rows:
        return
    try:
        choices_set(user=user, round=round_, rows=rows)
    except ValidationError as error:
        keyed = ValidationError({"data_choices": error.messages})
        raise ValidationError(
            round_error_located(keyed, where=where, slug=entry["slug"], roles=files)
        ) from None


def _total_import(round_: Round, entry: dict, *, where: str, files) -> None:
    """The round's top-N attack score (absent: none; how it is read, absent: the defaults,
    as a bundle written before those settings) and total formula, the formula checked
    against the new round's names (its kind's, and ``attack_top`` when N is set)."""
    try:
        attack_top_n_check(round=round_, attack_top_n=entry.get("attack_top_n"))
        round_.attack_top_n = entry.get("attack_top_n") or None
        rule = attack_top_rule_values(entry)
        for field, value in rule.items():
            setattr(round_, field, value)
        formula = round_total_formula_check(round=round_, formula=entry.get("total_formula", ""))
        attack_top_rule_check(round=round_, formula=formula)
    except ValidationError as error:
        raise ValidationError(
            round_error_located(error, where=where, slug=entry["slug"], roles=files)
        ) from None
    round_.total_formula = formula
    Round.objects.filter(pk=round_.pk).update(
        total_formula=formula, attack_top_n=round_.attack_top_n, **rule
    )


def _window_import(*, competition, index: int, entry: dict, start, user) -> None:
    """Schedule one presentation window of the manifest through the console's service."""
    where = f"presentations[{index}]"
    round_ = None
    if entry["round"] is not None:
        round_ = competition.rounds.filter(slug=entry["round"]).first()
        if round_ is None:
            raise ValidationError(
                _("%(file)s: %(path)s.round: the bundle has no round %(value)s.")
                % {"file": MANIFEST_NAME, "path": where, "value": entry["round"]}
            )
    fields = {name: entry[name] for name in WINDOW_LIMITS}
    try:
        presentation_window_create(
            competition=competition,
            user=user,
            round=round_,
            title=entry["title"],
            opens_at=at_offset(entry["opens_at"], start, field="opens_at"),
            closes_at=at_offset(entry["closes_at"], start, field="closes_at"),
            **fields,
        )
    except ValidationError as error:
        keyed = error.message_dict if hasattr(error, "error_dict") else {"": error.messages}
        raise ValidationError(
            [
                _("%(file)s: %(path)s: %(message)s")
                % {
                    "file": MANIFEST_NAME,
                    "path": f"{where}.{key}" if key else where,
                    "message": message,
                }
                for key, messages in keyed.items()
                for message in messages
            ]
        ) from None
