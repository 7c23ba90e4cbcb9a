"""The toy game: a round kind written the way a new game is, in one folder, with one
registration line, and the walk-through of docs/architecture.md ("How to add a game").

Its layout is every kind's layout (each kind of ``pwscup/``: ``pwscup2015``, ``dp``,
``sequential``, ``synthetic``, ``scorer``):

* ``kind.py``      the ``RoundKind`` subclass: the hooks it answers its own way (its
  lifecycle actions, schedule, jobs), each one call into the modules below;
* ``models.py``    the kind's state beside ``Round`` and its uploads (the core's fields);
* ``services.py``  writes: create a round, keep an upload (``upload_keep``), the job;
* ``selectors.py`` reads: the leaderboard (without disqualified teams);
* ``views.py``     its own pages (mounted under the round, namespace = the key): no
  ``round_page``, so the core draws its tabs from its declarations
  (``pwscup.pages.declared``);
* ``api.py``       its declared submission type (the core serves its REST endpoints and the
  Submit tab's form) and the round status and standings the ``pwscup`` client reads;
* ``console.py``   the organizer's pages (mounted under ``console/<competition>/<key>/``);
* ``actions.py``   the lifecycle actions the console offers (close, publish), which
  ``kind.py`` returns (``console_actions``);
* ``bundle.py``    the round in a competition bundle; ``archive.py`` in the results archive;
* ``player.py``    how the conformance suite (``tests/kinds/``) plays it — a real kind's
  player is in ``tests/kinds/<kind>/player.py``.

The toy lives only in the tests: the registration line is in ``player.py``'s ``install``
(an app's ``AppConfig.ready()`` for a real kind), which also creates its tables (a real kind
has migrations)."""
