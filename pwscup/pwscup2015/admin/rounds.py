"""The 2015 game's page of its rounds in the admin: the core's round with the game's settings
(``Pwscup2015Round``) and its data on one form. The core's round admin
(``pwscup.competitions.admin_rounds``) shows it for the game's rounds only
(``Pwscup2015Kind.admin_round_page``) and as its *Add round* page; the game's actions in the
list of rounds are ``pwscup.pwscup2015.actions.ADMIN_ACTIONS``."""

from dataclasses import replace

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

import scoring
from pwscup.competitions.admin_rounds import PhaseInline, RoundPageAdmin
from pwscup.competitions.admin_scope import PrivateFileWidget
from pwscup.competitions.models import Round
from pwscup.competitions.round_create import round_basics
from pwscup.core.errors import scoring_validation_errors
from pwscup.core.json_input import BoundedJSONFormField, json_input
from pwscup.core.stored import stored_bytes
from pwscup.core.time_zones import TimeZoneField, default_time_zone
from pwscup.kinds import get_kind
from pwscup.pwscup2015 import KEY
from pwscup.pwscup2015.admin.phases import ALLOW_FIELD, Pwscup2015PhaseInline, allow_ticked
from pwscup.pwscup2015.console.phase_forms import attack_before_close
from pwscup.pwscup2015.console.services import console_round_create, console_round_update
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.selectors.operations import round_operations_summary
from pwscup.pwscup2015.services import round_assign_samples
from pwscup.pwscup2015.services.rounds import (
    RULE_FIELDS,
    round_data_check,
    round_settings_check,
)


def game_of(round_: Round | None) -> Pwscup2015Round | None:
    """The round's 2015 game settings; ``None`` for a new round."""
    if round_ is None or round_.pk is None:
        return None
    return getattr(round_, "pwscup2015", None)


def game_field(name: str, **kwargs):
    """The form field of a ``Pwscup2015Round`` field, as its model declares it."""
    return Pwscup2015Round._meta.get_field(name).formfield(**kwargs)


#: The 2015 game's settings this form edits, kept in ``Pwscup2015Round``.
GAME_FIELDS = ("data_mode", "sample_size", "decoy_count", *RULE_FIELDS)

# What every round has (``round_core_update``), edited here beside the game's settings.
ROUND_CORE_FIELDS = ("name", "slug", "order", "timezone", "quota_reset_hour")


