"""Reads of the round page's five tabs (``pwscup.kinds.tabs``): where the round is (its flow
picture), what the team should do now, the releases it may download, its uploads and
attacks. The views render what these return; nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.dates import date_in_window
from pwscup.core.time_zones import in_zone_html, sentence_html
from pwscup.kinds.tabs import DATA, RESULTS, SUBMIT, FlowStep, NextStep, flow_steps, tab_step
from pwscup.sequential import selectors
from pwscup.sequential.kit import sample_plan
from pwscup.sequential.models import Release, SequentialRound
from pwscup.submissions.round_pages import attacks_by_target
from pwscup.submissions.selectors import target_uses
from pwscup.submissions.voids import counted


@dataclass(frozen=True)
class RoundState:
    """The round as every tab describes it."""

    sequential: SequentialRound
    config: dict
    m: int
    n: int
    online: bool
    open_steps: list[int]
    visible_steps: int
    attack_open: bool
    has_master: bool
    pool_left_short: bool = False  # no master: the pool had too few persons left
    opens_at: object = None  # the round's opening while it is still ahead

    @property
    def opening_step(self) -> int:
        """The release the round's opening opens: release 1, or the next one once release 1
        was ended before the opening (online, it waits for the opening too)."""
        return self.sequential.frozen_steps + 1

    @property
    def opening_label(self) -> str:
        """The window the opening opens, as its schedule line and refusal name it."""
        return selectors.release_label(self.opening_step)

    @property
    def attack_phase(self) -> bool:
        return bool(self.config.get("attack_phase"))


def round_state(*, sequential: SequentialRound, team: Team | None, now=None) -> RoundState:
    config = sequential.config
    now = now or timezone.now()
    masters = selectors.round_masters(sequential=sequential) if team is not None else {}
    return RoundState(
        sequential=sequential,
        config=config,
        m=int(config.get("m", 2)),
        n=sequential.n_releases,
        online=selectors.is_online(sequential),
        open_steps=selectors.open_steps(sequential=sequential, now=now),
        visible_steps=selectors.visible_steps(sequential=sequential),
        attack_open=sequential.attack_open(now),
        has_master=team is not None
        and selectors.team_master(sequential=sequential, team=team, masters=masters) is not None,
        pool_left_short=selectors.pool_left_short(
            sequential=sequential, team=team, masters=masters
        ),
        opens_at=None if selectors.round_opened(sequential, now) else sequential.opens_at,
    )


def gates_text(config: dict) -> str:
    """The round's utility gates as the rules and the leaderboard say them (``IL ≤ 0.5``)."""
    return ", ".join(f"{k} ≤ {v:g}" for k, v in (config.get("utility_gates") or {}).items())


def _valid_steps(*, sequential: SequentialRound, team: Team | None) -> set[int]:
    if team is None:
        return set()
    valid = Release.objects.filter(sequential=sequential, team=team, status=Release.Status.FINISHED)
    return set(counted(valid).values_list("step", flat=True))


def _later_releases(state: RoundState) -> tuple[str, str]:
    """The flow's box of the releases after the first (``n > 1``)."""
    n = state.n
    title = _("Releases 2 … %(n)s") % {"n": n} if n > 2 else _("Release 2")
    if not state.online:
        return title, _("All open at once: upload them in order.")
    if n > 2:
        return title, _("Each opens when the previous one is frozen: people join and leave.")
    return title, _("Opens when release 1 is frozen: people join and leave.")


def flow(*, state: RoundState, team: Team | None) -> list[FlowStep]:
    """The overview's picture: get the data → release 1 → releases 2 … n → (attack) →
    results, the box the round (and the team) is at marked "now"."""
    sequential, n = state.sequential, state.n
    boxes = [
        (
            _("Download T(1) and the kit"),
            _("The persons present at release 1, your master table, and a sample release."),
        ),
        (
            _("Publish release 1"),
            _("Upload your generalized copy of T(1); a worker checks it in seconds."),
        ),
    ]
    if n > 1:
        boxes.append(_later_releases(state))
    if state.attack_phase:
        boxes.append(
            (
                _("Attack the others"),
                _("Guess the sensitive values in the other teams' published sequences."),
            )
        )
    boxes.append((_("Results"), _("Ranked by the risk left (RN) and the information lost (IL).")))
    results_box, attack_box = len(boxes) - 1, len(boxes) - 2
    valid = _valid_steps(sequential=sequential, team=team)
    if sequential.results_published:
        now_box = results_box
    elif sequential.all_frozen:
        # Past the attack phase's close the teams wait for the results.
        now_box = attack_box if state.attack_open else results_box
    elif sequential.frozen_steps == 0 and not valid:
        now_box = 0
    elif sequential.frozen_steps == 0 and (state.online or n == 1 or 1 not in valid):
        now_box = 1
    else:
        now_box = 2
    return flow_steps(boxes, now_box)


