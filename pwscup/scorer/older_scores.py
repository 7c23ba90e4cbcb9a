"""A team's uploads whose scores are from an older version of the organizers' scoring program
(a new version was uploaded since, and the organizers have not rescored them): what the
team's Overview and Submit tabs say beside *Scored by program vN*, so that a `v1` beside a
score reads as what it is. Nothing while every scored upload is on the current version."""

from dataclasses import dataclass

from django.db.models import Value
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pwscup.accounts.models import Team
from pwscup.scorer.models import Attack, ProgramVersion, Release, ScorerRound
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
        # The verb and the pronouns agree with how many uploads the note counts.
        return ngettext(
            "%(uploads)s of yours still carries scores from an older version of the program "
            "(%(versions)s). The organizers may rescore it with %(current)s; until then "
            "its scores stay as shown.",
            "%(uploads)s of yours still carry scores from an older version of the program "
            "(%(versions)s). The organizers may rescore them with %(current)s; until then "
            "their scores stay as shown.",
            self.releases + self.attacks,
        ) % {"uploads": uploads, "versions": ", ".join(self.versions), "current": self.current}


def team_older_scores(
    *, scorer: ScorerRound, team: Team | None, program: ProgramVersion | None
) -> OlderScores | None:
    """The team's scored uploads whose scores another version than ``program`` (the current
    one, ``current_program``) computed; ``None``: none, no team or no program ready. An
    upload being scored again is not counted: the current version scores it. One query: the
    releases' and the attacks' versions together."""
    if program is None or team is None:
        return None
    older = [
        model.objects.filter(
            scorer=scorer, team=team, status=Status.FINISHED, program__isnull=False
        )
        .exclude(program=program)
        .annotate(side=Value(side))
        .values_list("side", "program__version")
        .order_by()  # no ordering inside a UNION (SQLite refuses one)
        for side, model in (("release", Release), ("attack", Attack))
    ]
    rows = list(older[0].union(older[1], all=True))
    if not rows:
        return None
    numbers = sorted({number for _side, number in rows})
    return OlderScores(
        releases=sum(1 for side, _number in rows if side == "release"),
        attacks=sum(1 for side, _number in rows if side == "attack"),
        versions=tuple(ProgramVersion(version=number).label for number in numbers),
        current=program.label,
    )
