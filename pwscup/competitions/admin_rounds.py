"""The rounds' admin, the same for every kind: the core's page of a round, the list of rounds
and the actions the kinds declare.

What every round has (name, address, order, time zone, the hour its daily limits reset at)
is edited through ``round_core_update``; the kind's settings are shown read-only, with a link
to the console where the kind's own services edit them. A kind that edits its settings in the
admin gives its own page (``RoundKind.admin_round_page``, a ``RoundPageAdmin``), shown for its
rounds only. The list's actions are the kinds' ``admin_actions``: each runs on the ticked rounds of
a kind that declares it and skips the others with a message, so that no kind's operation is
ever asked of another kind's round.
"""

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import NoReverseMatch, path, reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import (
    CompetitionScopedAdmin,
    RoundRowAdmin,
    private_file_link,
    scoped_filter,
)
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.services import (
    round_core_check,
    round_core_update,
)
from pwscup.competitions.window_forms import WindowDatesForm
from pwscup.core.errors import Refused
from pwscup.core.files import private_file_response
from pwscup.core.time_zones import TimeZoneField
from pwscup.kinds import all_kinds, kind_of


def round_kind(round_: Round):
    """The round's kind, or ``None`` when the app that registered it is not installed."""
    try:
        return kind_of(round_)
    except ValidationError:
        return None


class PhaseForm(WindowDatesForm):
    """A phase's window, checked by ``phase_window_check``. On a round's change page the
    kind's page saves it with the round, through the kind's edit service
    (``PhaseInline.changed_phases``), never by itself."""


PHASE_FIELDS = (
    "kind",
    "opens_at",
    "closes_at",
    "daily_limit",
    "total_limit",
    "target_limit",
    "leaderboard_public",
)


class PhaseInline(admin.TabularInline):
    """The round's phases, editable (a kind's page whose lifecycle is the phases' dates).
    A new round's phases are added with it; a saved round's are changed, neither added nor
    deleted nor given another kind (as on the console's edit page): the kind's page passes
    them to its edit service (``changed_phases``), which checks, records and saves them
    with the round's settings."""

    model = Phase
    form = PhaseForm
    extra = 0
    fields = PHASE_FIELDS

    def get_readonly_fields(self, request, obj=None):
        return ("kind",) if obj is not None else ()

    def has_add_permission(self, request, obj=None):
        return obj is None and super().has_add_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    @staticmethod
    def changed_phases(formsets) -> dict:
        """The phases whose row the organizer changed on a saved round's page, by kind, as
        ``phase_set`` takes them (``{kind: {opens_at: ..., ...}}``)."""
        return {
            form.instance.kind: {name: form.cleaned_data[name] for name in PHASE_FIELDS[1:]}
            for formset in formsets
            if formset.model is Phase
            for form in formset.forms
            if form.has_changed()
        }


class PhaseReadOnlyInline(admin.TabularInline):
    """The round's phases as the core's page shows them: the kind's console moves them."""

    model = Phase
    extra = 0
    fields = PHASE_FIELDS
    readonly_fields = PHASE_FIELDS
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class RoundPageAdmin(RoundRowAdmin, CompetitionScopedAdmin, admin.ModelAdmin):
    """The base of a round's admin page: scoped to the competitions the user organizes.
    A kind's own page (``RoundKind.admin_round_page``) subclasses it; set ``adds_rounds``
    for the page that adds rounds."""

    adds_rounds: bool = False

    @admin.display(description=_("kind"), ordering="kind")
    def kind_label(self, round_: Round | None) -> str:
        if round_ is None or round_.pk is None:
            return "—"
        kind = round_kind(round_)
        return str(kind.label) if kind is not None else round_.kind


class RoundCoreForm(forms.ModelForm):
    """What every round has; checked by ``round_core_check``, saved by ``round_core_update``."""

    timezone = TimeZoneField(label=capfirst(Round._meta.get_field("timezone").verbose_name))

    class Meta:
        model = Round
        fields = ("name", "slug", "order", "timezone", "quota_reset_hour")

    def clean(self):
        cleaned = super().clean()
        if "slug" in cleaned and "timezone" in cleaned:
            try:
                round_core_check(
                    round=self.instance,
                    slug=cleaned["slug"],
                    timezone=cleaned["timezone"],
                    quota_reset_hour=cleaned.get("quota_reset_hour"),
                )
            except ValidationError as error:
                self.add_error(None, error)
        return cleaned


SETTINGS_HELP = _(
    "The kind's settings are read-only here: edit them on the round's console page, whose "
    "services check them with the kind's own rules."
)


