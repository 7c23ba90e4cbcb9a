"""The five tabs of a 2015 round page (``pwscup.kinds.tabs``): Overview, Data, Rules and
scoring, Submit, Results. Thin: each tab gathers what selectors read and renders its
template, which extends ``rounds/base.html``.

Submit and Results carry the team's jobs in ``#jobs``; while one is queued or running the
page's script (``static/live.js``) polls the team's live version and, when it moved, fetches
``?fragment=1`` on the tab's own address (``pwscup2015/_jobs.html``).
"""

import zoneinfo
from functools import partial

from django.utils import timezone

import scoring
from pwscup.accounts.conditional import conditional_response, round_page_etag
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import (
    phase_of,
    phase_state,
    round_metrics,
    round_missing_phases,
)
from pwscup.core.toolkit import install_argument, wheel_filename
from pwscup.kinds.tabs import DATA, OVERVIEW, RESULTS, RULES, SUBMIT, render_tab
from pwscup.pwscup2015 import example_picture, explanations, overview
from pwscup.pwscup2015.access import targets_for_attacker
from pwscup.pwscup2015.data_picture import data_charts
from pwscup.pwscup2015.forms import AnonymizationUploadForm, AttackUploadForm
from pwscup.pwscup2015.leaderboards import charts
from pwscup.pwscup2015.leaderboards.selectors import (
    attack_rates_visible_to_team,
    can_view_leaderboard,
    can_view_results,
    team_standing,
)
from pwscup.pwscup2015.models import AttackSubmission
from pwscup.pwscup2015.ranking import gate_checks, gates_text, parse_gates, rule_text
from pwscup.pwscup2015.sample import data_version, sample_filename, sample_summary
from pwscup.pwscup2015.scoring_guide import (
    TOOLKIT_EXTRA,
    original_download_name,
    round_scoring_guide,
)
from pwscup.pwscup2015.selectors import (
    round_stale_scores,
    round_targets,
    team_attacks,
    team_dataset,
    team_jobs,
    team_representative,
    team_submissions,
)
from pwscup.pwscup2015.selectors.columns import column_descriptions
from pwscup.pwscup2015.value_ranges import ranges_text
from pwscup.submissions.history import upload_history
from pwscup.submissions.round_pages import pending, upload_gates
from pwscup.submissions.selectors import (
    live_etag,
    live_version_read,
    phase_quota,
    target_uses,
)
from pwscup.submissions.voids import counted_among


def round_page(request, access, tab):
    """One tab of the round page (the kind's ``round_page``)."""
    base = _base(access)
    if tab in (SUBMIT, RESULTS) and request.GET.get("fragment"):
        return _fragment(request, access, base, tab)
    return TABS[tab](request, access, base)


def _base(access) -> dict:
    """What every tab reads: the phases (hidden from all but the organizers while the round
    is incomplete) and where the round is."""
    round_ = access.round
    missing = round_missing_phases(round=round_)
    anonymization = phase_of(round=round_, kind=Phase.Kind.ANONYMIZATION)
    attack = phase_of(round=round_, kind=Phase.Kind.ATTACK)
    if missing and not access.is_organizer:
        anonymization = attack = None
    phases = overview.RoundPhases(
        anonymization=anonymization,
        attack=attack,
        anonymization_state=phase_state(phase=anonymization) if anonymization else "",
        attack_state=phase_state(phase=attack) if attack else "",
    )
    return {
        "missing_phases": missing,
        "phases": phases,
        "stage": overview.round_stage(round=round_, phases=phases),
        "frozen": round_.pwscup2015.frozen_at is not None,
    }


def _phase_info(phase, uploads, now):
    """A phase's line: its state and, when the team's ``uploads`` of it were read, its quota."""
    if phase is None:
        return None
    info = {"phase": phase, "state": phase_state(phase=phase, now=now)}
    if uploads is not None:
        info.update(phase_quota(phase, uploads, now=now))
    return info


def _with_phases(context: dict, access, base: dict, now) -> dict:
    """The phase lines with the team's quota, counted from the uploads ``_jobs`` read: a
    fragment that shows a job done (and so stops the page's polling) counts it as done too.
    Counted before the jobs were read, a job that failed in between left "Used today: 1" on
    the page for good. The attack phase's quota is shown once the round is frozen, when the
    team's attacks are read."""
    phases = base["phases"]
    context["anonymization"] = _phase_info(phases.anonymization, context.get("submissions"), now)
    context["attack"] = _phase_info(phases.attack, context.get("attacks"), now)
    return context


