"""The names of the synthetic round's tasks, which its services send and ``tasks.py``
registers."""

SCORE_RELEASE_TASK = "pwscup.synthetic.score_release"
SCORE_TARGET_TASK = "pwscup.synthetic.score_target"
SCORE_ATTACK_TASK = "pwscup.synthetic.score_attack"
