"""The bundles pages (mounted at the site's root by pwscup/urls.py): the console's export,
clone and import, and the manifest's published JSON Schema."""

from django.urls import path

from pwscup.bundles import views

app_name = "bundles"

urlpatterns = [
    path("bundles/schema/v1.json", views.manifest_schema, name="schema"),
    path("console/import/", views.competition_import, name="import"),
    path("console/<slug:competition_slug>/bundle.zip", views.bundle_export, name="export"),
    path("console/<slug:competition_slug>/clone/", views.competition_clone, name="clone"),
]
