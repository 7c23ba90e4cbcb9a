"""The synthetic round's reads: a team's draw and releases, the final releases, the targets,
the attacker × target matrix and the two rankings (spec §5), on either half of the
challenge sets: ``"dev"`` (live) or ``"final"`` (once the results are published; the
ranking's half). Which half a reader may see is ``visible_half``'s rule, the one owner."""

from collections import Counter
from dataclasses import dataclass

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import disqualification_rule
from pwscup.competitions.choice_selectors import round_choices
from pwscup.kinds.rows import kind_row_with_round
from pwscup.submissions.attack_matrix import (
    AttackMatrix,
    attack_matrix_of,
    matrix_attack_ranking,
)
from pwscup.submissions.kind_rankings import ranked_by_name
from pwscup.submissions.models import Status
from pwscup.submissions.two_sided_phases import attack_phase as attack_phase
from pwscup.submissions.two_sided_phases import release_phase as release_phase
from pwscup.submissions.voids import counted
from pwscup.synthetic import engine
from pwscup.synthetic.models import (
    SynAttack,
    SynPopulation,
    SynRelease,
    SynTarget,
    SyntheticRound,
    TeamDraw,
)
from scoring.synthetic.attack import BUILTIN_ATTACKS
from scoring.synthetic.config import SynthConfig
from scoring.synthetic.draws import disjoint_teams
from scoring.synthetic.errors import SynthError
from scoring.synthetic.utility import copy_gate_failure


def synthetic_of(round_) -> SyntheticRound | None:
    return kind_row_with_round(round_, SyntheticRound, "synthetic")


def visible_half(*, synthetic: SyntheticRound) -> str:
    """The half of the challenge sets whose scores a reader sees: the final half once the
    results are published, the dev half before (for everyone, organizers included: the
    final half decides the ranking and is shown to nobody before)."""
    return "final" if synthetic.results_published else "dev"


def rankings_visible(*, synthetic: SyntheticRound, team, is_organizer: bool) -> bool:
    """Whether a reader sees the matrix and the rankings (the Results tab and the API's
    standings, one rule): after the freeze, the teams and the organizers on the dev half
    (provisional), everyone once the results are published (final half)."""
    if synthetic.frozen_at is None:
        return False
    return synthetic.results_published or team is not None or is_organizer


# A draw's rows (lists of ids, as long as the team's tables): what the pages that only count
# draws or ask whether one exists leave unread.
DRAW_ROWS = ("members", "nonmembers", "challenge", "labels", "dev")


def team_draw_of(*, synthetic: SyntheticRound, team: Team) -> TeamDraw | None:
    return TeamDraw.objects.filter(synthetic=synthetic, team=team).first()


def team_drawn(*, synthetic: SyntheticRound, team: Team) -> bool:
    """Whether the team's rows are drawn (its draw is kept), without reading them."""
    return TeamDraw.objects.filter(synthetic=synthetic, team=team).exists()


def team_releases(*, synthetic: SyntheticRound, team: Team):
    """The team's releases, newest first."""
    return SynRelease.objects.filter(synthetic=synthetic, team=team).order_by("-number", "-pk")


def release_copy_gate(scores: dict, *, config: SynthConfig) -> SynthError | None:
    """Why a release with these stored scores fails the round's copy gate, else None
    (``scoring.synthetic.utility.copy_gate_failure``). A release scored before the gate
    measured copying beyond chance has no ``r_copy_holdout``: its reference reads as 0, the
    absolute gate it was scored under; one with no ``R_copy`` at all fails."""
    return copy_gate_failure(
        scores.get("r_copy", 1.0),
        scores.get("r_copy_holdout", 0.0),
        r_copy_excess_max=config.r_copy_excess_max,
    )


