"""The console's page creating a round, for every kind that has one (``console_create_url``):
the kind's form, once posted and valid, handed to the kind's creation service; the service's
refusal shown on the form (next to the fields it names: the form's ``add_service_errors``);
on success, the new round's console page. A form of several steps, whose first step keeps
the organizer's table as a draft, is started over by ``draft_cancel_view``.

``RoundBasicsForm`` declares the fields every creation form starts with (name, address, time
zone), read into the ``RoundBasics`` every kind's creation service takes (``round_basics``).
``ServiceErrorsForm`` is what the kinds' creation forms share to put a service's
``ValidationError`` back next to their fields; a form only says where the errors of its own
settings go (``place_service_error``). ``ChooseAgainForm`` names the files a refused post
carried, which the page (``console/_choose_again.html``) asks to choose again. ``setting_choice`` and ``setting_flag`` are the
settings these forms ask, each optional on the form: the JSON view may be the configuration
instead, and the service names a setting that is missing."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from pwscup.competitions.dates import form_dates_check
from pwscup.competitions.form_fields import ADDRESS_ERRORS
from pwscup.competitions.selectors import console_competition
from pwscup.core.form_fields import form_saved
from pwscup.core.time_zones import TimeZoneField, zone_or_default
from pwscup.kinds.round_basics import RoundBasics


class LocalDatesForm(forms.Form):
    """A form whose dates (``LOCAL_DATES``, those of its fields) are typed in the round's
    time zone (``zone``, set by the form): read in that zone, not the server's, and checked
    by the platform's date rule (``form_dates_check``), each refusal next to its field."""

    LOCAL_DATES: tuple[str, ...] = ()
    zone = None

    def clean(self):
        cleaned = super().clean()
        names = [name for name in self.LOCAL_DATES if name in self.fields]
        for name in names:
            value = cleaned.get(name)
            if value is not None:
                cleaned[name] = value.replace(tzinfo=None).replace(tzinfo=self.zone)
        if names:
            form_dates_check(self, names, time_zone=self.zone)
        return cleaned


class RoundBasicsForm(LocalDatesForm):
    """The fields every kind's round creation form asks first, declared once: the round's
    name, its address and its time zone (the site's default first), in which the form's
    ``LOCAL_DATES`` are typed (its windows' opens and closes). The address's length is
    left to the service (``slug_check``), whose one message names the limit. A form that
    takes a post without a time zone (a script's) makes it optional: the round gets the
    site's default."""

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Address (slug)"), error_messages=ADDRESS_ERRORS)
    timezone = TimeZoneField(label=_("Time zone of the round"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        zone = self.data.get(self.add_prefix("timezone")) or self.initial.get("timezone")
        self.zone = zone_or_default(zone)


def round_basics(data: dict, *, competition) -> RoundBasics:
    """A new round's basics in ``competition`` from a ``RoundBasicsForm``'s cleaned values
    (``data``; a wizard keeps them in the session between its steps); an empty time zone is
    the site's default."""
    return RoundBasics(
        competition=competition,
        name=data["name"],
        slug=data["slug"],
        timezone=data.get("timezone") or None,
    )


def round_identity(data: dict, *, competition, user) -> dict:
    """The keyword arguments every kind's creation service takes from its console form: the
    round's ``basics`` (``round_basics``) and the organizer."""
    return {"basics": round_basics(data, competition=competition), "user": user}


def round_create_page(
    request, competition, form, create, template, *, created_message=None, context=None
):
    """The creation page of a kind's round. ``create(data)``: one call of the kind's
    creation service with the form's cleaned data, returning the kind's row of the new
    round (its ``round``); ``created_message``: what the round's console page then says
    ("Round created." unless the kind says more); ``context(form)``: what the template
    shows besides the competition and the form."""
    created = form_saved(request, form, create, refusals=True)
    if created:
        messages.success(request, created_message or _("Round created."))
        return redirect("console:round", competition.slug, created.value.round.slug)
    shown = {"competition": competition, "form": form}
    if context is not None:
        shown.update(context(form))
    return render(request, template, shown)


def draft_cancel_view(drafts, back: str):
    """The view starting a creation form of several steps over (posted, by an organizer of
    the competition): the competition's draft in ``drafts`` (a ``SessionDrafts``) and its
    file deleted, back at the page named ``back`` (its argument: the competition's slug)."""

    @login_required
    @require_POST
    def cancel(request, competition_slug):
        competition = console_competition(user=request.user, slug=competition_slug)
        drafts.clear(request.session, competition.pk)
        return redirect(back, competition.slug)

    return cancel


def setting_choice(label, choices, **kwargs) -> forms.ChoiceField:
    """A setting chosen among ``choices`` (optional on the form)."""
    return forms.ChoiceField(label=label, choices=choices, required=False, **kwargs)


def setting_flag(label, **kwargs) -> forms.BooleanField:
    """A yes-or-no setting (unticked: no)."""
    return forms.BooleanField(label=label, required=False, **kwargs)


def setting_number(label, *, field=forms.IntegerField, **kwargs) -> forms.Field:
    """A number setting, an integer or (``field=forms.FloatField``) any number (optional on
    the form: left empty, the service names it or takes its default)."""
    return field(label=label, required=False, **kwargs)


def setting_text(label, **kwargs) -> forms.CharField:
    """A text setting (optional on the form)."""
    return forms.CharField(label=label, required=False, **kwargs)


class ServiceErrorsForm:
    """A round's creation form showing its service's ``ValidationError`` next to its fields:
    an error of a field the form has next to it, any other on top of the form, and those the
    kind's form places itself (``place_service_error``: a table's, a configuration's) where
    it says. ``SERVICE_FIELDS``: the form's field of a key the service names otherwise."""

    SERVICE_FIELDS: dict[str, str] = {}

    def add_service_errors(self, error: ValidationError) -> None:
        if not hasattr(error, "error_dict"):
            self.add_loose_service_error(error)
            return
        for field, items in error.error_dict.items():
            field = self.SERVICE_FIELDS.get(field, field)
            for item in items:
                message = " ".join(item.messages)
                if not self.place_service_error(field, item, message):
                    self.add_error(field if field in self.fields else None, message)

    def add_loose_service_error(self, error: ValidationError) -> None:
        """An error the service named no field for: on top of the form."""
        self.add_error(None, error.messages)

    def place_service_error(self, field: str, item: ValidationError, message: str) -> bool:
        """Put the error ``item`` of ``field`` where the kind's form shows it; False: the
        field it names (else the top of the form) shows it."""
        return False


class ChooseAgainForm:
    """A form with file fields (the creation forms, the 2015 wizard's roles step, the scorer
    console's data pack and program): when a post comes back with errors, a browser does not
    keep the files it chose, so the page names them to choose again (the template
    ``console/_choose_again.html`` above the form's first file field)."""

    def files_to_choose_again(self) -> list[str]:
        """The names of the files this post carried, in the form's order of its file fields;
        none unless the form comes back with errors."""
        if not self.is_bound or not self.errors:
            return []
        return [
            self.files[self.add_prefix(name)].name
            for name, field in self.fields.items()
            if isinstance(field, forms.FileField) and self.files.get(self.add_prefix(name))
        ]