@admin.register(Round)
class RoundAdmin(RoundPageAdmin):
    form = RoundCoreForm
    inlines = [PhaseReadOnlyInline]
    list_display = ("name", "competition", "kind_label", "state", "results_published")
    list_select_related = ("competition",)
    list_filter = (scoped_filter("competition"), "kind")
    readonly_fields = (
        "competition",
        "kind_label",
        "original",
        "original_rows",
        "original_sha256",
        "settings",
        "console_link",
    )
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "competition",
                    "kind_label",
                    "name",
                    "slug",
                    "order",
                    "timezone",
                    "quota_reset_hour",
                )
            },
        ),
        (_("Data"), {"fields": ("original", "original_rows", "original_sha256")}),
        (_("The kind's settings"), {"fields": ("settings", "console_link")}),
    )

    # --- the kind's own page ---------------------------------------------------------------

    def _page_of(self, kind) -> admin.ModelAdmin | None:
        page = kind.admin_round_page() if kind is not None else None
        return page(self.model, self.admin_site) if page is not None else None

    def _adding_page(self) -> admin.ModelAdmin | None:
        """The first registered kind's page that adds rounds (``None``: the admin adds none)."""
        for kind in all_kinds():
            page = kind.admin_round_page()
            if page is not None and page.adds_rounds:
                return page(self.model, self.admin_site)
        return None

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if object_id is None:
            page = self._adding_page()
            if page is None:
                raise PermissionDenied
        else:
            page = self._page_of(round_kind(self.get_object(request, unquote(object_id))))
        if page is not None:
            return page.changeform_view(request, object_id, form_url, extra_context)
        return super().changeform_view(request, object_id, form_url, extra_context)

    def has_add_permission(self, request):
        return super().has_add_permission(request) and self._adding_page() is not None

    # --- the core's page -------------------------------------------------------------------

    def save_model(self, request, obj, form, change):
        # Only changes reach here (adding is a kind's page); the service writes.
        round_core_update(user=request.user, round=obj, **form.cleaned_data)

    @admin.display(description=_("original table"))
    def original(self, round_: Round):
        url = reverse("admin:competitions_round_original", args=[round_.pk])
        return private_file_link(round_.original_file, url)

    @admin.display(description=_("configuration"))
    def settings(self, round_: Round):
        text = json.dumps(round_.config, indent=2, ensure_ascii=False, sort_keys=True)
        return format_html(
            '<pre class="readonly">{}</pre><div class="help">{}</div>', text, SETTINGS_HELP
        )

    @admin.display(description=_("console"))
    def console_link(self, round_: Round):
        try:
            url = reverse("console:round", args=[round_.competition.slug, round_.slug])
        except NoReverseMatch:
            return "—"
        return format_html('<a href="{}">{}</a>', url, gettext("Edit the settings in the console"))

    # --- the list --------------------------------------------------------------------------

    def get_queryset(self, request):
        # With their phases: a kind's note (the list's state) reads them, in one query.
        return super().get_queryset(request).prefetch_related("phases")

    @admin.display(description=_("state"))
    def state(self, round_: Round) -> str:
        kind = round_kind(round_)
        return (kind.round_note(round_) if kind is not None else "") or "—"

    @admin.display(description=_("results published"), boolean=True)
    def results_published(self, round_: Round) -> bool | None:
        kind = round_kind(round_)
        return kind.results_published(round_) if kind is not None else None

    def get_urls(self):
        return [
            path(
                "<path:object_id>/original/",
                self.admin_site.admin_view(self.original_view),
                name="competitions_round_original",
            ),
            *super().get_urls(),
        ]

    def original_view(self, request, object_id):
        """The round's original table, for the organizers of its competition only."""
        round_ = self.get_object(request, object_id)
        if not self.has_view_or_change_permission(request, round_):
            raise PermissionDenied
        return private_file_response(round_.original_file, f"{round_.slug}_original.csv")

    # --- the kinds' actions ----------------------------------------------------------------

    def get_actions(self, request):
        actions = super().get_actions(request)
        if self.has_change_permission(request):
            for name, description in kind_action_names().items():
                actions.setdefault(name, (kind_action(name), name, description))
        return actions


def kind_action_names() -> dict:
    """Every registered kind's admin action, by name (the first kind's description)."""
    names = {}
    for kind in all_kinds():
        for name, action in kind.admin_actions().items():
            names.setdefault(name, action.description)
    return names


def kind_action(name: str):
    """Run the action ``name`` on each ticked round whose kind declares it (its own kind's
    ``AdminAction``); a round of another kind is skipped, with a message."""

    def run(modeladmin, request, queryset):
        for round_ in queryset.select_related("competition"):
            kind = round_kind(round_)
            action = kind.admin_actions().get(name) if kind is not None else None
            if action is None:
                modeladmin.message_user(
                    request,
                    gettext("%(round)s: skipped, a round of the kind %(kind)s has no such action.")
                    % {"round": round_, "kind": kind.label if kind is not None else round_.kind},
                    messages.WARNING,
                )
                continue
            try:
                message = action.perform(user=request.user, round=round_)
            except (Refused, ValidationError) as error:
                text = error.messages if isinstance(error, ValidationError) else [str(error)]
                modeladmin.message_user(request, f"{round_}: {' '.join(text)}", messages.ERROR)
            else:
                modeladmin.message_user(request, message)

    run.__name__ = name
    return run