def _close_html(sequential: SequentialRound, step: int) -> str:
    """Release ``step``'s close in the round's time zone, as the page's tables show it."""
    closes_at = sequential.close_of(step)
    return in_zone_html(closes_at, sequential.round.timezone) if date_in_window(closes_at) else "—"


def next_steps(*, state: RoundState, team: Team | None) -> list[NextStep]:
    """The "What to do now" lines of a team (the template shows visitors and organizers theirs)."""
    if team is None:
        return []
    sequential, round_ = state.sequential, state.sequential.round
    if not state.has_master:
        return [NextStep(selectors.no_master_text())]
    steps = []
    if state.open_steps:
        plan = sample_plan(sequential=sequential, team=team, has_master=True)
        j = plan.step or state.open_steps[0]
        upload = (
            sentence_html(
                _("Upload release %(j)s (open until %(close)s)."),
                j=j,
                close=_close_html(sequential, j),
            )
            if sequential.close_of(j) is not None
            else _("Upload release %(j)s (open now, no deadline).") % {"j": j}
        )
        check = _("Check locally first with the printed command: it gives the server's numbers.")
        steps += [
            _data_step(round_, j),
            tab_step(round_, SUBMIT, upload, "#upload"),
            tab_step(round_, SUBMIT, check, "#check", _("Command")),
        ]
    elif state.opens_at is not None:
        # Before the round opens: when (the window's own words, ``window_check``'s), and the
        # data to get meanwhile (served before the opening, as every kind's).
        opens = sentence_html(
            _("%(window)s is not open yet: it opens at %(at)s."),
            window=state.opening_label,
            at=in_zone_html(state.opens_at, round_.timezone),
        )
        steps += [NextStep(opens), _data_step(round_, state.opening_step)]
    elif not sequential.all_frozen:
        steps.append(
            NextStep(
                _("No release is open now: the organizers freeze release %(j)s next.")
                % {"j": sequential.frozen_steps + 1}
            )
        )
    if state.attack_open:
        attack = _("Attack phase: download the other teams' sequences and upload your guesses.")
        steps.append(tab_step(round_, SUBMIT, attack, "#attack", _("Attack")))
    if sequential.results_published:
        steps.append(
            NextStep(
                _("Results published: see the leaderboard."),
                reverse("sequential:leaderboard", args=[round_.competition.slug, round_.slug]),
                _("Leaderboard"),
            )
        )
    elif sequential.all_frozen and not state.attack_open:
        steps.append(tab_step(round_, RESULTS, _("Your sequence is scored.")))
    return steps


def _data_step(round_, j: int) -> NextStep:
    """The line to the Data tab of release ``j``'s table, the kit and the sample."""
    text = _("Download T(%(j)s) and the kit, or the sample release made from your data.")
    return tab_step(round_, DATA, text % {"j": j})


def data_rows(*, state: RoundState, team: Team) -> list[dict]:
    """The Data tab's releases, each the page may show (online: not the future) with its close
    and state: T(j) the team may download, and its release j: the frozen one once the step is
    frozen, before that its latest valid upload (``None``: none)."""
    rows = selectors.step_schedule(sequential=state.sequential)[: state.visible_steps]
    sequence = selectors.team_sequence(
        sequential=state.sequential, team=team, upto=max((r["step"] for r in rows), default=0)
    )
    return [{**row, "release": sequence[row["step"] - 1]} for row in rows]


def attack_targets(*, state: RoundState, team: Team | None) -> list[dict]:
    """Once every release is frozen (with an attack phase): each target, the team's guesses
    on it and ``used``: those that count against the attack phase's per-target limit
    (``target_uses``, read only when the round has one)."""
    sequential = state.sequential
    if not sequential.attack_phase_begun:
        return []
    attacks = selectors.team_attacks(sequential=sequential, team=team)
    uses = target_uses(attacks) if team is not None and sequential.attack_target_limit else {}
    targets = sequential.targets.select_related("team").order_by("team__name")
    return attacks_by_target(targets, attacks, team=team, uses=uses)
