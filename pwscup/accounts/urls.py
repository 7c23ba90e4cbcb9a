from django.contrib.auth import views as auth_views
from django.urls import path

from pwscup.accounts import views
from pwscup.accounts.forms import PasswordChangeForm, PasswordResetSetForm

# Log-in and log-out stay in pwscup/urls.py; these are the rest of Django's account pages.
account_urls = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/email/", views.email_change, name="email_change"),
    path(
        "password/change/",
        auth_views.PasswordChangeView.as_view(form_class=PasswordChangeForm),
        name="password_change",
    ),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", views.password_reset, name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(form_class=PasswordResetSetForm),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]

# Under /c/<competition_slug>/.
team_urls = [
    path("team/", views.team_detail, name="team_detail"),
    path("team/create/", views.team_create, name="team_create"),
    path("team/join/", views.team_join, name="team_join"),
    path("team/renew/", views.team_invitation_renew, name="team_invitation_renew"),
    path("team/remove/<int:user_id>/", views.team_member_remove, name="team_member_remove"),
    path("join/<str:code>/", views.team_join_link, name="team_join_link"),
]
