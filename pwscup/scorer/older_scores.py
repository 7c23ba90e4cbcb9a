"""A team's uploads whose scores are from an older version of the organizers' scoring program
(a new version was uploaded since, and the organizers have not rescored them): what the
team's Overview and Submit tabs say beside *Scored by program vN*, so that a `v1` beside a
score reads as what it is. Nothing while every scored upload is on the current version."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pwscup.accounts.models import Team
from pwscup.scorer.models import Attack, ProgramVersion, Release, ScorerRound
from pwscup.scorer.selectors import current_program
from pwscup.submissions.models import Status


@dataclass(frozen=True)
class OlderScores:
    """How many of a team's scored releases and attacks carry an older version's scores,
    those versions' labels (``v1``) and the current version's."""

    releases: int
    attacks: int
    versions: tuple[str, ...]
    current: str

    def text(self) -> str:
        """The note, in the active language."""
        parts = []
        if self.releases:
            parts.append(
                ngettext("%(n)d release", "%(n)d releases", self.releases) % {"n": self.releases}
            )
        if self.attacks:
            parts.append(
                ngettext("%(n)d attack", "%(n)d attacks", self.attacks) % {"n": self.attacks}
            )
        if len(parts) == 2:
            uploads = _("%(a)s and %(b)s") % {"a": parts[0], "b": parts[1]}
        else:
            uploads = parts[0]
        return _(
            "%(uploads)s of yours still carry scores from an older version of the program "
            "(%(versions)s). The organizers may rescore them with %(current)s; until then "
            "their scores stay as shown."
        ) % {"uploads": uploads, "versions": ", ".join(self.versions), "current": self.current}


def team_older_scores(*, scorer: ScorerRound, team: Team | None) -> OlderScores | None:
    """The team's scored uploads whose scores another version than the current one computed
    (``None``: none, no team or no program ready). An upload being scored again is not
    counted: the current version scores it."""
    program = current_program(scorer=scorer)
    if program is None or team is None:
        return None
    counts, versions = [], set()
    for model in (Release, Attack):
        older = model.objects.filter(
            scorer=scorer, team=team, status=Status.FINISHED, program__isnull=False
        ).exclude(program=program)
        pks = list(older.values_list("program", flat=True))
        counts.append(len(pks))
        versions.update(pks)
    if not versions:
        return None
    older_programs = ProgramVersion.objects.filter(pk__in=versions).order_by("version")
    labels = tuple(version.label for version in older_programs)
    return OlderScores(*counts, versions=labels, current=program.label)
