"""The scorer round in the competition's results archive (``RoundKind.archive_members`` /
``data_card``; ``pwscup.kinds.archives``). Called only once the results are published.

Published anyway: the release ranking and the attack ranking (``selectors.standings``: the
one ranking rule; disqualified teams left out), the attacker × target matrix (every
attacker's row, a disqualified team's marked), every target's published files (what the
attackers were given, ``targets/<team>/public.zip``) and every scored upload's scores as the
program wrote them, with the version that scored them. Secrets, each only when ticked: the
round's hidden reference and truth packs (``ORIGINAL``) and the frozen releases as uploaded
(``GROUND_TRUTH``: the program reads who is who from them)."""

from pwscup.competitions.choice_selectors import round_choices, round_team_picks
from pwscup.core.exports import csv_bytes
from pwscup.core.stored import stored_bytes
from pwscup.kinds.archive_tables import attack_ranking_member
from pwscup.kinds.archives import GROUND_TRUTH, ORIGINAL, ArchiveMember, round_data_card
from pwscup.scorer import selectors
from pwscup.scorer.models import Attack, DataPack, Release
from pwscup.scorer.salt import published_salt
from pwscup.submissions.models import Status
from pwscup.submissions.voids import counted


def _choice_of(round_):
    """The data pack each team played on, as a function of the team (its pick, else the
    round's first pack, which its first upload locked); ``None`` when the round offers no
    choice. PWSCup 2022's scores only read against the dataset a team picked."""
    choices = round_choices(round=round_)
    if not choices:
        return None
    picks = round_team_picks(round=round_)
    return lambda team: picks[team.pk].choice.key if team.pk in picks else choices[0].key


def _with_choice(header: list, rows, choice_of, team_of):
    """``header`` and ``rows`` with a ``data_choice`` column right after ``team`` (wherever
    ``team`` is), when the round offers a choice."""
    if choice_of is None:
        return header, rows
    at = header.index("team") + 1
    return (
        [*header[:at], "data_choice", *header[at:]],
        ([*row[:at], choice_of(team_of(i)), *row[at:]] for i, row in enumerate(rows)),
    )


def _rankings(board, config, choice_of) -> list[ArchiveMember]:
    release_keys = [column.key for column in config.release_columns]
    ranked = [row for row in board.releases if not row.disqualified]
    header, lines = _with_choice(
        ["rank", "team", "protection", "failed_gates", "program_version", *release_keys],
        (
            [
                row.rank,
                row.team.name,
                row.protection,
                ";".join(gate["key"] for gate in row.failed_gates),
                row.release.program.version if row.release.program_id else "",
                *[row.release.scores.get(key) for key in release_keys],
            ]
            for row in ranked
        ),
        choice_of,
        lambda i: ranked[i].team,
    )
    releases = csv_bytes(header, lines)
    return [
        ArchiveMember("release_ranking.csv", releases),
        attack_ranking_member(
            "power",
            (
                [row.rank, row.team.name, row.power, row.attacked]
                for row in board.attackers
                if not row.disqualified
            ),
        ),
    ]


def _matrix(board, rule) -> bytes:
    targets = [row.team for row in board.releases]
    attackers = sorted({slug for values in board.matrix.values() for slug in values}, key=str.lower)
    names = {row.team.slug: row.team for row in board.attackers}
    return csv_bytes(
        ["attacker", "disqualified", *[team.name for team in targets]],
        (
            [
                names[slug].name if slug in names else slug,
                rule.marked(names[slug].pk) if slug in names else False,
                *[board.matrix.get(team.slug, {}).get(slug) for team in targets],
            ]
            for slug in attackers
        ),
    )


def _scores(scorer, model, config, choice_of=None) -> bytes:
    keys = [
        column.key
        for column in (config.attack_columns if model is Attack else config.release_columns)
    ]
    rows = counted(model.objects.filter(scorer=scorer, status=Status.FINISHED))
    rows = rows.select_related("team", "program")
    header = ["team", "number", "program_version", *keys]
    if model is Attack:
        header.insert(2, "target")
    out, teams = [], []
    names = {t.team.slug: t.team.name for t in selectors.round_targets(scorer=scorer)}
    for upload in rows.order_by("team__slug", "number"):
        version = upload.program.version if upload.program_id else ""
        line = [upload.team.name, upload.number]
        if model is Attack:
            line.append(upload.target.team.name if upload.target_id else "*")
        out.append([*line, version, *(upload.scores.get(key) for key in keys)])
        teams.append(upload.team)
        if model is Attack and not upload.target_id:
            # An upload covering every target (PWSCup 2024, 2025): each target's scores as the
            # program wrote them under ``targets``, a line per target under the upload's own.
            for slug, scores in sorted(upload.targets.items()):
                target = names.get(slug, slug)
                out.append([*line[:2], target, version, *(scores.get(key) for key in keys)])
                teams.append(upload.team)
    return csv_bytes(*_with_choice(header, out, choice_of, lambda i: teams[i]))


