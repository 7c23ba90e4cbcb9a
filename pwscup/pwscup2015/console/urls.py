"""The 2015 game's console pages: the round creation wizard, the round's settings and its
archive. Mounted by the core under ``console/<competition>/pwscup2015/`` in the namespace
``pwscup2015_console`` (``Pwscup2015Kind.console_url_patterns``)."""

from django.urls import path

from pwscup.pwscup2015.console import views, wizard_views

round_ = "r/<slug:round_slug>/"
wizard = "rounds/new/"

urlpatterns = [
    path(wizard, wizard_views.step_upload, name="wizard_upload"),
    path(wizard + "roles/", wizard_views.step_roles, name="wizard_roles"),
    path(wizard + "data/", wizard_views.step_data, name="wizard_data"),
    path(wizard + "phases/", wizard_views.step_phases, name="wizard_phases"),
    path(wizard + "rules/", wizard_views.step_rules, name="wizard_rules"),
    path(wizard + "review/", wizard_views.step_review, name="wizard_review"),
    path(wizard + "cancel/", wizard_views.wizard_cancel, name="wizard_cancel"),
    path(round_ + "edit/", views.round_edit, name="round_edit"),
    path(round_ + "archive.zip", views.round_archive, name="round_archive"),
]
