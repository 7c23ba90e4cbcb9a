"""Where a 2015 round is, for its tabs (reads only): the stage from the phases' states and the
freeze, the overview's flow picture and its "What to do now" lines.

One stage per round, the same for every reader: the tabs decide from it which form comes
first (Submit), which step of the flow is highlighted (Overview) and what a team should do.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from pwscup.competitions.models import Phase, Round
from pwscup.core.time_zones import in_zone_html, sentence_html
from pwscup.kinds.tabs import DATA, RESULTS, RULES, SUBMIT, FlowStep, NextStep, tab_url

NOT_OPEN = "not_open"  # an incomplete round, for everyone but its organizers
BEFORE = "before"  # the anonymization phase has not opened
ANONYMIZATION = "anonymization"  # it is open (and the round not frozen)
AWAITING_FREEZE = "awaiting_freeze"  # it has closed; the targets are not published yet
AWAITING_ATTACK = "awaiting_attack"  # frozen; the attack phase has not opened
ATTACK = "attack"  # frozen and the attack phase is open
AWAITING_RESULTS = "awaiting_results"  # the attack phase has closed; results not published
RESULTS_PUBLISHED = "results"


@dataclass(frozen=True)
class RoundPhases:
    """The round's two phases as a tab shows them (``None``: missing or hidden) and their
    states (``"upcoming"``, ``"open"``, ``"closed"``; ``""`` for a missing phase)."""

    anonymization: Phase | None
    attack: Phase | None
    anonymization_state: str
    attack_state: str


def round_stage(*, round: Round, phases: RoundPhases) -> str:
    if phases.anonymization is None:
        return NOT_OPEN
    if round.pwscup2015.results_published:
        return RESULTS_PUBLISHED
    if round.pwscup2015.frozen_at is None:
        return {"upcoming": BEFORE, "open": ANONYMIZATION}.get(
            phases.anonymization_state, AWAITING_FREEZE
        )
    return {"open": ATTACK, "closed": AWAITING_RESULTS}.get(phases.attack_state, AWAITING_ATTACK)


def _at(text: str, moment, round: Round) -> str:
    """``text`` with its ``%(at)s`` the moment in the round's time zone, as a page writes it."""
    return sentence_html(text, at=in_zone_html(moment, round.timezone))


# The step of the flow each stage is at (0-based; the steps before it are done).
_NOW = {
    NOT_OPEN: 0,
    BEFORE: 0,
    ANONYMIZATION: 1,
    AWAITING_FREEZE: 2,
    AWAITING_ATTACK: 2,
    ATTACK: 3,
    AWAITING_RESULTS: 4,
    RESULTS_PUBLISHED: 4,
}


def round_flow(*, round: Round, phases: RoundPhases, stage: str) -> list[FlowStep]:
    """The five steps of the game; the one the round is at is "now"."""
    anonymization, attack = phases.anonymization, phases.attack
    upload = _(
        "Publish a copy that stays useful but hides who is who; upload as often as you like."
    )
    if anonymization is not None:
        upload = _at(
            _("Publish a copy that stays useful but hides who is who; upload until %(at)s."),
            anonymization.closes_at,
            round,
        )
    attack_text = _("Match the rows of the other teams' copies back to people.")
    if attack is not None:
        attack_text = _at(
            _("Match the rows of the other teams' copies back to people, until %(at)s."),
            attack.closes_at,
            round,
        )
    data_text = (
        _("Download your own sample of the table and the starter kit.")
        if round.pwscup2015.is_per_team
        else _("Download the table of people and the starter kit.")
    )
    steps = [
        (_("Get the data"), data_text),
        (_("Anonymize and upload"), upload),
        (
            _("Targets published"),
            _("The organizers freeze the phase: each team's final copy is shuffled and published."),
        ),
        (_("Attack the others"), attack_text),
        (_("Results"), _("The organizers publish the final rankings of both games.")),
    ]
    now = _NOW[stage]
    if stage == RESULTS_PUBLISHED:
        return [FlowStep(title, text, "done") for title, text in steps]
    states = ["done"] * now + ["now"] + ["later"] * (len(steps) - now - 1)
    return [
        FlowStep(title, text, state) for (title, text), state in zip(steps, states, strict=True)
    ]


