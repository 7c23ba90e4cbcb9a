"""The scorer round's page as the five tabs every kind draws (``pwscup.kinds.tabs``):
Overview, Data, Rules and scoring, Submit, Results. Each tab reads through ``tab_context``
(``results_context`` for the rankings) and renders ``templates/scorer/tabs/<tab>.html``. A
tab listing an upload still being scored reloads itself when the team's live version moves
(``static/live.js``).

What a tab shows of an attack's scores follows ``selectors.attack_visibility`` (exact, band
or hidden while the results are not published); the rankings and the matrix are shown to the
organizers, and to everyone once the results are published."""

from django.conf import settings

from pwscup.kinds.registry import kind_of
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT
from pwscup.scorer import selectors
from pwscup.scorer.models import DataPack
from pwscup.scorer.views import results_context
from pwscup.scorer.views import tab_context as tabs
from pwscup.scorer.views.common import scorer_of
from pwscup.scorer.views.forms import AttackUploadForm, ReleaseUploadForm
from pwscup.submissions.round_pages import live_round_page, pending, render_live_tab


def _render(request, access, tab: str, context: dict, *, reload: bool = False, etag: str = ""):
    template = f"scorer/tabs/{tab}.html"
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
    scorer = state.scorer
    context = {"state": state, "participant": participant}
    if participant:
        packs = selectors.current_packs(
            scorer=scorer, choice=selectors.team_choice_key(scorer=scorer, team=access.team)
        )
        slots = selectors.slot_of(scorer=scorer, team=access.team) if access.team else None
        context.update(
            public_pack=packs.get(DataPack.Role.PUBLIC),
            slot=slots,
            slot_members=selectors.slot_members(pack=packs.get(DataPack.Role.SLOTS), slot=slots),
            all_slots=list(scorer.slots.select_related("team")) if access.is_organizer else [],
            has_slots_pack=DataPack.Role.SLOTS in packs,
            targets=list(selectors.round_targets(scorer=scorer)) if state.frozen else [],
        )
    return _render(request, access, DATA, context)


def rules(request, access, state):
    return _render(
        request,
        access,
        RULES,
        {
            "state": state,
            "release_limits": state.release_phase,
            "attack_limits": state.attack_phase,
            "max_upload_mb": settings.PWSCUP_MAX_UPLOAD_BYTES / 2**20,
            "max_failed": settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY,
            "gates": [
                {"key": gate.key, "min": gate.bound == "min", "value": gate.value}
                for gate in state.config.gates
            ],
        },
    )


def submit(request, access, state, *, etag: str = ""):
    team = access.team
    context = {"state": state}
    uploads = []
    if team is not None:
        releases = tabs.release_rows(state=state, team=team)
        attacks = tabs.attack_rows(state=state, team=team, is_organizer=access.is_organizer)
        context.update(
            releases=releases,
            attacks=attacks,
            choices=tabs.target_choices(state=state, team=team),
            upload_form=ReleaseUploadForm(),
            attack_form=AttackUploadForm(),
        )
        uploads = releases + attacks
    return _render(request, access, SUBMIT, context, reload=pending(uploads), etag=etag)


def results(request, access, state, *, etag: str = ""):
    team = access.team
    visible = state.published or access.is_organizer
    context = {"state": state, "visible": visible}
    uploads = []
    if visible:
        context.update(results_context.results_tables(state=state, team=team))
    if team is not None and not state.published:
        attacks = tabs.attack_rows(state=state, team=team, is_organizer=access.is_organizer)
        context.update(
            own=results_context.own_summary(state=state, team=team),
            attacks=attacks,
        )
        uploads = attacks
    return _render(request, access, RESULTS, context, reload=pending(uploads), etag=etag)


TABS = {OVERVIEW: overview, DATA: data, RULES: rules, SUBMIT: submit, RESULTS: results}


def round_page(request, access, tab: str):
    """The tab ``tab`` of the round's page (the core checked access)."""
    return live_round_page(
        request, access, tab, views=TABS, state=lambda: tabs.round_state(scorer=scorer_of(access))
    )
