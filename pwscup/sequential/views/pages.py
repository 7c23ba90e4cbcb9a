"""The sequential round's pages beside its tabs (``views/tabs.py``): a release's page with its
per-person risk table (under the Submit tab, where the uploads are listed; it reloads itself
when the team's live version moves while the release is checked) and the leaderboard with the attack matrix (under Results)."""

from django.http import Http404

from pwscup.accounts.access import kind_view
from pwscup.kinds.tabs import RESULTS, SUBMIT, render_tab
from pwscup.sequential import KEY, selectors
from pwscup.sequential.access import own_release
from pwscup.sequential.charts import groups_chart
from pwscup.sequential.example import rows as csv_rows
from pwscup.sequential.models import Release
from pwscup.sequential.views.tab_context import gates_text
from pwscup.submissions.models import PENDING
from pwscup.submissions.round_pages import render_live_tab, team_live_etag
from scoring.display import format_figure

PER_PERSON_SHOWN = 500


# The per-person table's columns as the page orders them (the probabilities first), the
# probabilities rounded, and the numbers aligned.
PROBABILITIES = ("P_N_true", "P_A_true", "MAP_N", "MAP_A")
DISPLAY_ORDER = ("pid", "sa", *PROBABILITIES, "lsf", "lsb", "groups_per_release")
NUMERIC = set(DISPLAY_ORDER[2:])


def _number(cell: str) -> float | None:
    try:
        return float(cell)
    except ValueError:
        return None


def _per_person_rows(text: str, *, m: int = 2) -> tuple[list[str], list[list[dict]]]:
    """A ``risk_per_person.csv`` for the page: the probabilities first (a phone shows them
    without scrolling), rounded; a ``P_N_true`` above 1/m is marked (the promise of
    m-invariance failing for that person). The CSV download keeps the spec's order."""
    if not text:
        return [], []
    header, rows = csv_rows(text)
    order = [header.index(c) for c in DISPLAY_ORDER if c in header]
    order += [i for i in range(len(header)) if i not in order]
    shown_header = [header[i] for i in order]
    out = []
    for cells in rows:
        row = []
        for i in order:
            name, cell = header[i], cells[i] if i < len(cells) else ""
            value = _number(cell) if name in PROBABILITIES else None
            row.append(
                {
                    # the tables' rule, 4 decimals (the CSV download keeps every digit)
                    "text": cell if value is None else format_figure(value),
                    "num": name in NUMERIC,
                    "over": name == "P_N_true" and value is not None and value > 1 / m + 1e-9,
                }
            )
        out.append(row)
    return shown_header, out


@kind_view(KEY)
def release_detail(request, access, pk: int):
    """A release's page, following it while the team's release is checked."""
    etag = team_live_etag(access)  # read before the release
    release = own_release(access, pk)
    m = int(release.sequential.config.get("m", 2))
    header, rows = _per_person_rows(selectors.release_risk_table(release=release), m=m)
    finished = release.status == Release.Status.FINISHED
    context = {
        "pending": release.status in PENDING,
        "release": release,
        "results": release.results,
        "groups_chart": groups_chart(selectors.release_groups(release=release))
        if finished
        else None,
        "per_person_header": header,
        "per_person_rows": rows[:PER_PERSON_SHOWN],
        "per_person_more": max(0, len(rows) - PER_PERSON_SHOWN),
        "inverse_m": 1 / m,
    }
    return render_live_tab(
        request, access, SUBMIT, "sequential/release.html", context, [release], etag=etag
    )


@kind_view(KEY)
def leaderboard(request, access):
    sequential = selectors.sequential_of(round=access.round)
    if not selectors.leaderboard_shown(sequential=sequential, access=access):
        raise Http404("No leaderboard.")
    context = {
        "seq": sequential,
        "rows": selectors.leaderboard_rows(sequential=sequential),
        "metrics": selectors.BOARD_METRICS,
        "attack_phase": bool(sequential.config.get("attack_phase")),
        "config": sequential.config,
        "gates_text": gates_text(sequential.config),
    }
    if sequential.attack_phase_begun:
        if sequential.results_published or access.is_organizer:
            context["matrix"] = selectors.attack_matrix(sequential=sequential)
            context["attack_ranking"] = selectors.attack_ranking(sequential=sequential)
    return render_tab(request, access, RESULTS, "sequential/leaderboard.html", context)
