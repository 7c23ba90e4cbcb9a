"""The scorer round's reads: its settings, program and data packs, a team's slot and uploads,
the final releases, the targets, the attacker × target matrix and the two rankings, and what
a reader may see of an attack's scores (``attack_scores_for``: the one owner of the rule).

The rankings follow the round's settings (``scoring.scorer.round_config``) through the pure
rules of ``scoring.scorer.matrix``: a target's protection from the matrix (worst case or
mean), an attacker's power (mean, or against the top-N releases only), the release ranking
(by the primary score, by protection, or by the sum of both ranks; a release failing a gate
after every passing one)."""

from dataclasses import dataclass, field

from django.db.models import OuterRef, Subquery

from pwscup.accounts.models import Team
from pwscup.accounts.selectors import disqualification_rule
from pwscup.competitions.choice_selectors import team_choice_key as choice_key_of
from pwscup.kinds.rows import kind_row_with_round
from pwscup.scorer.attack_visibility import attack_scores_for as attack_scores_for
from pwscup.scorer.attack_visibility import attack_visibility as attack_visibility
from pwscup.scorer.attack_visibility import shown_value as shown_value
from pwscup.scorer.counted_attacks import counted_among, primary_matrix
from pwscup.scorer.models import (
    Attack,
    DataPack,
    ProgramVersion,
    RankingRun,
    Release,
    ScorerRound,
    Target,
    TeamSlot,
    pack_file_name,
)
from pwscup.submissions.models import Status
from pwscup.submissions.two_sided_phases import attack_phase as attack_phase
from pwscup.submissions.two_sided_phases import release_phase as release_phase
from pwscup.submissions.voids import counted
from scoring.scorer.matrix import (
    power,
    protection,
    rank,
    release_ranking,
    top_releases,
)
from scoring.scorer.round_config import ScorerRoundConfig, parse_round_config


def scorer_of(round_) -> ScorerRound | None:
    return kind_row_with_round(round_, ScorerRound, "scorer")


def round_config(round_) -> ScorerRoundConfig:
    """The round's settings, with every default filled in."""
    return parse_round_config(round_.config or {})


# --- the program and the data ---------------------------------------------------------------


def program_versions(*, scorer: ScorerRound):
    """Every version of the round's program, newest first."""
    return ProgramVersion.objects.filter(scorer=scorer).order_by("-version")


def current_program(*, scorer: ScorerRound) -> ProgramVersion | None:
    """The version every run uses: the newest whose environment was built."""
    return program_versions(scorer=scorer).filter(status=Status.FINISHED).first()


def current_pack(*, scorer: ScorerRound, role: str, choice: str = "") -> DataPack | None:
    """The round's newest data pack of ``role`` (``DataPack.Role``) for the data choice
    ``choice`` (a team's: ``team_choice_key``), else the newest without a choice."""
    return current_packs(scorer=scorer, choice=choice).get(role)


def current_packs(*, scorer: ScorerRound, choice: str = "") -> dict[str, DataPack]:
    """The newest pack of each role for ``choice``, by role: a role without a pack of that
    choice falls back to its newest pack without a choice (``""``: those only)."""
    packs = packs_by_choice(scorer=scorer, choices={choice, ""})
    return {role: choice_pack(packs, role, choice) for role, _choice in packs}


def packs_by_choice(
    *, scorer: ScorerRound, choices: set | None = None
) -> dict[tuple[str, str], DataPack]:
    """The newest pack of each (role, choice) the round has (of ``choices`` only, when
    given): the console's list, the bundle and the archive (every choice's packs)."""
    shown = DataPack.objects.filter(scorer=scorer)
    if choices is not None:
        shown = shown.filter(choice__in=choices)
    packs = {}
    for pack in shown.order_by("-created_at", "-pk"):
        packs.setdefault((pack.role, pack.choice), pack)
    return packs


def choice_pack(packs: dict, role: str, choice: str) -> DataPack | None:
    """The pack of ``role`` a team of the data choice ``choice`` reads, among ``packs``
    (``packs_by_choice``): its choice's newest, else the newest without a choice."""
    return packs.get((role, choice)) or packs.get((role, ""))


