"""A round's data packs (PWSCup 2022: six datasets, each team playing on one): ``status``
lists them with the team's own, and ``choose`` picks one through the round's
``data-choice`` address, as the round's Data tab does. The client knows no kind: what it
shows is the status's ``data_choice``."""

from pwscup.client.formatting import table
from pwscup.client.messages import language, tr
from pwscup.client.session import UsageError, round_path
from pwscup.client.transport import Api


def pack_label(pack: dict) -> str:
    """A pack's label in the client's language (the English one when it has no Japanese)."""
    if language() == "ja" and pack.get("label_ja"):
        return pack["label_ja"]
    return pack["label"]


def team_line(state: dict) -> str:
    """The team's pack: picked or not, locked or not, or kept on data of its own."""
    if state.get("kept"):
        return state["kept"]
    current = next((p for p in state["choices"] if p["key"] == state["choice"]), None)
    if current is None:
        return ""
    named = f"{pack_label(current)} ({current['key']})"
    if not state["picked"]:
        return tr("Your team has not picked: it plays on {pack}.").format(pack=named)
    line = tr("Your team's data: {pack}").format(pack=named)
    return line + (tr(" · locked") if state["locked"] else "")


def print_data_choice(status: dict) -> None:
    """The round's packs and, for a member, its team's (nothing when the round offers none)."""
    state = status.get("data_choice")
    if not state:
        return
    print()
    print(tr("Data packs (pwscup choose ROUND KEY)"))
    rows = [[pack["key"], pack_label(pack)] for pack in state["choices"]]
    print(table([tr("key"), tr("data pack")], rows))
    if status.get("team"):
        print(team_line(state))


def cmd_choose(api: Api, args) -> int:
    """Pick the team's data pack of the round (refused by the server once it is locked)."""
    status = api.get(round_path(args.round, "status/"))
    state = status.get("data_choice")
    if not state:
        raise UsageError(tr("This round offers no choice of data packs."))
    keys = [pack["key"] for pack in state["choices"]]
    if args.key not in keys:
        raise UsageError(
            tr("{key!r} is not one of the round's data packs: {keys}").format(
                key=args.key, keys=", ".join(keys)
            )
        )
    answer = api.post(state["url"], data={"choice": args.key})
    print(team_line(answer))
    return 0