def archive_members(round_, *, secrets):
    from pwscup.accounts.selectors import disqualification_rule

    scorer = selectors.scorer_of(round_)
    if scorer is None or not scorer.results_published:
        return []
    config = selectors.round_config(round_)
    board = selectors.standings(scorer=scorer)
    rule = disqualification_rule(competition_id=round_.competition_id)
    choice_of = _choice_of(round_)
    members = [
        *_rankings(board, config, choice_of),
        ArchiveMember("attack_matrix.csv", _matrix(board, rule)),
        ArchiveMember("release_scores.csv", _scores(scorer, Release, config, choice_of)),
        ArchiveMember("attack_scores.csv", _scores(scorer, Attack, config)),
    ]
    for target in selectors.round_targets(scorer=scorer):
        folder = f"targets/{target.team.slug}"
        if target.release.public:
            members.append(
                ArchiveMember(f"{folder}/public.zip", stored_bytes(target.release.public))
            )
        if GROUND_TRUTH in secrets and target.release.file:
            members.append(
                ArchiveMember(
                    f"{folder}/release_as_uploaded/{target.release.original_filename or 'release'}",
                    stored_bytes(target.release.file),
                    GROUND_TRUTH,
                )
            )
    if ORIGINAL in secrets:
        for (role, choice), pack in selectors.packs_by_choice(scorer=scorer).items():
            if role in DataPack.HIDDEN:
                name = f"{choice}.{role}.zip" if choice else f"{role}.zip"
                members.append(ArchiveMember(name, stored_bytes(pack.file), ORIGINAL))
    return members


def _unattacked_rule(config) -> str:
    """What an attack not made counts as (the round's ``unattacked``), in the card's words:
    the Rules tab's sentence, in English as the whole card is."""
    if config.unattacked is None:
        return (
            ", and a target nobody attacked has none (an attack not made is left out of the "
            "protection and of the attacker's power, neither a zero nor the worst value)"
        )
    return (
        f"; an attack not made counts as {config.unattacked:g}: every other team that did "
        "not attack a target counts that attack score on it, in the target's protection and "
        "in that team's power"
    )


def data_card(round_) -> dict:
    scorer = selectors.scorer_of(round_)
    config = selectors.round_config(round_)
    program = selectors.current_program(scorer=scorer) if scorer is not None else None
    reference = (
        selectors.current_pack(scorer=scorer, role=DataPack.Role.REFERENCE)
        if scorer is not None
        else None
    )
    columns = [
        {"name": column.key, "role": f"{phase} score", "label": column.label}
        for phase, columns in (
            ("release", config.release_columns),
            ("attack", config.attack_columns),
        )
        for column in columns
    ]
    direction = {True: "higher is better", False: "lower is better"}
    ranked_by = {
        "primary": "their primary score",
        "protection": "their protection",
        "rank_sum": "the sum of their two ranks (primary score and protection)",
    }
    power = {"mean": "mean score over the targets they attacked", "top_n": "mean score over"}
    rules = (
        "Scored by the organizer's own program"
        + (f" (version {program.version}, sha256 {program.sha256[:12]})" if program else "")
        + f". Releases are ranked by {ranked_by.get(config.release_rank, config.release_rank)} "
        f"(primary score {config.release_primary}, "
        f"{direction[config.release_primary_column.higher_is_better]}); a target's protection "
        f"is the {config.protection_rule} of the attacks on it "
        f"({config.attack_primary}, {direction[config.attack_primary_column.higher_is_better]} "
        f"for the attacker)"
        + _unattacked_rule(config)
        + "; attackers are ranked by their "
        + power.get(config.power_rule, config.power_rule)
        + (f" the top {config.top_n} releases" if config.power_rule == "top_n" else "")
        + (
            "; releases failing a gate ("
            + ", ".join(
                f"{gate.key} {'≥' if gate.bound == 'min' else '≤'} {gate.value:g}"
                for gate in config.gates
            )
            + ") are ranked last."
            if config.gates
            else "."
        )
    )
    choices = round_choices(round=round_)
    if choices:
        rules += (
            " Each team played on one of the round's data packs, "
            + ", ".join(f"{choice.key} ({choice.label})" for choice in choices)
            + ": release_ranking.csv and release_scores.csv name it (data_choice)."
        )
    salt = published_salt(scorer) if scorer is not None else None
    if salt is not None:
        rules += (
            f" The teams' slots were assigned from a salt committed at "
            f"{salt.committed_at.isoformat()} (SHA-256 {salt.commitment}): teams ordered by "
            "SHA-256(salt + ':' + team slug), ascending, slots 1, 2, …"
            + (f"; the salt: {salt.salt}." if salt.revealed_at else "; the salt is not revealed.")
        )
    return round_data_card(
        rows=None,  # a ZIP of the organizer's files, not one table: its files say what it is
        files=reference.members if reference else [],
        sha256=reference.sha256 if reference else "",
        description="The round's hidden reference data (a ZIP), given to the organizer's "
        "program in every run.",
        columns=columns,
        rules=[rules],
    )
