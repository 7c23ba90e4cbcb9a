"""The organizer's side: the page creating a sequential round, the console panel of one
(masters, timeline T(1) … T(n) with arrivals and departures, freeze), and the panel's forms
(``organizer_action``: freeze, confirmed on its own page; the dates and limits, on theirs;
upload a master, answered as every panel's form is, ``console_post_answer``). Redrawing the
masters and publishing the results are lifecycle actions (``actions``: the console lists
them beside the panel), each calling one service and recorded in the audit log. Organizers
of the competition only."""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import scoring
from pwscup.accounts.access import kind_view
from pwscup.accounts.models import Team
from pwscup.competitions.console_posts import console_post_answer, dates_page
from pwscup.competitions.round_create import round_create_page, round_identity
from pwscup.competitions.selectors import console_competition
from pwscup.core.errors import Refused, scoring_text
from pwscup.core.form_fields import digits_value
from pwscup.core.time_zones import in_zone_text
from pwscup.sequential import KEY, selectors, services
from pwscup.sequential.forms import MasterUploadForm
from pwscup.sequential.round_form import SequentialRoundForm
from pwscup.sequential.schedule_fields import ScheduleEditForm
from pwscup.submissions.services.windows import window_not_open_yet


@login_required
def round_create(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    form = SequentialRoundForm(request.POST or None, request.FILES or None)

    def create(data):
        return services.sequential_round_create(
            **round_identity(data, competition=competition, user=request.user),
            config=form.round_config(),
            master_file=data["master"],
            pool_file=data["pool"],
            **form.schedule(),
        )

    return round_create_page(request, competition, form, create, "sequential/console_create.html")


# The round's panel on the console's round page: the core renders it with ``panel_context``.
PANEL_TEMPLATE = "sequential/console_panel.html"


def panel_context(round) -> dict:
    """What the console panel shows: configuration, each master's timeline, the steps."""
    sequential = selectors.sequential_of(round=round)
    masters = []
    teams = {t.pk: t for t in Team.objects.filter(competition=round.competition)}
    for master in sequential.masters.order_by("team__name"):
        try:
            timeline, problem = services.master_timeline(master=master), ""
        except scoring.ScoringError as error:
            timeline, problem = [], scoring_text(error)
        masters.append(
            {
                "master": master,
                "team": teams.get(master.team_id),
                "timeline": timeline,
                "problem": problem,
            }
        )
    by_team = {m["master"].team_id: m["master"] for m in masters}
    missing = [t for t in teams.values() if t.pk not in by_team and None not in by_team]
    return {
        "round": round,
        "seq": sequential,
        "config": sequential.config,
        "config_json": json.dumps(sequential.config, indent=2, ensure_ascii=False),
        "masters": masters,
        "teams_without_master": sorted(missing, key=lambda t: t.name),
        "pool_left_short": bool(missing)
        and any(
            selectors.pool_left_short(sequential=sequential, team=t, masters=by_team)
            for t in missing
        ),
        "open_steps": selectors.open_steps(sequential=sequential),
        "next_step": sequential.frozen_steps + 1,
        "master_form": MasterUploadForm(competition=round.competition),
        "rows": selectors.leaderboard_rows(sequential=sequential),
        "uploads": sequential.releases.count(),
        "schedule": selectors.step_schedule(sequential=sequential),
    }


urlpatterns = [path("new/", round_create, name="create")]


# --- organizer actions (forms of the console panel) -------------------------------------------


def _freeze(request, access, sequential):
    """Freeze the next release, confirmed on the server: a GET shows what the freeze does
    and a form carrying the release's number; only a POST with that number freezes. A
    number that is not the next release's freezes nothing (a form sent twice, or after
    another organizer froze it, freezes once)."""
    if request.method == "POST":
        # The release number the confirmation form carries (None: no confirmation).
        step = digits_value(request.POST.get("step", ""), most=99_999)
        if step is None:
            messages.error(request, _("Nothing was frozen: confirm the freeze on this page."))
            return redirect(request.path)

        # The box of a release not open yet: the organizer ends it before it opens.
        early = request.POST.get("early") == "on"
        opens_at = selectors.release_opens_at(sequential, step)

        def freeze() -> str:
            frozen = services.step_freeze(
                sequential=sequential, user=request.user, step=step, early=early
            )
            if frozen is None:
                raise Refused(
                    _("Nothing was frozen: release %(j)s is not the next release to freeze.")
                    % {"j": step}
                )
            # The service froze its own locked copy: the audit records the round as it left it.
            sequential.refresh_from_db(fields=["frozen_steps"])
            before = window_not_open_yet(opens_at=opens_at, now=timezone.now())
            # A release ended before its opening says when it was to open.
            opening = {"ended_before_opening": opens_at.isoformat()} if before else {}
            services.audit(user=request.user, sequential=sequential, action="freeze", **opening)
            return _("Release %(j)s is frozen.") % {"j": frozen}

        return console_post_answer(request, access.round, freeze)
    preview = selectors.freeze_preview(sequential=sequential)
    if preview is None:
        messages.info(request, _("Every release of this round is frozen already."))
        return redirect("console:round", access.competition.slug, access.round.slug)
    context = {"competition": access.competition, "round": access.round, "preview": preview}
    if preview["opens_at"] is not None:
        context["opens"] = in_zone_text(preview["opens_at"], access.round.timezone)
    return render(request, "sequential/freeze_confirm.html", context)


def _dates(request, access, sequential):
    """The round's page *Dates and limits*: each release's close (in the round's time zone),
    the automatic freeze and the upload limits, saved by ``schedule_edit``."""
    form = ScheduleEditForm(request.POST or None, sequential=sequential)
    return dates_page(
        request,
        access.round,
        form,
        lambda data: services.schedule_edit(
            sequential=sequential, user=request.user, **form.schedule()
        ),
        template="sequential/schedule_edit.html",
    )


@login_required
@kind_view(KEY)
@require_http_methods(["GET", "POST"])
def organizer_action(request, access, action: str):
    if not access.is_organizer:
        raise PermissionDenied
    sequential = selectors.sequential_of(round=access.round)
    if action == "freeze":
        return _freeze(request, access, sequential)
    if action == "dates":
        return _dates(request, access, sequential)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    if action != "master":
        raise Http404("No such action.")
    form = MasterUploadForm(request.POST, request.FILES, competition=access.competition)

    def upload() -> str:
        if not form.is_valid():
            raise Refused(_("Choose a master table file."))
        services.master_upload(
            sequential=sequential,
            uploaded_file=form.cleaned_data["file"],
            team=form.cleaned_data["team"],
        )
        services.audit(user=request.user, sequential=sequential, action="master")
        return _("The master table is stored.")

    return console_post_answer(request, access.round, upload)
