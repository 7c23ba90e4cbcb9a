"""The 2015 game's task names: the services send their jobs by name
(``pwscup.submissions.broker.job_send``) because ``tasks.py`` imports the services."""

SCORE_ANONYMIZATION = "pwscup.pwscup2015.tasks.score_anonymization"
SCORE_ATTACK = "pwscup.pwscup2015.tasks.score_attack"
SCORE_BUILTIN_ATTACKS = "pwscup.pwscup2015.tasks.score_builtin_attacks"
RUN_ROUND_OPERATION = "pwscup.pwscup2015.tasks.run_round_operation"
