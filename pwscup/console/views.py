"""Console pages for competitions, co-organizers and teams (thin: forms in, services out)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.selectors import team_disqualification
from pwscup.archives.selectors import archives_console
from pwscup.competitions.console_pages import competition_console_page
from pwscup.competitions.selectors import (
    audit_entries,
    console_competition,
    may_create_competitions,
    organized_competitions,
)
from pwscup.console import selectors, services
from pwscup.console.forms import (
    CompetitionCreatorForm,
    CompetitionEditForm,
    CompetitionForm,
    DisqualifyForm,
    OrganizerInviteForm,
    TeamRenameForm,
    competition_initial,
)
from pwscup.core.errors import Refused
from pwscup.core.exports import csv_response
from pwscup.core.form_fields import add_errors, form_page, form_saved
from pwscup.kinds import all_kinds, kind_of
from pwscup.presentations.selectors import presentations_console


@login_required
def console_home(request):
    competitions = organized_competitions(user=request.user).order_by("-created_at")
    may_create = may_create_competitions(user=request.user)
    if not may_create and not competitions.exists():
        raise PermissionDenied(services.console_refused_message())
    return render(
        request,
        "console/home.html",
        {
            "competitions": competitions,
            "may_create": may_create,
            "may_manage_creators": selectors.may_manage_creators(user=request.user),
        },
    )


@login_required
def competition_creators(request):
    """Who may create competitions: a superuser grants and revokes it (the service checks)."""
    if not selectors.may_manage_creators(user=request.user):
        raise PermissionDenied(services.creators_refused_message())
    form = CompetitionCreatorForm(request.POST or None)
    saved = form_saved(
        request, form, lambda data: services.competition_creator_set(user=request.user, **data)
    )
    if saved:
        account = saved.value
        if form.cleaned_data["allowed"]:
            done = _("%(user)s may now create competitions.")
        elif account.is_superuser:
            done = _("%(user)s is a superuser and keeps every right.")
        else:
            done = _("%(user)s may no longer create competitions.")
        messages.success(request, done % {"user": account.get_username()})
        return redirect("console:creators")
    return render(
        request,
        "console/creators.html",
        {"form": form, "creators": selectors.competition_creators()},
    )


@login_required
def competition_new(request):
    if not may_create_competitions(user=request.user):
        raise PermissionDenied
    form = CompetitionForm(request.POST or None)
    saved = form_saved(
        request, form, lambda data: services.console_competition_create(user=request.user, **data)
    )
    if saved:
        messages.success(request, _("Competition created: you organize it."))
        return redirect("console:competition", saved.value.slug)
    return render(request, "console/competition_new.html", {"form": form})


@competition_console_page("console/competition.html")
def competition_page(competition):
    return {
        "rounds": [
            (round_, kind, kind.round_note(round_), kind.results_published(round_))
            # With their phases: a kind's note reads them (one query for every round).
            for round_ in competition.rounds.prefetch_related("phases")
            for kind in [kind_of(round_)]
        ],
        "new_round_links": [
            (kind, url)
            for kind in all_kinds()
            if (url := kind.console_create_url(competition)) is not None
        ],
        "organizers": competition.organizers.order_by("username"),
        "edit_form": CompetitionEditForm(initial=competition_initial(competition)),
        "invite_form": OrganizerInviteForm(),
        "audit": audit_entries(competition=competition, limit=30),
        "presentations": presentations_console(competition=competition),
        "archives": archives_console(competition=competition),
    }


@login_required
def competition_edit(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    return form_page(
        request,
        CompetitionEditForm(request.POST or None, initial=competition_initial(competition)),
        lambda data: services.console_competition_update(
            user=request.user, competition=competition, **data
        ),
        template="console/competition_edit.html",
        context={"competition": competition},
        back=reverse("console:competition", args=[competition.slug]),
        done=_("Competition saved."),  # said when a field changed
    )


@login_required
def organizer_invite(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    return form_page(
        request,
        OrganizerInviteForm(request.POST or None),
        lambda data: services.organizer_invite(user=request.user, competition=competition, **data),
        template="console/organizer_invite.html",
        context={"competition": competition},
        back=reverse("console:competition", args=[competition.slug]),
        done=lambda user: _("%(user)s now organizes this competition.") % {"user": user},
    )


@competition_console_page("console/teams.html")
def teams_page(competition):
    return {
        "teams": selectors.competition_teams(competition=competition),
        "participants": selectors.competition_participants(competition=competition),
    }


@login_required
def participants_csv(request, competition_slug):
    """Every member of every team as CSV, to join with the rankings' ``team`` column."""
    competition = console_competition(user=request.user, slug=competition_slug)
    rows = selectors.participant_rows(competition=competition)
    return csv_response(
        f"{competition.slug}_participants.csv", selectors.PARTICIPANTS_CSV_HEADER, rows
    )


