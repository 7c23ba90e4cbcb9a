"""The sequential round's page as the five tabs every kind draws (``pwscup.kinds.tabs``):
Overview, Data, Rules and scoring, Submit, Results. Each tab reads through
``tab_selectors`` (the sample and the kit through ``kit``, the worked example through
``example``) and renders ``templates/sequential/tabs/<tab>.html``. A tab listing an upload
still being checked reloads itself until the worker's verdict."""

from django.conf import settings

from pwscup.core.toolkit import wheel_filename
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT, render_tab
from pwscup.sequential import charts, selectors
from pwscup.sequential import tab_selectors as tabs
from pwscup.sequential.example import worked_example
from pwscup.sequential.forms import GuessUploadForm, ReleaseUploadForm
from pwscup.sequential.kit import sample_plan

REFRESH_SECONDS = 3


def _render(request, access, tab: str, context: dict, *, reload: bool = False):
    response = render_tab(request, access, tab, f"sequential/tabs/{tab}.html", context)
    if reload:
        # A worker checks an upload: reload. The address is given because a bare refresh of
        # an address with a fragment (".../submit/#uploads", where an upload lands) would
        # only scroll to the fragment, not load the page again.
        response["Refresh"] = f"{REFRESH_SECONDS}; url={request.get_full_path()}"
    return response


def overview(request, access, state):
    return _render(
        request,
        access,
        OVERVIEW,
        {
            "state": state,
            "flow": tabs.flow(state=state, team=access.team),
            "next_steps": tabs.next_steps(state=state, team=access.team),
            "schedule": tabs.schedule(state=state),
        },
    )


def data(request, access, state):
    context = {"state": state, "wheel": wheel_filename()}
    if access.team is not None and state.has_master:
        context["rows"] = tabs.data_rows(state=state, team=access.team)
        context["sample"] = sample_plan(sequential=state.sequential, team=access.team)
    return _render(request, access, DATA, context)


def rules(request, access, state):
    gates = state.config.get("utility_gates") or {}
    return _render(
        request,
        access,
        RULES,
        {
            "state": state,
            "example": worked_example(),
            "gates_text": ", ".join(f"{k} ≤ {v:g}" for k, v in gates.items()),
            "release_header": selectors.release_header(config=state.config, step=1),
            "max_upload_mb": settings.PWSCUP_MAX_UPLOAD_BYTES / 2**20,
            "max_failed": settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY,
        },
    )


def submit(request, access, state):
    team = access.team
    context = {
        "state": state,
        "targets": tabs.attack_targets(state=state, team=team),
        "guess_form": GuessUploadForm(),
    }
    uploads = []
    if team is not None and state.has_master:
        context.update(tabs.submit_context(state=state, team=team))
        context["upload_form"] = ReleaseUploadForm(steps=state.open_steps)
        uploads = context["releases"]
    uploads += [a for target in context["targets"] for a in target["attacks"]]
    return _render(request, access, SUBMIT, context, reload=tabs.pending(uploads))


def results(request, access, state):
    team, sequential = access.team, state.sequential
    context = {
        "state": state,
        "leaderboard": access.is_organizer or team is not None or sequential.results_published,
    }
    uploads = []
    if team is not None:
        releases = tabs.team_uploads(sequential=sequential, team=team)
        points = selectors.risk_points(sequential=sequential, team=team)
        uploads = tabs.team_attacks(sequential=sequential, team=team)
        context.update(
            latest=tabs.latest_finished(releases),
            risk_chart=charts.risk_chart(points, m=state.m),
            attacks=uploads,
        )
    return _render(request, access, RESULTS, context, reload=tabs.pending(uploads))


TABS = {OVERVIEW: overview, DATA: data, RULES: rules, SUBMIT: submit, RESULTS: results}


def round_page(request, access, tab: str):
    """The tab ``tab`` of the round's page (the core checked access)."""
    sequential = selectors.sequential_of(round=access.round)
    state = tabs.round_state(sequential=sequential, team=access.team)
    return TABS[tab](request, access, state)
