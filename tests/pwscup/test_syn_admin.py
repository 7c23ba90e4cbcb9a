"""The synthetic round's admin is read-only and shows no secret: not the seed, not a
membership label, not the final half's scores."""

import pytest
from django.urls import reverse

from pwscup.synthetic.models import SynAttack, SynRelease, SynTarget, SyntheticRound
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    dcr_answer_bytes,
    freeze,
    open_attack_phase,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db


def test_admin_pages_answer_and_hide_the_secrets(client, django_user_model):
    world = syn_world(letters="ab", seed=918273645546372819)
    release(world, "a", baseline_release(world, "a"))
    release(world, "b", baseline_release(world, "b"))
    targets = freeze(world)
    open_attack_phase(world)
    hit = attack(world, "b", targets["teamA"], dcr_answer_bytes(world, targets["teamA"]))
    # A number no other field can hold by chance, in the final half only.
    SynAttack.objects.filter(pk=hit.pk).update(final={**hit.final, "auc": 0.918273645})
    hit.refresh_from_db()
    admin_user = django_user_model.objects.create_superuser("syn-admin", "a@example.org", "pw")
    client.force_login(admin_user)
    seed = str(world.synthetic.secret_seed)
    final_auc = "0.918273645"
    for model, obj in (
        (SyntheticRound, world.synthetic),
        (SynRelease, SynRelease.objects.first()),
        (SynTarget, targets["teamA"]),
        (SynAttack, hit),
    ):
        meta = model._meta
        listing = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        page = client.get(
            reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
        )
        assert listing.status_code == 200 and page.status_code == 200
        for response in (listing, page):
            body = response.content.decode()
            assert seed not in body
            assert final_auc not in body
        assert b'type="submit"' not in page.content or b"_save" not in page.content
