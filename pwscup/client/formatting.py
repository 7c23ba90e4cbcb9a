"""Tables printed by the client, from the API's JSON (the score table is the one
``python -m scoring evaluate`` prints).

Metric values are printed as the server wrote them (``scores_text``: the display rule of
``scoring.display``, which the client cannot import without pandas), never re-formatted
here: ``20`` for a count, ``0.000044`` for a small rate, ``∞`` for an infinite L3."""

REFERENCE = "REF"  # the reference attack's key (scoring.REFERENCE_ATTACK; no pandas here)


def upload_label(upload: dict) -> str:
    """An upload as every page names it: the team's own number in the phase ("#3"), from
    the API's ``number`` (its ``id`` is only the URLs')."""
    return f"#{upload['number']}"


def score_table(
    scores: dict,
    texts: dict[str, str],
    *,
    metrics: list[str],
    names: dict[str, str],
    notes: dict[str, str],
) -> str:
    """``python -m scoring evaluate``'s table: metric, its 2015 name, value (``texts``, the
    API's ``scores_text``); the meaning of each no-value sign shown (``notes``, the round's
    ``metric_notes``); then the rows kept and the equivalence classes."""
    shown = [m for m in metrics if m in texts]
    width = max(22, *(len(names.get(m, m)) + 1 for m in shown)) if shown else 22
    lines = [f"{'metric':<7} {'name':<{width}} value"]
    lines += [f"{m:<7} {names.get(m, m):<{width}} {texts[m]}" for m in shown]
    if REFERENCE in texts:  # beside the scores, not one of them (scoring/linkage.py)
        lines.append(f"{REFERENCE:<7} {'reference attack':<{width}} {texts[REFERENCE]}")
    lines += [f"{m} {notes[m]}" for m in shown if scores.get(m) is None and m in notes]
    if {"kept_rows", "rows", "classes"} <= scores.keys():
        lines.append(
            f"\n{scores['kept_rows']} of {scores['rows']} rows kept, "
            f"{scores['classes']} equivalence classes."
        )
    return "\n".join(lines)


def table(headers: list[str], rows: list[list]) -> str:
    """A plain left-aligned text table."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in cells
    )