def _links(request, access, base) -> dict:
    """The leaderboard, the attack matrix and the final ranking, as far as the reader may see
    them (the rules of their own pages)."""
    anonymization = base["phases"].anonymization
    return {
        "leaderboard_visible": anonymization is not None
        and can_view_leaderboard(
            user=request.user, phase=anonymization, is_organizer=access.is_organizer
        ),
        "results_visible": can_view_results(
            user=request.user, round=access.round, is_organizer=access.is_organizer
        ),
    }


def _overview(request, access, base):
    """The overview is answered 304 while nothing it shows changed
    (``pwscup.accounts.conditional``): the round's and the kind's rows, the phases' states,
    and the team's jobs (its version: whether it has uploaded moves the next steps)."""
    team = access.team
    versions = {}
    if team is not None:
        live = live_version_read(round_id=access.round.pk, team_id=team.pk)
        versions[live] = live.value_now()
    etag = round_page_etag(request, access, access.round.pwscup2015, versions=versions)
    return conditional_response(request, etag, lambda: _render_overview(request, access, base))


def _render_overview(request, access, base):
    round_, team = access.round, access.team
    phases = base["phases"]
    has_submission = bool(
        team is not None
        and phases.anonymization is not None
        and team_submissions(phase=phases.anonymization, team=team).exists()
    )
    context = {
        **base,
        "flow": overview.round_flow(round=round_, phases=phases, stage=base["stage"]),
        "next_steps": overview.round_next_steps(
            round=round_, phases=phases, stage=base["stage"], has_submission=has_submission
        ),
        "gates": gates_text(round_.pwscup2015.utility_gates),
        "rule_text": rule_text(round_),
        "stale": round_stale_scores(round=round_) if access.is_organizer else None,
    }
    return render_tab(request, access, OVERVIEW, "pwscup2015/tabs/overview.html", context)


def _data(request, access, base):
    round_, team, phases = access.round, access.team, base["phases"]
    may_download = access.is_organizer and team is None
    if team is not None and phases.anonymization_state in ("open", "closed"):
        may_download = not round_.pwscup2015.is_per_team or (
            team_dataset(round=round_, team=team) is not None
        )
    version = data_version(round=round_, team=team) if may_download else None
    context = {
        **base,
        "may_download": may_download,
        "original_name": original_download_name(round=round_, team=team),
        "sample_name": sample_filename(round=round_, team=team),
        # The data picture is drawn once per version of the reader's data and language
        # (``_data_picture.html``): the charts are made only when it is not in the cache.
        "data_version": version,
        "sample": sample_summary(round=round_, team=team, version=version) if version else None,
        "data_charts": partial(data_charts, round=round_, team=team) if version else list,
        "wheel": wheel_filename(),
        "install": install_argument(TOOLKIT_EXTRA),
        "targets": targets_for_attacker(access) if base["frozen"] else [],
        "show_targets": base["frozen"] and (team is not None or access.is_organizer),
        "columns": column_descriptions(round=round_),
    }
    return render_tab(request, access, DATA, "pwscup2015/tabs/data.html", context)


def _rules(request, access, base):
    round_, team = access.round, access.team
    context = {
        **base,
        "groups": explanations.metric_groups(round=round_),
        "metric_names": {m: scoring.METRIC_NAMES[m] for m in round_metrics(round=round_)},
        "example_columns": explanations.EXAMPLE_COLUMNS,
        "example_original": explanations.EXAMPLE_ORIGINAL,
        "example_copy": explanations.EXAMPLE_COPY,
        "example_scores": explanations.EXAMPLE_SCORES,
        "example_worst": explanations.example_worst_cases(),
        "example_plane": example_picture.plane(),
        "example_rates": example_picture.rates(),
        "gates": gates_text(round_.pwscup2015.utility_gates),
        "ranges": ranges_text(round_.pwscup2015.value_ranges),
        "published_rows": round_.pwscup2015.published_rows,
        "rule_text": rule_text(round_),
    }
    if team is not None or access.is_organizer:
        # What the team is scored against, and how to reproduce its scores locally.
        context["guide"] = round_scoring_guide(round=round_, team=team)
    return render_tab(request, access, RULES, "pwscup2015/tabs/rules.html", context)


