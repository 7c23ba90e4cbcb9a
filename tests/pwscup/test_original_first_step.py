"""The first step of a round's creation form that takes an original table (the 2015
game's and the synthetic rounds'): a table with a header and no data row is refused there,
next to the field, in the reader's language; nothing is kept (before, it was kept as
"0 rows" and the organizer went on to the next steps with it)."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered
from tests.support import adult_head, csv_upload

pytestmark = pytest.mark.django_db

# The first step's URL name, the session key of its draft (suffixed by the competition).
FIRST_STEPS = {
    "pwscup2015": ("pwscup2015_console:wizard_upload", "console-round-wizard-"),
    "synthetic": ("synthetic_console:create", "synthetic-round-draft-"),
}


@pytest.mark.parametrize("kind", FIRST_STEPS)
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "The original table has no data rows."),
        ("ja", "元のテーブルにデータ行がありません。"),
    ],
)
def test_a_header_alone_is_refused_at_the_first_step(client, world, kind, language, words):
    url_name, draft_key = FIRST_STEPS[kind]
    client.force_login(world.organizer)
    header = adult_head(0)
    assert header.count(b"\n") == 1
    with translation.override(language):
        url = reverse(url_name, args=[world.competition.slug])
    client.cookies["django_language"] = language
    response = client.post(url, {"original": csv_upload(header, "adult.csv")})
    assert response.status_code == 200
    assert words in " ".join(response.context["form"].errors["original"])
    assert not any(key.startswith(draft_key) for key in client.session.keys())
    # A table with rows still goes on to the next step.
    assert (
        client.post(url, {"original": csv_upload(adult_head(40), "adult.csv")}).status_code == 302
    )


def test_the_synthetic_first_step_sent_again_without_a_file_keeps_the_kept_table(client, world):
    # As the 2015 wizard's upload step (test_console_wizard_steps): once a table is kept.
    client.force_login(world.organizer)
    url = reverse("synthetic_console:create", args=[world.competition.slug])
    draft_key = f"synthetic-round-draft-{world.competition.pk}"

    def original_required() -> bool:
        fields = form_fields_of(client.get(url).content.decode(), "syn-create-upload")
        return next(f for f in fields if f["name"] == "original")["required"]

    assert original_required()
    refused = post_as_rendered(client, url, "syn-create-upload")
    assert refused.status_code == 200 and refused.context["form"].errors["original"]
    kept = {"original": ("adult.csv", adult_head(40))}
    assert post_as_rendered(client, url, "syn-create-upload", kept).status_code == 302
    draft = client.session[draft_key]
    assert not original_required()
    response = post_as_rendered(client, url, "syn-create-upload")
    settings = reverse("synthetic_console:settings", args=[world.competition.slug])
    assert response.status_code == 302 and response.url == settings
    assert client.session[draft_key] == draft
    other = {"original": csv_upload(adult_head(30), "other.csv")}
    assert client.post(url, other).status_code == 302
    assert client.session[draft_key] != draft
