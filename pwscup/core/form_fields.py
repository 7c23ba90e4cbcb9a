"""Form helpers: fields whose bounds come from the database columns they are stored in, a
time typed in a zone the form names (``local_datetime_field``), a
service's ``ValidationError`` shown next to the fields (``form_saved``: a posted form handed
to its service; ``form_page``: the whole page of such a form), the comma-separated lists
the round forms take, and the round forms'
"advanced" JSON view and tables of rows (an error about a row next to it: ``row_error``; about
a setting, next to its field: ``setting_error``)."""

import json
from typing import NamedTuple

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from pwscup.core.errors import Refused
from pwscup.core.json_input import json_input

# The largest value of a PositiveIntegerField column on PostgreSQL (``integer``); a larger
# number typed in a form would otherwise reach the database as "integer out of range".
POSITIVE_INT_MAX = 2_147_483_647


def digits_value(text, *, most: int = POSITIVE_INT_MAX) -> int | None:
    """A request's ``text`` as a whole number when it is ASCII digits only and at most
    ``most``, else ``None``. ``str.isdigit`` alone lets "²" or "١" through to ``int``, which
    refuses them, and ``int`` refuses more than 4,300 digits: either was a 500.

    >>> digits_value("12"), digits_value("²"), digits_value("9" * 5000), digits_value("-1")
    (12, None, None, None)
    """
    text = str(text)
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)):
        return None
    value = int(text)
    return value if value <= most else None


def positive_int_field(*, min_value: int = 1, max_value: int = POSITIVE_INT_MAX, **kwargs):
    """An ``IntegerField`` for a ``PositiveIntegerField`` column: Django's own (translated)
    messages refuse a value outside ``min_value``..``max_value`` next to the field."""
    return forms.IntegerField(min_value=min_value, max_value=max_value, **kwargs)


NO_LIMIT = _("Empty: no limit.")


def local_datetime_field(label, **kwargs) -> forms.DateTimeField:
    """A time typed with the browser's own date and time picker, to the minute, in a zone
    the form names (the round's, the start's): the field has no zone of its own."""
    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    return forms.DateTimeField(label=label, widget=widget, **kwargs)


def limit_field(label, *, help_text=NO_LIMIT, **kwargs):
    """An optional limit on a team's uploads (a ``PositiveIntegerField`` column, ``None``:
    no limit)."""
    return positive_int_field(label=label, required=False, help_text=help_text, **kwargs)


class CompetitionRoundChoiceField(forms.ModelChoiceField):
    """A choice among one competition's rounds: each listed by its own name, as the
    competition's pages name it (its ``str`` repeats the competition's name)."""

    def label_from_instance(self, obj) -> str:
        return obj.name


def whole_competition_round_field(queryset, **kwargs):
    """A choice of one of the competition's rounds (the form sets them as ``queryset``), or
    none: the whole competition."""
    return CompetitionRoundChoiceField(
        label=_("Round"),
        queryset=queryset,
        required=False,
        empty_label=_("— The whole competition —"),
        **kwargs,
    )


def upload_within_limit(form, field: str):
    """The file uploaded in ``form``'s ``field``; ``None``, with the refusal next to the
    field, when it is larger than the upload limit (``PWSCUP_MAX_UPLOAD_BYTES``)."""
    upload = form.cleaned_data[field]
    if upload.size > settings.PWSCUP_MAX_UPLOAD_BYTES:
        form.add_error(field, _("The file is larger than the upload limit."))
        return None
    return upload


def form_refusal(form) -> Refused:
    """A form's errors as one ``Refused`` (400), each message after its field's label: the
    answer of an upload form posted by a script as much as by the page."""
    return Refused(
        " ".join(
            f"{form.fields[name].label}: {error}"
            for name, errors in form.errors.items()
            for error in errors
        )
    )


def add_errors(form, error: ValidationError) -> None:
    """Put a service's ``ValidationError`` next to the form's fields (else on top)."""
    if hasattr(error, "error_dict"):
        for field, messages_ in error.message_dict.items():
            form.add_error(field if field in form.fields else None, messages_)
    else:
        form.add_error(None, error.messages)


class Saved(NamedTuple):
    """What a form's service returned (``form_saved``); true even when that is nothing."""

    value: object


def form_saved(request, form, save, *, refusals: bool = False) -> Saved | None:
    """``save(form.cleaned_data)`` when ``form`` is posted and valid, its result kept in a
    ``Saved``; ``None`` when the form is not posted, not valid, or refused by the service: a
    ``ValidationError`` next to the form's fields (the form's ``add_service_errors`` where it
    has one, else ``add_errors``), and with ``refusals`` a ``Refused`` on top of the form."""
    if request.method != "POST" or not form.is_valid():
        return None
    try:
        return Saved(save(form.cleaned_data))
    except ValidationError as error:
        if hasattr(form, "add_service_errors"):
            form.add_service_errors(error)
        else:
            add_errors(form, error)
    except Refused as refusal:
        if not refusals:
            raise
        form.add_error(None, refusal.message)
    return None


