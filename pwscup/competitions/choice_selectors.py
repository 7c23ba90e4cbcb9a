"""Reading a round's data choice (``DataChoice``, ``TeamDataChoice``): the packs it offers,
each team's pick, and the one pack a kind draws a team's data from (``team_choice``)."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Value

from pwscup.competitions.choice_models import DataChoice, TeamDataChoice
from pwscup.kinds.registry import kind_of


def round_choices(*, round) -> list[DataChoice]:
    """The packs the round offers, in order (``[]``: the round has no data choice)."""
    return list(DataChoice.objects.filter(round=round).order_by("order", "id"))


def team_pick(*, round, team) -> TeamDataChoice | None:
    """The team's recorded pick (``None``: it has not picked, or no team)."""
    if team is None:
        return None
    return TeamDataChoice.objects.filter(round=round, team=team).select_related("choice").first()


def _choices_with_pick(*, round, team):
    """The round's packs, each with ``picked`` and ``locked`` (the team's pick), one query."""
    choices = DataChoice.objects.filter(round=round).order_by("order", "id")
    if team is None:
        return choices.annotate(picked=Value(False), locked=Value(False))
    picks = TeamDataChoice.objects.filter(round=round, team=team, choice=OuterRef("pk"))
    return choices.annotate(picked=Exists(picks), locked=Exists(picks.filter(locked=True)))


def team_choice(*, round, team) -> DataChoice | None:
    """The pack a kind uses for ``team``: its pick, else the round's first pack (what its
    first upload will lock); ``None`` when the round offers no choice. One query."""
    return _choices_with_pick(round=round, team=team).order_by("-picked", "order", "id").first()


def team_choice_key(*, round, team) -> str:
    """``team_choice``'s key, ``""`` when the round offers no choice."""
    choice = team_choice(round=round, team=team)
    return choice.key if choice is not None else ""


def team_choice_keys(*, round) -> dict[int, str]:
    """``team_choice_key`` of every team that picked, by team id, and under ``None`` the key
    of a team that has not (the round's first pack, ``""`` when it offers none): two queries
    for a whole table of teams."""
    choices = round_choices(round=round)
    picks = TeamDataChoice.objects.filter(round=round).values_list("team_id", "choice__key")
    return {None: choices[0].key if choices else "", **dict(picks)}


@dataclass(frozen=True)
class ChoiceState:
    """What the Data tab and the API show a team: the packs, its pick, whether it is locked."""

    choices: list
    current: DataChoice | None
    picked: bool
    locked: bool
    # What the team's data is when it does not follow its pack (the kind's ``choice_kept``:
    # e.g. drawn before the packs were offered); "" when it does.
    kept: str = ""

    @property
    def key(self) -> str:
        """The key of the pack the team's data comes from (``team_choice_key``'s: its pick,
        else the round's first pack; ``""`` when the round offers no choice)."""
        return self.current.key if self.current is not None else ""

    def as_json(self) -> dict:
        return {
            "choices": [
                {"key": c.key, "label": c.label, "label_ja": c.label_ja} for c in self.choices
            ],
            "choice": self.current.key if self.current is not None and not self.kept else None,
            "picked": self.picked,
            "locked": self.locked or bool(self.kept),
            "kept": self.kept or None,
        }


def choice_state(*, round, team) -> ChoiceState:
    """The Data tab's and the API's view of the choice: one query, and the kind's
    ``choice_kept`` when the round offers packs and there is a team."""
    choices = list(_choices_with_pick(round=round, team=team))
    picked = next((choice for choice in choices if choice.picked), None)
    return ChoiceState(
        choices=choices,
        current=picked or (choices[0] if choices else None),
        picked=picked is not None,
        locked=bool(picked and picked.locked),
        kept=team_kept(round=round, team=team) if choices and team is not None else "",
    )


def choice_kept(*, round) -> dict[int, str]:
    """The teams whose data does not follow their pack, by id, with what it is instead (the
    round's kind says: ``RoundKind.choice_kept``)."""
    return kind_of(round).choice_kept(round)


def team_kept(*, round, team) -> str:
    """What ``team``'s data is when it does not follow its pack (``choice_kept``), else ""."""
    return choice_kept(round=round).get(team.pk, "")


def round_team_picks(*, round) -> dict[int, TeamDataChoice]:
    """Every team's pick in the round, by team id (the console's table)."""
    return {
        pick.team_id: pick
        for pick in TeamDataChoice.objects.filter(round=round).select_related("choice")
    }
