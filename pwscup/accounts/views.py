"""The participant's own pages (sign-up, password reset, profile, team) and django-axes'
login hooks."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts import services
from pwscup.accounts.backends import address_locked_out
from pwscup.accounts.forms import (
    EmailChangeForm,
    NotificationPreferenceForm,
    SignUpForm,
    TeamCreateForm,
    TeamJoinForm,
)
from pwscup.accounts.models import Team
from pwscup.accounts.selectors import (
    competitions_for_user,
    team_disqualification,
    team_for_user,
    user_profile,
)
from pwscup.accounts.throttling import throttle_minutes
from pwscup.competitions.selectors import round_at_path
from pwscup.core.errors import Refused
from pwscup.core.form_fields import form_saved
from pwscup.notifications.selectors import notification_preference
from pwscup.notifications.services import notification_preference_set

# What the browser forgets at log-out, beside the session Django ends (docs/operations.md,
# "Log-out"): the pages it kept and the site's storage. Its back/forward cache keeps the page
# the log-out was sent from: static/pwscup.js asks for a page restored from there again. Not
# "cookies": the session cookie is already deleted, the language cookie should outlive a
# log-out, the CSRF cookie is rotated by the next log-in anyway, and the browser would clear
# the cookies of the whole registrable domain (every site under it).
CLEARED_AT_LOGOUT = '"cache", "storage"'


class LogoutView(auth_views.LogoutView):
    """Django's log-out, whose answer also clears what the browser kept of the site: on a
    shared computer, the next user's Back button must not show the last user's pages."""

    def post(self, request, *args, **kwargs):
        response = super().post(request, *args, **kwargs)
        response["Clear-Site-Data"] = CLEARED_AT_LOGOUT
        return response


def login_locked_out(request, response=None, credentials=None):
    """The login page again, with the lock-out message instead of the form (HTTP 429): the
    user name's, or the whole address's after too many failures over all user names."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/login.html",
        {
            "locked_out": True,
            "address_locked_out": address_locked_out(request),
            "cooloff_minutes": minutes,
            "next": request.POST.get("next", ""),
        },
        status=429,
    )


def _safe_next(request) -> str:
    """The ``next`` address of the request if it stays on this site (else ``""``)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def _next_or(request, fallback: str):
    return redirect(_safe_next(request) or fallback)


def _team_page(competition_slug: str, back: str):
    """The team page, carrying where the student came from (its "back" link)."""
    address = reverse("team_detail", args=[competition_slug])
    return redirect(f"{address}?{urlencode({'next': back})}" if back else address)


def _throttled(request, *, what: str, minutes: int):
    return render(
        request,
        "accounts/throttled.html",
        {"what": what, "minutes": minutes},
        status=429,
    )


def signup(request):
    if request.user.is_authenticated:
        return redirect("profile")
    # Only accepted sign-ups count (a form sent back with an error does not): a class signing
    # up together behind one NAT shares one address.
    minutes = throttle_minutes(
        request, group="pwscup.signup", rate=settings.PWSCUP_SIGNUP_RATE, increment=False
    )
    if minutes is not None:
        return _throttled(request, what="signup", minutes=minutes)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        throttle_minutes(
            request, group="pwscup.signup", rate=settings.PWSCUP_SIGNUP_RATE, increment=True
        )
        try:
            user = services.user_sign_up(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                password_reset_url=request.build_absolute_uri(reverse("password_reset")),
            )
        except ValidationError as error:  # the user name was taken meanwhile
            form.add_error(None, error)
            return render(
                request,
                "registration/signup.html",
                {"form": form, "next": request.POST.get("next", "")},
            )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s: your account is ready.") % {"name": user})
        return _next_or(request, "profile")
    return render(
        request, "registration/signup.html", {"form": form, "next": request.GET.get("next", "")}
    )


@login_required
def profile(request):
    form = NotificationPreferenceForm(
        request.POST if request.method == "POST" else None,
        initial={"email_enabled": notification_preference(user=request.user).email_enabled},
    )
    saved = form_saved(
        request,
        form,
        lambda data: notification_preference_set(
            user=request.user, email_enabled=data["email_enabled"], language=get_language()
        ),
    )
    if saved:
        messages.success(request, _("Your notification preferences are saved."))
        return redirect("profile")
    return render(
        request, "accounts/profile.html", {"form": form, **user_profile(user=request.user)}
    )


@login_required
def email_change(request):
    """The account's e-mail address, changed with its password (``user_email_set``)."""
    form = EmailChangeForm(request.POST or None, initial={"email": request.user.email})
    saved = form_saved(
        request, form, lambda data: services.user_email_set(user=request.user, **data)
    )
    if saved:
        messages.success(request, _("Your e-mail address is saved."))
        return redirect("profile")
    return render(request, "accounts/email_change.html", {"form": form})


