"""The organizer's side of a synthetic round: the two-step page creating one (mounted at
``console/<comp>/synthetic/new/``) and the round's console panel. The lifecycle actions
(close, freeze, publish, hide) are ``actions.py``'s, listed by the core's round page.
Organizers of the competition only (``console_competition``: 404 for anyone else).

Step 1 takes the original table, checks it and keeps it as a draft (``drafts``); step 2
proposes each column's role, the label, the sizes and the windows, and creates the round
through ``services.synthetic_round_create``, its errors shown next to their fields."""

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.competitions.choice_selectors import round_choices
from pwscup.competitions.console_posts import console_post_answer
from pwscup.competitions.round_create import (
    draft_cancel_view,
    round_create_page,
    round_identity,
)
from pwscup.competitions.selectors import console_competition, console_round
from pwscup.core.errors import Refused
from pwscup.core.form_fields import upload_within_limit
from pwscup.core.session_drafts import draft_bytes, draft_upload
from pwscup.submissions.selectors import upload_counts
from pwscup.submissions.services.auto_freeze_state import auto_freeze_panel
from pwscup.submissions.two_sided_forms import two_sided_form
from pwscup.submissions.two_sided_phases import (
    named_phases,
    panel_state,
)
from pwscup.synthetic import drafts, engine, selectors, services
from pwscup.synthetic.forms import OriginalForm, PopulationForm, SettingsForm, settings_initial
from pwscup.synthetic.models import SynAttack, SynRelease
from scoring.errors import ScoringError
from scoring.synthetic.draws import disjoint_teams


def _read(content: bytes, filename: str):
    """The draft's table as text cells, or the reason it cannot be read (reader's language)."""
    try:
        return drafts.table_frame(content, filename=filename), ""
    except ScoringError as error:
        return None, error.render(get_language())


@login_required
def round_create(request, competition_slug):
    """Step 1: the original table, checked (encoding, header, cells) and kept as a draft."""
    competition = console_competition(user=request.user, slug=competition_slug)
    draft = drafts.DRAFTS.get(request.session, competition.pk)
    posted = request.method == "POST"
    form = OriginalForm(
        request.POST if posted else None, request.FILES or None, kept=draft is not None
    )
    if form.goes_on_with_kept():  # sent without a file: the kept table stays
        return redirect("synthetic_console:settings", competition.slug)
    kept = draft_upload(
        request,
        form,
        "original",
        read=lambda content, name: drafts.table_frame(content, filename=name),
        store=lambda content, name: drafts.DRAFTS.store(
            request.session, competition.pk, content=content, filename=name
        ),
    )
    if kept is not None:
        return redirect("synthetic_console:settings", competition.slug)
    return render(
        request,
        "synthetic/console_create.html",
        {"competition": competition, "form": form, "draft": draft, "step": 1},
    )


def _lost_draft(request, competition):
    drafts.DRAFTS.lost(request, competition.pk)
    return redirect("synthetic_console:create", competition.slug)


def _capacity(form: SettingsForm, rows: int) -> int | None:
    """How many teams get rows of their own with the sizes the form shows (proposed, or as
    posted back with an error); None while a size is not a positive whole number."""
    sizes = {}
    for key in engine.SIZE_KEYS:
        try:
            sizes[key] = int(form[key].value())
        except (TypeError, ValueError):
            return None
        if sizes[key] < 1:
            return None
    return disjoint_teams(rows, **sizes)


