"""The toy game behind the ``RoundKind`` interface."""

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
    from tests.kinds.toy.models import ToyRound

    round_phases_close(round=round)
    ToyRound.objects.update_or_create(round=round, defaults={"published": True})
    notify_results_published(round=round)
    return "published"


class ToyGameKind(RoundKind):
    key = "toygame"
    label = _("Toy game")
    description = _("A game for the tests.")

    def url_patterns(self):
        from tests.kinds.toy import views

        return [
            path("toy/upload/", views.upload, name="upload"),
            path("toy/leaderboard.csv", views.leaderboard_csv, name="leaderboard"),
        ]

    def round_page(self, request, access, tab):
        from pwscup.kinds.tabs import render_tab

        # A real kind extends rounds/base.html with its content in {% block tab %}; the toy
        # shows the core's frame only (title, tab bar), in the reader's language.
        return render_tab(request, access, tab, "rounds/base.html")

    def console_url_patterns(self):
        from tests.kinds.toy import views

        return [path("new/", views.console_create, name="create")]

    def console_create_url(self, competition):
        return reverse("toygame_console:create", args=[competition.slug])

    def console_actions(self, round):
        return {
            "close": RoundAction("Close now", "Uploads are refused from now.", "Close", _close),
            "publish": RoundAction("Publish", "Phases close; results shown.", "Publish", _publish),
        }

    def results_published(self, round):
        from tests.kinds.toy.models import ToyRound

        return ToyRound.objects.filter(round=round, published=True).exists()

    def leaderboard_url(self, round):
        return reverse("toygame:leaderboard", args=[round.competition.slug, round.slug])

    def upload_models(self):
        from tests.kinds.toy.models import ToyUpload

        return [ToyUpload]

    def schedule_lines(self, round):
        from pwscup.competitions.selectors import phases_schedule_lines

        return phases_schedule_lines(round=round)

    def bundle_export(self, round, *, anchor):
        from pwscup.kinds.bundles import RoundBundle, offset_from

        phase = round.phases.get()
        return RoundBundle(
            settings={
                "opens": offset_from(phase.opens_at, anchor),
                "closes": offset_from(phase.closes_at, anchor),
                "daily_limit": phase.daily_limit,
                "total_limit": phase.total_limit,
            }
        )

    def bundle_import(self, *, competition, entry, start, user):
        from pwscup.kinds.bundles import at_offset, settings_known, settings_object
        from tests.kinds.toy.services import toy_round_create

        settings = settings_object(entry.settings, "settings")
        settings_known(settings, ("opens", "closes", "daily_limit", "total_limit"), "settings")
        return toy_round_create(
            competition=competition,
            name=entry.name,
            slug=entry.slug,
            opens_at=at_offset(settings["opens"], start, field="opens"),
            closes_at=at_offset(settings["closes"], start, field="closes"),
            daily_limit=settings["daily_limit"],
            total_limit=settings["total_limit"],
        )

    def archive_members(self, round, *, secrets):
        from pwscup.core.exports import csv_bytes
        from pwscup.kinds.archives import ArchiveMember
        from tests.kinds.toy.selectors import toy_leaderboard

        return [ArchiveMember("leaderboard.csv", csv_bytes(["team", "score"], toy_leaderboard(round)))]

    def jobs(self):
        from pwscup.submissions.services.jobs import UPLOAD_JOB, JobKind
        from tests.kinds.toy.models import ToyUpload
        from tests.kinds.toy.services import SCORE_TOY

        return [JobKind(ToyUpload, UPLOAD_JOB, SCORE_TOY)]
