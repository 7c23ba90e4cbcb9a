"""Which of an attacker's scored uploads counts on a target (the round's ``attack_counts``:
``best``, ``last`` or ``chosen``): the one rule the matrix, the protection, the power, the
rankings, the ranking program's input and the Submit tab follow. It works on attacks already
read (``selectors.counted_attacks`` reads them)."""

from dataclasses import dataclass

from scoring.scorer.round_config import ScorerRoundConfig


@dataclass(frozen=True)
class CountedAttack:
    """An upload that scored a target, and its scores on that target (an upload covering
    every target: its scores there; else the upload's own)."""

    upload: object
    scores: dict


def attack_counted(candidates: list[CountedAttack], *, rule: str, key: str, higher: bool):
    """The one of an attacker's uploads on one target that counts: its best primary score
    there (``best``), its newest upload (``last``), or its selected one, else its newest
    (``chosen``). ``None``: no candidate (``best``: none with a primary score)."""
    if rule == "best":
        scored = [c for c in candidates if c.scores.get(key) is not None]
        sign = 1 if higher else -1
        # Of equal scores the oldest upload keeps the cell: a later tie changes nothing.
        oldest_first = sorted(scored, key=lambda c: (c.upload.number, c.upload.pk))
        return max(oldest_first, key=lambda c: sign * c.scores[key], default=None)
    chosen = rule == "chosen"
    return max(
        candidates,
        key=lambda c: (chosen and c.upload.selected, c.upload.number, c.upload.pk),
        default=None,
    )


def target_scores(attack) -> dict:
    """The attack's scores on each target it scored, by the target team's slug."""
    if attack.target_id is not None:
        return {attack.target.team.slug: attack.scores or {}}
    return {slug: values or {} for slug, values in (attack.targets or {}).items()}


def counted_among(attacks, *, targets: set[str], config: ScorerRoundConfig) -> dict:
    """``{target slug: {attacker slug: CountedAttack}}`` over the scored ``attacks`` (with
    their ``team`` and ``target.team`` read), for each of ``targets`` (a team never counts
    on its own)."""
    candidates: dict[tuple[str, str], list[CountedAttack]] = {}
    for attack in attacks:
        for slug, values in target_scores(attack).items():
            if slug in targets and slug != attack.team.slug:
                cell = candidates.setdefault((slug, attack.team.slug), [])
                cell.append(CountedAttack(upload=attack, scores=values))
    rule = {
        "rule": config.attack_counts,
        "key": config.attack_primary,
        "higher": config.attack_primary_column.higher_is_better,
    }
    counted: dict[str, dict[str, CountedAttack]] = {slug: {} for slug in targets}
    for (target, attacker), cell in sorted(candidates.items()):
        found = attack_counted(cell, **rule)
        if found is not None:
            counted[target][attacker] = found
    return counted


def primary_matrix(counted: dict, *, key: str) -> dict:
    """``{target: {attacker: value}}``: the primary score ``key`` of each counted upload on
    its target; one without a primary score there leaves the cell empty."""
    return {
        target: {
            attacker: found.scores[key]
            for attacker, found in row.items()
            if found.scores.get(key) is not None
        }
        for target, row in counted.items()
    }