class RoundAdminForm(forms.ModelForm):
    """A round with its 2015 game settings on one page: the round's own fields come from
    ``Round``, the settings (declared below, so that the fieldsets may name them) from
    ``Pwscup2015Round``, saved by ``RoundAdmin.save_model``."""

    config_file = forms.FileField(
        label=_("Round configuration file (JSON)"),
        required=False,
        help_text=_("Optional: replaces the configuration below."),
    )
    data_mode = game_field("data_mode")
    sample_size = game_field("sample_size")
    decoy_count = game_field("decoy_count")
    utility_gates = game_field(
        "utility_gates",
        form_class=BoundedJSONFormField,
        help_text=_(
            "Bounds a submission must meet to be ranked. A bare number is an upper bound "
            'for U1–U6 ({"U1": 100} means U1 ≤ 100); any other metric needs a direction: '
            '{"S1": {"min": 5}} (S1 ≥ 5), {"E1": {"max": 0.5}}.'
        ),
    )
    value_ranges = game_field("value_ranges", form_class=BoundedJSONFormField)
    published_rows = game_field("published_rows")
    tie_break_metric = game_field(
        "tie_break_metric",
        help_text=_(
            "Equal safety is broken by this metric in its own direction (lower U1–U6 and "
            "attack rates, higher S1/S2 are better)."
        ),
    )
    ranking_rule = game_field("ranking_rule")
    selection_rule = game_field("selection_rule")
    attack_visibility = game_field("attack_visibility")
    auto_freeze = game_field("auto_freeze")
    # The console's box, checked with the phases (``PhaseOrderFormSet``, then the service).
    allow_attack_before_close = forms.BooleanField(
        label=_("Allow the attack phase to open before the anonymization phase closes"),
        required=False,
    )
    timezone = TimeZoneField(label=capfirst(Round._meta.get_field("timezone").verbose_name))

    class Meta:
        model = Round
        fields = (
            "competition",
            "name",
            "slug",
            "order",
            "original_file",
            "config",
            "timezone",
            "quota_reset_hour",
        )
        field_classes = {"config": BoundedJSONFormField}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A configuration file may replace it; ``scoring.load_config`` says what is missing.
        self.fields["config"].required = False
        # Left out (a form posted before the page had it): the round's hour stays.
        self.fields["quota_reset_hour"].required = False
        self.game = game_of(self.instance)
        if self.game is not None:
            for name in GAME_FIELDS:
                self.initial.setdefault(name, getattr(self.game, name))
            self.initial.setdefault(ALLOW_FIELD, attack_before_close(self.instance))

    @property
    def game_settings(self) -> dict:
        """The cleaned 2015 game settings (an emptied range rule is no range: ``{}``)."""
        settings = {name: self.cleaned_data[name] for name in GAME_FIELDS}
        settings["value_ranges"] = settings["value_ranges"] or {}
        return settings

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("quota_reset_hour") is None and "quota_reset_hour" not in self.errors:
            cleaned["quota_reset_hour"] = self.instance.quota_reset_hour
        try:
            round_settings_check(
                slug=cleaned.get("slug"),
                # A saved round's competition is shown, not posted (it stays there).
                competition=cleaned.get("competition")
                if "competition" in self.fields
                else self.instance.competition,
                current=self.instance,
                # Refused by its field already when it is not a time zone.
                timezone=cleaned.get("timezone") or default_time_zone(),
                utility_gates=cleaned.get("utility_gates", {}),
                value_ranges=cleaned.get("value_ranges", {}),
                published_rows=cleaned.get("published_rows"),
                tie_break_metric=cleaned.get("tie_break_metric", "U1"),
                data_mode=cleaned.get("data_mode", Pwscup2015Round.DataMode.SHARED),
                sample_size=cleaned.get("sample_size"),
                config=cleaned.get("config") if isinstance(cleaned.get("config"), dict) else None,
            )
        except ValidationError as error:
            self.add_error(None, error)
        upload = cleaned.get("original_file")
        if not upload:
            return cleaned
        config_raw = cleaned.get("config") or {}
        if cleaned.get("config_file"):
            try:
                config_raw = json_input(cleaned["config_file"].read())
            except ValidationError as error:
                self.add_error("config_file", error)
                return cleaned
        original = upload.read() if hasattr(upload, "read") else stored_bytes(upload)
        if hasattr(upload, "seek"):
            upload.seek(0)
        try:
            self.checked = round_data_check(original=original, config_raw=config_raw)
        except scoring.ConfigError as error:
            # Every error found, one message each, in the reader's language.
            self.add_error("config", scoring_validation_errors(error))
        except scoring.ScoringError as error:
            self.add_error("original_file", error.render(get_language()))
        else:
            cleaned["config"] = self.checked.config
        return cleaned