def round_next_steps(
    *, round: Round, phases: RoundPhases, stage: str, has_submission: bool
) -> list[NextStep]:
    """What a team should do now, each line with the tab that does it (one helper per
    stage: ``_STEPS``)."""
    urls = {tab: tab_url(round, tab) for tab in (DATA, SUBMIT, RESULTS, RULES)}
    return _STEPS[stage](round, phases, urls, has_submission)


def _step(text, urls=None, tab=None, label=None) -> NextStep:
    return NextStep(text, urls[tab], label) if tab else NextStep(text)


def _steps_before(round, phases, urls, _has_submission) -> list[NextStep]:
    text = _("The anonymization phase opens on %(at)s. Meanwhile, read how you are scored.")
    opens = _at(text, phases.anonymization.opens_at, round)
    return [_step(opens, urls, RULES, _("Rules and scoring"))]


def _steps_anonymization(round, phases, urls, has_submission) -> list[NextStep]:
    if not has_submission:
        return [
            _step(_("Download your data and the kit."), urls, DATA, _("Data")),
            _step(
                _(
                    "Upload your anonymized CSV. To see how scoring works first, upload the "
                    "sample submission of the Data tab as it is."
                ),
                urls,
                SUBMIT,
                _("Submit"),
            ),
        ]
    closes = phases.anonymization.closes_at
    return [
        _step(
            _at(_("Upload a better anonymized CSV until %(at)s."), closes, round),
            urls,
            SUBMIT,
            _("Submit"),
        ),
        _step(
            _("See your scores over time, and the leaderboard when it is public."),
            urls,
            RESULTS,
            _("Results"),
        ),
    ]


def _steps_awaiting_attack(round, phases, urls, _has_submission) -> list[NextStep]:
    if phases.attack is None:
        return [_step(_("The attack phase has not been scheduled yet."))]
    text = _("The attack phase opens on %(at)s; the targets are then on the Data tab.")
    return [_step(_at(text, phases.attack.opens_at, round), urls, DATA, _("Data"))]


def _steps_attack(round, phases, urls, _has_submission) -> list[NextStep]:
    closes = phases.attack.closes_at
    return [
        _step(_("Download the targets: the other teams' published copies."), urls, DATA, _("Data")),
        _step(
            _at(_("Upload a correspondence table for each target until %(at)s."), closes, round),
            urls,
            SUBMIT,
            _("Submit"),
        ),
    ]


def _one_step(text_of, tab=None, label_of=None):
    """A stage whose step is one fixed line (its text translated when the page is drawn)."""

    def steps(_round, _phases, urls, _has_submission) -> list[NextStep]:
        return [_step(text_of(), urls, tab, label_of() if label_of else None)]

    return steps


_STEPS = {
    NOT_OPEN: _one_step(lambda: _("This round is not open yet.")),
    BEFORE: _steps_before,
    ANONYMIZATION: _steps_anonymization,
    AWAITING_FREEZE: _one_step(
        lambda: _(
            "The anonymization phase is closed: the targets are published when the "
            "organizers freeze the round."
        ),
        RESULTS,
        lambda: _("Results"),
    ),
    AWAITING_ATTACK: _steps_awaiting_attack,
    ATTACK: _steps_attack,
    AWAITING_RESULTS: _one_step(
        lambda: _("The attack phase is closed: the organizers will publish the results."),
        RESULTS,
        lambda: _("Results"),
    ),
    RESULTS_PUBLISHED: _one_step(
        lambda: _("Results are published: see the final ranking."), RESULTS, lambda: _("Results")
    ),
}