@login_required
def round_create_settings(request, competition_slug):
    """Step 2: column roles, label, sizes, gates, windows; creates the round."""
    competition = console_competition(user=request.user, slug=competition_slug)
    draft = drafts.DRAFTS.get(request.session, competition.pk)
    if draft is None:
        messages.info(request, _("Upload the original table first."))
        return redirect("synthetic_console:create", competition.slug)
    content = draft_bytes(draft)
    if content is None:
        return _lost_draft(request, competition)
    frame, problem = _read(content, draft.filename)
    if frame is None:
        messages.error(request, problem)
        return _lost_draft(request, competition)
    profiles = drafts.column_profiles(frame)
    columns = [p.name for p in profiles]
    initial = functools.partial(
        settings_initial, profiles=profiles, label=drafts.proposed_label(profiles), rows=len(frame)
    )
    form = two_sided_form(request, SettingsForm, initial, columns=columns)

    def create(data):
        synthetic = services.synthetic_round_create(
            **round_identity(data, competition=competition, user=request.user),
            table=content,
            table_filename=draft.filename,
            config=form.config(),
            **form.windows(),
        )
        drafts.DRAFTS.clear(request.session, competition.pk)
        return synthetic

    def shown(form):
        return {
            "draft": draft,
            "rows": len(frame),
            "capacity": _capacity(form, len(frame)),
            "columns": [
                {"profile": profile, "field": field}
                for profile, field in zip(profiles, form.role_fields(), strict=True)
            ],
            "step": 2,
        }

    done = _("The round is created and the draws are made.")
    page = "synthetic/console_settings.html"
    return round_create_page(
        request, competition, form, create, page, created_message=done, context=shown
    )


# Start over: the draft's file is deleted.
round_create_cancel = draft_cancel_view(drafts.DRAFTS, "synthetic_console:create")


@login_required
@require_POST
def population_upload(request, competition_slug, round_slug):
    """The population of one of the round's data packs (``services.population_upload``);
    back to the round's console page with what was kept or why it was refused."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    synthetic = selectors.synthetic_of(round_)
    if synthetic is None:
        raise Http404("Not a synthetic round.")
    form = PopulationForm(request.POST, request.FILES, choices=round_choices(round=round_))

    def upload() -> str:
        if not form.is_valid():
            raise Refused(_("Choose a data pack and a CSV file."))
        if (table := upload_within_limit(form, "table")) is None:
            raise Refused(_("The file is larger than the upload limit."))
        stored = services.population_upload(
            synthetic=synthetic,
            key=form.cleaned_data["choice"],
            table=table.read(),
            filename=table.name,
            user=request.user,
        )
        return _("The population of %(key)s is kept: %(rows)d rows.") % {
            "key": stored.choice_key,
            "rows": stored.rows,
        }

    return console_post_answer(request, round_, upload)


urlpatterns = [
    path("new/", round_create, name="create"),
    path("new/settings/", round_create_settings, name="settings"),
    path("new/cancel/", round_create_cancel, name="cancel"),
    path("rounds/<slug:round_slug>/population/", population_upload, name="population"),
]


# --- the round's panel -------------------------------------------------------------------------


# The round's panel on the console's round page: the core renders it with ``panel_context``.
PANEL_TEMPLATE = "synthetic/console_panel.html"


def panel_context(round_) -> dict | None:
    """What the panel shows: the draws' sizes and disjointness, the counts of releases,
    targets and attacks, the freeze and the publication. Nothing secret: sizes and counts,
    no row, no label, no final-half score."""
    synthetic = selectors.synthetic_of(round_)
    if synthetic is None:
        return None
    config = engine.round_config(round_)
    packs = selectors.pack_populations(synthetic=synthetic)
    return {
        "round": round_,
        "synthetic": synthetic,
        **panel_state(synthetic),
        "auto_freeze": auto_freeze_panel(synthetic),
        "summary": selectors.draws_summary(synthetic=synthetic, kept_sizes=True, packs=packs),
        "config": config,
        "columns": [(column, config.roles[column]) for column in config.columns],
        "phases": named_phases(round_),
        "releases": upload_counts(SynRelease.objects.filter(synthetic=synthetic), teams=True),
        "targets": len(selectors.targets(synthetic=synthetic)),
        "attacks": upload_counts(SynAttack.objects.filter(target__synthetic=synthetic), teams=True),
        "packs": packs,
        "population_form": PopulationForm(choices=round_choices(round=round_)),
    }
