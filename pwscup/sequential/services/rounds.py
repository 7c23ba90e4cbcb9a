"""The sequential round itself: its configuration checked by ``scoring.sequential``, its
creation (with a shared master or a pool the teams' masters are drawn from) and when each
release closes. Every creation path (console, admin, demo) calls ``sequential_round_create``."""

import datetime as dt
import zoneinfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from pwscup.competitions.dates import dates_check
from pwscup.competitions.organizer_files import organizer_csv_keep
from pwscup.competitions.services import phase_window_check, round_of_kind_create
from pwscup.core.errors import Refused, scoring_form_error, scoring_validation_errors
from pwscup.core.time_zones import in_zone_text
from pwscup.kinds.round_basics import RoundBasics
from pwscup.sequential import KEY, engine
from pwscup.sequential.models import SequentialRound
from pwscup.sequential.services.common import audit
from pwscup.sequential.services.masters import (
    master_check,
    master_create,
    masters_draw,
    organizer_upload_csv,
)


def sequential_config_validate(*, config) -> dict:
    """The normalised configuration (spec §12), or a ``ValidationError`` with every error
    found, each naming its key, in the reader's language, with the scoring error's code and
    parameters (the console's form shows each next to the field of its key)."""
    if not isinstance(config, dict):
        raise ValidationError(_("The round configuration must be a JSON object."))
    try:
        return engine.config_normalise(config)
    except scoring.ScoringError as error:
        raise scoring_validation_errors(error) from None


# The round row's upload limits (each release step's, the attack phase's), which the creation
# and ``schedule_edit`` take under their own names.
LIMITS = (
    "daily_limit",
    "total_limit",
    "attack_daily_limit",
    "attack_total_limit",
    "attack_target_limit",
)


@transaction.atomic
def sequential_round_create(
    *,
    basics: RoundBasics,
    config: dict,
    master_file=None,
    pool_file=None,
    user=None,
    step_closes=None,
    first_close=None,
    step_length=None,
    auto_freeze=True,
    attack_closes_at=None,
    opens_at=None,
    **limits,
) -> SequentialRound:
    """A new sequential round with its ``basics`` (``round_of_kind_create``'s): the
    configuration, and a shared master or a pool to draw per-team masters from (drawn at
    once for the teams registered, and again by the organizer's "draw" action). Per-team
    masters may also be uploaded one by one. Optionally each release's close
    (``step_closes``, or ``first_close`` and ``step_length``; see ``schedule_set``), the
    upload ``limits`` (any of ``LIMITS``), the attack phase's planned close
    (``attack_close_normalise``) and when release 1 opens (``opens_at``,
    ``opening_normalise``; ``None``: at once)."""
    if unknown := set(limits) - set(LIMITS):
        raise TypeError(f"sequential_round_create: not a limit: {sorted(unknown)}")
    if master_file is not None and pool_file is not None:
        raise ValidationError({"pool": _("Upload a master table or a pool, not both.")})
    config = sequential_config_validate(config=config)
    if config.get("attack_phase") and master_file is not None:
        raise scoring_form_error("master", scoring.ConfigError("seq.config.attack_phase"))
    if pool_file is not None and not config.get("per_team"):
        raise ValidationError(
            {
                "pool": _(
                    "A pool needs the per_team key of the configuration (size, turnover, seed)."
                )
            }
        )
    master_csv = (
        organizer_upload_csv(master_file, field="master") if master_file is not None else None
    )
    if master_csv is not None:
        persons = master_check(config=config, data=master_csv.utf8)
    pool_csv = organizer_upload_csv(pool_file, field="pool") if pool_file is not None else None
    round_ = round_of_kind_create(basics=basics, kind=KEY, config=config)
    sequential = SequentialRound.objects.create(
        round=round_, config=config, auto_freeze=auto_freeze, **limits
    )
    closes = schedule_set(
        sequential=sequential,
        closes=step_closes or None,
        first_close=first_close,
        step_length=step_length,
    )
    sequential.attack_closes_at = attack_close_normalise(
        sequential=sequential, closes=closes, attack_closes_at=attack_closes_at
    )
    # After the attack phase's close: release 1 opens before it when no release closes.
    sequential.opens_at = opening_normalise(sequential=sequential, opens_at=opens_at, closes=closes)
    sequential.save(update_fields=["attack_closes_at", "opens_at"])
    if master_csv is not None:
        master_create(sequential=sequential, team=None, csv=master_csv, persons=persons)
    if pool_csv is not None:
        organizer_csv_keep(
            sequential, csv=pool_csv, filename="pool.csv", file="pool_file", source="pool_source"
        )
        sequential.pool_encoding = pool_csv.encoding
        sequential.save(update_fields=["pool_file", "pool_source", "pool_encoding"])
        try:
            masters_draw(sequential=sequential)
        except Refused as refusal:
            raise ValidationError({"pool": refusal.message}) from None
    audit(user=user, sequential=sequential, action="create")
    return sequential


