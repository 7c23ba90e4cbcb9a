"""The console's void form (*Void or restore uploads*): the kind of upload among the round's
voidable types, one upload's id or a time in the round's zone (exactly one of them), a team
of the competition or every team, and the reason the teams are told. It collects the values;
``pwscup.submissions.services.voids.uploads_void`` checks the rest and writes. And the team
filter of the page's table of counted uploads."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Team
from pwscup.core.form_fields import digits_value, local_datetime_field, positive_int_field
from pwscup.core.time_zones import zone_or_default
from pwscup.submissions.models import NOTE_MAX_LENGTH


def team_choice_field(label, empty_label):
    """A choice of one of the competition's teams by its slug (the form sets them), or
    every team."""
    return forms.ModelChoiceField(
        label=label,
        queryset=Team.objects.none(),
        required=False,
        to_field_name="slug",
        empty_label=empty_label,
    )


class VoidForm(forms.Form):
    type = forms.ChoiceField(label=_("Kind of upload"))
    upload = positive_int_field(
        label=_("One upload (its id)"),
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "data-testid": "void-upload"}),
        help_text=_("The id in the table of counted uploads below (its Void… link fills it in)."),
    )
    before = local_datetime_field(None, required=False)  # labelled with the zone
    team = team_choice_field(_("Of one team only"), _("every team"))
    reason = forms.CharField(
        label=_("Why (the teams are told)"),
        max_length=NOTE_MAX_LENGTH,
        widget=forms.TextInput(attrs={"data-testid": "void-reason"}),
    )

    def __init__(self, *args, round, types, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.zone = zone_or_default(round.timezone)
        self.fields["type"].choices = [(declared.key, declared.page_noun()) for declared in types]
        self.fields["before"].label = _("Or every upload sent before (%(zone)s)") % {
            "zone": round.timezone
        }
        self.fields["before"].widget.attrs["data-testid"] = "void-before"
        self.fields["team"].queryset = teams
        if self.initial.get("upload") and not self.is_bound:
            # A Void… link names the upload: the reason is what is left to type.
            self.fields["reason"].widget.attrs["autofocus"] = True

    @classmethod
    def initial_of(cls, query, types) -> dict:
        """The form's values named in the page's address (a *Void…* link: ``type`` and
        ``upload``), those that can be values only."""
        initial = {}
        if query.get("type") in {declared.key for declared in types}:
            initial["type"] = query["type"]
        if upload := digits_value(query.get("upload", "")):
            initial["upload"] = upload
        return initial

    def clean(self):
        cleaned = super().clean()
        upload, before = cleaned.get("upload"), cleaned.get("before")
        if "upload" in self.errors or "before" in self.errors:
            return cleaned
        if upload is not None and before is not None:
            self.add_error(
                "before", _("Give one upload's id or a time, not both: clear one of them.")
            )
        elif upload is None and before is None:
            self.add_error(
                "upload", _("Name one upload, or a time before which every upload is voided.")
            )
        if before is not None:
            # Typed as the round's clock reads it, whatever the reader's own zone.
            cleaned["before"] = before.replace(tzinfo=self.zone)
        return cleaned


class UploadsFilterForm(forms.Form):
    """The table's filter (a GET form): one team's uploads, or every team's."""

    team = team_choice_field(_("Team"), _("every team"))

    def __init__(self, *args, teams, **kwargs):
        # Its own ids: the void form on the same page has a field ``team`` too.
        super().__init__(*args, auto_id="id_filter_%s", **kwargs)
        self.fields["team"].queryset = teams

    def chosen_team(self):
        """The team chosen (``None``: every team, also for a slug naming none: the table
        then says so beside the filter)."""
        return self.cleaned_data.get("team") if self.is_valid() else None
