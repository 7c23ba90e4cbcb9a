"""Forms of the participant's own pages: sign-up, passwords, the e-mail address, teams,
notification preferences."""

from django import forms
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from pwscup.accounts import services


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail address"),
        help_text=_("For resetting a forgotten password and, if you want, notifications."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self):
        username = self.cleaned_data.get("username")
        services.user_name_validate(username=username)
        return username


class PasswordSetMixin:
    """Django's password forms, the new password set through ``user_password_set`` (which
    also revokes the user's API tokens)."""

    def save(self, commit=True):
        return services.user_password_set(
            user=self.user, password=self.cleaned_data["new_password1"]
        )


class PasswordResetSetForm(PasswordSetMixin, auth_forms.SetPasswordForm):
    pass


class PasswordChangeForm(PasswordSetMixin, auth_forms.PasswordChangeForm):
    pass


class EmailChangeForm(forms.Form):
    email = forms.EmailField(
        label=_("New e-mail address"),
        help_text=_("For resetting a forgotten password and, if you want, notifications."),
    )
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class TeamCreateForm(forms.Form):
    # Blank or too long: the service's refusals say which (``team_name_check``); the bound
    # here only keeps a hostile post's text small.
    name = forms.CharField(label=_("Team name"), max_length=1000, required=False)


class TeamJoinForm(forms.Form):
    code = forms.CharField(
        label=_("Invitation code"),
        max_length=200,
        help_text=_("The code or the whole invitation link your captain sent you."),
    )

    def clean_code(self):
        # A pasted link works as well as the bare code: its last path segment is the code.
        return self.cleaned_data["code"].strip().rstrip("/").rsplit("/", 1)[-1]


class NotificationPreferenceForm(forms.Form):
    email_enabled = forms.BooleanField(
        label=_("Also send me notifications by e-mail"), required=False
    )