def _jobs(request, access, base, tab, *, fragment: bool) -> dict:
    """The team's uploads (the ``#jobs`` box of Submit and Results, and its fragment)."""
    round_, team, phases = access.round, access.team, base["phases"]
    metrics = round_metrics(round=round_)
    context = {
        **base,
        "tab": tab,
        "fragment": fragment,
        "metrics": metrics,
    }
    if team is None:
        return context
    # Read before the jobs: a job that changes after it makes the next poll a 200.
    context["live_etag"] = live_etag(round_id=round_.pk, team_id=team.pk)
    busy = False
    if phases.anonymization is not None:
        submissions = list(team_submissions(phase=phases.anonymization, team=team))
        context["submissions"] = submissions
        context["history"] = upload_history(
            submissions,
            final=team_representative(
                phase=phases.anonymization, team=team, submissions=submissions
            ),
        )
        busy = pending(submissions)
        context.update(_standing(request, access, phases.anonymization, submissions))
        if tab == RESULTS:
            # the same submissions as the history table, drawn over time
            context["history_metrics"] = charts.chosen_history_metrics(request.GET, metrics)
            context["history_charts"] = charts.history(
                submissions=submissions,
                metrics=context["history_metrics"],
                tz=zoneinfo.ZoneInfo(round_.timezone),
            )
    if base["frozen"] and phases.attack is not None:
        attacks = list(team_attacks(phase=phases.attack, team=team))
        context["attacks"] = attacks
        context["show_rates"] = attack_rates_visible_to_team(round=round_, now=timezone.now())
        busy = busy or pending(attacks)
    context["pending"] = busy
    return context


def _standing(request, access, phase, submissions) -> dict:
    """Where the team stands: each scored upload that counts against the gates (a voided
    one is on no leaderboard), and its current rank on the leaderboard (``team_standing``:
    the leaderboard's own ranking)."""
    round_ = access.round
    return {
        "gate_names": [str(gate) for gate in parse_gates(round_.pwscup2015.utility_gates)],
        "upload_gates": upload_gates(
            counted_among(submissions),
            label=lambda s: s.label,
            checks=lambda s: ((str(gate), ok) for gate, ok in gate_checks(s.scores, round_)),
        ),
        "standing": team_standing(
            phase=phase, team=access.team, user=request.user, is_organizer=access.is_organizer
        ),
    }


def _fragment(request, access, base, tab):
    """The polled part of Submit and Results: the jobs, the quota lines, the charts and the
    outcome of each upload the page's notices watch."""
    if access.team is None:
        return render_tab(request, access, tab, "pwscup2015/_jobs.html", {**base, "tab": tab})
    context = _jobs(request, access, base, tab, fragment=True)
    # Its forms carry no CSRF token (Django masks it anew on every request; see
    # _submission_row.html): the page's script (``static/live.js``) gives them the page's own.
    context["watched_jobs"] = team_jobs(
        team=access.team, keys=request.GET.get("watch", "").split(",")
    )
    _with_phases(context, access, base, timezone.now())
    return render_tab(request, access, tab, "pwscup2015/_jobs.html", context)


def _submit(request, access, base):
    round_, team = access.round, access.team
    context = _jobs(request, access, base, SUBMIT, fragment=False)
    context["upload_form"] = AnonymizationUploadForm()
    if base["frozen"] and team is not None and base["phases"].attack is not None:
        targets = [t for t in round_targets(round=round_) if t.team_id != team.pk]
        context["targets"] = targets
        phase = base["phases"].attack
        context["attack_form"] = AttackUploadForm(
            targets=targets,
            limit=phase.target_limit,
            uses=(
                target_uses(AttackSubmission.objects.filter(phase=phase, team=team))
                if phase.target_limit
                else None
            ),
        )
    _with_phases(context, access, base, timezone.now())
    return render_tab(request, access, SUBMIT, "pwscup2015/tabs/submit.html", context)


def _results(request, access, base):
    context = _jobs(request, access, base, RESULTS, fragment=False)
    context.update(_links(request, access, base))
    context["stale"] = round_stale_scores(round=access.round) if access.is_organizer else None
    _with_phases(context, access, base, timezone.now())
    return render_tab(request, access, RESULTS, "pwscup2015/tabs/results.html", context)


TABS = {
    OVERVIEW: _overview,
    DATA: _data,
    RULES: _rules,
    SUBMIT: _submit,
    RESULTS: _results,
}
