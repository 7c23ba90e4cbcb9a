"""The core's round-creation helpers every kind's console uses (``competitions.round_create``,
``competitions.choice_forms``): a service's errors placed on the form, a refusal on top, the
data choices offered as ``key: label``."""

from types import SimpleNamespace

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.test import RequestFactory
from django.urls import reverse

from pwscup.competitions.choice_forms import DataChoiceFileForm
from pwscup.competitions.round_create import ServiceErrorsForm
from pwscup.core.errors import Refused
from pwscup.core.form_fields import form_saved
from tests.pwscup.seq_web_world import seq_world


class _Form(ServiceErrorsForm, forms.Form):
    name = forms.CharField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.table_errors = []

    def place_service_error(self, field, item, message) -> bool:
        if field != "columns":
            return False
        self.table_errors.append(message)
        return True


def _posted():
    return RequestFactory().post("/", {"name": "x"})


def test_a_service_error_goes_next_to_its_field_its_own_place_or_on_top():
    form = _Form({"name": "x"})
    assert form.is_valid()
    form.add_service_errors(
        ValidationError({"name": "bad name", "columns": "bad roles", "elsewhere": "other"})
    )
    assert form.errors["name"] == ["bad name"]
    assert form.table_errors == ["bad roles"]
    assert form.non_field_errors() == ["other"]


def test_a_refusal_and_an_error_without_field_are_shown_on_top():
    def refuse(data):
        raise Refused("storage down")

    form = _Form({"name": "x"})
    assert form_saved(_posted(), form, refuse, refusals=True) is None
    assert form.non_field_errors() == ["storage down"]
    with pytest.raises(Refused):  # a page that does not show refusals lets them through
        form_saved(_posted(), _Form({"name": "x"}), refuse)

    def invalid(data):
        raise ValidationError("no field")

    form = _Form({"name": "x"})
    assert form_saved(_posted(), form, invalid, refusals=True) is None
    assert form.non_field_errors() == ["no field"]


def test_the_result_is_kept_even_when_it_is_nothing():
    saved = form_saved(_posted(), _Form({"name": "x"}), lambda data: None)
    assert saved is not None and saved.value is None
    assert form_saved(RequestFactory().get("/"), _Form(), lambda data: 1) is None


class _PackForm(DataChoiceFileForm):
    choice = forms.ChoiceField(required=False)
    no_choice_label = "every choice"


def test_the_data_choices_are_offered_with_their_label():
    choices = [SimpleNamespace(key="a", label_shown="Adults")]
    assert _PackForm(choices=choices).fields["choice"].choices == [
        ("", "every choice"),
        ("a", "a: Adults"),
    ]
    assert isinstance(_PackForm().fields["choice"].widget, forms.HiddenInput)


@pytest.mark.django_db
def test_the_sequential_rows_admin_is_read_only(client, django_user_model):
    world = seq_world(slug="seqrows")
    client.force_login(django_user_model.objects.create_superuser("root-rows", password="pw"))
    master = world.sequential.masters.first()
    page = client.get(reverse("admin:sequential_master_change", args=[master.pk]))
    assert page.status_code == 200
    assert 'name="sha256"' not in page.content.decode()
    assert master.sha256 in page.content.decode()
    assert (
        client.post(reverse("admin:sequential_master_change", args=[master.pk])).status_code == 403
    )
    for name in ("release", "seqattack"):
        assert client.get(reverse(f"admin:sequential_{name}_changelist")).status_code == 200
        assert client.get(reverse(f"admin:sequential_{name}_add")).status_code == 403
