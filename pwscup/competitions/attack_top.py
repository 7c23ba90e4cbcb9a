"""A round's attack score against its N best releases only (``Round.attack_top_n``;
docs/organizers.md, "Attack against the top N releases"), for a round of any kind that has
an attack matrix (``RoundKind.attack_cells``).

PWSCup 2021 scored an attacker by its mean danger against the top-3 anonymizers, 2024 against
the top 5 and 2025 the top 10: attacking a weak release earns nothing. The rule, once for
every kind:

* the top N are the releases the round's release ranking ranks N or better; a tie at the
  N-th place counts every release tied there, a release without a rank (a failed gate, a
  disqualified team) none [chosen: the rulebooks say "the top N" and never meet a tie];
* an attacker's score is the mean of its cells on those releases, its own release left out,
  each cell as the kind's own attack ranking counts it (the 2015 game: the best rate, 0 for a
  target not attacked; the synthetic kind: the headline, the built-in DCR attack's for a
  target not attacked; the scorer kind: the best primary score, a target not attacked left
  out); an attacker with no cell among them has none.

The mean is ``scoring.scorer.matrix.power``'s ``top_n`` rule, the one the scorer kind's own
power rule uses. The score is offered to the round's total formula as ``attack_top`` and to
the competition's standings as a ranking; nothing is stored.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from pwscup.competitions.models import Round
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
    """Attacker team id -> its mean against the top N releases (``None``: no cell there);
    ``None`` when the round has no such score."""
    cells = attack_cells(round)
    return None if cells is None else scores_of(cells, round.attack_top_n)


def scores_of(cells: AttackCells, n: int) -> dict[int, float | None]:
    """The rule on a matrix: attacker team id -> its mean against the releases ranked ``n``
    or better (``None``: no cell there)."""
    return power(
        cells.cells,
        rule="top_n",
        top=top_releases(cells, n),
        attack_higher_is_better=cells.higher_is_better,
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
