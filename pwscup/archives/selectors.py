"""Reading results archives: which rounds an archive holds, the versions a page offers, the
one a download may serve."""

from dataclasses import dataclass, field

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.selectors import competitions_for_user
from pwscup.archives.models import ResultsArchive
from pwscup.competitions.models import Competition
from pwscup.kinds import kind_of
from pwscup.kinds.archives import SECRETS


@dataclass
class ArchiveRounds:
    """The rounds an archive published now would hold, and those it leaves out, with why."""

    included: list = field(default_factory=list)
    left_out: list = field(default_factory=list)  # (round, reason)


def archive_rounds(*, competition: Competition) -> ArchiveRounds:
    """Every round whose kind does not say its results are unpublished: a kind with no
    publication step (``results_published`` is ``None``) shows its results as they come."""
    rounds = ArchiveRounds()
    for round_ in competition.rounds.select_related("competition").order_by("order", "id"):
        if kind_of(round_).results_published(round_) is False:
            rounds.left_out.append((round_, _("its results are not published")))
        else:
            rounds.included.append(round_)
    return rounds


def competition_archives(*, competition: Competition) -> list[ResultsArchive]:
    """Every version, the latest first."""
    return list(
        ResultsArchive.objects.filter(competition=competition)
        .select_related("competition", "created_by")
        .order_by("-version")
    )


def next_version(*, competition: Competition) -> int:
    latest = ResultsArchive.objects.filter(competition=competition).order_by("-version").first()
    return 1 if latest is None else latest.version + 1


def secret_labels(keys) -> list[str]:
    return [str(SECRETS[key]) for key in keys if key in SECRETS]


def archive_download_url(archive: ResultsArchive) -> str:
    return reverse(
        "archives:download",
        kwargs={"competition_slug": archive.competition.slug, "version": archive.version},
    )


def archives_console(*, competition):
    """What the console's competition page shows of the results archives: the versions
    published, and the page that publishes the next one."""
    archives = competition_archives(competition=competition)
    return {
        "page": reverse("archives:console", kwargs={"competition_slug": competition.slug}),
        "latest": archives[0] if archives else None,
        "count": len(archives),
        "next_version": archives[0].version + 1 if archives else 1,
    }


def archives_for(*, user, competition):
    """The archives the competition page offers ``user`` (``None``: nothing). The page is
    shown only to who may see the competition, and so may every archive of it."""
    archives = competition_archives(competition=competition)
    if not archives:
        return None
    return {
        "latest": archives[0],
        "earlier": archives[1:],
    }


def archive_for_download(*, user, competition_slug: str, version: int) -> ResultsArchive:
    """The archive ``version`` of a competition ``user`` may see; 404 otherwise (a
    competition that is not listed does not exist for a stranger)."""
    competition = get_object_or_404(competitions_for_user(user=user), slug=competition_slug)
    return get_object_or_404(
        ResultsArchive.objects.select_related("competition"),
        competition=competition,
        version=version,
    )
