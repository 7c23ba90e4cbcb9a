from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from pwscup.accounts.urls import account_urls, team_urls
from pwscup.competitions import views as competition_views
from pwscup.core import views as core_views
from pwscup.leaderboards import views as leaderboard_views
from pwscup.submissions import kit_views, operation_views, target_views
from pwscup.submissions import views as submission_views

round_urls = [
    path("", submission_views.round_detail, name="round_detail"),
    path("original.csv", submission_views.original_download, name="original_download"),
    path("config.json", submission_views.config_download, name="config_download"),
    path("kit.zip", kit_views.kit_download, name="kit_download"),
    path("submit/", submission_views.anonymization_upload, name="anonymization_upload"),
    path("status.json", submission_views.status_json, name="status_json"),
    path("operations.json", operation_views.operations_json, name="operations_json"),
    path("attack/", submission_views.attack_upload, name="attack_upload"),
    path(
        "targets/<slug:team_slug>/anonymized.csv",
        target_views.target_download,
        name="target_download",
    ),
    path(
        "targets/<slug:team_slug>/candidate.csv",
        target_views.candidate_download,
        name="candidate_download",
    ),
    path("leaderboard/", leaderboard_views.leaderboard, name="leaderboard"),
    path("matrix/", leaderboard_views.matrix, name="matrix"),
    path("final/", leaderboard_views.final, name="final_ranking"),
]

urlpatterns = [
    path("", competition_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("console/", include("pwscup.console.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include(account_urls)),
    path("notifications/", include("pwscup.notifications.urls")),
    # Before the rounds: a round cannot take the slug "team" or "join".
    path("c/<slug:competition_slug>/", include(team_urls)),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path(
        "c/<slug:competition_slug>/",
        competition_views.competition_detail,
        name="competition_detail",
    ),
    path("c/<slug:competition_slug>/<slug:round_slug>/", include(round_urls)),
    path("submissions/<int:pk>/file", submission_views.submission_file, name="submission_file"),
    path(
        "submissions/<int:pk>/select", submission_views.submission_select, name="submission_select"
    ),
    path("attacks/<int:pk>/file", submission_views.attack_file, name="attack_file"),
    path("submissions/<int:pk>/note", submission_views.submission_note, name="submission_note"),
    path("attacks/<int:pk>/note", submission_views.attack_note, name="attack_note"),
]
