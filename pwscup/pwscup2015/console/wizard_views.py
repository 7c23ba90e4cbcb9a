"""The round wizard: upload → roles → data mode → phases → rules → review and create.

Each step checks its answers with the service that owns the rule (``scoring.load_config``
through ``round_data_check``, ``round_settings_check``) and stores them in the session;
the original stays in private storage between steps (``pwscup.pwscup2015.console.wizard``).
"""

import datetime as dt
import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

import scoring
from pwscup.competitions.models import Phase
from pwscup.competitions.round_create import draft_cancel_view, round_basics
from pwscup.competitions.selectors import console_competition
from pwscup.core.errors import scoring_errors_by
from pwscup.core.form_fields import add_errors
from pwscup.core.session_drafts import draft_upload
from pwscup.core.time_zones import default_time_zone
from pwscup.pwscup2015.console import services, wizard
from pwscup.pwscup2015.console.data_forms import (
    ROLE_FIELDS,
    ROLE_NOTES,
    DataModeForm,
    RolesForm,
    UploadForm,
    initial_roles,
)
from pwscup.pwscup2015.console.forms import RulesForm
from pwscup.pwscup2015.console.phase_forms import PhasesForm, phases_of, windows_of
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.ranking import gates_text
from pwscup.pwscup2015.services.rounds import round_data_check, round_settings_check
from pwscup.pwscup2015.value_ranges import ranges_text
from pwscup.submissions.two_sided_forms import windows_initial

# ``scoring.load_config``'s errors carry the configuration key at fault (``params["key"]``,
# ``domains.<column>`` for a domain); each message, in the page's language, goes next to it.
_CONFIG_FIELD = {"domains": "number_domain"}
# The phases step's windows, started as the two-sided rounds' forms start theirs.
SIDES = ("anonymization", "attack")
STEP_TITLES = {
    "upload": gettext_lazy("1. Original table"),
    "roles": gettext_lazy("2. Column roles"),
    "data": gettext_lazy("3. Data mode"),
    "phases": gettext_lazy("4. Phases"),
    "rules": gettext_lazy("5. Ranking rules"),
    "review": gettext_lazy("6. Review and create"),
}


def _config_field(error) -> str:
    """The roles step's field an error of ``scoring.load_config`` is about: its key's (the
    domains' check boxes for ``domains``), else the form as a whole (a key the step has no
    field for: ``indicators``, ``columns``; none: unknown keys)."""
    key = str(error.params.get("key", "")).split(".")[0]
    return _CONFIG_FIELD.get(key, key) or NON_FIELD_ERRORS


def _page(request, competition, state, step, **extra):
    """The wizard's page at ``step`` (``extra``: the step's own context)."""
    context = {
        "competition": competition,
        "state": state,
        "step": step,
        "steps": [(s, STEP_TITLES[s], wizard.step_allowed(state, s)) for s in wizard.STEPS],
        **extra,
    }
    return render(request, "pwscup2015/wizard.html", context)


def _to_upload(competition):
    """Back to the first step: after an upload, or from a step that is not open yet."""
    return redirect("pwscup2015_console:wizard_upload", competition.slug)


def _step_done(request, competition, state, step):
    """Mark ``step`` done, keep the answers in the session and go on to the next step."""
    wizard.mark_done(state, step)
    wizard.wizard_save(request.session, competition.pk, state)
    following = wizard.STEPS[wizard.STEPS.index(step) + 1]
    return redirect(f"pwscup2015_console:wizard_{following}", competition.slug)


