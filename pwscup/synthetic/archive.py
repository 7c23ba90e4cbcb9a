"""The synthetic round in the competition's results archive (``RoundKind.archive_members`` /
``data_card``; ``pwscup.kinds.archives``). Called only once the results are published; a
round whose results are not published gives nothing (the final half decides everything the
archive holds, and it is shown to nobody before).

Published anyway, on the final half: the release ranking and the attack ranking
(``selectors.round_results``: the one ranking rule; disqualified teams left out), the
attacker × target matrix (every attacker's row, built-in attacks first), and for each target
what the attackers were given (its frozen release and its challenge set: ids and columns, no
label) with every attack's scores and ROC curve on it; the auxiliary table every team was
given (one per data pack's population in a round offering a data choice).

Secrets, each only when ticked: the original table and the holdout drawn from it, and in a
round offering a data choice each pack's population and its holdout (``ORIGINAL``), each
team's members table ``T_X`` (``SAMPLES``), and each challenge set's membership labels with
its dev/final split (``GROUND_TRUTH``). The round's seed is never archived.
"""

import json

from pwscup.core.exports import csv_bytes
from pwscup.core.stored import stored_bytes
from pwscup.kinds.archive_tables import attack_matrix_member, mean_attack_member
from pwscup.kinds.archives import GROUND_TRUTH, ORIGINAL, SAMPLES, ArchiveMember, round_data_card
from pwscup.submissions.attack_matrix import AttackMatrix
from pwscup.synthetic import engine, selectors
from pwscup.synthetic.api import files
from pwscup.synthetic.api.views import attack_metrics
from pwscup.synthetic.models import TeamDraw
from scoring.synthetic.attack import BUILTIN_ATTACKS
from scoring.synthetic.utility import SHOWN_RELEASE_SCORES

FINAL = "final"
RELEASE_SCORES = SHOWN_RELEASE_SCORES


def _release_ranking(releases: list[dict]) -> bytes:
    return csv_bytes(
        ["rank", "team", "passes_gates", "worst_attack", *RELEASE_SCORES],
        (
            [
                row["rank"],
                row["team"].name,
                row["passes"],
                row["worst"],
                *[row["release"].scores.get(key) for key in RELEASE_SCORES],
            ]
            for row in releases
        ),
    )


def _target_scores(synthetic, target, latest: dict) -> bytes:
    """Every attack on ``target`` (built-in and the teams' that count) with its final-half
    scores, in the order the API gives them (``attack_metrics``), and its ROC curve."""
    keys = attack_metrics(synthetic)
    rows = []
    for name in BUILTIN_ATTACKS:
        scored = target.builtin.get(name) or {}
        rows.append([name, True, *_final_cells(scored.get("final"), scored.get("final_roc"), keys)])
    for (_team_id, target_id), attack in sorted(latest.items(), key=lambda i: i[1].team.name):
        if target_id == target.pk:
            rows.append(
                [attack.team.name, False, *_final_cells(attack.final, attack.final_roc, keys)]
            )
    return csv_bytes(["attacker", "builtin", *keys, "roc_fpr", "roc_tpr"], rows)


def _final_cells(final, roc, keys) -> list:
    final, roc = final or {}, roc or {}
    return [
        *[final.get(key) for key in keys],
        json.dumps(roc.get("fpr", [])),
        json.dumps(roc.get("tpr", [])),
    ]


def _target_members(synthetic, matrix: AttackMatrix) -> list[ArchiveMember]:
    # Each cell the headline on the final half.
    members = [attack_matrix_member(matrix, builtin_column=True)]
    latest = selectors.latest_attacks(synthetic=synthetic)
    for target in matrix.targets:
        folder = f"targets/{target.team.slug}"
        members += [
            ArchiveMember(f"{folder}/release.csv", stored_bytes(target.release.file)),
            ArchiveMember(f"{folder}/challenge.csv", files.challenge_csv(target=target).encode()),
            ArchiveMember(f"{folder}/scores.csv", _target_scores(synthetic, target, latest)),
        ]
    if matrix.targets:
        # One auxiliary table per population the targets were drawn from (``aux.csv`` for
        # the round's original, ``<pack>.aux.csv`` for a data pack's).
        packs = selectors.draw_pack_keys(synthetic=synthetic)
        for key in sorted({packs.get(target.team_id, "") for target in matrix.targets}):
            members.append(
                ArchiveMember(
                    files.aux_name(key), files.aux_csv(synthetic=synthetic, key=key).encode()
                )
            )
    return members


