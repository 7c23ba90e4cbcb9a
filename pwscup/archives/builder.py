"""Writing a results archive: the ZIP's members, its data card, README and manifest.

The layout (``docs/archive.md``)::

    manifest.json      format, version, competition, the ticked secrets, every member's
                       SHA-256 and size
    README.md          what the archive is (English and Japanese)
    data-card.md       per round: the kind, the original (rows, SHA-256, description), its
    data-card.json     columns and roles, the rules in plain words (``kind.data_card``)
    rounds/<slug>/...  each round's outcome (``kind.archive_members``)
    slides/...         the published slides and policy texts (pwscup.presentations), in
                       the full variant only
    awards.csv         the judged awards (pwscup.accounts), in both variants
    standings.csv      the competition's standings, when the organizers set them
                       (pwscup.competitions.standings): its first division;
    standings-<key>.csv each other division

Each version is written twice from the same round outcomes: the full variant, with the
slides, for those who may see the published slides (``published_slides_visible_to``), and
the variant without them for everyone else who sees the competition. The data card and the
manifest are written in English whoever publishes (each variant is one file for all its
readers); the README says it in both languages.
"""

import hashlib
import json
import posixpath
import zipfile
from dataclasses import dataclass, field

from django.utils import translation
from django.utils.text import slugify

from pwscup.accounts.selectors import awards_csv
from pwscup.archives.data_card import data_card_markdown, round_card
from pwscup.archives.selectors import ArchiveRounds
from pwscup.competitions import total_values, totals
from pwscup.competitions.standings import standings_csv_files
from pwscup.core.exports import csv_bytes
from pwscup.core.files import CHUNK, opened
from pwscup.kinds import kind_of
from pwscup.kinds.archives import (
    GROUND_TRUTH,
    ORIGINAL,
    PERMUTATIONS,
    SAMPLES,
    SECRETS,
    ArchiveMember,
)
from pwscup.presentations.selectors import published_slides

FORMAT = "pwscup-results-archive"
FORMAT_VERSION = 1


class ArchiveError(ValueError):
    """A kind gave a member the archive cannot hold (a bad name, a name twice)."""


@dataclass
class Written:
    """What has gone into the ZIP so far, for the manifest."""

    members: list[dict] = field(default_factory=list)
    names: set[str] = field(default_factory=set)

    def add(self, name: str, *, sha256: str, size: int, secret: str = "", round=None):
        self.members.append(
            {"name": name, "sha256": sha256, "size": size, "secret": secret, "round": round}
        )


def member_name(prefix: str, name: str) -> str:
    """``prefix/name``, refusing what could leave the folder or be read two ways."""
    parts = name.split("/")
    if (
        not name
        or "\\" in name
        or name.startswith("/")
        or any(part in ("", ".", "..") for part in parts)
    ):
        raise ArchiveError(f"Bad member name {name!r}.")
    return posixpath.join(prefix, name)


def _write_bytes(archive: zipfile.ZipFile, written: Written, name: str, content: bytes, **info):
    if name in written.names:
        raise ArchiveError(f"The member {name!r} is there twice.")
    written.names.add(name)
    archive.writestr(name, content, compress_type=zipfile.ZIP_DEFLATED)
    written.add(name, sha256=hashlib.sha256(content).hexdigest(), size=len(content), **info)


def _write_field(archive: zipfile.ZipFile, written: Written, name: str, stored, **info):
    """A stored file copied into the ZIP a chunk at a time (slides may be large; PDFs are
    compressed already, so they are stored as they are)."""
    if name in written.names:
        raise ArchiveError(f"The member {name!r} is there twice.")
    written.names.add(name)
    digest, size = hashlib.sha256(), 0
    entry = zipfile.ZipInfo(name)
    entry.compress_type = zipfile.ZIP_STORED
    with opened(stored) as source, archive.open(entry, mode="w", force_zip64=True) as out:
        while chunk := source.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
            out.write(chunk)
    written.add(name, sha256=digest.hexdigest(), size=size, **info)


def _json(value) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode()


# The secrets' names in the README's Japanese half (the README holds both languages at once,
# so it names them itself rather than through the reader's catalogue).
SECRET_NAMES_JA = {
    ORIGINAL: "元データ",
    SAMPLES: "サンプル",
    PERMUTATIONS: "置換（パーミュテーション）",
    GROUND_TRUTH: "攻撃の正解データ",
}


