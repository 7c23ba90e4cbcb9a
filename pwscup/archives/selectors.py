"""Reading results archives: which rounds an archive holds, the versions a page offers, the
one a download may serve."""

from dataclasses import dataclass, field

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.selectors import competitions_for_user
from pwscup.archives.models import ResultsArchive
from pwscup.competitions.models import Competition
from pwscup.kinds import kind_of
from pwscup.kinds.archives import SECRETS
from pwscup.presentations.selectors import published_slides_visible_to


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


@dataclass(frozen=True)
class OfferedArchive:
    """One version as a viewer may download it: the variant the presentation rule gives
    them (``archive_variant_for``)."""

    archive: ResultsArchive
    with_slides: bool

    @property
    def version(self) -> int:
        return self.archive.version

    @property
    def created_at(self):
        return self.archive.created_at

    @property
    def size(self) -> int:
        return self.archive.size if self.with_slides else self.archive.public_size

    @property
    def sha256(self) -> str:
        return self.archive.sha256 if self.with_slides else self.archive.public_sha256


def archive_variant_for(*, user, archive: ResultsArchive) -> OfferedArchive | None:
    """The variant of ``archive`` that ``user`` (who sees the competition) downloads: with
    the slides and policy texts for their audience (``published_slides_visible_to``: the
    competition's participants and organizers), without them for every other viewer;
    ``None`` when there is none for them (a version published before the variants
    existed has only the one with the slides)."""
    audience = published_slides_visible_to(user=user, competition=archive.competition)
    return _variant(archive, audience=audience)


def _variant(archive: ResultsArchive, *, audience: bool) -> OfferedArchive | None:
    if audience:
        return OfferedArchive(archive=archive, with_slides=True)
    if archive.public_file:
        return OfferedArchive(archive=archive, with_slides=False)
    return None


def archives_for(*, user, competition):
    """The archives the competition page offers ``user`` (``None``: nothing), each as the
    variant they may download. The page is shown only to who may see the competition."""
    audience = published_slides_visible_to(user=user, competition=competition)
    offered = [
        found
        for archive in competition_archives(competition=competition)
        if (found := _variant(archive, audience=audience)) is not None
    ]
    if not offered:
        return None
    return {
        "latest": offered[0],
        "earlier": offered[1:],
        "with_slides": offered[0].with_slides,
    }


def archive_for_download(*, user, competition_slug: str, version: int) -> OfferedArchive:
    """The variant of archive ``version`` of a competition ``user`` may see that is theirs
    (``archive_variant_for``); 404 otherwise (a competition that is not listed does not
    exist for a stranger)."""
    competition = get_object_or_404(competitions_for_user(user=user), slug=competition_slug)
    archive = get_object_or_404(
        ResultsArchive.objects.select_related("competition"),
        competition=competition,
        version=version,
    )
    offered = archive_variant_for(user=user, archive=archive)
    if offered is None:
        raise Http404
    return offered
