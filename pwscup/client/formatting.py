"""Tables printed by the client, from the API's JSON (the score table is the one
``python -m scoring evaluate`` prints).

Metric values are printed as the server wrote them (``scores_text``: the display rule of
``scoring.display``, which the client cannot import without pandas), never re-formatted
here: ``20`` for a count, ``0.000044`` for a small rate, ``∞`` for an infinite L3."""

import datetime as dt
import unicodedata

from pwscup.client.messages import tr

REFERENCE = "REF"  # the reference attack's key (scoring.REFERENCE_ATTACK; no pandas here)


def text_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: a wide (CJK) character two, a combining mark
    none. Written here because the client is standard library only (``wcwidth`` would do)."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def padded(text: str, width: int) -> str:
    return text + " " * (width - text_width(text))


def moment(text: str | None) -> str:
    """An API time (ISO 8601 with its offset) as people read it: ``2026-12-01 18:00 +09:00``;
    "—" for none."""
    if not text:
        return "—"
    try:
        at = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    offset = at.strftime("%z")
    return f"{at:%Y-%m-%d %H:%M}" + (f" {offset[:3]}:{offset[3:]}" if offset else "")


def state_text(state: str) -> str:
    """A window's or an upload's state (the API's vocabulary) in the client's language."""
    words = {
        "upcoming": tr("upcoming"),
        "open": tr("open"),
        "held": tr("on hold"),
        "closed": tr("closed"),
        "frozen": tr("frozen"),
        "queued": tr("queued"),
        "running": tr("running"),
        "finished": tr("finished"),
        "failed": tr("failed"),
    }
    return words.get(state, state)


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
    width = max(22, *(text_width(names.get(m, m)) + 1 for m in shown)) if shown else 22
    keys = max(7, *(text_width(m) for m in shown)) if shown else 7  # a long key: reidentified

    def line(key: str, name: str, value: str) -> str:
        return f"{padded(key, keys)} {padded(name, width)} {value}"

    # The labels are scoring's ``cli.evaluate_columns`` and its neighbours, in the same words
    # (a test compares them): under ``ja`` the table is ``python -m scoring --lang ja``'s.
    lines = [line(tr("metric"), tr("name"), tr("value"))]
    lines += [line(m, names.get(m, m), texts[m]) for m in shown]
    if REFERENCE in texts:  # beside the scores, not one of them (scoring/linkage.py)
        lines.append(line(REFERENCE, tr("reference attack"), texts[REFERENCE]))
    lines += [f"{m} {notes[m]}" for m in shown if scores.get(m) is None and m in notes]
    if {"kept_rows", "rows", "classes"} <= scores.keys():
        summary = tr("{kept_rows} of {rows} rows kept, {classes} equivalence classes.")
        lines.append("\n" + summary.format_map(scores))
    return "\n".join(lines)


def table(headers: list[str], rows: list[list]) -> str:
    """A plain left-aligned text table."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in r] for r in rows]
    widths = [max(text_width(row[i]) for row in cells) for i in range(len(headers))]
    return "\n".join(
        "  ".join(padded(cell, width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in cells
    )