def final_release(*, synthetic: SyntheticRound, team: Team) -> SynRelease | None:
    """The team's final release: the selected one, else its last valid one (valid: scored,
    within the copy gate, :func:`release_copy_gate`, and not voided). One that copies more is
    kept, scored and shown to its team, never published: a team whose releases all fail the
    gate has no target, as one with none valid."""
    config = engine.round_config(synthetic.round)
    scored = counted(
        SynRelease.objects.filter(synthetic=synthetic, team=team, status=Status.FINISHED)
    )
    valid = [  # one query: the gate reads each release's stored scores
        release
        for release in scored.order_by("-number", "-pk")
        if release_copy_gate(release.scores or {}, config=config) is None
    ]
    return next((release for release in valid if release.selected), None) or next(iter(valid), None)


def targets(*, synthetic: SyntheticRound) -> list[SynTarget]:
    """The published targets, by team name (a disqualified team's included)."""
    return list(
        SynTarget.objects.filter(synthetic=synthetic)
        .select_related("team", "release")
        .order_by("team__name", "pk")
    )


def team_attacks(*, synthetic: SyntheticRound, team: Team):
    """The team's attacks, newest first."""
    return (
        SynAttack.objects.filter(target__synthetic=synthetic, team=team)
        .select_related("target__team")
        .order_by("-number", "-pk")
    )


def latest_attacks(*, synthetic: SyntheticRound) -> dict[tuple[int, int], SynAttack]:
    """Each team's attack that counts on each target: its last scored one that is not voided
    (as a team's last valid release is its final one), keyed (attacker team id, target id)."""
    out: dict[tuple[int, int], SynAttack] = {}
    scored = counted(SynAttack.objects.filter(target__synthetic=synthetic, status=Status.FINISHED))
    scored = scored.select_related("team")
    for attack in scored.order_by("number", "pk"):
        out[(attack.team_id, attack.target_id)] = attack
    return out


@dataclass(frozen=True)
class Cell:
    """One matrix cell: the headline and the AUC on the half shown (None: no attack)."""

    headline: float | None = None
    auc: float | None = None


def _cell(scores: dict | None, headline: str) -> Cell:
    if not scores:
        return Cell()
    return Cell(headline=scores.get(headline), auc=scores.get("auc"))


def attack_matrix(*, synthetic: SyntheticRound, half: str) -> AttackMatrix:
    """Attacker × target (the core's ``attack_matrix_of``): the built-in attacks' rows, then
    one per team that attacked, each cell the headline (``TPR@FPR`` at the round's first
    level) and the AUC on ``half``; the rankings count the headline. A disqualified team's
    target and attacks stay, marked (``DisqualificationRule``)."""
    headline = engine.round_config(synthetic.round).headline
    shown = targets(synthetic=synthetic)
    latest = latest_attacks(synthetic=synthetic)

    def cell(team, target) -> Cell:
        attack = latest.get((team.pk, target.pk))
        return _cell(getattr(attack, half) if attack else None, headline)

    return attack_matrix_of(
        competition_id=synthetic.round.competition_id,
        targets=shown,
        builtin=[
            (name, [_cell((t.builtin.get(name) or {}).get(half), headline) for t in shown])
            for name in BUILTIN_ATTACKS
        ],
        cell=cell,
        number=lambda cell: cell.headline,
        attackers_only=True,
        # Spec §5: a target not attacked counts as the built-in DCR attack's headline on it.
        unattacked="dcr",
    )


