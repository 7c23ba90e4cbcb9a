"""The synthetic round's page as the five tabs every kind draws (``pwscup.kinds.tabs``):
Overview, Data, Rules and scoring, Submit, Results. Each tab reads through ``tab_context``
and renders ``templates/synthetic/tabs/<tab>.html``. A tab listing an upload still being
scored reloads itself when the team's live version moves (``static/live.js``).

What a tab shows of the attacks follows ``selectors.visible_half``: the dev half's scores
before the results are published (the live matrix and provisional rankings, for the teams
and the organizers), the final half's, the ROC curves and the picture of utility against
privacy after (for everyone)."""

from django.conf import settings

from pwscup.core.toolkit import install_argument, wheel_filename
from pwscup.kinds.registry import kind_of
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT
from pwscup.submissions.round_pages import live_round_page, pending, render_live_tab
from pwscup.synthetic import charts, selectors
from pwscup.synthetic.forms import AttackUploadForm, ReleaseUploadForm
from pwscup.synthetic.kit import TOOLKIT_EXTRA
from pwscup.synthetic.views import tab_context as tabs
from pwscup.synthetic.views.common import synthetic_of


def _render(request, access, tab: str, context: dict, *, reload: bool = False, etag: str = ""):
    template = f"synthetic/tabs/{tab}.html"
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
            "schedule": kind_of(access.round).schedule_lines(access.round),
        },
    )


def data(request, access, state):
    participant = access.team is not None or access.is_organizer
    return _render(
        request,
        access,
        DATA,
        {
            "state": state,
            "columns": tabs.columns(synthetic=state.synthetic, team=access.team),
            "packs": selectors.pack_populations(synthetic=state.synthetic),
            "drawn": access.team is not None
            and selectors.team_draw_of(synthetic=state.synthetic, team=access.team) is not None,
            "draws": selectors.draws_summary(synthetic=state.synthetic),
            "published": tabs.published_files(state=state, team=access.team) if participant else [],
            "participant": participant,
            "wheel": wheel_filename(),
            "install": install_argument(TOOLKIT_EXTRA),
        },
    )


def rules(request, access, state):
    phase = state.release_phase
    attack_phase = state.attack_phase
    return _render(
        request,
        access,
        RULES,
        {
            "state": state,
            "release_limits": phase,
            "attack_limits": attack_phase,
            "max_upload_mb": settings.PWSCUP_MAX_UPLOAD_BYTES / 2**20,
            "max_failed": settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY,
        },
    )


def submit(request, access, state, *, etag: str = ""):
    team = access.team
    context = {"state": state}
    uploads = []
    if team is not None:
        releases = tabs.team_releases(state=state, team=team)
        targets = tabs.attack_targets(state=state, team=team)
        context.update(
            releases=releases,
            targets=targets,
            ranks=tabs.team_ranks(state=state, team=team),
            upload_form=ReleaseUploadForm(),
            attack_form=AttackUploadForm(),
        )
        uploads = releases + [a for t in targets for a in t["attacks"]]
    return _render(request, access, SUBMIT, context, reload=pending(uploads), etag=etag)


def results(request, access, state, *, etag: str = ""):
    team = access.team
    visible = state.frozen and (state.published or team is not None or access.is_organizer)
    context = {"state": state, "visible": visible}
    if visible:
        half = state.half
        # One matrix read for the page: both rankings are derived from it.
        table = selectors.attack_matrix(synthetic=state.synthetic, half=half)
        release_ranking = selectors.release_ranking(
            synthetic=state.synthetic, half=half, matrix=table
        )
        context.update(
            matrix=tabs.matrix(state=state, table=table),
            release_ranking=release_ranking,
            attack_ranking=selectors.attack_ranking(
                synthetic=state.synthetic, half=half, matrix=table
            ),
            targets_pending=tabs.targets_pending(state=state),
        )
        if state.published:
            # The final half's pictures: never before the results are published.
            context["scatter"] = charts.utility_scatter(
                release_ranking,
                u_ml_min=state.config.u_ml_min,
                own_team_id=team.pk if team is not None else None,
            )
            rocs = selectors.roc_curves(synthetic=state.synthetic)
            colours = charts.curve_colours(rocs)
            context["rocs"] = [
                charts.roc_chart(entry["target"], entry["curves"], colours=colours)
                for entry in rocs
            ]
    uploads = []
    if team is not None:
        uploads = list(selectors.team_attacks(synthetic=state.synthetic, team=team))
    return _render(request, access, RESULTS, context, reload=pending(uploads), etag=etag)


TABS = {OVERVIEW: overview, DATA: data, RULES: rules, SUBMIT: submit, RESULTS: results}


def round_page(request, access, tab: str):
    """The tab ``tab`` of the round's page (the core checked access)."""
    return live_round_page(
        request,
        access,
        tab,
        views=TABS,
        state=lambda: tabs.round_state(synthetic=synthetic_of(access)),
    )