def _start(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    return competition, wizard.wizard_state(request.session, competition.pk)


def _step(step):
    """The view of a step after the upload: ``view(request, competition, state)``, once the
    steps before it are done (else back to the first step)."""

    def decorate(view):
        @login_required
        @functools.wraps(view)
        def step_view(request, competition_slug):
            competition, state = _start(request, competition_slug)
            if not wizard.step_allowed(state, step):
                return _to_upload(competition)
            try:
                return view(request, competition, state)
            except wizard.DraftLost:
                return _draft_lost(request, competition)

        return step_view

    return decorate


def _draft_lost(request, competition):
    """The original is no longer kept: forget it, say so, back to the first step."""
    wizard.DRAFTS.lost(request, competition.pk)
    return _to_upload(competition)


def _profiles(state):
    table = wizard.read_original(wizard.wizard_original(state))
    return table, wizard.column_profiles(table)


@login_required
def step_upload(request, competition_slug):
    competition, state = _start(request, competition_slug)
    posted = request.method == "POST"
    form = UploadForm(
        request.POST if posted else None, request.FILES or None, kept=bool(state.get("file"))
    )
    if form.goes_on_with_kept():
        return _step_done(request, competition, state, "upload")  # the kept original stays
    kept = draft_upload(
        request,
        form,
        "original",
        read=lambda content, _name: wizard.read_original(content),
        store=lambda content, name: wizard.wizard_store_upload(
            request.session, competition.pk, content=content, filename=name
        ),
    )
    if kept is not None:
        table, state = kept
        state["rows"] = len(table)
        state["config"] = wizard.default_config(wizard.column_profiles(table))
        wizard.wizard_save(request.session, competition.pk, state)
        return _to_upload(competition)
    extra = {"form": form}
    if state.get("file"):
        try:
            table, profiles = _profiles(state)
        except wizard.DraftLost:
            return _draft_lost(request, competition)
        extra.update(
            profiles=profiles,
            preview_columns=list(table.columns),
            preview=table.head(wizard.PREVIEW_ROWS).to_numpy().tolist(),
        )
    return _page(request, competition, state, "upload", **extra)


@_step("roles")
def step_roles(request, competition, state):
    table, profiles = _profiles(state)
    form = RolesForm(
        request.POST or None,
        request.FILES or None,
        columns=[p.name for p in profiles],
        initial=initial_roles(state.get("config") or {}),
    )
    if request.method == "POST" and form.is_valid():
        try:
            raw = form.raw_config()
            checked = round_data_check(original=wizard.wizard_original(state), config_raw=raw)
        except ValidationError as error:
            add_errors(form, error)
        except scoring.ConfigError as error:
            from_file = bool(form.cleaned_data.get("config_file"))
            place = (lambda _item: "config_file") if from_file else _config_field
            add_errors(form, scoring_errors_by(error, place))
        except scoring.ScoringError as error:
            form.add_error(None, error.render(get_language()))
        else:
            state["config"] = checked.config
            return _step_done(request, competition, state, "roles")
    # One row per column, one check box per role (each labelled for screen readers).
    checkboxes = {
        name: {box.data["value"]: box for box in form[name]}
        for name in (*ROLE_FIELDS, "number_domain")
    }
    rows = [
        (profile, [(name, checkboxes[name][profile.name]) for name in checkboxes])
        for profile in profiles
    ]
    return _page(
        request,
        competition,
        state,
        "roles",
        form=form,
        profiles=profiles,
        role_rows=rows,
        role_notes=ROLE_NOTES,
    )


def _settings_errors(form, state, **values) -> bool:
    """Run ``round_settings_check`` on the step's answers (``values``) with those the other
    steps kept (data mode, gates, tie-break metric), and put its messages next to the form's
    fields."""
    rules = state.get("rules") or {}
    data = state.get("data") or {}
    kept = {
        "utility_gates": rules.get("utility_gates", {}),
        "tie_break_metric": rules.get("tie_break_metric", "U1"),
        "data_mode": data.get("data_mode"),
        "sample_size": data.get("sample_size"),
    }
    try:
        round_settings_check(**{**kept, **values})
    except ValidationError as error:
        add_errors(form, error)
        return False
    return True


@_step("data")
def step_data(request, competition, state):
    form = DataModeForm(
        request.POST or None,
        initial=state.get("data") or {"data_mode": Pwscup2015Round.DataMode.SHARED},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if _settings_errors(
            form,
            state,
            timezone=state.get("timezone") or default_time_zone(),
            data_mode=data["data_mode"],
            sample_size=data["sample_size"],
        ):
            state["data"] = data
            return _step_done(request, competition, state, "data")
    return _page(request, competition, state, "data", form=form)


def _phases_to_session(cleaned: dict) -> dict:
    return {k: (v.isoformat() if isinstance(v, dt.datetime) else v) for k, v in cleaned.items()}


def _phases_from_session(stored: dict) -> dict:
    result = {}
    for key, value in stored.items():
        result[key] = (
            dt.datetime.fromisoformat(value)
            if key.endswith(("_opens_at", "_closes_at")) and value
            else value
        )
    return result


def _local_initial(stored: dict) -> dict:
    """Stored aware times back as naive times of the round's zone, for the form."""
    initial = _phases_from_session(stored)
    return {
        k: (v.replace(tzinfo=None) if isinstance(v, dt.datetime) else v) for k, v in initial.items()
    }


@_step("phases")
def step_phases(request, competition, state):
    stored = state.get("phases")
    initial = (
        _local_initial(stored)
        if stored
        else windows_initial(now=timezone.now(), time_zone=default_time_zone(), sides=SIDES)
    )
    form = PhasesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        cleaned = form.cleaned_data
        ok = _settings_errors(
            form,
            state,
            timezone=cleaned["timezone"],
            phases=windows_of(phases_of(cleaned)),
            allow_attack_before_close=cleaned["allow_attack_before_close"],
            slug=cleaned["slug"],
            competition=competition,
        )
        if ok:
            state["phases"] = _phases_to_session(cleaned)
            return _step_done(request, competition, state, "phases")
    return _page(request, competition, state, "phases", form=form)


@_step("rules")
def step_rules(request, competition, state):
    form = RulesForm(
        request.POST or None,
        initial=dict(state.get("rules") or {}),
        columns=state["config"].get("columns") or [],
    )
    if request.method == "POST" and form.is_valid():
        rules = form.cleaned_data
        phases = state["phases"]
        if _settings_errors(
            form,
            state,
            timezone=phases["timezone"],
            utility_gates=rules["utility_gates"],
            value_ranges=rules["value_ranges"],
            published_rows=rules["published_rows"],
            config=state["config"],
            tie_break_metric=rules["tie_break_metric"],
        ):
            state["rules"] = rules
            return _step_done(request, competition, state, "rules")
    return _page(request, competition, state, "rules", form=form)


@_step("review")
def step_review(request, competition, state):
    phases_form = _phases_from_session(state["phases"])
    phases = phases_of(phases_form)
    if request.method == "POST":
        try:
            round_ = services.console_round_create(
                user=request.user,
                basics=round_basics(phases_form, competition=competition),
                original=wizard.wizard_original(state),
                original_filename=state["filename"],
                config=state["config"],
                data=state["data"],
                phases=phases,
                rules=state["rules"],
                allow_attack_before_close=phases_form["allow_attack_before_close"],
            )
        except (ValidationError, scoring.ScoringError) as error:
            text = (
                error.render(get_language())
                if isinstance(error, scoring.ScoringError)
                else " ".join(error.messages)
            )
            messages.error(request, text)
        else:
            wizard.wizard_clear(request.session, competition.pk)
            messages.success(request, _("Round created."))
            return redirect("console:round", competition.slug, round_.slug)
    return _page(
        request,
        competition,
        state,
        "review",
        phases=phases,
        labels={
            "data_mode": Pwscup2015Round.DataMode(state["data"]["data_mode"]).label,
            "ranking_rule": Pwscup2015Round.RankingRule(state["rules"]["ranking_rule"]).label,
            "selection_rule": Pwscup2015Round.SelectionRule(state["rules"]["selection_rule"]).label,
            "attack_visibility": Pwscup2015Round.AttackVisibility(
                state["rules"]["attack_visibility"]
            ).label,
            "phases": dict(Phase.Kind.choices),
        },
        gates_text=gates_text(state["rules"].get("utility_gates")),
        ranges_text=ranges_text(state["rules"].get("value_ranges")),
        round_name=phases_form["name"],
        round_slug=phases_form["slug"],
        timezone=phases_form["timezone"],
    )


wizard_cancel = draft_cancel_view(wizard.DRAFTS, "console:competition")
