"""The scorer round's writes: the round and its slots (by hand or from a committed salt),
the program and the data packs, releases and attacks, the freeze, the rescoring and the
publication."""

from pwscup.scorer.services.common import (
    BUILD_TASK,
    RANKING_TASK,
    SCORE_ATTACK_TASK,
    SCORE_RELEASE_TASK,
)
from pwscup.scorer.services.freeze import (
    attack_phase_open_now,
    outdated_uploads,
    rescore_outdated,
    round_freeze,
)
from pwscup.scorer.services.programs import (
    hidden_packs_await,
    pack_upload,
    program_build,
    program_upload,
)
from pwscup.scorer.services.ranking import ranking_request, ranking_score, standings_input
from pwscup.scorer.services.releases import (
    attack_select,
    attack_upload,
    release_select,
    release_upload,
)
from pwscup.scorer.services.rounds import (
    results_publish,
    scorer_config_validate,
    scorer_round_create,
    slot_set,
    slots_for_teams,
)
from pwscup.scorer.services.rules_edit import scorer_rules_edit
from pwscup.scorer.services.salt import slot_salt_commit, slot_salt_reveal, slots_from_salt
from pwscup.scorer.services.scoring_runs import attack_score, release_score

__all__ = [
    "BUILD_TASK",
    "RANKING_TASK",
    "SCORE_ATTACK_TASK",
    "SCORE_RELEASE_TASK",
    "attack_phase_open_now",
    "attack_score",
    "attack_select",
    "attack_upload",
    "hidden_packs_await",
    "outdated_uploads",
    "pack_upload",
    "program_build",
    "program_upload",
    "ranking_request",
    "ranking_score",
    "release_score",
    "release_select",
    "release_upload",
    "rescore_outdated",
    "results_publish",
    "round_freeze",
    "scorer_config_validate",
    "scorer_round_create",
    "scorer_rules_edit",
    "slot_salt_commit",
    "slot_salt_reveal",
    "slot_set",
    "slots_for_teams",
    "slots_from_salt",
    "standings_input",
]