def release_ranking(matrix: AttackMatrix) -> list[dict]:
    """Spec §5, from the round's ``attack_matrix`` on a half: releases failing a gate last;
    the others by privacy (the highest headline any attacker, team or built-in, reached on
    them), lower first; ties by ``U_ML``, higher first. The privacy counts every attack, a
    disqualified team's too; a disqualified team's release gets no rank
    (``DisqualificationRule``). ``worst_by``: the matrix rows that reached the worst (the
    built-in attacks first). The built-in null attack counts, as the spec says ("team or
    built-in"): where it reached the worst, no attack did better than chance on the
    release, which the pages say by naming it."""
    out = []
    for column, target in enumerate(matrix.targets):
        reached = [
            (row.cells[column].headline, row)
            for row in matrix.rows
            if row.cells[column].headline is not None
            and (row.team is None or row.team.pk != target.team_id)
        ]
        worst = max(value for value, _row in reached) if reached else None
        scores = target.release.scores
        out.append(
            {
                "team": target.team,
                "target": target,
                "release": target.release,
                "worst": worst,
                "worst_by": [row for value, row in reached if value == worst],
                "u_ml": scores.get("u_ml"),
                "u_1": scores.get("u_1"),
                "passes": bool(scores.get("passes")),
            }
        )
    return ranked_by_name(
        out,
        rule=matrix.rule,
        key=lambda r: (1.0 if r["worst"] is None else r["worst"], -(r["u_ml"] or 0.0)),
        ranked=lambda r: r["passes"] and r["worst"] is not None,
    )


@dataclass(frozen=True)
class Results:
    """The round's results on a half: the attacker × target matrix (``attack_matrix``) and
    the two rankings derived from it: ``release_ranking`` and the core's
    ``matrix_attack_ranking`` (spec §5: mean headline over the other teams' targets, higher
    first, a target not attacked counting as the built-in DCR attack's headline on it; a team
    that attacked no target has no rank, nor has a disqualified team, whose target still
    counts among the others', ``DisqualificationRule``)."""

    matrix: AttackMatrix
    releases: list[dict]
    attacks: list[dict]


def round_results(*, synthetic: SyntheticRound, half: str) -> Results:
    """The matrix on ``half``, read once, and both rankings of it: what every page, answer,
    export and standings of the round show."""
    matrix = attack_matrix(synthetic=synthetic, half=half)
    return Results(
        matrix=matrix, releases=release_ranking(matrix), attacks=matrix_attack_ranking(matrix)
    )


def roc_curves(*, synthetic: SyntheticRound) -> list[dict]:
    """Each target's ROC curves on the final half (built-in and team attacks): for the
    results page once the results are published — never before (the caller checks). As the
    matrix (``DisqualificationRule``): a disqualified team's target and attacks stay, the
    target marked ``disqualified``."""
    latest = latest_attacks(synthetic=synthetic)
    rule = disqualification_rule(competition_id=synthetic.round.competition_id)
    out = []
    for target in targets(synthetic=synthetic):
        curves = [
            {"name": name, "builtin": True, **(target.builtin.get(name) or {}).get("final_roc", {})}
            for name in BUILTIN_ATTACKS
            if (target.builtin.get(name) or {}).get("final_roc")
        ]
        for (_team_id, target_id), attack in sorted(latest.items()):
            if target_id == target.pk and attack.final_roc and rule.attack_counts(attack.team_id):
                curves.append({"name": attack.team.name, "builtin": False, **attack.final_roc})
        out.append(
            {"target": target, "curves": curves, "disqualified": rule.marked(target.team_id)}
        )
    return out


def round_draws(*, synthetic: SyntheticRound) -> list[TeamDraw]:
    """Every team's draw of the round, with its team, without the drawn rows
    (``DRAW_ROWS``): what the Data tab reads once for its summary, the team's pack and
    whether the team is drawn."""
    return list(
        TeamDraw.objects.filter(synthetic=synthetic).select_related("team").defer(*DRAW_ROWS)
    )


