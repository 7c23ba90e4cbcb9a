"""``pwscup``: the teams' command-line client of the platform's REST API (issue 13).

Standard library only (``urllib``), and importing it loads neither Django nor Celery nor
pandas: a team installs the project (or copies this folder) and scripts its loop,
``anonymize → pwscup submit ROUND FILE --wait → read the scores``. See ``pwscup --help``.
"""
