"""The console's competition and team forms: they collect values; the services check them."""

from django import forms
from django.forms.models import model_to_dict
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.form_fields import competition_address_field
from pwscup.competitions.models import AttackTopBy, AttackTopCombine, AttackTopOwn, Competition
from pwscup.competitions.round_create import setting_choice, setting_text
from pwscup.competitions.total_services import ATTACK_TOP_RULE
from pwscup.core.text_limits import DESCRIPTION_MAX_LENGTH, REASON_MAX_LENGTH


class CompetitionForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = competition_address_field()
    description = forms.CharField(
        label=_("Description (Markdown)"),
        max_length=DESCRIPTION_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 8}),
        required=False,
        help_text=_("Headings, lists, links and tables; HTML is removed."),
    )
    is_listed = forms.BooleanField(
        label=_("Listed publicly (visitors see its name and public leaderboards)"),
        required=False,
        initial=True,
    )


class CompetitionEditForm(CompetitionForm):
    max_team_size = forms.IntegerField(
        label=_("Maximum team size"),
        min_value=1,
        max_value=100,
        help_text=_("Members a team may have, its captain included."),
    )
    registration_locked = forms.BooleanField(
        label=_("Registration locked (participants can no longer create or join teams)"),
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["slug"]


IDENTIFIER_HELP = _(
    "A user name, or an e-mail address (anything holding @ is read as one). For a user name "
    "that holds @, write user:NAME."
)


class OrganizerInviteForm(forms.Form):
    identifier = forms.CharField(
        label=_("Username or e-mail"), max_length=254, help_text=IDENTIFIER_HELP
    )


class CompetitionCreatorForm(forms.Form):
    identifier = forms.CharField(
        label=_("Username or e-mail"), max_length=254, help_text=IDENTIFIER_HELP
    )
    allowed = forms.TypedChoiceField(
        label=_("Right to create competitions"),
        choices=[("1", _("Allow")), ("0", _("Withdraw"))],
        coerce=lambda value: value == "1",
        initial="1",
        widget=forms.RadioSelect,
    )


PHASE_DATE_FIELDS = (
    "anonymization_opens_at",
    "anonymization_closes_at",
    "attack_opens_at",
    "attack_closes_at",
)


class QuotaResetForm(forms.Form):
    """The hour a round's daily limits reset at, for a round of any kind (the round's
    console page); ``round_core_update`` checks and saves it."""

    quota_reset_hour = forms.TypedChoiceField(
        label=_("Daily limits reset at"),
        choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
        coerce=int,
        help_text=_(
            "Local time of the round's time zone. Every daily limit of the round (and the "
            "cap on failed uploads) counts uploads from this hour to the same hour of the "
            "next day; PWSCup 2024 and 2025 reset at 09:00, Japan time."
        ),
    )


class TotalFormulaForm(forms.Form):
    """A round's total formula, for a round of any kind (the round's console page);
    ``round_total_formula_set`` checks and saves it."""

    total_formula = setting_text(
        _("Total formula"),
        max_length=500,
        help_text=_(
            "The round's total from its scores, higher is better: numbers, the names below, "
            "+ - * / **, comparisons (1 when true, 0 when false), and/or/not, x if c else y, "
            "min, max and abs. PWSCup 2024, its anonymity being 100 - protection: "
            "max(0, 100 - protection + U - 2*(protection-50)*(protection>50) - 2*(50-U)*(U<50)). "
            "Empty: the round has no total."
        ),
    )
    attack_top_n = forms.IntegerField(
        label=_("Attack against the top N releases"),
        min_value=1,
        max_value=1000,
        required=False,
        help_text=_(
            "N: an attack score counted only against the top N releases, read as the three "
            "settings below say (the formula's name attack_top, and a ranking of the "
            "competition's standings). "
            "PWSCup 2021: 3, 2024: 5, 2025: 10. Empty: none."
        ),
    )

    # How the score is read (``round_total_formula_set`` checks them with the formula; one
    # the page did not send is its default).
    attack_top_by = setting_choice(
        _("The top N by"),
        AttackTopBy.choices,
        help_text=_(
            "The release ranking, or the round's total (PWSCup 2024 and 2025: the top by "
            "total; the formula may not then name attack_top)."
        ),
    )
    attack_top_own = setting_choice(
        _("The attacker's own release"),
        AttackTopOwn.choices,
        help_text=_(
            "When it is among the top N: left out, or counted as the best score another "
            "attacker reached on it (PWSCup 2024 and 2025)."
        ),
    )
    attack_top_combine = setting_choice(
        _("Combined as"),
        AttackTopCombine.choices,
        help_text=_("The attacker's scores on the top N: their mean, or their sum (2024, 2025)."),
    )

    def __init__(self, *args, offers_attack_top: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        if not offers_attack_top:  # the round's kind has no attack matrix
            for name in ("attack_top_n", *ATTACK_TOP_RULE):
                del self.fields[name]


class TeamRenameForm(forms.Form):
    name = forms.CharField(label=_("New name"), max_length=100)


class DisqualifyForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2})
    )


def competition_initial(competition: Competition) -> dict:
    """The edit form's fields as the competition has them."""
    return model_to_dict(competition, fields=CompetitionEditForm.base_fields)