def _competition(request, competition_slug):
    return get_object_or_404(competitions_for_user(user=request.user), slug=competition_slug)


@login_required
def team_detail(request, competition_slug):
    competition = _competition(request, competition_slug)
    team = team_for_user(user=request.user, competition=competition)
    if team is None:
        return redirect("competition_detail", competition.slug)
    back = _safe_next(request)
    back_round = round_at_path(competition=competition, path=back) if back else None
    join_url = request.build_absolute_uri(
        _join_path(competition_slug=competition.slug, code=team.invitation_code)
    )
    return render(
        request,
        "accounts/team.html",
        {
            "competition": competition,
            "team": team,
            "memberships": team.memberships.select_related("user").order_by("joined_at", "pk"),
            "is_captain": team.captain_id == request.user.pk,
            "disqualification": team_disqualification(team=team),
            "join_url": join_url,
            "back_url": back,
            "back_round": back_round,
        },
    )


def _join_path(*, competition_slug: str, code: str) -> str:
    return reverse("team_join_link", args=[competition_slug, code])


def _refused(request, refusal: Refused, competition_slug: str):
    messages.error(request, refusal.message)
    return redirect("competition_detail", competition_slug)


@login_required
@require_POST
def team_create(request, competition_slug):
    competition = _competition(request, competition_slug)
    form = TeamCreateForm(request.POST)
    try:
        if not form.is_valid():
            raise Refused(_("Give the team a name of at most 100 characters."))
        team = services.team_create(
            competition=competition, name=form.cleaned_data["name"], captain=request.user
        )
    except Refused as refusal:
        return _refused(request, refusal, competition.slug)
    messages.success(
        request,
        _(
            "Team %(team)s is created and you are its captain: invite your team mates with the link below."
        )
        % {"team": team.name},
    )
    return _team_page(competition.slug, _safe_next(request))


@login_required
@require_POST
def team_join(request, competition_slug):
    """The competition page's form: the code (or the pasted link) the captain sent."""
    competition = _competition(request, competition_slug)
    form = TeamJoinForm(request.POST)
    code = form.cleaned_data["code"] if form.is_valid() else ""
    return _join(request, competition_slug=competition.slug, code=code)


def _join(request, *, competition_slug: str, code: str):
    try:
        team = services.team_join(code=code, user=request.user, competition_slug=competition_slug)
    except Refused as refusal:
        messages.error(request, refusal.message)
        visible = competitions_for_user(user=request.user).filter(slug=competition_slug)
        return redirect("competition_detail", competition_slug) if visible else redirect("home")
    messages.success(request, _("You joined team %(team)s.") % {"team": team.name})
    return _team_page(competition_slug, _safe_next(request))


def team_join_link(request, competition_slug, code):
    """The invitation link: who follows it sees the team's name and confirms (after
    logging in or signing up); without the right code there is nothing to see."""
    team = get_object_or_404(
        Team.objects.select_related("competition"),
        competition__slug=competition_slug,
        invitation_code=code,
    )
    if request.method == "POST" and request.user.is_authenticated:
        return _join(request, competition_slug=competition_slug, code=code)
    return render(
        request,
        "accounts/join.html",
        {
            "team": team,
            "competition": team.competition,
            "current_team": team_for_user(user=request.user, competition=team.competition),
        },
    )


def _my_team_as_captain_or_404(request, competition_slug) -> Team:
    competition = _competition(request, competition_slug)
    team = team_for_user(user=request.user, competition=competition)
    if team is None:
        raise Http404
    return team


@login_required
@require_POST
def team_member_remove(request, competition_slug, user_id):
    team = _my_team_as_captain_or_404(request, competition_slug)
    member = get_object_or_404(get_user_model(), pk=user_id)
    try:
        services.team_member_remove(team=team, member=member, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(
            request,
            _("%(user)s is no longer in team %(team)s.")
            % {"user": member.get_username(), "team": team.name},
        )
    return redirect("team_detail", competition_slug)


@login_required
@require_POST
def team_invitation_renew(request, competition_slug):
    team = _my_team_as_captain_or_404(request, competition_slug)
    try:
        services.team_invitation_renew(team=team, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("A new invitation code is ready: the old one no longer works."))
    return redirect("team_detail", competition_slug)


def password_reset(request):
    """Django's password-reset request, each e-mail it sends counted per client address."""
    if request.method == "POST":
        minutes = throttle_minutes(
            request,
            group="pwscup.password-reset",
            rate=settings.PWSCUP_PASSWORD_RESET_RATE,
            increment=True,
        )
        if minutes is not None:
            return _throttled(request, what="password_reset", minutes=minutes)
    return auth_views.PasswordResetView.as_view()(request)
