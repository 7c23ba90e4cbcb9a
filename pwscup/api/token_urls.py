"""The profile page's token actions, under /accounts/tokens/."""

from django.urls import path

from pwscup.api import token_views

urlpatterns = [
    path("new/", token_views.token_create, name="api_token_create"),
    path("<int:token_id>/revoke/", token_views.token_revoke, name="api_token_revoke"),
]
