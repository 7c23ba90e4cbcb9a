"""What the tabs of a two-sided round (a release phase, then an attack phase on the frozen
releases: synthetic data, the organizer's own scoring program) read of its two phases, and
its teams' "What to do now" lines. The kind's ``RoundState``
extends ``TwoSidedPhases`` with its own row of the round (``round_row``), which says whether
the releases are frozen (``frozen``) and the results published (``published``); the kind
declares the boxes of its flow and the words of its open phases' lines (``TwoSidedSteps``),
and its page as a ``TwoSidedTabs``."""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar

from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.competitions.choice_selectors import choice_state
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_closes_at, phase_held, phase_of, phase_state_held
from pwscup.kinds.registry import kind_of
from pwscup.kinds.tabs import DATA, RESULTS, SUBMIT, FlowStep, NextStep, flow_steps, tab_step
from pwscup.kinds.two_sided import results_wait
from pwscup.submissions.round_pages import RoundTabs
from pwscup.submissions.selectors import phase_quota, target_uses
from pwscup.submissions.services.two_sided import ATTACK, RELEASE


@dataclass(frozen=True)
class TwoSidedSteps:
    """A two-sided kind's words (lazy translations) for a team's "What to do now" lines while
    a phase is open: in the release phase, get the data (``data``), upload a release
    (``upload``) and, once the team has a scored one, choose the final one
    (``choose_final``); in the attack phase, get the targets (``targets``, at the Data tab's
    ``targets_anchor``) and upload the attacks (``attack``). ``flow``: the overview's five
    boxes, ``(title, text)`` pairs (download, release, freeze, attack, results), when the kind
    leaves its flow to ``TwoSidedTabs``."""

    data: str
    upload: str
    choose_final: str
    targets: str
    targets_anchor: str
    attack: str
    flow: tuple = ()


@dataclass(frozen=True)
class TwoSidedPhases:
    """The round's two phases as every tab describes them. The kind's state adds the field
    holding its row of the round (named by ``row_field``) and declares its selector of a
    team's final release (``final_release_of``) and the reader of its round's settings
    (``config_of``); ``of`` makes one."""

    release_phase: Phase | None
    attack_phase: Phase | None
    # The release phase: unset, upcoming, open, held (by the kind: ``release_held``), closed
    # (frozen: closed); the attack phase the same.
    release_state: str
    attack_state: str
    config: object  # the round's checked settings (``config_of(round)``)
    # The kind's words for its teams' "What to do now" lines (``two_sided_next_steps``).
    next_step_words: ClassVar[TwoSidedSteps]
    # The kind's field holding its row of the round, also the keyword its selectors take it by.
    row_field: ClassVar[str]
    # The kind's ``final_release(<row_field>=row, team=team)`` (a ``staticmethod``).
    final_release_of: ClassVar[Callable]
    # The kind's ``round_config(round)``: its checked settings (a ``staticmethod``).
    config_of: ClassVar[Callable]
    # Each team's final release as read for this state (a page asks for it more than once).
    final_releases: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def of(cls, row):
        """The state of the round whose kind's row is ``row``."""
        return cls(**{cls.row_field: row}, config=cls.config_of(row.round), **two_sided_phases(row))

    def final_release(self, team):
        """The team's final release (``None``: it has no scored one to choose yet), read once
        per state."""
        if team.pk not in self.final_releases:
            self.final_releases[team.pk] = self.final_release_of(
                **{self.row_field: self.round_row}, team=team
            )
        return self.final_releases[team.pk]

    def final_release_found(self, team, release) -> None:
        """Keep ``release`` as the team's final one for this state: a tab that read all the
        team's releases found it among them (``final_release`` then reads nothing)."""
        self.final_releases.setdefault(team.pk, release)

    @property
    def round_row(self):
        """The kind's row of the round: its ``round``, ``frozen_at`` and
        ``results_published``."""
        return getattr(self, self.row_field)

    @property
    def frozen(self) -> bool:
        return self.round_row.frozen_at is not None

    @property
    def published(self) -> bool:
        return self.round_row.results_published

    @property
    def freezes_automatically(self) -> bool:
        """The releases are frozen by the platform at the release phase's close (the kind's
        row's ``auto_freeze``), not frozen yet, and no such freeze was refused (then the
        organizers decide: the pages say so as without the setting)."""
        row = self.round_row
        return row.auto_freeze and row.frozen_at is None and not row.auto_freeze_refusal

    @cached_property
    def release_held(self) -> str:
        """Why the release phase takes no upload whatever its dates say (the kind's
        ``phase_held``: a round waiting for something of the organizers'), in a sentence the
        pages show instead of the form, before it opens too; ``""``: nothing holds it."""
        return phase_held(phase=self.release_phase)

    @property
    def release_to_come(self) -> bool:
        """The release phase takes no upload yet: it opens later (``upcoming``) or its kind
        holds it (``held``: a scorer round waiting for its hidden data). The round is then at
        its start for every reader, as a DP or a sequential round before its opening."""
        return self.release_state in ("upcoming", "held")

    @property
    def release_open(self) -> bool:
        return self.release_state == "open" and not self.frozen

    @property
    def attack_open(self) -> bool:
        return self.attack_state == "open" and self.frozen and not self.published

    @property
    def attack_upcoming(self) -> bool:
        """Frozen, the results not published and the attack phase not open yet: the round is
        between its phases (PWSCup 2026's "data hand-over"); ``attack_opens_at`` says when it
        opens."""
        return self.frozen and not self.published and self.attack_state == "upcoming"

    @property
    def attack_opens_at(self):
        return self.attack_phase.opens_at if self.attack_phase else None

    @property
    def attack_over(self) -> bool:
        """Frozen, the attack phase closed and the results not published yet: they wait for
        the organizers (``results_wait``, which the round's note follows too)."""
        return results_wait(self.round_row, attack_closed=self.attack_state == "closed")

    @property
    def release_closes_at(self):
        return phase_closes_at(phase=self.release_phase) if self.release_phase else None

    @property
    def attack_closes_at(self):
        return self.attack_phase.closes_at if self.attack_phase else None