def readme(competition, version: int, secrets: list[str], *, with_slides: bool = True) -> str:
    ticked = ", ".join(secrets) if secrets else "none"
    ticked_ja = (
        "、".join(f"{SECRET_NAMES_JA.get(name, name)}（{name}）" for name in secrets)
        if secrets
        else "なし"
    )
    if with_slides:
        slides_en = "the teams' published slides and policy texts, "
        slides_ja = "公開された各チームの発表資料と方針、"
        folders_en, folders_ja = ", `slides/`", "、`slides/`"
        note_en = note_ja = ""
    else:
        slides_en = slides_ja = folders_en = folders_ja = ""
        note_en = (
            "\nThis variant holds no slides: the teams' slides and policy texts are written "
            "for the competition's own participants, whose variant of this version holds them.\n"
        )
        note_ja = (
            "\nこの版には発表資料が含まれていません。各チームの発表資料と方針はコンペティションの"
            "参加者に向けたもので、参加者向けの同じ版に含まれています。\n"
        )
    return f"""# {competition.name}: results archive, version {version}

This archive is the published outcome of the competition `{competition.slug}`: each round's
scores, rankings and attack matrix, the targets that were published to the attackers,
{slides_en}and a data card (`data-card.md`, `data-card.json`) saying what each
round was played on. `manifest.json` lists every file with its SHA-256 and size.
{note_en}
Secrets the organizers chose to include: **{ticked}**. Unless listed here, the archive holds
no original table, no sample, no permutation and no attack ground truth.

Folders: `rounds/<round>/` (one per round whose results were published){folders_en}.
`awards.csv` lists the awards the judges gave (empty but for its header when none).
`standings.csv`, when present, is the competition's standings (its rounds' rankings combined);
`standings-<key>.csv`, each of its other divisions (a division counting other divisions'
ranks has their `<key>:rank` and `<key>:combined` columns).
`rounds/<round>/total.csv` and `attack_top.csv`, when the round has them, are its total by
the organizers' formula and its attack score against the top N releases.

---

# {competition.name}: 結果アーカイブ（第 {version} 版）

このアーカイブはコンペティション `{competition.slug}` の公開結果です。各ラウンドのスコア、
順位、攻撃マトリクス、攻撃者に公開された攻撃対象、{slides_ja}そして各ラウンドが
どのデータで行われたかを示すデータカード（`data-card.md`、`data-card.json`）を含みます。
`manifest.json` に全ファイルの SHA-256 とサイズが記載されています。
{note_ja}
運営者が含めることを選んだ秘密情報: **{ticked_ja}**。ここに記載がない限り、元データ、サンプル、
置換（パーミュテーション）、攻撃の正解データは一切含まれていません。

フォルダ: `rounds/<ラウンド>/`（結果が公開されたラウンドごと）{folders_ja}。
`awards.csv` は審査員が授与した賞の一覧です（賞がなければ見出し行のみ）。
`standings.csv` があれば、コンペティションの総合順位（各ラウンドの順位の組み合わせ）です。
`standings-<キー>.csv` は、そのほかの部門の順位です（ほかの部門の順位を数える部門には、
その部門ごとに `<キー>:rank` と `<キー>:combined` の列があります）。
ラウンドに合計の式や上位 N 件に対する攻撃スコアがあれば、`rounds/<ラウンド>/total.csv` と
`attack_top.csv` がそれです。
"""


@dataclass
class RoundOutcome:
    """One round as both variants hold it: its data card and its members."""

    round: object
    card: dict
    members: list


def round_outcomes(*, rounds: ArchiveRounds, secrets: list[str]) -> list[RoundOutcome]:
    """Each included round's card and members (``kind.archive_members``), the unticked
    secrets left out; read once for both variants."""
    ticked = frozenset(secrets)
    outcomes = []
    with translation.override("en"):
        for round in rounds.included:
            members = []
            for member in kind_of(round).archive_members(round, secrets=ticked):
                if member.secret and member.secret not in SECRETS:
                    raise ArchiveError(f"Unknown secret {member.secret!r}.")
                if member.secret and member.secret not in ticked:
                    # A kind must not offer an unticked secret; should one ever do, it
                    # stays out (the archive is public to every viewer of the competition).
                    continue
                members.append(member)
            members.extend(core_members(round))
            outcomes.append(RoundOutcome(round=round, card=round_card(round), members=members))
    return outcomes


