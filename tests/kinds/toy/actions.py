"""The toy's lifecycle actions in the organizer console (``RoundKind.console_actions``)."""

from pwscup.kinds.actions import RoundAction
from tests.kinds.toy import services


def _close(*, user, round):
    return f"closed {services.toy_round_close(round=round)}"


def _publish(*, user, round):
    services.toy_round_publish(round=round)
    return "published"


ACTIONS = {
    "close": RoundAction("Close now", "Uploads are refused from now.", "Close", _close),
    "publish": RoundAction("Publish", "Phases close; results shown.", "Publish", _publish),
}