def two_sided_phases(row) -> dict:
    """The fields of ``TwoSidedPhases`` for the kind's row of the round (frozen releases
    close the release phase)."""
    release_phase = phase_of(round=row.round, kind=RELEASE)
    attack_phase = phase_of(round=row.round, kind=ATTACK)
    return {
        "release_phase": release_phase,
        "attack_phase": attack_phase,
        "release_state": "closed"
        if row.frozen_at is not None
        else phase_state_held(phase=release_phase),
        "attack_state": phase_state_held(phase=attack_phase),
    }


def attack_target_uses(state, attacks) -> dict[int, int]:
    """How many of the team's ``attacks`` count on each target (``target_uses``), when the
    attack phase limits them per target; else none are counted."""
    limited = state.attack_phase is not None and state.attack_phase.target_limit
    return target_uses(attacks) if limited else {}


def two_sided_quotas(state, *, releases: list, attacks: list | None = None) -> dict:
    """The team's quota lines of the Submit tab (``rounds/_quota.html``), counted from its
    uploads the tab read: ``release_quota`` from its ``releases``; ``attack_quota`` from its
    ``attacks`` (given once the tab shows them)."""
    now = timezone.now()
    quotas = {"release_quota": phase_quota(state.release_phase, releases, now=now)}
    if attacks is not None:
        quotas["attack_quota"] = phase_quota(state.attack_phase, attacks, now=now)
    return quotas


def two_sided_flow(state, boxes, *, releasing: Callable[[], int]) -> list[FlowStep]:
    """The overview's five boxes (download, release, freeze, attack, results), the one the
    round is at marked: the results once published or once the attack phase is over, the
    attacks once frozen, the first box while the release phase takes no upload yet (not
    open by its dates, or on hold: ``release_to_come``) whoever reads, else the kind's
    ``releasing()`` (where the team stands in the release phase)."""
    if state.published or state.attack_over:
        now = 4
    elif state.frozen:
        now = 3
    else:
        now = 0 if state.release_to_come else releasing()
    return flow_steps(boxes, now)


