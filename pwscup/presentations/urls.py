"""The presentations pages (mounted at the site's root by pwscup/urls.py): the participants'
under ``c/<competition>/presentations/`` (a round cannot take that address), the console's
under ``console/<competition>/presentations/``."""

from django.urls import path

from pwscup.presentations import console_views, views

app_name = "presentations"

page = "c/<slug:competition_slug>/presentations/"
console = "console/<slug:competition_slug>/presentations/"

urlpatterns = [
    path(page, views.page, name="page"),
    path(page + "<int:pk>/upload/", views.upload, name="upload"),
    path(page + "slides/<int:pk>/slides.pdf", views.slides_pdf, name="slides_pdf"),
    path(page + "slides/<int:pk>/preview.png", views.slides_preview, name="slides_preview"),
    path(console, console_views.console, name="console"),
    path(console + "new/", console_views.window_new, name="window_new"),
    path(console + "<int:pk>/edit/", console_views.window_edit, name="window_edit"),
    path(console + "<int:pk>/publish/", console_views.window_publish, name="window_publish"),
    path(console + "<int:pk>/hide/", console_views.window_hide, name="window_hide"),
]
