"""The faces of a round kind the core mounts and draws (``RoundKind`` inherits them): its
pages and round page, its REST endpoints and declared submission types, the API's round
status and leaderboard, and the organizer console's pages and panel. Each has a default
read from the kind's module (``views_module``, ``api_module``, ``console_module``: found by
its name in the kind's package, ``pwscup.kinds.layout``, or declared): a kind whose module
has the usual names writes nothing here, and overrides only what it does differently."""

from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import URLPattern, reverse
from django.utils.translation import gettext as _

from pwscup.kinds.layout import KindModule


class FaceHooks:
    """The faces' hooks of ``RoundKind``.

    Attributes
    ----------
    views_module : module
        The kind's pages: ``urlpatterns``, ``round_page(request, access, tab)`` and, if it
        has pages whose address names no round, ``site_urlpatterns``.
    api_module : module
        The kind's API: ``round_status(request, access)``, ``round_leaderboard(request,
        access)``, its own ``urlpatterns`` and its declared ``SUBMISSION_TYPES``.
    console_module : module
        The kind's console: ``urlpatterns``, ``panel_html(request, round)`` or
        ``PANEL_TEMPLATE`` and ``panel_context(round)``; its creation page is the one named
        ``create`` (``create_url(competition)`` if not).
    """

    views_module = KindModule()
    api_module = KindModule()
    console_module = KindModule()

    def url_patterns(self) -> list[URLPattern]:
        """The kind's own pages, mounted by the core under
        ``c/<slug:competition_slug>/<slug:round_slug>/`` in the namespace ``namespace``.

        Every view receives ``competition_slug`` and ``round_slug``; wrap it in
        ``pwscup.accounts.access.kind_view(key)``, which checks access and the round's kind
        (404 for a round of another kind) and passes the ``RoundAccess``. The core also makes
        ``round_access`` answer 404 for a round of another kind under these URLs.
        Default: the declared ``views_module``'s ``urlpatterns``."""
        return getattr(self.views_module, "urlpatterns", [])

    def site_url_patterns(self) -> list[URLPattern]:
        """The kind's pages whose address names no round (an upload by its id:
        ``submissions/<pk>/file``), mounted by the core at the site's root, in the namespace
        ``namespace`` like ``url_patterns()``. Each view checks access itself. Default: the
        declared ``views_module``'s ``site_urlpatterns``, else none."""
        return getattr(self.views_module, "site_urlpatterns", [])

    def round_page(self, request, access, tab: str) -> HttpResponse | None:
        """One tab of the round's page (``pwscup.kinds.tabs``: overview, data, rules, submit,
        results). The core views at ``c/<comp>/<round>/`` (``round_detail``, the overview)
        and ``c/<comp>/<round>/<tab>/`` (``round_tab``) call it with the
        ``pwscup.accounts.access.RoundAccess``; draw it with ``pwscup.kinds.tabs.render_tab``
        and a template extending ``rounds/base.html``.

        Every tab speaks to a newcomer: the overview says the game in plain words, what a
        team submits, how it is ranked, the flow (``rounds/_flow.html``) and what to do now
        (``rounds/_now.html``); the paper's terms come after the plain words. Default: the
        declared ``views_module``'s ``round_page(request, access, tab)``, else ``None``: the
        core draws the tabs from the kind's declarations (``pwscup.pages.declared``: the
        Submit tab's form and uploads of each submission type, the Results tab's
        standings)."""
        page = getattr(self.views_module, "round_page", None)
        return None if page is None else page(request, access, tab)

    def api_url_patterns(self) -> list[URLPattern]:
        """The kind's REST endpoints, mounted by the API under ``/api/`` in its namespace
        ``api`` (``reverse("api:dp-queries", ...)``). Round-scoped paths start with
        ``pwscup.core.rest.ROUND_PREFIX``; each view checks access with ``round_access`` and
        answers 404 for a round of another kind, like the kind's pages. Default: the declared
        ``api_module``'s ``urlpatterns``, else none."""
        return getattr(self.api_module, "urlpatterns", [])

    def submission_types(self) -> list:
        """The kinds of upload the kind takes, each a
        ``pwscup.submissions.submission_types.SubmissionType``: the core serves their REST
        endpoints, their OpenAPI schema and their place in the round status
        (``submission_types`` and ``uploads``, before what ``api_round_status`` adds).
        Default: the declared ``api_module``'s ``SUBMISSION_TYPES``, else none."""
        return getattr(self.api_module, "SUBMISSION_TYPES", [])

    def api_round_endpoints(self) -> list:
        """The kind's own ``GET`` endpoints under the round (its files, its targets), each a
        ``pwscup.submissions.round_endpoints.RoundEndpoint``: the core serves them with the
        round's access rule and their OpenAPI schema. Default: the declared ``api_module``'s
        ``ROUND_ENDPOINTS``, else none."""
        return getattr(self.api_module, "ROUND_ENDPOINTS", [])

    def api_round_status(self, request, access) -> dict:
        """What the API's round status (``GET …/rounds/{r}/status/``, the same for every kind,
        read by ``pwscup status|submit|download``) says about the round for the caller (a
        ``pwscup.accounts.access.RoundAccess``), beside what the core adds itself (the round,
        its kind, the caller's team, ``schedule_lines``, and the declared
        ``submission_types`` with the team's uploads of them). A dict of:

        * ``"downloads"``: the files the caller may download **now**, ``[{"name": str,
          "label": str, "url": str}]`` (never an original, a truth or a release the caller
          may not see yet: each URL checks it again);
        * ``"metrics"``: the scores' names in the order a client prints them, ``[{"key",
          "name", "note", "headline": bool}]`` (``note``: what a missing value means;
          ``headline``: shown in a one-line summary of an upload, ``pwscup status``);
        * ``"notes"`` (optional): what the round's pages tell the caller's team now,
          ``[{"key": str, "text": str}]`` (a scorer round's ``older_scores``), printed by
          ``pwscup status``;
        * ``"submission_types"`` and ``"uploads"``: only for uploads the kind does not
          declare (``submission_types()``), in the shapes of
          ``SubmissionType.status_entry`` and ``SubmissionType.as_json``.

        Raise ``Http404`` where the kind's pages would. Default: the declared
        ``api_module``'s ``round_status(request, access)``, else nothing to upload or fetch."""
        if self.api_module is not None:
            return self.api_module.round_status(request, access)
        return {"submission_types": [], "downloads": [], "uploads": [], "metrics": []}

    def api_leaderboard(self, request, access) -> dict:
        """The round's leaderboard as the API's ``GET …/rounds/{r}/standings/`` gives it to
        any client (``pwscup leaderboard``): ``{"note": str, "tables": [{"title": str,
        "columns": [str], "rows": [[str | number | None]]}]}``, from the same selectors and
        access rule as the kind's leaderboard page: raise ``Http404``, ``PermissionDenied`` or
        ``pwscup.core.errors.Refused`` while the caller may not see it (disqualified teams
        hidden as on the page). Default: the declared ``api_module``'s
        ``round_leaderboard(request, access)``, else no leaderboard (404)."""
        if self.api_module is not None:
            return self.api_module.round_leaderboard(request, access)
        raise Http404(_("This round has no leaderboard."))

    # --- organizer console ------------------------------------------------------------------

    def console_panel(self, request, round) -> str:
        """Rendered HTML inserted in the organizer console's round page (``""``: none).

        Return ``render_to_string(...)`` or ``format_html(...)`` (a ``SafeString``): a plain
        ``str`` is escaped, so that no panel can insert unescaped data by accident. Default:
        the declared ``console_module``'s ``panel_html(request, round)``; else, when it
        declares a ``PANEL_TEMPLATE``, that template with its ``panel_context(round)`` (``None``:
        no panel, a round without the kind's row); else none."""
        if hasattr(self.console_module, "panel_html"):
            return self.console_module.panel_html(request, round)
        template = getattr(self.console_module, "PANEL_TEMPLATE", "")
        context = self.console_module.panel_context(round) if template else None
        return "" if context is None else render_to_string(template, context, request=request)

    def console_url_patterns(self) -> list[URLPattern]:
        """The kind's organizer console pages (e.g. its round creation form), mounted by the
        core under ``console/<slug:competition_slug>/<key>/`` in the namespace
        ``<key>_console`` (``reverse("dp_console:create", args=[competition.slug])``). Each
        view receives ``competition_slug`` and checks the organizer itself
        (``pwscup.competitions.selectors.console_competition``). Default: the declared
        ``console_module``'s ``urlpatterns``, else none."""
        return getattr(self.console_module, "urlpatterns", [])

    def console_create_url(self, competition) -> str | None:
        """The console page that creates a round of this kind in ``competition`` (the
        console's competition page shows one "New <label> round" button per kind). Default:
        the ``console_module``'s ``create_url(competition)``; else its page named ``create``
        (``console_url_patterns()``, namespace ``<key>_console``); else none."""
        create_url = getattr(self.console_module, "create_url", None)
        if create_url is not None:
            return create_url(competition)
        pages = self.console_url_patterns()
        if not any(getattr(page, "name", "") == "create" for page in pages):
            return None
        return reverse(f"{self.key}_console:create", args=[competition.slug])
