"""The sequential round's answers to the API's round status and standings, the same shape
for every kind (``RoundKind.api_round_status``, ``api_leaderboard``), pointing at the
endpoints of ``api.py``: what the team may upload (a release of an open step; guesses in the
attack phase), what it may download now (never a release after the visible one, never
another team's master), its uploads, and the leaderboard page's table."""

from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.sequential import selectors
from pwscup.sequential.api.views import (
    ATTACK,
    RELEASE,
    attack_json,
    release_json,
    score_text,
    team_attacks,
)

# A release's one-line summary (``pwscup status``): the invariance, the risks, the loss.
HEADLINE = ("MINV", "RN_max", "RA_max", "IL")


def _download(name: str, label: str, url_name: str, args: list) -> dict:
    return {"name": name, "label": label, "url": reverse(url_name, args=args)}


def round_status(request, access) -> dict:
    """``SequentialKind.api_round_status``: the release upload (its open steps), the team's
    data as its Data tab offers it now, its releases."""
    sequential = selectors.sequential_of(round=access.round)
    args = [access.competition.slug, access.round.slug]
    answer = {"submission_types": [], "downloads": [], "uploads": [], "metrics": []}
    answer["metrics"] = [
        {"key": m, "name": m, "note": "", "headline": m in HEADLINE}
        for m in selectors.BOARD_METRICS
    ]
    if access.team is None and not access.is_organizer:
        return answer
    answer["downloads"].append(_download("config.json", _("Configuration"), "api:seq-config", args))
    if access.team is None:
        return answer
    steps = selectors.open_steps(sequential=sequential, now=timezone.now())
    answer["submission_types"].append(
        {
            "key": RELEASE,
            "label": _("A release (release_<j>.csv)"),
            "url": reverse("api:seq-releases", args=args),
            "open": bool(steps),
            "fields": [
                {
                    "name": "step",
                    "label": _("Release"),
                    "required": True,
                    "choices": [str(step) for step in steps],
                }
            ],
        }
    )
    if selectors.team_master(sequential=sequential, team=access.team) is not None:
        answer["downloads"].append(
            _download("master.csv", _("Your master table"), "api:seq-master", args)
        )
        for step in range(1, selectors.visible_steps(sequential=sequential) + 1):
            answer["downloads"].append(
                _download(
                    f"T{step}.csv",
                    _("The table at release %(j)s") % {"j": step},
                    "api:seq-step",
                    [*args, step],
                )
            )
    releases = selectors.team_releases(sequential=sequential, team=access.team)
    answer["uploads"] = [release_json(release) for release in releases]
    if sequential.all_frozen and sequential.config.get("attack_phase"):
        _attack_phase(answer, sequential=sequential, team=access.team, args=args)
    return answer


def _attack_phase(answer: dict, *, sequential, team, args: list) -> None:
    """The attack phase in the status: the other teams' targets (their files to download,
    the guesses to upload while it is open) and the team's attacks."""
    targets = [
        target
        for target in sequential.targets.select_related("team").order_by("team__name")
        if target.team_id != team.pk
    ]
    answer["submission_types"].append(
        {
            "key": ATTACK,
            "label": _("Guesses on another team's target (pid,guess)"),
            "url": reverse("api:seq-attacks", args=args),
            "open": bool(targets) and not sequential.results_published,
            "fields": [
                {
                    "name": "target",
                    "label": _("Target"),
                    "required": True,
                    "choices": [target.team.slug for target in targets],
                }
            ],
        }
    )
    for target in targets:
        for filename in sorted(target.files):
            answer["downloads"].append(
                _download(
                    filename,
                    _("Published by %(team)s") % {"team": target.team.name},
                    "api:seq-target-file",
                    [*args, target.team.slug, filename],
                )
            )
    attacks = [attack_json(attack) for attack in team_attacks(sequential, team)]
    answer["uploads"] = sorted(
        answer["uploads"] + attacks, key=lambda u: (u["created_at"], u["id"]), reverse=True
    )


def round_leaderboard(request, access) -> dict:
    """``SequentialKind.api_leaderboard``: the leaderboard page's table, to the same callers
    (organizers, the round's teams, everyone once the results are published)."""
    sequential = selectors.sequential_of(round=access.round)
    if not (access.is_organizer or access.team is not None or sequential.results_published):
        raise Http404(_("No leaderboard."))
    metrics = list(selectors.BOARD_METRICS)
    rows = []
    for row in selectors.leaderboard_rows(sequential=sequential):
        if not row.complete:
            validity = _("incomplete")
        elif row.gate_failures:
            validity = _("fails %(gates)s") % {"gates": ", ".join(row.gate_failures)}
        else:
            validity = _("valid")
        rows.append(
            [row.rank, row.team.name, validity, *[score_text(row.results.get(m)) for m in metrics]]
        )
    note = _("Over the frozen releases 1 … %(j)s (of %(n)s).") % {
        "j": sequential.frozen_steps,
        "n": sequential.n_releases,
    }
    return {
        "note": note,
        "tables": [
            {
                "title": _("Leaderboard"),
                "columns": [_("Rank"), _("Team"), _("Validity"), *metrics],
                "rows": rows,
            }
        ],
    }
