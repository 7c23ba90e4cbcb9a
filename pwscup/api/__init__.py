"""The REST API (issue 13): /api/v1/..., its OpenAPI schema at /api/schema/ and the
documentation at /api/docs/.

How it is built
---------------
* Views are thin ``APIView``s (``views/``): they call the same access rules
  (``pwscup.accounts.access.round_access``, ``pwscup.pwscup2015.access``,
  ``pwscup.pwscup2015.leaderboards.access``), selectors and services as the HTML pages, never a copy.
  A rule that lives in a page's view moves to a service or selector first.
* Errors: a service's ``Refused`` (status 400/403/404/413/429), Django's ``Http404`` /
  ``PermissionDenied`` and DRF's exceptions all become ``{"code", "message"}``
  (``pwscup.core.rest``); messages are translated (Accept-Language).
* Authentication: personal tokens (``Authorization: Bearer pws_…``, ``authentication.py``)
  and the session with CSRF. Throttles per token, per user and per anonymous address
  (``throttling.py``, rates in ``settings.PWSCUP_API_THROTTLE_RATES``).
* Output serializers (``serializers.py``) describe the answers for the schema; each view
  declares its answers and errors with ``extend_schema`` (``pwscup.core.rest.errors``).

Adding the endpoints of a round kind (dp, sequential, ...)
----------------------------------------------------------
1. Each kind of upload the kind takes is **declared**: a subclass of
   ``pwscup.submissions.submission_types.SubmissionType`` returned by the kind's
   ``submission_types()``. ``views/submissions.py`` serves its list, upload (202), detail,
   file and select endpoints with their schema, and ``views/rounds.py`` puts it and the
   team's uploads of it in the round status. No view to write.
2. What no other kind has (DP's queries, a kind's downloads): ``APIView`` classes in the
   kind's ``api/`` package. Each round-scoped view takes ``competition_slug, round_slug``,
   calls ``round_access(request, competition_slug, round_slug, kind=KEY)`` (404 for a round
   of another kind), then the kind's own services and selectors; it raises ``Refused`` /
   ``Http404`` / ``PermissionDenied`` as the pages do and documents its answers with
   ``@extend_schema(responses={200: MySerializer, **errors(401, 404)})``
   (``pwscup.core.rest``). Its URL patterns, round-scoped paths starting with
   ``pwscup.core.rest.ROUND_PREFIX``, are returned by the kind's ``api_url_patterns()``; the
   API mounts every kind's (names in the ``api`` namespace).
3. (No line in ``pwscup/api/urls.py``: the API never imports a kind.) The round status's
   downloads and metrics and the standings come from the kind's ``api_module``
   (``round_status``, ``round_leaderboard``; shapes in ``pwscup/kinds/base.py``).
4. Tests in ``tests/pwscup/test_api_<kind>.py``: the kind's access matrix over the API and
   its answers against the schema (``tests/pwscup/test_api_schema.py`` runs schemathesis on
   every endpoint of the schema, the kind's included).

This package's own endpoints are the competitions, my team, who I am, and a round's status
and standings whatever its kind; the 2015 game's are in ``pwscup/pwscup2015/api/``, the DP
round's in ``pwscup/dp/api/``, the other kinds' in their ``api/`` packages; every kind's
declared submission types are served by ``views/submissions.py``.
"""