def core_members(round_) -> list[ArchiveMember]:
    """What the core adds to a round's outcome, whatever its kind: ``total.csv`` (``rank``,
    ``team``, ``total``: the round's total by the organizers' formula, as the Results tab
    ranks it; the number to the decimals that decide a tie) and ``attack_top.csv`` (``rank``,
    ``team``, ``attack_top``: the attack score against the top N releases, an empty cell for
    an attacker without one), each when the round has it."""
    members = []
    if round_.total_formula:
        rows = [
            [row.rank, row.team.name, round(row.value, total_values.TIE_DECIMALS)]
            for row in totals.round_totals(round=round_)
        ]
        members.append(ArchiveMember("total.csv", csv_bytes(["rank", "team", "total"], rows)))
    top = totals.round_attack_top_ranking(round_) if round_.attack_top_n else None
    if top is not None:
        rows = [[row.rank or "", row.team.name, row.score] for row in top.rows]
        members.append(
            ArchiveMember("attack_top.csv", csv_bytes(["rank", "team", "attack_top"], rows))
        )
    return members


def write_archive(
    sink,
    *,
    competition,
    version: int,
    secrets: list[str],
    rounds: ArchiveRounds,
    created_at,
    with_slides: bool = True,
    outcomes: list[RoundOutcome] | None = None,
) -> dict:
    """Write the whole ZIP into ``sink`` (a seekable binary file); return the manifest.
    ``with_slides``: the full variant (the published slides and policy texts) or the one
    without them; ``outcomes``: ``round_outcomes`` already read (else read here)."""
    if outcomes is None:
        outcomes = round_outcomes(rounds=rounds, secrets=secrets)
    written = Written()
    with translation.override("en"), zipfile.ZipFile(sink, mode="w") as archive:
        cards = []
        for outcome in outcomes:
            round = outcome.round
            cards.append(outcome.card)
            prefix = f"rounds/{round.slug}"
            for member in outcome.members:
                _write_bytes(
                    archive,
                    written,
                    member_name(prefix, member.name),
                    member.content,
                    secret=member.secret,
                    round=round.slug,
                )
        if with_slides:
            _write_slides(archive, written, competition)
        _write_bytes(archive, written, "awards.csv", awards_csv(competition=competition))
        for name, content in standings_csv_files(competition=competition):
            _write_bytes(archive, written, name, content)
        data_card = {
            "competition": {"name": competition.name, "slug": competition.slug},
            "rounds": cards,
        }
        _write_bytes(archive, written, "data-card.json", _json(data_card))
        _write_bytes(
            archive, written, "data-card.md", data_card_markdown(competition, cards).encode()
        )
        _write_bytes(
            archive,
            written,
            "README.md",
            readme(competition, version, secrets, with_slides=with_slides).encode(),
        )
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "version": version,
            "slides": with_slides,
            "competition": {"name": competition.name, "slug": competition.slug},
            "created_at": created_at.isoformat(),
            "secrets": list(secrets),
            "rounds": [{"slug": r.slug, "name": r.name, "kind": r.kind} for r in rounds.included],
            "left_out": [
                {"slug": r.slug, "name": r.name, "reason": str(reason)}
                for r, reason in rounds.left_out
            ],
            "members": written.members,
        }
        archive.writestr("manifest.json", _json(manifest), compress_type=zipfile.ZIP_DEFLATED)
    return manifest


def _write_slides(archive: zipfile.ZipFile, written: Written, competition) -> None:
    """The published slides, their policy texts and ``slides/index.json``."""
    slides = []
    for item in published_slides(competition=competition):
        window = slugify(item.window_title, allow_unicode=True) or f"window-{item.window.pk}"
        folder = f"slides/{window}"
        pdf = member_name(folder, f"{item.team_slug}.pdf")
        if pdf in written.names:  # two windows whose titles give the same folder
            folder = f"slides/{window}-{item.window.pk}"
            pdf = member_name(folder, f"{item.team_slug}.pdf")
        round_slug = item.round.slug if item.round is not None else None
        _write_field(archive, written, pdf, item.slides.file, round=round_slug)
        entry = {
            "window": item.window_title,
            "round": round_slug,
            "team": item.team_name,
            "team_slug": item.team_slug,
            "file": pdf,
        }
        policies = [
            ("Anonymization policy", item.slides.anonymization_policy),
            ("Attack policy", item.slides.attack_policy),
        ]
        if any(text for _title, text in policies):
            text = f"# {item.team_name}: {item.window_title}\n\n" + "\n".join(
                f"## {title}\n\n{body}\n" for title, body in policies if body
            )
            name = member_name(folder, f"{item.team_slug}-policies.md")
            _write_bytes(archive, written, name, text.encode(), round=round_slug)
            entry["policies"] = name
        slides.append(entry)
    _write_bytes(archive, written, "slides/index.json", _json(slides))
