"""A kind's demo round (``RoundKind.demo_load``), the rule every kind's demo follows: a round is
added only when the competition lacks one at its address, so that ``load_demo``, run at every
start of ``scripts/demo``, adds what is missing and changes nothing else."""

from collections.abc import Callable

from pwscup.kinds.round_basics import RoundBasics


def demo_round_add(competition, *, slug: str, name: str, create: Callable):
    """The round ``create(basics)`` makes (the kind's console service, given the round's
    ``RoundBasics``) unless ``competition`` has a round at ``slug``: what it returns, else
    ``None`` (nothing to do)."""
    if competition.rounds.filter(slug=slug).exists():
        return None
    return create(RoundBasics(competition=competition, name=name, slug=slug))
