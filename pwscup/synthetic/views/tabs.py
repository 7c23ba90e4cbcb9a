"""The synthetic round's page as the five tabs every kind draws (``pwscup.kinds.tabs``):
Overview, Data, Rules and scoring, Submit, Results. Each tab reads through ``tab_context``
(whose rule on the half of the challenge sets a tab shows, ``selectors.visible_half``, it
follows) and renders ``templates/synthetic/tabs/<tab>.html``. A tab listing an upload still
being scored reloads itself when the team's live version moves (``static/live.js``)."""

from pwscup.competitions.choice_selectors import choice_state
from pwscup.submissions.round_api import is_participant
from pwscup.submissions.round_pages import pending
from pwscup.submissions.two_sided_tabs import TwoSidedTabs, two_sided_quotas
from pwscup.synthetic import charts, selectors
from pwscup.synthetic.api.views import synthetic_part
from pwscup.synthetic.forms import AttackUploadForm, ReleaseUploadForm
from pwscup.synthetic.kit import TOOLKIT_EXTRA
from pwscup.synthetic.views import tab_context as tabs


class SyntheticTabs(TwoSidedTabs):
    templates = "synthetic/tabs"
    state_type = tabs.RoundState
    part = staticmethod(synthetic_part)
    toolkit_extra = TOOLKIT_EXTRA

    def data(self, access, state):
        participant = is_participant(access)
        # The round's packs and the team's pick, read once: the core's choice box shows them
        # too (``{% round_data_choice %}``, from ``data_choice``).
        choice = choice_state(round=state.synthetic.round, team=access.team)
        packs = selectors.pack_populations(synthetic=state.synthetic, choices=choice.choices)
        # The round's draws, read once: the summary, the team's pack and whether it is drawn.
        draws = selectors.round_draws(synthetic=state.synthetic)
        return {
            "columns": tabs.columns(synthetic=state.synthetic, team=access.team, draws=draws),
            "packs": packs,
            # Whether the team's rows are drawn: said only next to the packs of a choice.
            "drawn": bool(packs)
            and access.team is not None
            and any(draw.team_id == access.team.pk for draw in draws),
            "data_choice": choice,
            "draws": selectors.draws_summary(synthetic=state.synthetic, draws=draws, packs=packs),
            "published": tabs.published_files(state=state, access=access) if participant else [],
            "participant": participant,
        }

    def submit(self, access, state):
        """The team's release form, its releases, its attacks on each target and its ranks;
        it follows a release or an attack being scored."""
        team = access.team
        if team is None:
            return {}, []
        releases = tabs.team_releases(state=state, team=team)
        targets = tabs.attack_targets(state=state, access=access)
        attacks = [a for t in targets for a in t["attacks"]]
        context = {
            "releases": releases,
            "targets": targets,
            "ranks": tabs.team_ranks(state=state, team=team),
            "upload_form": ReleaseUploadForm(),
            "attack_form": AttackUploadForm(),
            **two_sided_quotas(state, releases=releases, attacks=attacks),
        }
        return context, releases + attacks

    def results(self, access, state):
        team = access.team
        visible = selectors.rankings_visible(
            synthetic=state.synthetic, team=team, is_organizer=access.is_organizer
        )
        context = {"visible": visible}
        if visible:
            results = selectors.round_results(synthetic=state.synthetic, half=state.half)
            context.update(
                matrix=tabs.matrix(results.matrix),
                release_ranking=tabs.release_ranking(results.releases),
                attack_ranking=results.attacks,
                # Whether a target's built-in attacks are still being scored.
                targets_pending=pending(selectors.targets(synthetic=state.synthetic)),
            )
            if state.published:
                # The final half's pictures: never before the results are published.
                context["scatter"] = charts.utility_scatter(
                    results.releases,
                    u_ml_min=state.config.u_ml_min,
                    own_team_id=team.pk if team is not None else None,
                )
                context["rocs"] = tabs.roc_charts(selectors.roc_curves(synthetic=state.synthetic))
        uploads = []
        if team is not None:
            uploads = list(selectors.team_attacks(synthetic=state.synthetic, team=team))
        return context, uploads


round_page = SyntheticTabs().page