def schedule_set(
    *,
    sequential: SequentialRound,
    closes: list[dt.datetime] | None = None,
    first_close: dt.datetime | None = None,
    step_length: dt.timedelta | None = None,
) -> list[dt.datetime]:
    """Set when each release closes: explicit times (one per release, increasing), or the
    first release's close and a step length; neither: no deadlines. Returns the closes."""
    closes = schedule_normalise(
        sequential=sequential, closes=closes, first_close=first_close, step_length=step_length
    )
    sequential.step_closes = [at.isoformat() for at in closes]
    sequential.save(update_fields=["step_closes"])
    return closes


def schedule_normalise(
    *,
    sequential: SequentialRound,
    closes=None,
    first_close=None,
    step_length=None,
    config: dict | None = None,
) -> list[dt.datetime]:
    """The closes ``schedule_set`` would keep (aware, one per release, increasing, each a
    date the platform accepts), or a ``ValidationError`` naming the field. ``config``: the
    configuration the closes go with when it changes in the same save (the admin's form;
    checked by ``sequential_config_validate``), else the stored one."""
    n = int((sequential.config if config is None else config).get("n_releases", 0))
    if closes is None and first_close is not None:
        if step_length is None or step_length <= dt.timedelta(0):
            raise ValidationError({"step_length": _("Give a positive step length.")})
        closes = [first_close + step_length * j for j in range(n)]
    closes = list(closes or [])
    if closes and len(closes) != n:
        raise ValidationError(
            {
                "step_closes": _("Give one close time per release: %(n)s, not %(k)s.")
                % {"n": n, "k": len(closes)}
            }
        )
    zone = sequential.round.timezone
    for j, at in enumerate(closes, start=1):
        label = _("Close of release %(j)s") % {"j": j}
        dates_check({"step_closes": at}, labels={"step_closes": label}, time_zone=zone)
    closes = [in_round_zone(sequential, at) for at in closes]
    for j in range(1, len(closes)):
        if closes[j] <= closes[j - 1]:
            raise ValidationError(
                {
                    "step_closes": _("Release %(j)s must close after release %(i)s.")
                    % {"j": j + 1, "i": j}
                }
            )
    return closes


def attack_close_normalise(
    *,
    sequential: SequentialRound,
    closes: list[dt.datetime],
    attack_closes_at,
    config: dict | None = None,
) -> dt.datetime | None:
    """The attack phase's planned close as it is kept (aware: a time without zone is the
    round's), or a ``ValidationError`` on ``attack_closes_at``: only a round with an attack
    phase has one (by ``config`` when the configuration changes in the same save, else the
    stored one), a date the platform accepts (``dates_check``), after the last release's
    close when the releases have closes (``closes``, as ``schedule_normalise`` returns them)."""
    if attack_closes_at is None:
        return None
    if not (sequential.config if config is None else config).get("attack_phase"):
        raise ValidationError({"attack_closes_at": _("This round has no attack phase.")})
    label = _("Close of the attack phase")
    dates_check(
        {"attack_closes_at": attack_closes_at},
        labels={"attack_closes_at": label},
        time_zone=sequential.round.timezone,
    )
    attack_closes_at = in_round_zone(sequential, attack_closes_at)
    if closes and attack_closes_at <= closes[-1]:
        raise ValidationError(
            {
                "attack_closes_at": _(
                    "The attack phase must close after the last release (release %(n)s)."
                )
                % {"n": len(closes)}
            }
        )
    return attack_closes_at


def opening_normalise(
    *, sequential: SequentialRound, opens_at, closes: list[dt.datetime]
) -> dt.datetime | None:
    """When release 1 opens as it is kept (aware: a time without zone is the round's;
    ``None``: since the round's creation), or a ``ValidationError`` on ``opens_at``: a date
    the platform accepts, before release 1's close (``closes``, as ``schedule_normalise``
    returns them; the core's rule of a window, ``phase_window_check``) and before the attack
    phase's planned close."""
    if opens_at is None:
        return None
    opens_at = in_round_zone(sequential, opens_at)
    first_close = closes[0] if closes else sequential.attack_closes_at
    labels = {
        "opens_at": _("Release 1 opens at"),
        "closes_at": _("Close of release %(j)s") % {"j": 1},
    }
    # The refusal sits under the opening: it names the close to come before, not a phase.
    order = (
        _("Release 1 must open before it closes (at %(closes)s).")
        if closes
        else _("Release 1 must open before the attack phase's planned close (%(closes)s).")
    )
    closes_text = in_zone_text(first_close, sequential.round.timezone) if first_close else ""
    try:
        phase_window_check(
            opens_at=opens_at,
            closes_at=first_close,
            time_zone=sequential.round.timezone,
            labels=labels,
            order_message=(order % {"closes": closes_text}).replace("%", "%%"),
        )
    except ValidationError as error:  # the typed opening is at fault, not the close
        raise ValidationError({"opens_at": sum(error.message_dict.values(), [])}) from None
    return opens_at


def in_round_zone(sequential: SequentialRound, at: dt.datetime) -> dt.datetime:
    """``at`` aware: a time without zone (typed on a page) is in the round's time zone."""
    zone = zoneinfo.ZoneInfo(sequential.round.timezone)
    return at.replace(tzinfo=zone) if timezone.is_naive(at) else at
