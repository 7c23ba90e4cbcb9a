"""The kinds' kept uploads have the core's admin page (``kept_upload_admin``): scoped to the
organizer's competitions, read-only, nothing added; deleted only where the kind allows it."""

import pytest
from django.contrib import admin

from pwscup.competitions.admin_scope import CompetitionScopedAdmin
from pwscup.dp import models as dp
from pwscup.pwscup2015 import models as pwscup2015
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


# Every kind's list of team uploads, and the path from a row to its round (None: the list
# shows no round).
UPLOAD_LISTS = {
    sequential.Release: "sequential__round",
    sequential.SeqAttack: None,
    synthetic.SynRelease: "synthetic__round",
    synthetic.SynAttack: None,
    scorer.Release: "scorer__round",
    scorer.Attack: "scorer__round",
    dp.Estimate: "dp_round__round",
    pwscup2015.AnonymizationSubmission: "phase__round",
    pwscup2015.AttackSubmission: "phase__round",
}


@pytest.mark.parametrize("model", UPLOAD_LISTS, ids=lambda model: model._meta.label)
def test_an_upload_list_starts_with_the_team_status_and_time_and_ends_with_the_round(model):
    """On a phone the first columns are the ones shown: the team, the status, the time;
    the long round name (its competition's name before it) came first and pushed them off."""
    columns = admin.site.get_model_admin(model).list_display
    assert columns[:3] == ("team", "status", "created_at")
    lookup = UPLOAD_LISTS[model]
    fields = {column for column in columns if isinstance(column, str)}
    assert not {"synthetic", "sequential", "scorer", "dp_round", "phase"} & fields
    if lookup is None:
        return
    assert getattr(columns[-1], "__name__", None) == "round_name"
    round_ = type("Round", (), {"name": "Final", "__str__": lambda self: "Demo / Final"})()
    row = round_
    for part in reversed(lookup.split("__")):
        row = type("Row", (), {part: row})()
    assert columns[-1](row) == "Final"
