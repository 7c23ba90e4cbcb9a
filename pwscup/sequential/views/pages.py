"""The sequential round's pages: the round page (steps, downloads, uploads, scores, the risk
chart, the attack phase), a release's page with its per-person risk table, and the
leaderboard with the attack matrix. A page with an upload still being checked reloads
itself until the worker's verdict."""

import csv
import io

from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from pwscup.accounts.access import kind_view
from pwscup.sequential import KEY, charts, selectors
from pwscup.sequential.forms import GuessUploadForm, ReleaseUploadForm
from pwscup.sequential.messages import release_message
from pwscup.sequential.models import Release, SeqAttack
from pwscup.sequential.views.common import own_release

PER_PERSON_SHOWN = 500
PENDING = (Release.Status.QUEUED, Release.Status.RUNNING)
REFRESH_SECONDS = 3


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
def release_detail(request, access, pk: int):
    release = own_release(access, pk)
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
