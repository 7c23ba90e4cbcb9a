"""The archives pages (mounted at the site's root by pwscup/urls.py)."""

app_name = "archives"

urlpatterns = []
