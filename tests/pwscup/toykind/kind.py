"""The toy game behind the ``RoundKind`` interface."""

from django.http import HttpResponse
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _

from pwscup.kinds import RoundKind
from pwscup.kinds.actions import RoundAction


def _close(*, user, round):
    from pwscup.competitions.services import round_phases_close

    return f"closed {round_phases_close(round=round)}"


def _publish(*, user, round):
    from pwscup.competitions.services import round_phases_close
    from pwscup.notifications.services import notify_results_published
    from tests.pwscup.toykind.models import ToyRound

    round_phases_close(round=round)
    ToyRound.objects.update_or_create(round=round, defaults={"published": True})
    notify_results_published(round=round)
    return "published"


class ToyGameKind(RoundKind):
    key = "toygame"
    label = _("Toy game")
    description = _("A game for the tests.")

    def url_patterns(self):
        from tests.pwscup.toykind import views

        return [
            path("toy/upload/", views.upload, name="upload"),
            path("toy/leaderboard.csv", views.leaderboard_csv, name="leaderboard"),
        ]

    def round_page(self, request, access, tab):
        return HttpResponse(f"TOY {access.round.name}")

    def console_url_patterns(self):
        from tests.pwscup.toykind import views

        return [path("new/", views.console_create, name="create")]

    def console_create_url(self, competition):
        return reverse("toygame_console:create", args=[competition.slug])

    def console_actions(self, round):
        return {
            "close": RoundAction("Close now", "Uploads are refused from now.", "Close", _close),
            "publish": RoundAction("Publish", "Phases close; results shown.", "Publish", _publish),
        }

    def results_published(self, round):
        from tests.pwscup.toykind.models import ToyRound

        return ToyRound.objects.filter(round=round, published=True).exists()

    def leaderboard_url(self, round):
        return reverse("toygame:leaderboard", args=[round.competition.slug, round.slug])

    def upload_models(self):
        from tests.pwscup.toykind.models import ToyUpload

        return [ToyUpload]

    def jobs(self):
        from pwscup.submissions.services.jobs import JobKind
        from tests.pwscup.toykind.models import ToyUpload
        from tests.pwscup.toykind.services import SCORE_TOY

        return [JobKind(ToyUpload, SCORE_TOY)]
