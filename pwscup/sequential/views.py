"""Pages of the sequential round (thin: each calls one service or selector)."""

import csv
import io
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from pwscup.accounts.access import kind_view
from pwscup.core.errors import Refused
from pwscup.sequential import charts, selectors, services
from pwscup.sequential.forms import GuessUploadForm, MasterUploadForm, ReleaseUploadForm
from pwscup.sequential.messages import release_message
from pwscup.sequential.models import Release, SeqAttack, SeqTarget

KEY = "sequential"
PER_PERSON_SHOWN = 500
PENDING = (Release.Status.QUEUED, Release.Status.RUNNING)
REFRESH_SECONDS = 3


def _csv_response(content: bytes | str, filename: str) -> HttpResponse:
    if isinstance(content, str):
        content = content.encode()
    response = HttpResponse(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _round_url(access) -> str:
    return reverse("round_detail", args=[access.competition.slug, access.round.slug])


def _require_team(access):
    if access.team is None:
        raise Http404("Not in a team of this competition.")
    return access.team


DISPLAY_ORDER = (
    "pid",
    "sa",
    "P_N_true",
    "P_A_true",
    "MAP_N",
    "MAP_A",
    "lsf",
    "lsb",
    "groups_per_release",
)
NUMERIC = {"P_N_true", "P_A_true", "MAP_N", "MAP_A", "lsf", "lsb", "groups_per_release"}
PROBABILITIES = {"P_N_true", "P_A_true", "MAP_N", "MAP_A"}


def _short(cell: str) -> str:
    """A probability shown with 4 decimals (the CSV download keeps every digit)."""
    try:
        return f"{float(cell):.4f}"
    except ValueError:
        return cell


def _per_person_rows(text: str, *, m: int = 2) -> tuple[list[str], list[list[dict]]]:
    """A ``risk_per_person.csv`` for the page: the probabilities first (a phone shows them
    without scrolling), rounded; a ``P_N_true`` above 1/m is marked (the promise of
    m-invariance failing for that person). The CSV download keeps the spec's order."""
    if not text:
        return [], []
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    order = [header.index(c) for c in DISPLAY_ORDER if c in header]
    order += [i for i in range(len(header)) if i not in order]
    shown_header = [header[i] for i in order]
    out = []
    for cells in rows[1:]:
        row = []
        for i in order:
            name, cell = header[i], cells[i] if i < len(cells) else ""
            over = False
            if name == "P_N_true":
                try:
                    over = float(cell) > 1 / m + 1e-9
                except ValueError:
                    over = False
            row.append(
                {
                    "text": _short(cell) if name in PROBABILITIES else cell,
                    "num": name in NUMERIC,
                    "over": over,
                }
            )
        out.append(row)
    return shown_header, out


def _check_command(last: int) -> str:
    """The local check of releases 1 … ``last`` on the files the round page offers."""
    releases = " ".join(f"release_{j}.csv" for j in range(1, last + 1))
    return f"python -m scoring seq check master.csv {releases} --config config.json"


def round_page(request, access):
    """The round's main page: steps, downloads, uploads, scores, risk chart, attack phase."""
    sequential = selectors.sequential_of(round=access.round)
    team = access.team
    context = {
        "access": access,
        "round": access.round,
        "seq": sequential,
        "config": sequential.config,
        "online": selectors.is_online(sequential),
        "open_steps": selectors.open_steps(sequential=sequential),
        "visible_steps": selectors.visible_steps(sequential=sequential),
        "inverse_m": 1 / int(sequential.config.get("m", 2)),
    }
    if team is not None:
        master = selectors.team_master(sequential=sequential, team=team)
        releases = selectors.team_releases(sequential=sequential, team=team)
        for release in releases:
            release.message_text = release_message(release)
        latest = next((r for r in releases if r.status == Release.Status.FINISHED), None)
        points = selectors.risk_points(sequential=sequential, team=team)
        frozen = selectors.team_sequence(
            sequential=sequential, team=team, upto=sequential.frozen_steps, frozen=True
        )
        schedule = selectors.step_schedule(sequential=sequential)
        step_rows = [
            {
                "step": j,
                "closes_at": schedule[j - 1]["closes_at"],
                "closed": schedule[j - 1]["closed"],
                "is_frozen": j <= sequential.frozen_steps,
                "release": frozen[j - 1] if j <= sequential.frozen_steps else None,
                "open": j in context["open_steps"],
            }
            for j in range(1, context["visible_steps"] + 1)
        ]
        quotas = {
            j: selectors.step_quota(sequential=sequential, team=team, step=j, now=timezone.now())
            for j in context["open_steps"]
        }
        context.update(
            quotas=quotas,
            master=master,
            releases=releases,
            latest=latest,
            step_rows=step_rows,
            upload_form=ReleaseUploadForm(steps=context["open_steps"]),
            risk_chart=charts.risk_chart(points, m=int(sequential.config.get("m", 2))),
            check_command=_check_command(max(context["open_steps"], default=sequential.n_releases)),
        )
    if sequential.all_frozen and sequential.config.get("attack_phase"):
        targets = list(sequential.targets.select_related("team").order_by("team__name"))
        context["targets"] = targets
        context["guess_form"] = GuessUploadForm()
        if team is not None:
            attacks = list(
                SeqAttack.objects.filter(target__sequential=sequential, team=team).select_related(
                    "target__team"
                )
            )
            context["attacks"] = attacks
    response = render(request, "sequential/round.html", context)
    pending = [*context.get("releases", []), *context.get("attacks", [])]
    if team is not None and any(upload.status in PENDING for upload in pending):
        response["Refresh"] = str(REFRESH_SECONDS)  # a worker checks an upload: reload
    return response


@kind_view(KEY)
def step_table(request, access, step: int):
    """``T(j).csv`` of the team's master: a step the team may see (online: not the future)."""
    sequential = selectors.sequential_of(round=access.round)
    team = _require_team(access)
    if not 1 <= step <= selectors.visible_steps(sequential=sequential):
        raise Http404("Not yet.")
    try:
        content = services.step_table_bytes(sequential=sequential, team=team, step=step)
    except Refused as refusal:
        raise Http404(refusal.message) from None
    return _csv_response(content, f"T{step}.csv")


@kind_view(KEY)
def config_download(request, access):
    """The round's configuration as ``config.json`` (for ``python -m scoring seq check``);
    the pool's draw parameters stay with the organizers."""
    sequential = selectors.sequential_of(round=access.round)
    if access.team is None and not access.is_organizer:
        raise Http404("Not a participant.")
    config = dict(sequential.config)
    if not access.is_organizer and config.get("per_team"):
        config["per_team"] = None
        config["attack_phase"] = False  # the check needs neither; the seed stays secret
    response = HttpResponse(
        json.dumps(config, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = 'attachment; filename="config.json"'
    return response


@kind_view(KEY)
def master_download(request, access):
    """``master.csv``: batch mode, the team's whole master; online mode, the master as known
    so far (lifespans cut at the visible step). Organizers: any team's whole master."""
    sequential = selectors.sequential_of(round=access.round)
    if access.is_organizer:
        team = access.team
        if request.GET.get("team"):
            team = get_object_or_404(access.competition.teams.all(), slug=request.GET["team"])
        master = selectors.team_master(sequential=sequential, team=team)
        if master is None:
            raise Http404("No master.")
        return _csv_response(services.master_bytes(master=master), "master.csv")
    team = _require_team(access)
    if request.GET.get("team"):
        raise Http404("Not your master.")
    try:
        content = services.team_master_bytes(sequential=sequential, team=team)
    except Refused as refusal:
        raise Http404(refusal.message) from None
    return _csv_response(content, "master.csv")


@login_required
@kind_view(KEY)
@require_POST
def release_upload(request, access):
    sequential = selectors.sequential_of(round=access.round)
    team = _require_team(access)
    # Every step is a valid choice here: the service refuses a closed or frozen one, with a
    # message saying why (and when it closed).
    form = ReleaseUploadForm(request.POST, request.FILES, steps=range(1, sequential.n_releases + 1))
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(_round_url(access) + "#upload")
    try:
        release = services.release_upload(
            sequential=sequential,
            team=team,
            user=request.user,
            step=form.cleaned_data["step"],
            uploaded_file=form.cleaned_data["file"],
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect(_round_url(access) + "#upload")
    messages.info(
        request,
        _("Release %(j)s (#%(n)s) is received: a worker checks it; this page updates by itself.")
        % {"j": release.step, "n": release.number},
    )
    return redirect(
        reverse(f"{KEY}:release", args=[access.competition.slug, access.round.slug, release.pk])
    )


def _own_release(access, pk: int) -> Release:
    sequential = selectors.sequential_of(round=access.round)
    release = get_object_or_404(Release, pk=pk, sequential=sequential)
    if not access.is_organizer and (access.team is None or release.team_id != access.team.pk):
        raise Http404("No such release.")
    return release


@kind_view(KEY)
def release_detail(request, access, pk: int):
    release = _own_release(access, pk)
    header, rows = _per_person_rows(
        selectors.release_risk_table(release=release),
        m=int(release.sequential.config.get("m", 2)),
    )
    response = render(
        request,
        "sequential/release.html",
        {
            "pending": release.status in PENDING,
            "access": access,
            "round": access.round,
            "release": release,
            "message_text": release_message(release),
            "results": release.results,
            "per_person_header": header,
            "per_person_rows": rows[:PER_PERSON_SHOWN],
            "per_person_more": max(0, len(rows) - PER_PERSON_SHOWN),
            "inverse_m": 1 / int(release.sequential.config.get("m", 2)),
        },
    )
    if release.status in PENDING:
        response["Refresh"] = str(REFRESH_SECONDS)
    return response


@kind_view(KEY)
def release_file(request, access, pk: int):
    release = _own_release(access, pk)
    return _csv_response(
        services.release_bytes_for_download(release=release), f"release_{release.step}.csv"
    )


@kind_view(KEY)
def release_risk_csv(request, access, pk: int):
    release = _own_release(access, pk)
    if not release.per_person:
        raise Http404("No risk table.")
    return _csv_response(
        selectors.release_risk_table(release=release), f"risk_per_person_{release.step}.csv"
    )


@kind_view(KEY)
def leaderboard(request, access):
    sequential = selectors.sequential_of(round=access.round)
    if not (access.is_organizer or access.team is not None or sequential.results_published):
        raise Http404("No leaderboard.")
    context = {
        "access": access,
        "round": access.round,
        "seq": sequential,
        "rows": selectors.leaderboard_rows(sequential=sequential),
        "metrics": selectors.BOARD_METRICS,
        "attack_phase": bool(sequential.config.get("attack_phase")),
        "config": sequential.config,
        "gates_text": ", ".join(
            f"{k} ≤ {v:g}" for k, v in (sequential.config.get("utility_gates") or {}).items()
        ),
    }
    if context["attack_phase"] and sequential.all_frozen:
        if sequential.results_published or access.is_organizer:
            context["matrix"] = selectors.attack_matrix(sequential=sequential)
            context["attack_ranking"] = selectors.attack_ranking(sequential=sequential)
    return render(request, "sequential/leaderboard.html", context)


def _target(access, team_slug: str) -> SeqTarget:
    sequential = selectors.sequential_of(round=access.round)
    if not (sequential.all_frozen and sequential.config.get("attack_phase")):
        raise Http404("No attack phase.")
    if access.team is None and not access.is_organizer:
        raise Http404("Not a participant.")
    return get_object_or_404(
        SeqTarget.objects.select_related("team", "sequential"),
        sequential=sequential,
        team__slug=team_slug,
    )


@kind_view(KEY)
def target_file(request, access, team_slug: str, filename: str):
    """A published file of a target sequence (no pid, renumbered groups; spec §10)."""
    target = _target(access, team_slug)
    if filename not in target.files:
        raise Http404("No such file.")
    return _csv_response(target.files[filename], filename)


@login_required
@kind_view(KEY)
@require_POST
def attack_upload(request, access, team_slug: str):
    target = _target(access, team_slug)
    team = _require_team(access)
    form = GuessUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a file."))
        return redirect(_round_url(access) + "#attack")
    try:
        attack = services.attack_upload(
            target=target, team=team, user=request.user, uploaded_file=form.cleaned_data["file"]
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect(_round_url(access) + "#attack")
    messages.info(
        request,
        _(
            "Your guesses on %(team)s (#%(n)s) are received: a worker scores them; the "
            "accuracy appears below."
        )
        % {"team": target.team.name, "n": attack.number},
    )
    return redirect(_round_url(access) + "#attack")


# --- organizer actions (forms of the console panel) -------------------------------------------


def _organizer(access):
    if not access.is_organizer:
        raise PermissionDenied
    return selectors.sequential_of(round=access.round)


def _console_url(access) -> str:
    return reverse("console:round", args=[access.competition.slug, access.round.slug])


def _confirmed_step(request) -> int | None:
    """The release number the confirmation form carries (None: no confirmation)."""
    text = request.POST.get("step", "")
    return int(text) if text.isdigit() and len(text) < 6 else None


def _freeze(request, access, sequential):
    """Freeze the next release, confirmed on the server: a GET shows what the freeze does
    and a form carrying the release's number; only a POST with that number freezes. A
    number that is not the next release's freezes nothing (a form sent twice, or after
    another organizer froze it, freezes once)."""
    if request.method == "POST":
        step = _confirmed_step(request)
        if step is None:
            messages.error(request, _("Nothing was frozen: confirm the freeze on this page."))
            return redirect(request.path)
        try:
            frozen = services.step_freeze(sequential=sequential, user=request.user, step=step)
        except Refused as refusal:
            messages.error(request, refusal.message)
            return redirect(_console_url(access))
        if frozen is None:
            messages.error(
                request,
                _("Nothing was frozen: release %(j)s is not the next release to freeze.")
                % {"j": step},
            )
        else:
            messages.success(request, _("Release %(j)s is frozen.") % {"j": frozen})
            services.audit(user=request.user, sequential=sequential, action="freeze")
        return redirect(_console_url(access))
    preview = selectors.freeze_preview(sequential=sequential)
    if preview is None:
        messages.info(request, _("Every release of this round is frozen already."))
        return redirect(_console_url(access))
    context = {"competition": access.competition, "round": access.round, "preview": preview}
    return render(request, "sequential/freeze_confirm.html", context)


@login_required
@kind_view(KEY)
@require_http_methods(["GET", "POST"])
def organizer_action(request, access, action: str):
    sequential = _organizer(access)
    if action == "freeze":
        return _freeze(request, access, sequential)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    try:
        if action == "draw":
            drawn = services.masters_draw(sequential=sequential)
            messages.success(request, _("%(n)s master tables drawn.") % {"n": len(drawn)})
        elif action == "publish":
            services.results_publish(sequential=sequential, published=True)
            messages.success(request, _("The results are published."))
        elif action == "master":
            form = MasterUploadForm(request.POST, request.FILES, competition=access.competition)
            if not form.is_valid():
                raise Refused(_("Choose a master table file."))
            services.master_upload(
                sequential=sequential,
                uploaded_file=form.cleaned_data["file"],
                team=form.cleaned_data["team"],
            )
            messages.success(request, _("The master table is stored."))
        else:
            raise Http404("No such action.")
    except Refused as refusal:
        messages.error(request, refusal.message)
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
    services.audit(user=request.user, sequential=sequential, action=action)
    return redirect(_console_url(access))
