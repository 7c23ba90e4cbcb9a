"""Each team's folder of the slots pack as the organizers see it: whether it holds a file in
the pack of the team's data choice (what the team's download serves), for the console's
*Team slots* table and the organizers' Data tab, which link only a folder that has one."""

from dataclasses import dataclass

from pwscup.competitions.choice_selectors import team_choice_keys
from pwscup.scorer.models import DataPack, ScorerRound, TeamSlot
from pwscup.scorer.selectors import choice_pack, packs_by_choice, slot_members


@dataclass(frozen=True)
class SlotFolder:
    """A team's slot and whether its folder ``team_NN/`` holds a file in the slots pack of
    the team's data choice (what its download serves: none, a 404)."""

    slot: TeamSlot
    has_files: bool


def slot_folders(*, scorer: ScorerRound) -> list[SlotFolder]:
    """Every team's slot in order, each with whether its folder has files (``SlotFolder``):
    the console's table and the organizers' Data tab, which link only a folder that has. The
    pack is the one the team's download reads (``current_pack`` of its ``team_choice_key``);
    four queries whatever the number of teams."""
    keys = team_choice_keys(round=scorer.round)
    packs = packs_by_choice(scorer=scorer)
    folders = []
    for slot in scorer.slots.select_related("team").order_by("slot"):
        choice = keys.get(slot.team_id, keys[None])
        pack = choice_pack(packs, DataPack.Role.SLOTS, choice)
        folders.append(SlotFolder(slot, bool(slot_members(pack=pack, slot=slot))))
    return folders
