"""The scorer round's page as the five tabs every kind draws (``pwscup.kinds.tabs``):
Overview, Data, Rules and scoring, Submit, Results. Each tab reads through ``tab_context``
(``results_context`` for the rankings) and renders ``templates/scorer/tabs/<tab>.html``. A
tab listing an upload still being scored reloads itself when the team's live version moves
(``static/live.js``).

What a tab shows of an attack's scores follows ``selectors.attack_visibility`` (exact, band
or hidden while the results are not published); the rankings and the matrix are shown to the
organizers, and to everyone once the results are published."""

from pwscup.competitions.choice_selectors import choice_state
from pwscup.scorer import score_text, selectors
from pwscup.scorer.models import DataPack
from pwscup.scorer.older_scores import team_older_scores
from pwscup.scorer.public_board import public_board_page
from pwscup.scorer.salt import published_salt
from pwscup.scorer.slot_folders import slot_folders
from pwscup.scorer.views import results_context
from pwscup.scorer.views import tab_context as tabs
from pwscup.scorer.views.common import scorer_part
from pwscup.scorer.views.forms import AttackUploadForm, ReleaseUploadForm
from pwscup.submissions.round_api import is_participant
from pwscup.submissions.two_sided_tabs import TwoSidedTabs, two_sided_quotas


class ScorerTabs(TwoSidedTabs):
    templates = "scorer/tabs"
    flow = staticmethod(tabs.flow)
    state_type = tabs.RoundState
    part = staticmethod(scorer_part)

    def data(self, access, state):
        participant = is_participant(access)
        scorer = state.scorer
        context = {"state": state, "participant": participant}
        if participant:
            # The team's data choice, read once: the core's choice box shows it too
            # (``{% round_data_choice %}``, from ``data_choice``).
            choice = choice_state(round=scorer.round, team=access.team)
            packs = selectors.current_packs(
                scorer=scorer, choice=choice.key if access.team is not None else ""
            )
            slots = selectors.slot_of(scorer=scorer, team=access.team) if access.team else None
            targets = list(selectors.round_targets(scorer=scorer)) if state.frozen else []
            context.update(
                public_pack=packs.get(DataPack.Role.PUBLIC),
                slot=slots,
                slot_members=selectors.slot_members(
                    pack=packs.get(DataPack.Role.SLOTS), slot=slots
                ),
                # Each team's folder, linked only when it has files (else a 404).
                all_slots=slot_folders(scorer=scorer) if access.is_organizer else [],
                # An organizer's links reach every team's folder, each of its own choice's
                # pack: any slots pack counts (PWSCup 2025 has one per choice, none of none).
                has_slots_pack=DataPack.Role.SLOTS in packs
                or (access.is_organizer and any_slots_pack(scorer)),
                targets=targets,
                numbered=any(target.slot_number for target in targets),
                data_choice=choice,
            )
        return context

    def rules_context(self, state):
        return {
            **super().rules_context(state),
            # Each gate as every tab names it: its score's label in the reader's language
            # and the bound as the organizer wrote it (``Utility ≥ 50``, not ``50.0``).
            "gates": [
                score_text.gate_text(gate.as_dict(), config=state.config)
                for gate in state.config.gates
            ],
            # The committed salt of the teams' slots: its hash, the salt once revealed.
            "salt": published_salt(state.scorer),
        }

    def overview(self, access, state):
        """The core's overview, and the team's uploads an older program version scored (the
        Submit and Results tabs say it too)."""
        return {
            **super().overview(access, state),
            "older_scores": team_older_scores(
                scorer=state.scorer, team=access.team, program=state.program
            ),
        }

    def submit(self, access, state):
        team = access.team
        context = {
            "state": state,
            "older_scores": team_older_scores(
                scorer=state.scorer, team=team, program=state.program
            ),
        }
        uploads = []
        if team is not None:
            releases = tabs.release_rows(state=state, team=team)
            context.update(releases=releases, upload_form=ReleaseUploadForm())
            context.update(two_sided_quotas(state, releases=releases))
            uploads = releases
        if team is not None and state.frozen:
            # The attacks are shown once the releases are frozen (none is taken before); the
            # targets to choose from while a per-target attack phase is open.
            attacks = tabs.attack_rows(state=state, team=team, is_organizer=access.is_organizer)
            choosing = state.attack_open and state.per_target
            context.update(
                attacks=attacks,
                withdraw_open=selectors.attack_withdrawal_open(scorer=state.scorer),
                choices=tabs.target_choices(state=state, team=team) if choosing else [],
                attack_form=AttackUploadForm(),
            )
            context.update(two_sided_quotas(state, releases=releases, attacks=attacks))
            uploads = releases + attacks
        return context, uploads

    def results(self, access, state):
        team = access.team
        visible = state.published or access.is_organizer
        context = {
            "state": state,
            "visible": visible,
            "older_scores": team_older_scores(
                scorer=state.scorer, team=team, program=state.program
            ),
        }
        uploads = []
        context["public_board"] = public_board_page(
            scorer=state.scorer, is_organizer=access.is_organizer, team=team
        )
        if visible:
            context.update(results_context.results_tables(state=state, team=team))
        if team is not None and not state.published:
            attacks = tabs.attack_rows(state=state, team=team, is_organizer=access.is_organizer)
            context.update(
                own=results_context.own_summary(state=state, team=team),
                attacks=attacks,
                withdraw_open=selectors.attack_withdrawal_open(scorer=state.scorer),
            )
            uploads = attacks
        return context, uploads


def any_slots_pack(scorer) -> bool:
    """Whether the round has a slots pack of any data choice."""
    packs = selectors.packs_by_choice(scorer=scorer)
    return any(role == DataPack.Role.SLOTS for role, _choice in packs)


round_page = ScorerTabs().page
