"""The organizer console, under /console/ (its own pages; the Django admin is for superusers)."""

from django.urls import path

from pwscup.console import round_views, views, wizard_views

app_name = "console"

competition = "<slug:competition_slug>/"
round_ = competition + "r/<slug:round_slug>/"
team = competition + "teams/<int:pk>/"
wizard = competition + "rounds/new/"

urlpatterns = [
    path("", views.console_home, name="home"),
    path("new/", views.competition_new, name="competition_new"),
    path("creators/", views.competition_creators, name="creators"),
    path(competition, views.competition_page, name="competition"),
    path(competition + "edit/", views.competition_edit, name="competition_edit"),
    path(competition + "organizers/", views.organizer_invite, name="organizer_invite"),
    path(competition + "teams/", views.teams_page, name="teams"),
    path(team + "rename/", views.team_rename, name="team_rename"),
    path(team + "disqualify/", views.team_disqualify, name="team_disqualify"),
    path(team + "reinstate/", views.team_reinstate, name="team_reinstate"),
    path(team + "members/<int:user_id>/remove/", views.member_remove, name="member_remove"),
    path(wizard, wizard_views.step_upload, name="wizard_upload"),
    path(wizard + "roles/", wizard_views.step_roles, name="wizard_roles"),
    path(wizard + "data/", wizard_views.step_data, name="wizard_data"),
    path(wizard + "phases/", wizard_views.step_phases, name="wizard_phases"),
    path(wizard + "rules/", wizard_views.step_rules, name="wizard_rules"),
    path(wizard + "review/", wizard_views.step_review, name="wizard_review"),
    path(wizard + "cancel/", wizard_views.wizard_cancel, name="wizard_cancel"),
    path(round_, round_views.round_control, name="round"),
    path(round_ + "edit/", round_views.round_edit, name="round_edit"),
    path(round_ + "archive.zip", round_views.round_archive, name="round_archive"),
    path(round_ + "do/<slug:action>/", round_views.round_action, name="round_action"),
]
