"""The synthetic round's writes: the round, the draws, releases, the freeze, attacks."""

from pwscup.synthetic.services.attacks import attack_score, attack_upload
from pwscup.synthetic.services.common import (
    SCORE_ATTACK_TASK,
    SCORE_RELEASE_TASK,
    SCORE_TARGET_TASK,
)
from pwscup.synthetic.services.draws import draws_for_teams, team_draw, teams_changed
from pwscup.synthetic.services.freeze import attack_phase_open_now, round_freeze, target_score
from pwscup.synthetic.services.populations import population_upload
from pwscup.synthetic.services.releases import release_score, release_select, release_upload
from pwscup.synthetic.services.rounds import (
    results_publish,
    synthetic_config_validate,
    synthetic_round_close,
    synthetic_round_create,
)

__all__ = [
    "SCORE_ATTACK_TASK",
    "SCORE_RELEASE_TASK",
    "SCORE_TARGET_TASK",
    "attack_phase_open_now",
    "attack_score",
    "attack_upload",
    "draws_for_teams",
    "population_upload",
    "release_score",
    "release_select",
    "release_upload",
    "results_publish",
    "round_freeze",
    "synthetic_config_validate",
    "synthetic_round_close",
    "synthetic_round_create",
    "target_score",
    "team_draw",
    "teams_changed",
]
