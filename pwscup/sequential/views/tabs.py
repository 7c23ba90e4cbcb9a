"""The sequential round's page as the five tabs every kind draws (``pwscup.kinds.tabs``):
Overview, Data, Rules and scoring, Submit, Results. Each tab reads through
``tab_context`` (the sample and the kit through ``kit``, the worked example through
``example``) and renders ``templates/sequential/tabs/<tab>.html``. A tab listing an upload
still being checked reloads itself when the team's live version moves (``static/live.js``),
until the worker's verdict."""

from django.conf import settings
from django.utils.translation import gettext as _

from pwscup.core.toolkit import wheel_filename
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT, UploadGates
from pwscup.sequential import charts, engine, selectors
from pwscup.sequential.example import worked_example
from pwscup.sequential.forms import GuessUploadForm, ReleaseUploadForm
from pwscup.sequential.kit import sample_plan
from pwscup.sequential.models import Release
from pwscup.sequential.views import tab_context as tabs
from pwscup.submissions.round_pages import live_round_page, render_live_tab


def _render(request, access, tab: str, context: dict, *, reload: bool = False, etag: str = ""):
    """The tab; with ``reload`` (a worker checks one of the team's uploads) the page reloads
    itself when the team's live version moves (``render_live_tab``)."""
    template = f"sequential/tabs/{tab}.html"
    return render_live_tab(request, access, tab, template, context, reload=reload, etag=etag)


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


def _standing(state, team, releases) -> dict:
    """Where the team stands: each valid release against the gates, and its current rank on
    the leaderboard (``selectors.leaderboard_rows``, the one owner of the ranking)."""
    config = state.config
    rows = selectors.leaderboard_rows(sequential=state.sequential)
    own = next((row for row in rows if row.team.pk == team.pk), None)
    return {
        "gate_names": engine.gate_names(config),
        "upload_gates": [
            UploadGates(
                label=_("Release %(j)s · #%(n)s") % {"j": r.step, "n": r.number},
                checks=tuple(engine.gate_checks(r.results, config)),
            )
            for r in releases
            if r.status == Release.Status.FINISHED
        ],
        "standing": {
            "frozen": state.sequential.frozen_steps,
            "row": own,
            "ranked": sum(1 for row in rows if row.rank is not None),
        },
    }


def submit(request, access, state, *, etag: str = ""):
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
        context.update(_standing(state, team, uploads))
    uploads += [a for target in context["targets"] for a in target["attacks"]]
    return _render(request, access, SUBMIT, context, reload=tabs.pending(uploads), etag=etag)


def results(request, access, state, *, etag: str = ""):
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
        latest = tabs.latest_finished(releases)
        groups = selectors.release_groups(release=latest) if latest else []
        context.update(
            latest=latest,
            risk_chart=charts.risk_chart(points, m=state.m),
            groups_chart=charts.groups_chart(groups),
            attacks=uploads,
            **_standing(state, team, releases),
        )
    return _render(request, access, RESULTS, context, reload=tabs.pending(uploads), etag=etag)


TABS = {OVERVIEW: overview, DATA: data, RULES: rules, SUBMIT: submit, RESULTS: results}


def round_page(request, access, tab: str):
    """The tab ``tab`` of the round's page (the core checked access)."""

    def state():
        sequential = selectors.sequential_of(round=access.round)
        return tabs.round_state(sequential=sequential, team=access.team)

    return live_round_page(request, access, tab, views=TABS, state=state)