class Pwscup2015RoundPage(RoundPageAdmin):
    """The game's rounds' page (not registered: the core's round admin shows it)."""

    adds_rounds = True
    form = RoundAdminForm
    inlines = [Pwscup2015PhaseInline]
    # The kind is fixed: rounds added here are of this game (this form is its form); the
    # other kinds' rounds are created from their console pages (pwscup/kinds/).
    # Publishing tells the participants: only the actions (the services) change it.
    readonly_fields = (
        "kind_label",
        "original_rows",
        "original_sha256",
        "frozen_at",
        "results_published",
        "operations",
    )
    prepopulated_fields = {"slug": ("name",)}
    fieldsets = (
        (None, {"fields": ("competition", "kind_label", "name", "slug", "order", "data_mode")}),
        (
            _("Data"),
            {
                "fields": (
                    "original_file",
                    "original_rows",
                    "original_sha256",
                    "config_file",
                    "config",
                )
            },
        ),
        (_("Per-team mode"), {"fields": ("sample_size", "decoy_count")}),
        (
            _("Ranking"),
            {
                "fields": (
                    "utility_gates",
                    "value_ranges",
                    "tie_break_metric",
                    "ranking_rule",
                    "selection_rule",
                )
            },
        ),
        (
            _("Attack phase and results"),
            {
                "fields": (
                    "timezone",
                    "quota_reset_hour",
                    ALLOW_FIELD,
                    "auto_freeze",
                    "published_rows",
                    "frozen_at",
                    "attack_visibility",
                    "results_published",
                    "operations",
                )
            },
        ),
    )

    @admin.display(description=_("frozen at"), ordering="pwscup2015__frozen_at")
    def frozen_at(self, round_: Round):
        game = game_of(round_)
        return game.frozen_at if game else None

    @admin.display(
        description=_("results published"), ordering="pwscup2015__results_published", boolean=True
    )
    def results_published(self, round_: Round) -> bool | None:
        game = game_of(round_)
        return game.results_published if game else None

    @admin.display(description=_("kind"))
    def kind_label(self, round_: Round | None) -> str:
        return str(get_kind(KEY).label)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is not None and "original_file" in form.base_fields:
            form.base_fields["original_file"].widget = PrivateFileWidget(
                download_url=reverse("admin:competitions_round_original", args=[obj.pk])
            )
        return form

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if request.method == "POST" and isinstance(inline, Pwscup2015PhaseInline):
            kwargs["allow_attack_before_close"] = allow_ticked(request)
        return kwargs

    def get_readonly_fields(self, request, obj=None):
        # A saved round stays in its competition (its teams, uploads and log are there).
        fields = super().get_readonly_fields(request, obj)
        return (*fields, "competition") if obj is not None else fields

    def save_model(self, request, obj, form, change):
        pass  # saved with its phases by ``save_related``, through the console's services

    def save_related(self, request, form, formsets, change):
        if change:
            round_page_save(request, form, formsets)
        else:
            round_page_create(request, form, formsets)
        for formset in formsets:  # listed for the admin's history only, not saved
            formset.save(commit=False)
        created = round_assign_samples(round=form.instance)
        if created:
            messages.info(request, _("Drew samples for %(n)d teams.") % {"n": len(created)})

    @admin.display(description=_("Background operations"))
    def operations(self, obj):
        if obj is None or obj.pk is None:
            return "—"
        return render_to_string(
            "pwscup2015/_operations.html", {"summary": round_operations_summary(round=obj)}
        )


def round_page_create(request, form, formsets) -> Round:
    """The *Add round* page, as the console's wizard creates a round: one
    ``console_round_create`` call (checked once more, its phases, its samples drawn, the audit
    line *Created the round*); the form's instance then stands for the new round (the
    admin's history and the page it goes on to)."""
    data = form.cleaned_data
    upload = data["original_file"]
    upload.seek(0)
    settings = form.game_settings
    data_fields = ("data_mode", "sample_size", "decoy_count")
    round_ = console_round_create(
        user=request.user,
        # The console's basics, with the place the admin's form also gives.
        basics=replace(round_basics(data, competition=data["competition"]), order=data["order"]),
        original=upload.read(),
        original_filename=upload.name,
        config=data["config"],
        data={name: settings[name] for name in data_fields},
        phases=PhaseInline.changed_phases(formsets),
        rules={
            **{name: value for name, value in settings.items() if name not in data_fields},
            "quota_reset_hour": data["quota_reset_hour"],
        },
        allow_attack_before_close=data[ALLOW_FIELD],
    )
    form.instance.pk = round_.pk
    form.instance.refresh_from_db()
    return round_


def round_page_save(request, form, formsets) -> list[str]:
    """A saved round's page, as the console's edit page saves it: what every round has, the
    game's settings, the configuration, a new original and the changed phases in one call of
    ``console_round_update`` (one audit line naming every changed field, the rankings
    refreshed). It compares with the stored round (the form's instance holds its values)."""
    checked = getattr(form, "checked", None)
    new_upload = checked is not None and "original_file" in form.changed_data
    return console_round_update(
        user=request.user,
        round=Round.objects.get(pk=form.instance.pk),
        core={field: form.cleaned_data[field] for field in ROUND_CORE_FIELDS},
        values=form.game_settings,
        phases=PhaseInline.changed_phases(formsets),
        config=checked.config if checked is not None else None,
        original=(checked, form.cleaned_data["original_file"].name) if new_upload else None,
        allow_attack_before_close=form.cleaned_data[ALLOW_FIELD],
    )
