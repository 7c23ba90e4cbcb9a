"""The pwscup client's transport: an answer that is not JSON (a captive portal's or another
proxy's page) is an ApiError naming the address, which the CLI prints, not a traceback."""

import pytest

from pwscup.client.transport import Api, ApiError
from tests.pwscup.client_servers import answering


@pytest.fixture
def portal():
    page = b"<html><body>Log in to the campus network</body></html>"
    with answering(200, "text/html", page) as address:
        yield address


def test_an_answer_that_is_not_json_is_an_api_error(portal):
    with pytest.raises(ApiError) as raised:
        Api(portal, "pws_x").get("api/v1/me/")
    assert raised.value.code == "not_json"
    assert raised.value.message == f"{portal}/api/v1/me/: expected JSON, got text/html"