def hidden_packs_missing(*, scorer: ScorerRound) -> list[tuple[str, str]]:
    """The hidden packs (``(role, choice)``) a bundle left out that the round still lacks:
    until there are none, its uploads are refused and nothing is scored."""
    awaited = [(role, choice) for role, choice in scorer.hidden_awaited or []]
    if not awaited:
        return []
    present = set(DataPack.objects.filter(scorer=scorer).values_list("role", "choice").distinct())
    return [pack for pack in awaited if pack not in present]


def hidden_missing_names(*, scorer: ScorerRound) -> str:
    """The hidden packs the round still awaits, named as in its bundle (``reference.zip,
    c1.truth.zip``); ``""``: none."""
    return ", ".join(pack_file_name(*pack) for pack in hidden_packs_missing(scorer=scorer))


def team_choice_key(*, scorer: ScorerRound, team) -> str:
    """The key of the data choice the team's packs and runs use (``""``: none; the round's
    first choice while the team has not picked, as its first upload will lock it)."""
    if team is None:
        return ""
    return choice_key_of(round=scorer.round, team=team)


def slot_of(*, scorer: ScorerRound, team: Team) -> TeamSlot | None:
    return TeamSlot.objects.filter(scorer=scorer, team=team).first()


def slot_members(*, pack: DataPack | None, slot: TeamSlot | None) -> list[str]:
    """The members of the slots pack under the team's folder (``team_NN/``)."""
    if pack is None or slot is None:
        return []
    prefix = f"{slot.folder}/"
    return [name for name in pack.members if name.startswith(prefix) and not name.endswith("/")]


# --- uploads ---------------------------------------------------------------------------------


def team_releases(*, scorer: ScorerRound, team: Team):
    """The team's releases, newest first."""
    return Release.objects.filter(scorer=scorer, team=team).order_by("-number", "-pk")


def team_attacks(*, scorer: ScorerRound, team: Team):
    """The team's attacks, newest first."""
    return (
        Attack.objects.filter(scorer=scorer, team=team)
        .select_related("target__team")
        .order_by("-number", "-pk")
    )


def gate_failures(scores: dict, *, config: ScorerRoundConfig) -> list[dict]:
    """The round's gates a release with ``scores`` fails (``[]``: none): each
    ``{"key", "min" | "max", "value"}``; a missing score fails its gate."""
    return [
        {**gate.as_dict(), "value": scores.get(gate.key)} for gate in config.failed_gates(scores)
    ]


def final_release(*, scorer: ScorerRound, team: Team) -> Release | None:
    """The release the freeze publishes for the team: its chosen one if scored, else its
    newest scored release (one query: the team's scored releases, a handful)."""
    return final_release_among(
        counted(Release.objects.filter(scorer=scorer, team=team, status=Status.FINISHED))
    )


def final_release_among(releases) -> Release | None:
    """``final_release`` found among the team's releases, already read (no query): the one
    rule of which is final, the chosen one first, then the newest scored (a voided one never:
    ``pwscup.submissions.voids``)."""
    scored = [
        release
        for release in releases
        if release.status == Status.FINISHED and release.voided_at is None
    ]
    return max(
        scored, key=lambda release: (release.selected, release.number, release.pk), default=None
    )


def round_targets(*, scorer: ScorerRound):
    """The round's frozen targets, each with ``slot_number``: its team's slot (``None``: no
    slot), the number an answer laid out by team number uses (PWSCup 2025: column i for the
    team in slot i) and the program reads in ``target_slots``."""
    slot = TeamSlot.objects.filter(scorer=OuterRef("scorer"), team=OuterRef("team"))
    return (
        Target.objects.filter(scorer=scorer)
        .select_related("team", "release")
        .annotate(slot_number=Subquery(slot.values("slot")[:1]))
        .order_by("team__name", "pk")
    )


