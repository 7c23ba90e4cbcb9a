"""A console form refused on a post comes back scrolled to the top: the summary there
(``console/_form_errors_summary.html``) says how many errors the page marks, lists the
form's own ones and, on the import page, asks for the bundle file again."""

import re
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pwscup.core.form_fields import form_error_count
from tests.pwscup.bundle_helpers import creator
from tests.pwscup.rendered_forms import post_as_rendered
from tests.pwscup.syn_world import adult_rows

pytestmark = pytest.mark.django_db

SUMMARY = re.compile(
    r'<div class="errors-summary" role="alert" data-testid="form-errors-summary">(.*?)</div>', re.S
)


def _summary(response) -> str:
    page = unescape(response.content.decode())
    match = SUMMARY.search(page)
    assert match, page[:3000]
    # at the top of the form: before its first field
    assert page.index(match.group(0)) < page.index('name="name"')
    return match.group(1)


def _sequential(client, competition):
    url = reverse("sequential_console:create", args=[competition.slug])
    fill = {"name": "", "slug": ""}
    return post_as_rendered(client, url, "seq-create", fill)


def _dp(client, competition):
    url = reverse("dp_console:create", args=[competition.slug])
    fill = {"name": "", "slug": "dp", "attribute-0-name": ""}  # a row at fault too
    return post_as_rendered(client, url, "dp-create-form", fill)


def _synthetic(client, competition):
    create = reverse("synthetic_console:create", args=[competition.slug])
    post_as_rendered(
        client, create, "syn-create-upload", {"original": ("adult.csv", adult_rows(3000))}
    )
    settings = reverse("synthetic_console:settings", args=[competition.slug])
    return post_as_rendered(client, settings, "syn-create-settings", {"name": "", "slug": ""})


def _scorer(client, competition):
    url = reverse("scorer_console:create", args=[competition.slug])
    return post_as_rendered(client, url, "scorer-create", {"name": "", "slug": ""})


@pytest.mark.parametrize("create", [_sequential, _dp, _synthetic, _scorer])
def test_a_refused_round_form_says_at_its_top_how_many_errors_it_marks(client, world, create):
    client.force_login(world.organizer)
    response = create(client, world.competition)
    assert response.status_code == 200
    count = form_error_count(response.context["form"])
    assert count >= 2
    summary = _summary(response)
    assert f"The form was not saved: {count} errors, marked below." in summary
    client.cookies["django_language"] = "ja"
    summary = _summary(create(client, world.competition))
    assert f"フォームは保存されませんでした。{count} 件のエラーがあります" in summary


def test_the_count_takes_in_the_rows_at_fault(client, world):
    client.force_login(world.organizer)
    form = _dp(client, world.competition).context["form"]
    assert form.attribute_rows.total_error_count() == 1
    assert form_error_count(form) == len(form.errors) + 1


def test_the_scorer_form_counts_its_tables_errors(client, world):
    """A setting refused by the service over a table (a gate on no release score) counts."""
    client.force_login(world.organizer)
    url = reverse("scorer_console:create", args=[world.competition.slug])
    fill = {"name": "Scored", "slug": "scored", "gate_0_key": "zzz", "gate_0_value": "1"}
    response = post_as_rendered(client, url, "scorer-create", fill)
    assert response.context["form"].table_errors["gates"]
    assert "The form was not saved: 1 error, marked below." in _summary(response)


def test_a_blank_round_form_has_no_summary(client, world):
    client.force_login(world.organizer)
    page = client.get(reverse("dp_console:create", args=[world.competition.slug]))
    assert "form-errors-summary" not in page.content.decode()


def test_the_import_page_leads_into_the_bundle_s_errors_and_asks_for_the_file_again(client, world):
    client.force_login(creator(world.organizer))
    post = {
        "bundle": SimpleUploadedFile("bundle.zip", b"not a zip", "application/zip"),
        "name": "",
        "slug": "copy",
        "start": "2031-04-01T09:00",
        "timezone": "Asia/Tokyo",
    }
    response = client.post(reverse("bundles:import"), post)
    assert response.status_code == 200
    summary = _summary(response)
    own = response.context["form"].non_field_errors()
    assert summary.startswith(f"\n  <p><strong>The bundle could not be imported ({len(own)} error")
    assert own[0] in summary and summary.count(own[0]) == 1  # listed once, in the summary
    assert unescape(response.content.decode()).count(own[0]) == 1
    assert "Choose the bundle file again" in summary
    client.cookies["django_language"] = "ja"
    post["bundle"].seek(0)
    summary = _summary(client.post(reverse("bundles:import"), post))
    assert "バンドルを読み込めませんでした（1 件のエラー）:" in summary
    assert "バンドルのファイルをもう一度選んでください" in summary
