"""What every command of the client shares: the connection to the server, a round's API
paths, the job statuses the server reports and the errors a command stops with (``cli.main``
turns each into its exit status)."""

from pwscup.client.config import load_credentials
from pwscup.client.messages import tr
from pwscup.client.transport import Api

FINISHED, FAILED = "finished", "failed"


class UsageError(Exception):
    pass


class WaitTimeout(Exception):
    pass


def round_path(round_ref: tuple[str, str], suffix: str = "") -> str:
    competition, round_slug = round_ref
    return f"api/v1/competitions/{competition}/rounds/{round_slug}/{suffix}"


def connect() -> Api:
    credentials = load_credentials()
    if not credentials:
        raise UsageError(tr("not logged in: run `pwscup login URL` first"))
    return Api(credentials["url"], credentials["token"])
