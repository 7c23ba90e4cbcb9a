"""A round's data card in the results archive (``data-card.json`` and ``data-card.md``): its
kind, its original, its columns and their roles, its rules in plain words, its total formula
and its attack score against the top N releases. ``builder.write_archive`` writes them."""

from pwscup.competitions import attack_top
from pwscup.kinds import kind_of


def round_card(round) -> dict:
    kind = kind_of(round)
    card = kind.data_card(round) or {}
    return {
        "round": round.slug,
        "name": round.name,
        "kind": kind.key,
        "kind_label": str(kind.label),
        "original": card.get("original", {}),
        "columns": card.get("columns", []),
        "rules": card.get("rules", ""),
        # The round's total and its attack against the top N, core settings of every kind:
        # what total.csv and attack_top.csv were computed by (the 2016–2018 winner's rule).
        "total": {"formula": round.total_formula, "attack_top_n": round.attack_top_n},
        # The core's attack score against the top N releases (``attack_top.csv``), as read.
        "attack_top": _attack_top_card(round),
    }


def _attack_top_card(round) -> dict | None:
    if not round.attack_top_n:
        return None
    return {
        "n": round.attack_top_n,
        "by": round.attack_top_by,
        "own": round.attack_top_own,
        "combine": round.attack_top_combine,
        "words": str(attack_top.rule_words(round)),
    }


def data_card_markdown(competition, cards: list[dict]) -> str:
    lines = [f"# Data card: {competition.name}", ""]
    for card in cards:
        original = card["original"]
        lines += [
            f"## {card['name']} (`{card['round']}`)",
            "",
            f"- Kind: {card['kind_label']} (`{card['kind']}`)",
            f"- Original: {_original_size(original)}, SHA-256 `{original.get('sha256') or '—'}`",
        ]
        if original.get("description"):
            lines.append(f"- Description: {original['description']}")
        lines += ["", "| column | role | domain |", "|---|---|---|"]
        for column in card["columns"]:
            cells = [str(column.get(key, "")).replace("|", "\\|") for key in ("name", "role")]
            domain = str(column.get("domain", "")).replace("|", "\\|")
            lines.append(f"| {cells[0]} | {cells[1]} | {domain} |")
        lines += ["", f"**Rules.** {card['rules']}", ""]
        lines += _total_lines(card.get("total") or {}, card.get("attack_top"))
    return "\n".join(lines)


def _original_size(original: dict) -> str:
    """``200 rows``, or ``a ZIP of 2 files (M.csv, T.csv)`` for an original of files."""
    if original.get("rows") is None and "files" in original:
        files = original["files"]
        names = ", ".join(files[:10]) + (", …" if len(files) > 10 else "")
        return f"a ZIP of {len(files)} files" + (f" ({names})" if files else "")
    return f"{original.get('rows', '?')} rows"


def _total_lines(total: dict, top: dict | None) -> list[str]:
    """The data card's words for the round's total formula and attack against the top N
    (``top``: that rule as ``_attack_top_card`` reads it)."""
    lines = []
    if total.get("formula"):
        lines += [f"**Total.** `{total['formula']}`, higher is better (`total.csv`).", ""]
    if top:
        lines += [
            f"**Attack against the top {top['n']} releases (`attack_top.csv`).** {top['words']}",
            "",
        ]
    return lines