def _pick_first(round_, team) -> list:
    """A line asking the team to pick its data pack while the round offers several and the
    team has neither picked nor been locked (PWSCup 2022: six datasets; else its first
    upload, or the kind's own moment, fixes the first pack). The kind says what locks it."""
    choice = choice_state(round=round_, team=team)
    if not choice.choices or choice.picked or choice.locked or choice.kept:
        return []
    text = _("Pick your team's data pack on the Data tab. %(lock)s") % {
        "lock": kind_of(round_).choice_wording.form_note
    }
    return [tab_step(round_, DATA, text)]


def two_sided_next_steps(*, state, team) -> list:
    """A team's "What to do now" lines (``NextStep``; a visitor's page has none): the kind's
    ``state.next_step_words`` while the release or the attack phase is open (choosing the
    final release once the team has one); else where the round is: the results published,
    the release phase not open yet or closed (the organizers freeze next, or the platform
    when scoring ends: ``freezes_automatically``), the releases
    frozen and the results not published yet."""
    if team is None:
        return []
    steps = state.next_step_words
    round_ = state.round_row.round
    if state.published:
        return [tab_step(round_, RESULTS, _("Results published: see the rankings."))]
    if state.release_held and not state.frozen:
        return [NextStep(state.release_held)]
    if state.release_open:
        lines = [
            *_pick_first(round_, team),
            tab_step(round_, DATA, str(steps.data)),
            tab_step(round_, SUBMIT, str(steps.upload), "#upload"),
        ]
        if state.final_release(team) is not None:
            lines.append(tab_step(round_, SUBMIT, str(steps.choose_final), "#releases"))
        return lines
    if not state.frozen:
        if state.release_state == "upcoming":
            return [NextStep(_("The release phase has not opened yet."))]
        if state.freezes_automatically:
            return [
                NextStep(
                    _(
                        "The release phase is closed: the releases are frozen automatically "
                        "when scoring ends."
                    )
                )
            ]
        return [NextStep(_("The release phase is closed: the organizers freeze next."))]
    if state.attack_upcoming:
        return [_targets_step(state)]
    if state.attack_open:
        return [
            _targets_step(state),
            tab_step(round_, SUBMIT, str(steps.attack), "#attack", _("Attack")),
        ]
    text = _("The releases are frozen; the results are shown once the organizers publish them.")
    return [tab_step(round_, RESULTS, text)]


def _targets_step(state) -> NextStep:
    """The targets' files on the Data tab (the kind's ``targets`` words): the first line while
    the attack phase is open, and the only one between the phases (the action only: when the
    attack phase opens is the schedule's state line's, said once)."""
    steps = state.next_step_words
    return tab_step(state.round_row.round, DATA, str(steps.targets), steps.targets_anchor)


class TwoSidedTabs(RoundTabs):
    """The round page of a two-sided kind: its state (``state_type``, a ``TwoSidedPhases``, of
    the kind's row of the round, ``part(access)``), its teams' "What to do now" lines
    (``two_sided_next_steps``), the two phases' limits on the rules."""

    state_type: ClassVar[type]
    part: ClassVar[Callable]  # a ``staticmethod``: the kind's row of the round (404 without)
    next_steps = staticmethod(two_sided_next_steps)

    def state(self, access):
        return self.state_type.of(self.part(access))

    def flow(self, *, state, team) -> list[FlowStep]:
        """The overview's boxes the kind declares (``TwoSidedSteps.flow``): while the release
        phase goes on, a team is at the download until it has a final release, at the
        release from then on (a visitor too)."""

        def releasing() -> int:
            return 0 if team is not None and state.final_release(team) is None else 1

        boxes = [(str(title), str(text)) for title, text in state.next_step_words.flow]
        return two_sided_flow(state, boxes, releasing=releasing)

    def rules_context(self, state) -> dict:
        return {"release_limits": state.release_phase, "attack_limits": state.attack_phase}