def draws_summary(
    *,
    synthetic: SyntheticRound,
    kept_sizes: bool = False,
    draws: list[TeamDraw] | None = None,
    packs: list | None = None,
) -> dict:
    """The draws' sizes, how many teams the table holds disjointly (``capacity``: team
    ``capacity + 1`` and later are drawn independently) and whether the teams' member sets
    are disjoint; with ``kept_sizes`` (the console's), the sizes of the holdout and the
    auxiliary table as drawn (their ids, which the Data tab does not read). ``draws``: the
    round's draws already read (``round_draws``), else read here. ``packs``: the round's
    packs (``pack_populations``) when it offers a data choice: teams are drawn from their
    pack's population then, so ``pack_capacity`` says each population's count
    (``(pack, capacity)``, ``None`` while the pack has no population)."""
    if draws is None:
        draws = round_draws(synthetic=synthetic)
    config = engine.round_config(synthetic.round)
    kept = {"holdout": len(synthetic.holdout), "aux": len(synthetic.aux)} if kept_sizes else {}
    return {
        **kept,
        "population": synthetic.round.original_rows,
        "n_train": config.n_train,
        "n_challenge": config.n_challenge,
        "capacity": _capacity(config, synthetic.round.original_rows),
        "pack_capacity": [
            (pack, _capacity(config, pack.population.rows) if pack.population else None)
            for pack in packs or ()
        ],
        "teams": len(draws),
        "disjoint": all(d.disjoint for d in draws),
        "overlapping": [d.team for d in draws if not d.disjoint],
    }


def _capacity(config: SynthConfig, rows: int) -> int:
    """How many teams a population of ``rows`` rows gives rows of their own at the round's
    sizes (``disjoint_teams``)."""
    return disjoint_teams(rows, **{key: getattr(config, key) for key in engine.SIZE_KEYS})


# --- the data choice's populations --------------------------------------------------------


@dataclass(frozen=True)
class PackPopulation:
    """One data pack of the round with its population (``None``: not uploaded yet) and how
    many teams drew their rows from it."""

    choice: object
    population: SynPopulation | None
    teams: int


def pack_populations(*, synthetic: SyntheticRound, choices=None) -> list[PackPopulation]:
    """Each pack the round offers (``[]``: it offers no choice) with its population;
    ``choices``: the round's packs in order, when the caller read them already."""
    choices = round_choices(round=synthetic.round) if choices is None else choices
    if not choices:
        return []
    stored = {p.choice_key: p for p in SynPopulation.objects.filter(synthetic=synthetic)}
    drawn = Counter(
        TeamDraw.objects.filter(synthetic=synthetic).values_list("choice_key", flat=True)
    )
    return [
        PackPopulation(choice=c, population=stored.get(c.key), teams=drawn.get(c.key, 0))
        for c in choices
    ]


def offered_populations(*, synthetic: SyntheticRound) -> list[SynPopulation]:
    """The populations of the packs the round offers now, in the packs' order (one of a pack
    since removed is left out)."""
    return [p.population for p in pack_populations(synthetic=synthetic) if p.population]


def packs_missing(*, synthetic: SyntheticRound) -> list[str]:
    """The keys of the round's packs that have no population yet."""
    return [p.choice.key for p in pack_populations(synthetic=synthetic) if p.population is None]


def aux_pack_key(
    *, synthetic: SyntheticRound, team: Team | None, requested: str = ""
) -> str | None:
    """The population whose auxiliary table a reader asks for: ``""`` (the round's original)
    in a round offering no choice; else the pack ``requested`` (``None``: no such pack with a
    population), by default the reader's team's pack, else the first pack."""
    packs = pack_populations(synthetic=synthetic)
    if not packs:
        return ""
    keys = [p.choice.key for p in packs if p.population is not None]
    if requested:
        return requested if requested in keys else None
    if team is not None:
        draw = team_draw_of(synthetic=synthetic, team=team)
        if draw is not None and draw.choice_key in keys:
            return draw.choice_key
    return keys[0] if keys else None


def teams_drawn_before_packs(*, synthetic: SyntheticRound) -> list[int]:
    """The ids of the teams drawn from the round's original (no pack), in the order they
    were drawn: in a round that offers packs, those drawn before the packs were offered."""
    draws = TeamDraw.objects.filter(synthetic=synthetic, choice_key="").order_by("pk")
    return list(draws.values_list("team_id", flat=True))


def draw_pack_keys(*, synthetic: SyntheticRound) -> dict[int, str]:
    """Each drawn team's pack key (``""``: the round's original), by team id."""
    return dict(TeamDraw.objects.filter(synthetic=synthetic).values_list("team_id", "choice_key"))
