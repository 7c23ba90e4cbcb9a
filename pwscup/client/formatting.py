"""Tables printed by the client, from the API's JSON (the score table is the one
``python -m scoring evaluate`` prints)."""

# How an undefined indicator reads (as in scoring/cli.py: L3 is infinite then).
_UNDEFINED = {"L3": "∞ (a class has fewer than l values)"}


def upload_label(upload: dict) -> str:
    """An upload as every page names it: the team's own number in the phase ("#3"), from
    the API's ``number`` (its ``id`` is only the URLs')."""
    return f"#{upload['number']}"


def format_value(value) -> str:
    if value is None:
        return "undefined"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return f"{value:.4f}"


def score_table(scores: dict, *, metrics: list[str], names: dict[str, str]) -> str:
    """``python -m scoring evaluate``'s table: metric, its 2015 name, value; then the rows
    kept and the equivalence classes."""
    shown = [m for m in metrics if m in scores]
    width = max(22, *(len(names.get(m, m)) + 1 for m in shown)) if shown else 22
    lines = [f"{'metric':<7} {'name':<{width}} value"]
    for metric in shown:
        value = scores[metric]
        text = _UNDEFINED[metric] if value is None and metric in _UNDEFINED else format_value(value)
        lines.append(f"{metric:<7} {names.get(metric, metric):<{width}} {text}")
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
