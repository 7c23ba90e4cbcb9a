"""The sequential round in the competition's results archive (``RoundKind.archive_members`` /
``data_card``; ``pwscup.kinds.archives``).

Published anyway: the leaderboard over the frozen releases (``selectors.leaderboard_rows``:
the one ranking rule), and with an attack phase the attack matrix, the attack ranking and
every target's published files (releases without pids, renumbered groups, the background
table and the counterfeit counts, as the attackers downloaded them). Secrets, each only when
ticked: the shared master and the pool of persons (``ORIGINAL``), the per-team masters drawn
or uploaded for each team (``SAMPLES``), and each team's frozen releases as uploaded, whose
pids say which person is in which group, the attacks' answer (``GROUND_TRUTH``).
"""

import hashlib

from pwscup.core.exports import csv_bytes
from pwscup.core.stored import stored_bytes
from pwscup.kinds.archive_tables import attack_matrix_member, mean_attack_member
from pwscup.kinds.archives import GROUND_TRUTH, ORIGINAL, SAMPLES, ArchiveMember, round_data_card
from pwscup.sequential import selectors
from pwscup.sequential.models import Master
from pwscup.sequential.views.tab_context import gates_text


def _leaderboard(sequential) -> bytes:
    metrics = selectors.BOARD_METRICS
    return csv_bytes(
        ["rank", "team", "releases", "complete", "gate_failures", "safety", *metrics],
        (
            [
                row.rank,
                row.team.name,
                row.step,
                row.complete,
                " ".join(row.gate_failures),
                row.safety,
                *[row.results.get(metric) for metric in metrics],
            ]
            for row in selectors.leaderboard_rows(sequential=sequential)
        ),
    )


def _attack_members(sequential) -> list[ArchiveMember]:
    matrix = selectors.attack_matrix(sequential=sequential)
    members = [
        attack_matrix_member(matrix),
        mean_attack_member("mean_accuracy", selectors.attack_ranking(sequential=sequential)),
    ]
    for target in matrix.targets:
        for name in sorted(target.files):
            members.append(
                ArchiveMember(f"targets/{target.team.slug}/{name}", target.files[name].encode())
            )
    return members


def archive_members(round, *, secrets):
    sequential = selectors.sequential_of(round=round)
    members = [ArchiveMember("leaderboard.csv", _leaderboard(sequential))]
    if sequential.attack_phase_begun:
        members.extend(_attack_members(sequential))
    masters = Master.objects.filter(sequential=sequential).select_related("team")
    if ORIGINAL in secrets:
        if sequential.pool_file:
            members.append(ArchiveMember("pool.csv", stored_bytes(sequential.pool_file), ORIGINAL))
        for master in masters.filter(team__isnull=True):
            members.append(ArchiveMember("master.csv", stored_bytes(master.file), ORIGINAL))
    if SAMPLES in secrets:
        for master in masters.filter(team__isnull=False).order_by("team__slug"):
            members.append(
                ArchiveMember(
                    f"samples/{master.team.slug}_master.csv", stored_bytes(master.file), SAMPLES
                )
            )
    if GROUND_TRUTH in secrets:
        frozen = sequential.releases.filter(is_frozen=True).select_related("team")
        for release in frozen.order_by("team__slug", "step"):
            members.append(
                ArchiveMember(
                    f"ground_truth/{release.team.slug}/release_{release.step}.csv",
                    stored_bytes(release.file),
                    GROUND_TRUTH,
                )
            )
    return members


def _original(sequential) -> dict:
    shared = Master.objects.filter(sequential=sequential, team__isnull=True).first()
    if shared is not None:
        return {"rows": shared.persons, "sha256": shared.sha256, "kind": "master"}
    if sequential.pool_file:
        content = stored_bytes(sequential.pool_file)
        rows = max(content.count(b"\n") - 1 + (not content.endswith(b"\n")), 0)
        return {"rows": rows, "sha256": hashlib.sha256(content).hexdigest(), "kind": "pool"}
    return {"rows": 0, "sha256": "", "kind": "per-team masters"}


def data_card(round) -> dict:
    sequential = selectors.sequential_of(round=round)
    config = sequential.config
    original = _original(sequential)
    gates = gates_text(config)
    rules = [
        f"Teams publish {config.get('n_releases')} generalized releases of a table that "
        f"changes between releases; each release must be {config.get('m')}-invariant "
        f"({config.get('mode', 'online')} mode).",
        "Ranked by safety (the highest re-identification risk, or with an attack phase the "
        "highest accuracy any attacker reached), then the mean risk, then the information "
        "loss; incomplete sequences and failed gates are listed last.",
    ]
    if gates:
        rules.append(f"Utility gates: {gates}.")
    description = {
        "master": "The shared master table (pid, quasi-identifiers, sensitive value, "
        "lifespan) every team released.",
        "pool": "A pool of persons from which each team's master table was drawn.",
        "per-team masters": "Each team was given its own master table.",
    }[original.pop("kind")]
    columns = [{"name": "pid", "role": "identifier (never published)", "domain": ""}]
    columns += [
        {"name": name, "role": "quasi-identifier", "domain": kind}
        for name, kind in (config.get("qi") or {}).items()
    ]
    columns.append({"name": config.get("sa", ""), "role": "sensitive", "domain": ""})
    columns += [
        {"name": "lsf", "role": "lifespan: first release", "domain": "number"},
        {"name": "lsb", "role": "lifespan: last release", "domain": "number"},
    ]
    return round_data_card(
        rows=original["rows"],
        sha256=original["sha256"],
        description=config.get("description", description),
        columns=columns,
        rules=rules,
    )
