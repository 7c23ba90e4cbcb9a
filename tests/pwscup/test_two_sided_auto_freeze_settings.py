"""The automatic freeze at the release phase's close as an organizer sets it: on a two-sided
round's creation form (posted as rendered), on its page *Dates and limits* beside the release
phase's dates (recorded in the audit log, a refusal said before cleared), and in a bundle
(an older bundle imports with it off; a value that is not true or false is refused by its
path)."""

from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from pwscup.competitions.models import AuditEntry, Round
from pwscup.scorer.models import ScorerRound
from pwscup.synthetic import bundle
from pwscup.synthetic.models import SyntheticRound
from tests.pwscup import syn_world as syn
from tests.pwscup.bundle_helpers import START
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered, post_data
from tests.pwscup.test_console_phases_edit import FORM, page_url, signed_in
from tests.pwscup.test_scorer_console import create_url, organizer, typed  # noqa: F401
from tests.pwscup.test_syn_api_bundle import entry_of

pytestmark = pytest.mark.django_db


def test_the_scorer_creation_form_sets_it_beside_the_release_phase(client, organizer):  # noqa: F811
    page = client.get(create_url(organizer)).content.decode()
    assert "Freeze the releases automatically at the release phase" in page  # a sentence
    response = post_as_rendered(
        client, create_url(organizer), "scorer-create", {**typed(), "auto_freeze": True}
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    round_ = Round.objects.get(competition=organizer, slug="own")
    assert ScorerRound.objects.get(round=round_).auto_freeze


def test_the_synthetic_creation_form_sets_it_and_leaves_it_off_unticked(client, world):
    client.force_login(world.organizer)
    create = reverse("synthetic_console:create", args=[world.competition.slug])
    settings = reverse("synthetic_console:settings", args=[world.competition.slug])
    for slug, ticked in (("syn-on", True), ("syn-off", False)):
        upload = {"original": ("adult.csv", syn.adult_rows(3000))}
        assert post_as_rendered(client, create, "syn-create-upload", upload).status_code == 302
        fill = {"name": slug, "slug": slug, "auto_freeze": ticked}
        answer = post_as_rendered(client, settings, "syn-create-settings", fill)
        assert answer.status_code == 302, answer.content.decode()[:3000]
        round_ = Round.objects.get(competition=world.competition, slug=slug)
        assert SyntheticRound.objects.get(round=round_).auto_freeze is ticked


def test_the_dates_page_turns_it_on_and_off_and_clears_a_refusal_said_before():
    world = syn.syn_world(slug="afedit", letters="a")
    row = world.synthetic
    type(row).objects.filter(pk=row.pk).update(auto_freeze_refusal="Refused before.")
    client = signed_in(world.organizer)
    page = client.get(page_url(world.round)).content.decode()
    release = page.split('data-testid="phase-release"')[1].split("</fieldset>")[0]
    assert 'name="auto_freeze"' in release  # beside the release phase's dates
    fields = form_fields_of(page, FORM)
    assert (
        client.post(page_url(world.round), post_data(fields, {"auto_freeze": True})).status_code
        == 302
    )
    row.refresh_from_db()
    assert row.auto_freeze and row.auto_freeze_refusal == ""
    entry = AuditEntry.objects.filter(
        round=world.round, action=AuditEntry.Action.ROUND_EDITED
    ).get()
    assert entry.detail == {"fields": ["auto_freeze"]}
    # Rendered ticked now; unticked, it is off again.
    (box,) = [
        f
        for f in form_fields_of(client.get(page_url(world.round)).content.decode(), FORM)
        if f["name"] == "auto_freeze"
    ]
    assert box["checked"]
    answer = post_as_rendered(client, page_url(world.round), FORM, {"auto_freeze": False})
    assert answer.status_code == 302
    row.refresh_from_db()
    assert not row.auto_freeze


def test_a_bundle_keeps_it_and_an_older_bundle_imports_with_it_off():
    world = syn.syn_world(slug="afbundle", letters="a")
    type(world.synthetic).objects.filter(pk=world.synthetic.pk).update(auto_freeze=True)
    anchor = world.round.phases.get(kind="release").opens_at
    settings = bundle.round_bundle(world.round, anchor=anchor).settings
    assert settings["phases"]["release"]["auto_freeze"] is True
    files = {"original.csv": syn.adult_rows(3000)}

    def imported(settings, slug):
        round_ = bundle.round_from_bundle(
            competition=world.competition,
            entry=replace(entry_of(settings, files), slug=slug),
            start=START,
            user=world.organizer,
        )
        return SyntheticRound.objects.get(round=round_).auto_freeze

    assert imported(settings, "copy-on") is True
    release = {k: v for k, v in settings["phases"]["release"].items() if k != "auto_freeze"}
    older = {**settings, "phases": {**settings["phases"], "release": release}}
    assert imported(older, "copy-old") is False
    wrong = {
        **settings,
        "phases": {**settings["phases"], "release": {**release, "auto_freeze": "yes"}},
    }
    with pytest.raises(ValidationError) as refused:
        imported(wrong, "copy-wrong")
    assert "phases.release.auto_freeze" in refused.value.message_dict
