"""A scoring-program round offering a data choice, at phone width (390 px), in both
languages: each data pack's upload form on the round's console page keeps its fields inside
its dashed box (the select *For the data choice*, whose first option is a long sentence,
included)."""

import pytest

from tests.e2e.helpers import PASSWORD
from tests.e2e.test_syn_packs_phone import assert_inside_its_box, phone_login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_pack_upload_with_a_choice_fits_its_box_on_a_phone(web, language):
    from pwscup.competitions.choice_services import choices_set
    from tests.pwscup.scorer_world import scorer_world
    from tests.pwscup.test_syn_choice import PACKS

    world = scorer_world(slug="scophone", letters="", password=PASSWORD, build=False)
    choices_set(user=world.organizer, round=world.round, rows=PACKS)
    page = web
    phone_login(page, world.organizer.username, language)
    page.goto(f"/console/{world.competition.slug}/r/{world.round.slug}/")
    form = page.get_by_test_id("scorer-pack-form-reference")
    assert_inside_its_box(page, form, "input[type=file], select, button", language)
