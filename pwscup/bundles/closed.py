"""A new competition whose start puts phases in the past (``docs/bundles.md``, *Import*).

Last term's start typed again imports a competition whose phases are already closed: no
team could upload there, and a round scored at its close would be scored at once. The
console's import and clone pages and ``bundle_import`` refuse such a start unless the
organizer confirms it; the rule is here, read from every kind's schedule as its pages show it
(``RoundKind.schedule_lines``), so no kind is named.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from pwscup.competitions.models import Competition
from pwscup.core.time_zones import in_zone_text
from pwscup.kinds import kind_of

# The confirmation's label, on the import and clone pages and in the refusal.
CONFIRM_LABEL = gettext_lazy("Keep this start even though phases have closed")
# How many closed phases the refusal names; the others are counted.
NAMED_AT_MOST = 5


def closed_phases(*, competition: Competition) -> list[str]:
    """Each phase of ``competition``'s rounds that is closed now, as the refusal names it:
    the round, its address, the phase and when it closed (in the round's time zone)."""
    named = []
    for round_ in competition.rounds.order_by("order", "pk"):
        for line in kind_of(round_).schedule_lines(round_):
            if line["state"] != "closed":
                continue
            closes = line["closes_at"]
            named.append(
                _("%(round)s (%(address)s): %(phase)s, closed %(closes)s")
                % {
                    "round": round_.name,
                    "address": round_.slug,
                    "phase": line["label"],
                    "closes": in_zone_text(closes, round_.timezone) if closes else "—",
                }
            )
    return named


def closed_phases_check(*, competition: Competition) -> None:
    """Refuses (keyed ``start``: one error) when a phase of ``competition`` is closed already,
    naming them (the first ``NAMED_AT_MOST``, then how many more) and what to do."""
    named = closed_phases(competition=competition)
    if not named:
        return
    listed = _("; ").join(named[:NAMED_AT_MOST])
    if len(named) > NAMED_AT_MOST:
        listed += _(" and %(more)d more") % {"more": len(named) - NAMED_AT_MOST}
    message = ngettext(
        "With this start, %(count)d phase would already be closed: %(phases)s. Choose a later "
        "start, or, to keep this one, tick “%(confirm)s” (bundle_import: --allow-closed).",
        "With this start, %(count)d phases would already be closed: %(phases)s. Choose a later "
        "start, or, to keep this one, tick “%(confirm)s” (bundle_import: --allow-closed).",
        len(named),
    ) % {"count": len(named), "phases": listed, "confirm": CONFIRM_LABEL}
    raise ValidationError({"start": message})