def published_as_target(*, release: Release) -> bool:
    """Whether the freeze published ``release`` as its team's target: its public files are
    then what the attackers downloaded, and stay as they are."""
    return Target.objects.filter(release=release).exists()


def attack_target_choices(*, scorer: ScorerRound, team: Team):
    """The targets a team may attack: every frozen target but its own."""
    return round_targets(scorer=scorer).exclude(team=team)


def attack_withdrawal_open(*, scorer: ScorerRound) -> bool:
    """Whether teams may withdraw their attacks now: the round's ``attack_withdrawal`` is
    ``until_published`` and its results are not published yet."""
    config = round_config(scorer.round)
    return config.attack_withdrawal == "until_published" and not scorer.results_published


# --- the matrix and the rankings -------------------------------------------------------------


def counted_attacks(*, scorer: ScorerRound, config: ScorerRoundConfig | None = None) -> dict:
    """``{target slug: {attacker slug: CountedAttack}}``: on each frozen target, the attack
    that counts for each other team under the round's ``attack_counts`` (``attack_counted``),
    over its scored uploads (per-target uploads, and the per-target scores of uploads
    covering every target). Every attack counts, a disqualified team's included
    (``DisqualificationRule.attack_counts``), but a voided or withdrawn one."""
    config = config or round_config(scorer.round)
    targets = {t.team.slug for t in round_targets(scorer=scorer)}
    attacks = counted(Attack.objects.filter(scorer=scorer, status=Status.FINISHED))
    attacks = attacks.select_related("team", "target__team")
    return counted_among(attacks, targets=targets, config=config)


def attack_matrix(*, scorer: ScorerRound, config: ScorerRoundConfig | None = None) -> dict:
    """``{target slug: {attacker slug: value}}``: the primary attack score of the upload
    that counts for each attacker on each target (``counted_attacks``)."""
    config = config or round_config(scorer.round)
    cells = counted_attacks(scorer=scorer, config=config)
    return primary_matrix(cells, key=config.attack_primary)


def team_counted_attacks(*, scorer: ScorerRound, team: Team) -> set[int]:
    """The team's attacks that count now (their pks) where the round counts the last or the
    chosen one; none where it counts the best (which is best would tell hidden scores)."""
    config = round_config(scorer.round)
    if config.attack_counts == "best" or team is None:
        return set()
    targets = {t.team.slug for t in round_targets(scorer=scorer)}
    mine = counted(team_attacks(scorer=scorer, team=team).filter(status=Status.FINISHED))
    cells = counted_among(mine.select_related("team"), targets=targets, config=config)
    return {found.upload.pk for row in cells.values() for found in row.values()}


@dataclass
class ReleaseRow:
    team: Team
    release: Release
    primary: object
    protection: object
    failed_gates: list = field(default_factory=list)
    rank: int | None = None
    disqualified: bool = False


@dataclass
class AttackerRow:
    team: Team
    power: object
    attacked: int
    rank: int | None = None
    disqualified: bool = False


@dataclass
class Standings:
    """The round's two rankings and the matrix they come from (every team's numbers; the
    ranks given to the teams that rank). ``ranking`` is the ranking program's run that
    ranked them (a round ranked by its program), else ``None``."""

    releases: list[ReleaseRow]
    attackers: list[AttackerRow]
    matrix: dict
    top: list[str] | None
    ranking: RankingRun | None = None


def latest_ranking(*, scorer: ScorerRound) -> RankingRun | None:
    """The ranking program's newest finished run, if any."""
    return RankingRun.objects.filter(scorer=scorer, status=Status.FINISHED).first()


def _program_ranks(
    run: RankingRun | None, rows, *, key: str, higher: bool, failed_gate=frozenset()
) -> dict:
    """Ranks of ``rows`` (their team slugs) by the program's ``key`` per team in its latest
    ranking ``run`` (a team the program gave no number, or no run yet, is unranked). The
    gates hold whoever ranks: the teams of ``failed_gate`` rank after every passing team,
    as under the rules (``release_ranking``)."""
    values = run.teams if run else {}
    numbers = {}
    for row in rows:
        value = (values.get(row.team.slug) or {}).get(key)
        numbers[row.team.slug] = value if isinstance(value, int | float) else None
    ranked = release_ranking(
        numbers,
        {},
        rule="primary",
        primary_higher_is_better=higher,
        protection_higher_is_better=higher,
        failed_gate=failed_gate,
    )
    return dict(ranked)


