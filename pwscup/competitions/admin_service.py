"""An admin page of a kind's part of a round whose form is saved by the console's service
when it is cleaned (inside the admin's transaction): one check, one audit line, the rankings
refreshed, and the service's refusals under the fields they name. The admin's own save then
saves nothing more."""

from django import forms
from django.core.exceptions import ValidationError

from pwscup.core.form_fields import add_errors


class ServiceSavedForm(forms.ModelForm):
    """A change form handed to ``service_save(cleaned)`` (the console's service) once every
    field it saves (``SAVED_FIELDS``) is cleaned (a field refused already: its message says
    why, nothing is saved)."""

    #: Who saves (set per request by ``ServiceSavedAdmin.get_form``).
    user = None
    SAVED_FIELDS: tuple[str, ...] = ()

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and all(name in cleaned for name in self.SAVED_FIELDS):
            try:
                self.service_save(cleaned)
            except ValidationError as error:
                add_errors(self, error)
        return cleaned

    def service_save(self, cleaned: dict) -> None:
        raise NotImplementedError


class ServiceSavedAdmin:
    """Mixin for the ``ModelAdmin`` of a ``ServiceSavedForm``: the form knows the request's
    user; ``save_model`` saves nothing (the form's service did)."""

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)  # a class of this request's own
        form.user = request.user
        return form

    def save_model(self, request, obj, form, change):
        pass