def _secret_members(synthetic, secrets) -> list[ArchiveMember]:
    members = []
    draws = TeamDraw.objects.filter(synthetic=synthetic).select_related("team")
    if ORIGINAL in secrets:
        # The round's original and its holdout, then each data pack's population and its own.
        round_ = synthetic.round
        sources = [("", "original", "", round_.original_source or round_.original_file)] + [
            (stored.choice_key, "population", "populations/", stored.source or stored.file)
            for stored in selectors.offered_populations(synthetic=synthetic)
        ]
        for key, table, folder, stored in sources:
            pack = engine.population_of(synthetic, key)
            holdout = engine.table_text(engine.rows_of(pack.population, pack.holdout))
            prefix = f"{folder}{key}." if key else ""
            members += [
                ArchiveMember(f"{prefix}{table}.csv", stored_bytes(stored), ORIGINAL),
                ArchiveMember(f"{prefix}holdout.csv", holdout.encode(), ORIGINAL),
            ]
    # Per team, by its slug: its members table T_X, its challenge set's labels.
    per_team = {
        SAMPLES: lambda draw: (
            f"samples/{files.members_name(draw.team)}",
            files.members_csv(synthetic=synthetic, draw=draw).encode(),
        ),
        GROUND_TRUTH: lambda draw: (
            f"ground_truth/{draw.team.slug}_challenge_labels.csv",
            _labels_csv(draw),
        ),
    }
    for secret, member in per_team.items():
        if secret in secrets:
            members += [
                ArchiveMember(*member(draw), secret) for draw in draws.order_by("team__slug")
            ]
    return members


def _labels_csv(draw) -> bytes:
    """The challenge set's membership labels with its dev/final split, by id (1 … n)."""
    return csv_bytes(
        ["id", "member", "half"],
        (
            [number, label, "dev" if dev else "final"]
            for number, (label, dev) in enumerate(zip(draw.labels, draw.dev, strict=True), start=1)
        ),
    )


def archive_members(round, *, secrets):
    synthetic = selectors.synthetic_of(round)
    if synthetic is None or not synthetic.results_published:
        return []
    results = selectors.round_results(synthetic=synthetic, half=FINAL)
    return [
        ArchiveMember("release_ranking.csv", _release_ranking(results.releases)),
        mean_attack_member("mean_headline", results.attacks),
        *_target_members(synthetic, results.matrix),
        *_secret_members(synthetic, secrets),
    ]


def data_card(round) -> dict:
    synthetic = selectors.synthetic_of(round)
    config = engine.round_config(round)
    columns = [
        {
            "name": name,
            "role": "label (utility task)" if name == config.label else "attribute",
            "domain": config.roles[name],
        }
        for name in config.columns
    ]
    levels = ", ".join(f"{level:g}" for level in config.fpr_levels)
    rules = (
        f"Each team received {config.n_train} member rows of the original and published a "
        f"synthetic release of {config.min_rows} to {config.max_rows} rows, scored by model utility U_ML "
        f"(train on the release, test on a {config.n_holdout}-row holdout) and marginal "
        f"fidelity U_1; then attacked the other teams' frozen releases by membership inference "
        f"on challenge sets of {config.n_challenge} rows (half members), scored by the true "
        f"positive rate at a false positive rate of at most {levels} on the final half of each "
        f"challenge set. Releases failing the gates (U_ML ≥ {config.u_ml_min:g}, "
        f"U_1 ≤ {config.u_1_max:g}) got no rank (listed last); a release whose share of rows "
        "copied from its members (R_copy) exceeded its share copied from as many holdout rows (chance) by "
        f"more than {config.r_copy_excess_max:g} was never published; the others "
        "by the highest headline any "
        "attacker reached on them, lower first, ties by U_ML. Attackers are ranked by their "
        "mean headline over the targets, a target not attacked counting as the built-in DCR "
        "attack's headline."
    )
    return round_data_card(
        rows=round.original_rows,
        sha256=round.original_sha256,
        description="The original table; each team's members, the non-members of the "
        "challenge sets, the holdout and the auxiliary table were drawn from its rows"
        + (" (member sets disjoint across teams)." if synthetic and _disjoint(synthetic) else "."),
        columns=columns,
        rules=[rules],
    )


def _disjoint(synthetic) -> bool:
    return not TeamDraw.objects.filter(synthetic=synthetic, disjoint=False).exists()
