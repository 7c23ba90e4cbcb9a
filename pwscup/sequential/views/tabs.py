"""The sequential round's page as the five tabs every kind draws (``pwscup.kinds.tabs``):
Overview, Data, Rules and scoring, Submit, Results. Each tab reads through
``tab_context`` (the sample and the kit through ``kit``, the worked example through
``example``) and renders ``templates/sequential/tabs/<tab>.html``. A tab listing an upload
still being checked reloads itself when the team's live version moves (``static/live.js``),
until the worker's verdict."""

from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.sequential import charts, engine, selectors
from pwscup.sequential.example import worked_example
from pwscup.sequential.forms import ReleaseUploadForm
from pwscup.sequential.kit import check_command, planned_step, sample_plan
from pwscup.sequential.views import tab_context as tabs
from pwscup.submissions.round_pages import RoundTabs, first_finished, upload_gates
from pwscup.submissions.voids import counted_among


def _standing(state, team, releases) -> dict:
    """Where the team stands: each valid release that counts (not voided) against the gates,
    and its current rank on the leaderboard (``selectors.leaderboard_rows``, the one owner of
    the ranking)."""
    config = state.config
    rows = selectors.leaderboard_rows(sequential=state.sequential)
    own = next((row for row in rows if row.team.pk == team.pk), None)
    return {
        "gate_names": engine.gate_names(config),
        "upload_gates": upload_gates(
            counted_among(releases),
            label=lambda r: _("Release %(j)s · #%(n)s") % {"j": r.step, "n": r.number},
            checks=lambda r: engine.gate_checks(r.results, config),
        ),
        "standing": {
            "frozen": state.sequential.frozen_steps,
            "row": own,
            "ranked": sum(1 for row in rows if row.rank is not None),
        },
    }


class SequentialTabs(RoundTabs):
    templates = "sequential/tabs"
    flow = staticmethod(tabs.flow)
    next_steps = staticmethod(tabs.next_steps)

    def state(self, access):
        sequential = selectors.sequential_of(round=access.round)
        return tabs.round_state(sequential=sequential, team=access.team)

    def schedule(self, access, state):
        """The round's schedule as every kind's Overview shows it (the kind's lines, in the
        core's table), without the releases an online round does not show yet."""
        lines = super().schedule(access, state)
        return lines[: state.visible_steps] + lines[state.n :]

    def data(self, access, state):
        if access.team is None or not state.has_master:
            return {}
        return {
            "rows": tabs.data_rows(state=state, team=access.team),
            "sample": sample_plan(sequential=state.sequential, team=access.team, has_master=True),
        }

    def rules_context(self, state):
        return {
            "example": worked_example(),
            "gates_text": tabs.gates_text(state.config),
            "release_header": selectors.release_header(config=state.config, step=1),
        }

    def submit(self, access, state):
        """The team's upload form (at the release the page tells it to upload next), its open
        releases' limits, the check command, its uploads and where it stands; once the
        attack phase begins, the targets with its guesses."""
        team, sequential, open_steps = access.team, state.sequential, state.open_steps
        targets = tabs.attack_targets(state=state, team=team)
        attacks = [a for target in targets for a in target["attacks"]]
        if team is None or not state.has_master:
            return {"targets": targets}, attacks
        releases = selectors.team_releases(sequential=sequential, team=team)
        initial = {}
        if open_steps:
            initial["step"] = planned_step(sequential=sequential, team=team, open_steps=open_steps)
        context = {
            "targets": targets,
            "releases": releases,
            "quotas": selectors.step_quotas(
                sequential=sequential, releases=releases, steps=open_steps, now=timezone.now()
            ),
            "check_command": check_command(sequential=sequential),
            "upload_form": ReleaseUploadForm(steps=open_steps, initial=initial),
            **_standing(state, team, releases),
        }
        return context, [*releases, *attacks]

    def results(self, access, state):
        team, sequential = access.team, state.sequential
        context = {"leaderboard": selectors.leaderboard_shown(sequential=sequential, access=access)}
        uploads = []
        if team is not None:
            releases = selectors.team_releases(sequential=sequential, team=team)
            points = selectors.risk_points(sequential=sequential, team=team, releases=releases)
            uploads = list(selectors.team_attacks(sequential=sequential, team=team))
            latest = first_finished(counted_among(releases))
            groups = selectors.release_groups(release=latest) if latest else []
            context.update(
                latest=latest,
                risk_chart=charts.risk_chart(points, m=state.m),
                groups_chart=charts.groups_chart(groups),
                attacks=uploads,
                **_standing(state, team, releases),
            )
        return context, uploads


round_page = SequentialTabs().page
