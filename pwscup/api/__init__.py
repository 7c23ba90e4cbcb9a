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
1. In the kind's app, a module ``api.py`` (a package ``api/`` once it grows: ``views.py``,
   ``round_status.py``) with ``APIView`` classes. Each round-scoped view
   takes ``competition_slug, round_slug``, calls
   ``round_access(request, competition_slug, round_slug)`` and answers 404 when
   ``kind_of(access.round).key`` is not its kind; then it calls the kind's own services
   and selectors. Use ``IsAuthenticated`` where the kind's pages need a login, raise
   ``Refused`` / ``Http404`` / ``PermissionDenied`` as the pages do, document the answers
   with ``@extend_schema(responses={200: MySerializer, **errors(401, 404)})`` from
   ``pwscup.core.rest``, and output serializers in the kind's ``api.py``.
2. A list of URL patterns in that module, round-scoped paths starting with
   ``pwscup.core.rest.ROUND_PREFIX``, returned by the kind's ``api_url_patterns()``; the API
   mounts every kind's (names in the ``api`` namespace: ``reverse("api:dp-queries", ...)``).
3. (No line in ``pwscup/api/urls.py``: the API never imports a kind.) The round status and
   standings every kind answers (``views/rounds.py``: ``…/status/``, ``…/standings/``, what
   the ``pwscup`` client reads) call the kind's ``api_round_status`` and ``api_leaderboard``:
   implement both (shapes in ``pwscup/kinds/base.py``), pointing at the endpoints of step 1.
4. Tests in ``tests/pwscup/test_api_<kind>.py``: the kind's access matrix over the API and
   its answers against the schema (``tests/pwscup/test_api_schema.py`` runs schemathesis on
   every endpoint of the schema, the kind's included).

This package's own endpoints are the competitions, my team, who I am, and a round's status
and standings whatever its kind; the 2015 game's are in ``pwscup/pwscup2015/api/``, the DP
round's in ``pwscup/dp/api/``, the sequential round's in
``pwscup/sequential/api/views.py``.
"""