def _placed(rows: list, ranks: dict) -> None:
    """Give each row its team's rank and sort them: ranked first, by rank, then by name."""
    for row in rows:
        row.rank = ranks.get(row.team.slug)
    rows.sort(key=lambda row: (row.rank is None, row.rank or 0, row.team.name))


def standings(*, scorer: ScorerRound) -> Standings:
    """The release ranking and the attack ranking under the round's rules (see the module)."""
    config = round_config(scorer.round)
    attack_higher = config.attack_primary_column.higher_is_better
    release_higher = config.release_primary_column.higher_is_better
    rule = disqualification_rule(competition_id=scorer.round.competition_id)
    matrix = attack_matrix(scorer=scorer, config=config)
    targets = list(round_targets(scorer=scorer))
    primary = {t.team.slug: t.release.scores.get(config.release_primary) for t in targets}
    # Both rules read the attacks the same way: their direction, an attack not made.
    rules = {"attack_higher_is_better": attack_higher, "missing": config.unattacked}
    protect = protection(matrix, rule=config.protection_rule, **rules)
    failed = {t.team.slug: gate_failures(t.release.scores, config=config) for t in targets}
    rows = [
        ReleaseRow(
            team=t.team,
            release=t.release,
            primary=primary[t.team.slug],
            protection=protect.get(t.team.slug),
            failed_gates=failed[t.team.slug],
            disqualified=rule.marked(t.team.pk),
        )
        for t in targets
    ]
    ranked = rule.ranked(rows)
    failed_gate = {row.team.slug for row in ranked if row.failed_gates}
    ranks = dict(
        release_ranking(
            {row.team.slug: row.primary for row in ranked},
            {row.team.slug: row.protection for row in ranked},
            rule=config.release_rank,
            primary_higher_is_better=release_higher,
            protection_higher_is_better=not attack_higher,
            failed_gate=failed_gate,
        )
    )
    run = latest_ranking(scorer=scorer) if config.ranking == "program" else None
    if config.ranking == "program":
        ranks = _program_ranks(
            run, ranked, key="release", higher=release_higher, failed_gate=failed_gate
        )
    _placed(rows, ranks)

    top = None
    if config.power_rule == "top_n":
        top = top_releases(
            {
                slug: value
                for slug, value in primary.items()
                if value is not None and not failed[slug]
            },
            n=config.top_n,
            higher_is_better=release_higher,
        )
    powers = power(matrix, rule=config.power_rule, top=top, **rules)
    teams = {t.team.slug: t.team for t in targets}
    attacker_slugs = {slug for row in matrix.values() for slug in row}
    # A slug names a team within its competition only: the attackers are the round's teams.
    others = attacker_slugs - set(teams)
    for team in Team.objects.filter(competition_id=scorer.round.competition_id, slug__in=others):
        teams[team.slug] = team
    attackers = [
        AttackerRow(
            team=teams[slug],
            power=powers.get(slug),
            attacked=sum(1 for row in matrix.values() if slug in row),
            disqualified=rule.marked(teams[slug].pk),
        )
        for slug in sorted(attacker_slugs)
        if slug in teams
    ]
    ranked_attackers = rule.ranked(attackers)
    attack_ranks = rank(
        {row.team.slug: row.power for row in ranked_attackers},
        higher_is_better=attack_higher,
    )
    if config.ranking == "program":
        attack_ranks = _program_ranks(run, ranked_attackers, key="attack", higher=attack_higher)
    _placed(attackers, attack_ranks)
    return Standings(releases=rows, attackers=attackers, matrix=matrix, top=top, ranking=run)
