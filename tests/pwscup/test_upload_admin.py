"""The kinds' kept uploads have the core's admin page (``kept_upload_admin``): scoped to the
organizer's competitions, read-only, nothing added; deleted only where the kind allows it."""

import pytest
from django.contrib import admin

from pwscup.competitions.admin_scope import CompetitionScopedAdmin
from pwscup.scorer import models as scorer
from pwscup.sequential import models as sequential
from pwscup.submissions.upload_admin import KeptUploadAdmin
from pwscup.synthetic import models as synthetic

# model: (its path to the competition, whether a superuser may delete a row)
PAGES = {
    sequential.Release: ("sequential__round__competition", True),
    sequential.SeqAttack: ("team__competition", True),
    synthetic.SynRelease: ("synthetic__round__competition", True),
    synthetic.SynAttack: ("team__competition", True),
    scorer.Release: ("scorer__round__competition", False),
    scorer.Attack: ("scorer__round__competition", False),
}


@pytest.mark.parametrize("model", PAGES, ids=lambda model: model._meta.label)
def test_a_kept_upload_s_admin_is_the_core_s_read_only_scoped_page(model, rf, admin_user):
    page = admin.site.get_model_admin(model)
    assert isinstance(page, KeptUploadAdmin) and isinstance(page, CompetitionScopedAdmin)
    lookup, deletable = PAGES[model]
    assert page.competition_lookup == lookup
    request = rf.get("/")
    request.user = admin_user
    assert not page.has_add_permission(request)
    assert not page.has_change_permission(request)
    assert page.has_delete_permission(request) is deletable
    assert page.get_readonly_fields(request) == page.fields
    assert {"team", "number", "sha256", "status", "failure"} <= set(page.fields)
    assert page.list_filter[0] == "status" and page.list_filter[-1][0] == "team"