def _team_action(request, competition_slug, pk, form_class, act, done_message, page=None):
    """``page``: the form page's own ``heading``, ``intro`` and ``button`` (else the team's
    name and *Save*)."""
    competition = console_competition(user=request.user, slug=competition_slug)
    team = selectors.console_team(competition=competition, pk=pk)
    form = form_class(request.POST or None) if form_class else None
    if request.method == "POST" and (form is None or form.is_valid()):
        try:
            act(team, form.cleaned_data if form else {})
        except Refused as refusal:  # the team's row held by an upload (``team_row_lock``)
            messages.error(request, refusal.message)
            return redirect("console:teams", competition.slug)
        except ValidationError as error:
            if form is None:
                messages.error(request, " ".join(error.messages))
                return redirect("console:teams", competition.slug)
            add_errors(form, error)
        else:
            messages.success(request, done_message % {"team": team.name})
            return redirect("console:teams", competition.slug)
    return render(
        request,
        "console/team_form.html",
        {"competition": competition, "team": team, "form": form, **(page or {})},
    )


@login_required
def team_rename(request, competition_slug, pk):
    return _team_action(
        request,
        competition_slug,
        pk,
        TeamRenameForm,
        lambda team, data: services.console_team_rename(user=request.user, team=team, **data),
        _("Team renamed: %(team)s."),
    )


@login_required
def team_disqualify(request, competition_slug, pk):
    """The form, or, for a team already disqualified, the decision as it stands (since when,
    by whom, why) and the way back (reinstating) instead: posting then changes nothing."""
    competition = console_competition(user=request.user, slug=competition_slug)
    team = selectors.console_team(competition=competition, pk=pk)
    decision = team_disqualification(team=team)
    if decision is not None:
        if request.method == "POST":
            messages.error(
                request,
                _("%(team)s is already disqualified: nothing was changed.") % {"team": team.name},
            )
        context = {"competition": competition, "team": team, "decision": decision}
        return render(request, "console/team_disqualified.html", context)
    team_name = team.name
    return _team_action(
        request,
        competition_slug,
        pk,
        DisqualifyForm,
        lambda team, data: services.console_team_disqualify(user=request.user, team=team, **data),
        _("%(team)s is disqualified: hidden from every ranking."),
        page={
            "heading": _("Disqualify %(team)s") % {"team": team_name},
            "intro": _(
                "The team leaves every ranking of every round of the competition (pages, CSV "
                "files, the API, the results archive); the teams below it move up. Its "
                "attacks on the other teams still count. Its members read the reason on their "
                "team's page. Reinstate the team on the Teams page to undo it."
            ),
            "button": _("Disqualify"),
        },
    )


@login_required
@require_POST
def team_reinstate(request, competition_slug, pk):
    return _team_action(
        request,
        competition_slug,
        pk,
        None,
        lambda team, data: services.console_team_reinstate(user=request.user, team=team),
        _("%(team)s is back in the rankings."),
    )


@login_required
def member_remove(request, competition_slug, pk, user_id):
    """Asks first (GET: a confirmation page naming the member), removes on POST."""
    competition = console_competition(user=request.user, slug=competition_slug)
    team = selectors.console_team(competition=competition, pk=pk)
    member = selectors.console_team_member(team=team, user_id=user_id)
    if request.method == "POST":
        try:
            services.console_member_remove(user=request.user, team=team, member_id=user_id)
        except Refused as refusal:  # the team's row held by an upload (``team_row_lock``)
            messages.error(request, refusal.message)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            done = _("%(member)s removed from %(team)s.")
            messages.success(request, done % {"member": member.username, "team": team.name})
        return redirect("console:teams", competition.slug)
    return render(
        request,
        "console/member_remove.html",
        {"competition": competition, "team": team, "member": member},
    )
