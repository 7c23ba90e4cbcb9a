"""The organizer console, under /console/ (its own pages; the Django admin is for superusers).

Each round kind adds its own console pages (``RoundKind.console_url_patterns``) under
``console/<competition>/<kind>/``, in the namespace ``<kind>_console``."""

from django.urls import path

from pwscup.console import (
    award_views,
    choice_views,
    phase_views,
    round_views,
    standings_views,
    total_views,
    views,
    void_views,
)

app_name = "console"

competition = "<slug:competition_slug>/"
round_ = competition + "r/<slug:round_slug>/"
team = competition + "teams/<int:pk>/"

urlpatterns = [
    path("", views.console_home, name="home"),
    path("new/", views.competition_new, name="competition_new"),
    path("creators/", views.competition_creators, name="creators"),
    path(competition, views.competition_page, name="competition"),
    path(competition + "edit/", views.competition_edit, name="competition_edit"),
    path(competition + "organizers/", views.organizer_invite, name="organizer_invite"),
    path(competition + "teams/", views.teams_page, name="teams"),
    path(
        competition + "teams/participants.csv",
        views.participants_csv,
        name="participants_csv",
    ),
    path(competition + "standings/", standings_views.standings_edit, name="standings"),
    # "add" is a key no division may take (standings_services.RESERVED_KEYS).
    path(competition + "standings/add/", standings_views.standings_add, name="standings_add"),
    path(
        competition + "standings/<slug:key>/",
        standings_views.standings_edit,
        name="standings_division",
    ),
    path(
        competition + "standings/<slug:key>/remove/",
        standings_views.standings_remove,
        name="standings_remove",
    ),
    path(team + "rename/", views.team_rename, name="team_rename"),
    path(team + "disqualify/", views.team_disqualify, name="team_disqualify"),
    path(team + "reinstate/", views.team_reinstate, name="team_reinstate"),
    path(team + "members/<int:user_id>/remove/", views.member_remove, name="member_remove"),
    path(competition + "awards/", award_views.awards_page, name="awards"),
    path(competition + "awards/<int:pk>/", award_views.award_edit, name="award_edit"),
    path(competition + "awards/<int:pk>/remove/", award_views.award_remove, name="award_remove"),
    path(round_, round_views.round_control, name="round"),
    path(round_ + "do/<slug:action>/", round_views.round_action, name="round_action"),
    path(round_ + "quota/", round_views.round_quota, name="round_quota"),
    path(round_ + "voids/", void_views.round_voids, name="round_voids"),
    path(
        round_ + "voids/<slug:type_key>/<int:pk>/restore/",
        void_views.round_void_restore,
        name="round_void_restore",
    ),
    path(round_ + "delete/", round_views.round_delete_page, name="round_delete"),
    path(round_ + "dates/", phase_views.round_phases, name="round_phases"),
    path(round_ + "total/", total_views.round_total, name="round_total"),
    path(round_ + "data/", choice_views.round_choices_save, name="round_choices"),
    path(
        round_ + "data/teams/<int:pk>/",
        choice_views.round_choice_team,
        name="round_choice_team",
    ),
]
