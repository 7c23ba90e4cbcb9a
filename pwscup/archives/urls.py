"""The archives pages (mounted at the site's root by pwscup/urls.py): the organizer's
publishing page in the console, and each version's download on the competition's address."""

from django.urls import path

from pwscup.archives import views

app_name = "archives"

urlpatterns = [
    path(
        "console/<slug:competition_slug>/archive/",
        views.archive_console,
        name="console",
    ),
    path(
        "c/<slug:competition_slug>/archive/v<int:version>.zip",
        views.archive_download,
        name="download",
    ),
]
