"""Reading a round's data choice (``DataChoice``, ``TeamDataChoice``): the packs it offers,
each team's pick, and the one pack a kind draws a team's data from (``team_choice``)."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Value

from pwscup.competitions.choice_models import DataChoice, TeamDataChoice


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


@dataclass(frozen=True)
class ChoiceState:
    """What the Data tab and the API show a team: the packs, its pick, whether it is locked."""

    choices: list
    current: DataChoice | None
    picked: bool
    locked: bool

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
            "choice": self.current.key if self.current is not None else None,
            "picked": self.picked,
            "locked": self.locked,
        }


def choice_state(*, round, team) -> ChoiceState:
    """The Data tab's and the API's view of the choice, in one query."""
    choices = list(_choices_with_pick(round=round, team=team))
    picked = next((choice for choice in choices if choice.picked), None)
    return ChoiceState(
        choices=choices,
        current=picked or (choices[0] if choices else None),
        picked=picked is not None,
        locked=bool(picked and picked.locked),
    )


def round_team_picks(*, round) -> dict[int, TeamDataChoice]:
    """Every team's pick in the round, by team id (the console's table)."""
    return {
        pick.team_id: pick
        for pick in TeamDataChoice.objects.filter(round=round).select_related("choice")
    }
