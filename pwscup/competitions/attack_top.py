"""A round's attack score against its N best releases only (``Round.attack_top_n``;
docs/organizers.md, "Attack against the top N releases"), for a round of any kind that has
an attack matrix (``RoundKind.attack_cells``).

PWSCup 2021 scored an attacker by its mean danger against the top-3 anonymizers, 2024 against
the top 5 and 2025 the top 10: attacking a weak release earns nothing. The rule, once for
every kind:

* the top N are the releases the round's release ranking ranks N or better, or, with
  ``Round.attack_top_by`` "total" (PWSCup 2024, 2025), the teams the round's total ranks N
  or better (``total_values.kind_total_ranks``; a formula naming ``attack_top`` is refused
  then: it would be circular); a tie at the N-th place counts every release tied there, a
  release without a rank (a failed gate, a disqualified team, no total) none [chosen: the
  rulebooks say "the top N" and never meet a tie];
* an attacker's score combines its cells on those releases (``Round.attack_top_combine``:
  their mean, or their sum as 2024 and 2025 count successes), its own release left out or,
  with ``Round.attack_top_own`` "best_other" (2024, 2025), counted as the best cell another
  attacker has on it; each cell as the kind's own attack ranking counts it (the 2015 game:
  the best rate, 0 for a target not attacked; the synthetic kind: the headline, the built-in
  DCR attack's for a target not attacked; the scorer kind: the best primary score, a target
  not attacked left out); an attacker with no cell among them has none.

The rule is ``scoring.scorer.matrix.power``'s ``top_n`` rule (with its ``own`` and
``combine``), the one the scorer kind's own power rule uses. The score is offered to the
round's total formula as ``attack_top`` and to the competition's standings as a ranking;
nothing is stored.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from pwscup.competitions.models import AttackTopBy, AttackTopCombine, AttackTopOwn, Round
from pwscup.competitions.total_values import kind_total_ranks
from pwscup.kinds import kind_of
from pwscup.kinds.rankings import AttackCells, RankingKey
from scoring.scorer.matrix import power

ATTACK_TOP = "attack_top"
ATTACK_TOP_LABEL = _("Attack ranking against the top N releases")


def attack_cells(round: Round) -> AttackCells | None:
    """The kind's matrix when the round counts attacks against its top releases, else
    ``None`` (no N set, or a kind without an attack matrix)."""
    if not round.attack_top_n:
        return None
    return kind_of(round).attack_cells(round)


def offered(round: Round) -> bool:
    """Whether the round has an attack matrix (the console offers the setting), without
    reading it (``RoundKind.has_attack_matrix``)."""
    return kind_of(round).has_attack_matrix(round)


def top_releases(cells: AttackCells, n: int) -> list[int]:
    """The team ids of the releases ranked ``n`` or better."""
    return [team for team, rank in cells.releases if rank is not None and rank <= n]


def attack_top_scores(round: Round) -> dict[int, float | None] | None:
    """Attacker team id -> its score against the top N releases (``None``: no cell there);
    ``None`` when the round has no such score."""
    cells = attack_cells(round)
    if cells is None:
        return None
    by_total = round.attack_top_by == AttackTopBy.TOTAL
    return scores_of(
        cells,
        round.attack_top_n,
        ranks=kind_total_ranks(round) if by_total else None,
        own=round.attack_top_own,
        combine=round.attack_top_combine,
    )


def scores_of(
    cells: AttackCells,
    n: int,
    *,
    ranks: dict[int, int] | None = None,
    own: str = AttackTopOwn.LEFT_OUT,
    combine: str = AttackTopCombine.MEAN,
) -> dict[int, float | None]:
    """The rule on a matrix: attacker team id -> its cells on the releases ranked ``n`` or
    better, combined by ``combine`` (``None``: no cell there), its own release counted by
    ``own``. ``ranks``: team id -> rank of the ranking the top N are read from (the round's
    total); ``None``: the release ranking of ``cells``."""
    if ranks is None:
        top = top_releases(cells, n)
    else:
        top = [team for team, rank in ranks.items() if rank <= n]
    return power(
        cells.cells,
        rule="top_n",
        top=top,
        attack_higher_is_better=cells.higher_is_better,
        own=str(own),
        combine=str(combine),
    )


def label(round: Round) -> str:
    n = round.attack_top_n or 0
    return ngettext(
        "Attack score against the best release",
        "Attack score against the top %(n)d releases",
        n,
    ) % {"n": n}


def ranking_key(round: Round) -> RankingKey:
    """The score as a ranking of the standings, in the direction of the kind's own attack
    ranking (its ``attack`` key; higher is better when it has none)."""
    kind_keys = {key.key: key for key in kind_of(round).ranking_keys(round)}
    attack = kind_keys.get("attack")
    return RankingKey(
        ATTACK_TOP,
        ranking_label(round),
        higher_is_better=attack.higher_is_better if attack else True,
    )


def ranking_label(round: Round) -> str:
    """The ranking's name with the round's N (*Attack ranking against the top 3 releases*),
    as the standings' column and the console's tick box name it; the N-less name for a
    round without one."""
    n = round.attack_top_n
    if not n:
        return str(ATTACK_TOP_LABEL)
    return ngettext(
        "Attack ranking against the best release",
        "Attack ranking against the top %(n)d releases",
        n,
    ) % {"n": n}


def rule_words(round: Round) -> str:
    """The round's reading of the score in one line (the Results tab's caption, the
    archive's data card): which ranking gives the top N, the attacker's own release, how
    the scores combine."""
    return _(
        "The top %(n)s by %(by)s; the attacker's own release: %(own)s; combined as %(combine)s."
    ) % {
        "n": round.attack_top_n,
        "by": AttackTopBy(round.attack_top_by).label,
        "own": AttackTopOwn(round.attack_top_own).label,
        "combine": AttackTopCombine(round.attack_top_combine).label,
    }
