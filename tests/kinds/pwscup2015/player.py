"""The anonymize-then-attack game (PWSCup 2015) in the conformance suite: an anonymized CSV
uploaded to the anonymization phase."""

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.kinds.players import Arena, Player, phase_close, phases_postpone, uploaded
from tests.pwscup.factories import freeze, run_operations
from tests.support import build_world, noisy_copy


class Pwscup2015Player(Player):
    key = "pwscup2015"
    # A team member's second reading of each tab (tests/kinds/test_page_queries_conform.py).
    # The overview reads the team's live version for its ETag (a page kept by the browser:
    # pwscup/accounts/conditional.py).
    page_queries = {"overview": 10, "data": 9, "rules": 8, "submit": 15, "results": 14}

    def arena(self, *, slug, daily_limit=None, total_limit=None):
        world = build_world(slug=slug, daily_limit=daily_limit, total_limit=total_limit)
        return Arena.of(world, state=world)

    def close(self, arena):
        phase_close(arena)

    def postpone(self, arena):
        phases_postpone(arena)

    def play_results(self, arena, letters="ab"):
        """The final ranking ranks the published targets: each team's upload, then the
        freeze (and its built-in attacks)."""
        super().play_results(arena, letters)
        freeze(arena.state)

    def submit(self, arena, letter, content, *, name="anonymized.csv"):
        arena.state.anonymization.refresh_from_db()
        return services.anonymization_submission_create(
            phase=arena.state.anonymization,
            team=arena.teams[letter],
            user=arena.users[letter],
            uploaded_file=uploaded(content, name),
        )

    def valid(self, arena, n):
        return noisy_copy(arena.state.original, seed=n)

    def invalid(self, arena):
        return arena.state.original.replace(b"State-gov", b"Moon-gov", 1)

    def run_jobs(self):
        queued = AnonymizationSubmission.objects.filter(status=Status.QUEUED).order_by("pk")
        for pk in queued.values_list("pk", flat=True):
            services.anonymization_submission_score(submission_id=pk)
        run_operations()  # freeze, rescore, publish

    def kept(self, arena, letter):
        return list(
            AnonymizationSubmission.objects.filter(
                phase__round=arena.round, team=arena.teams[letter]
            ).order_by("pk")
        )


PLAYER = Pwscup2015Player()