def form_page(request, form, save, *, template, context, back, done, unchanged="", refusals=False):
    """The page of a form handed to one service. Once posted and valid, ``save`` runs
    (``form_saved``); when it returns something, ``done`` is said (a message, or
    ``done(value)``: the message of what it returned), when it returns nothing (an edit
    that changed nothing), ``unchanged`` if given; then to the address ``back``. Otherwise
    (not posted, not valid, refused) ``template`` is drawn with ``context`` and the form."""
    saved = form_saved(request, form, save, refusals=refusals)
    if saved is None:
        return render(request, template, {**context, "form": form})
    if saved.value:
        messages.success(request, done(saved.value) if callable(done) else done)
    elif unchanged:
        messages.info(request, unchanged)
    return redirect(back)


def confirm_page(request, remove, *, template, context, back, done):
    """A removal that asks first: ``template`` drawn with ``context`` (GET: the question);
    once posted, ``remove()`` runs, ``done`` is said and the browser goes to ``back``. A
    refusal (``ValidationError``) comes back on the page as its ``errors``."""
    errors = []
    if request.method == "POST":
        try:
            remove()
        except ValidationError as error:
            errors = error.messages
        else:
            messages.success(request, done)
            return redirect(back)
    return render(request, template, {**context, "errors": errors})


def comma_list(text: str | None) -> list[str]:
    """``"F, M"`` → ``["F", "M"]``: a field's comma-separated items, blanks dropped."""
    return [item.strip() for item in (text or "").split(",") if item.strip()]


class ConfigJsonView:
    """A round form whose fields build the configuration, with an *Advanced* JSON view (the
    field ``config``) that, when filled in, is the configuration instead. The tables of rows
    among the fields (formsets, ``example_rows``) are the form's ``row_sets()``: checked
    with it, unless the JSON view is the configuration."""

    def uses_json(self) -> bool:
        """Whether the JSON view is filled in (then it is the configuration)."""
        return bool((self.data.get(self.add_prefix("config")) or "").strip())

    def row_sets(self) -> list:
        """The form's tables of rows (formsets)."""
        return []

    def is_valid(self) -> bool:
        valid = super().is_valid()
        if self.uses_json():
            return valid
        rows_valid = [rows.is_valid() for rows in self.row_sets()]
        return valid and all(rows_valid)


def setting_error(form, field: str, message: str) -> None:
    """A service's refusal of a setting the round form's field ``field`` built, next to that
    field (above the form when it has none). A field left empty gets its own *required*
    message, in the reader's language: the service, given a null, names the configuration's
    key ("configuration key 'm' … got null"), which a person who filled the fields never saw."""
    if field not in form.fields:
        form.add_error(None, message)
        return
    formfield = form.fields[field]
    if form[field].data in formfield.empty_values:
        message = formfield.error_messages["required"]
    form.add_error(field, message)


def row_error(form, rows, message: str, *, field: str, key, key_field="", key_of=None) -> None:
    """A service's error about one row of a round form's table (``rows``, a formset of
    ``form``) next to that row's ``field``: on the row whose key is ``key`` (its
    ``key_field`` as typed, or ``key_of(row)``), else on the first row filled in (else the
    first row), else above the form."""

    def typed_key(row) -> str:
        return (row.cleaned_data or {}).get(key_field, "").strip()

    key_of = key_of or typed_key
    forms_ = list(rows)
    filled = [row for row in forms_ if any((row.cleaned_data or {}).values())]
    chosen = next(
        (row for row in forms_ if key and key_of(row) == key),
        (filled or forms_ or [None])[0],
    )
    if chosen is None:
        form.add_error(None, message)
    else:
        chosen.add_error(field, message)


def example_rows(formset, data, *, bound: bool, prefix: str, example: list[dict], shown: int):
    """A round form's table of rows (``formset``): a blank form starts with the example's
    rows and blank ones up to ``shown`` rows (to add one, no script needed); a bound form
    (``bound``) has the posted rows only, with no initial rows (a bound row equal to its
    initial value would count as unchanged, hence empty)."""
    if bound:
        return formset(data, prefix=prefix)
    rows = formset(data, prefix=prefix, initial=example)
    rows.extra = shown - len(example)
    return rows


class ConfigField(forms.CharField):
    """A configuration typed as JSON: the text in, the parsed value out (``None`` when empty).

    An absent configuration is rendered as an empty box, never as ``null``: a browser posts
    what the box holds, and a JSON view holding ``null`` would be taken for a configuration
    (``ConfigJsonView.uses_json``) and refused as "not a JSON object"."""

    widget = forms.Textarea(attrs={"rows": 14, "cols": 60, "spellcheck": "false"})

    def to_python(self, value):
        value = super().to_python(value)
        # Empty: no configuration (the console's JSON view left empty; required elsewhere).
        return json_input(value) if (value or "").strip() else None

    def prepare_value(self, value):
        if value is None:
            return ""
        return value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False)


def form_error_count(form) -> int:
    """How many errors a refused form shows: its own and its fields', its tables of rows'
    (``row_sets``, unless its JSON view is the configuration) and those it lists apart
    (``column_errors``), for the summary at its top (``console/_form_errors_summary.html``)."""
    if not form.is_bound:
        return 0
    count = sum(len(errors) for errors in form.errors.values())
    uses_json = getattr(form, "uses_json", None)
    if not (uses_json and uses_json()):
        count += sum(rows.total_error_count() for rows in getattr(form, "row_sets", list)())
    return count + len(getattr(form, "column_errors", ()))
