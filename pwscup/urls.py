from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from pwscup.accounts import views as account_views
from pwscup.accounts.urls import account_urls, team_urls
from pwscup.core import error_views
from pwscup.core import views as core_views
from pwscup.pages import live, standings
from pwscup.pages import views as competition_views
from pwscup.pages.kinds import kind_console_urlpatterns, kind_site_urlpatterns, kind_urlpatterns

# An outage (database or cache unreachable) answers 503 in the reader's language; any other
# error Django's own 500 page (pwscup/core/outages.py).
handler500 = "pwscup.core.outages.server_error"

urlpatterns = [
    path("", competition_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("favicon.ico", core_views.FaviconView.as_view(), name="favicon"),
    path("toolkit/<str:filename>", core_views.toolkit_download, name="toolkit_download"),
    path("admin/", admin.site.urls),
    path("api/", include("pwscup.api.urls")),
    # Competition-wide pages (console and participants'), before the kinds' and the rounds'.
    path("", include("pwscup.presentations.urls")),
    path("", include("pwscup.bundles.urls")),
    path("", include("pwscup.archives.urls")),
    # Each round kind's console pages (its round creation form, ...), then the console's.
    *kind_console_urlpatterns(),
    path("console/", include("pwscup.console.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", account_views.LogoutView.as_view(), name="logout"),
    path("accounts/tokens/", include("pwscup.api.token_urls")),
    path("accounts/", include(account_urls)),
    path("notifications/", include("pwscup.notifications.urls")),
    # Before the rounds: a round cannot take the slug "team" or "join".
    path("c/<slug:competition_slug>/", include(team_urls)),
    # The live status of the team's jobs of no round (its slides: pwscup/pages/live.py).
    path(
        "c/<slug:competition_slug>/team/live/",
        live.team_of_no_round_poll,
        name="live_competition_team",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path(
        "c/<slug:competition_slug>/",
        competition_views.competition_detail,
        name="competition_detail",
    ),
    # Before the rounds: a round cannot take the slug "standings".
    path(
        "c/<slug:competition_slug>/standings/",
        standings.standings_page,
        name="competition_standings",
    ),
    path(
        "c/<slug:competition_slug>/standings.csv",
        standings.standings_download,
        name="competition_standings_csv",
    ),
    path(
        "c/<slug:competition_slug>/standings/<slug:key>/",
        standings.standings_page,
        name="competition_standings_division",
    ),
    path(
        "c/<slug:competition_slug>/standings/<slug:key>.csv",
        standings.standings_download,
        name="competition_standings_division_csv",
    ),
    # The round page and every round kind's pages (pwscup/kinds/).
    *kind_urlpatterns(),
    # Every kind's pages whose address names no round (an upload by its id).
    *kind_site_urlpatterns(),
]

# A request refused before any view read it (too large, too many fields, a malformed upload):
# the API's error format for API clients, the 400 page for browsers.
handler400 = error_views.bad_request
