"""The pwscup client's transport: an answer that is not JSON (a captive portal's or another
proxy's page) is an ApiError naming the address, which the CLI prints, not a traceback."""

import http.server
import threading

import pytest

from pwscup.client.transport import Api, ApiError


class PortalPage(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server's name
        body = b"<html><body>Log in to the campus network</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def portal():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), PortalPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_an_answer_that_is_not_json_is_an_api_error(portal):
    with pytest.raises(ApiError) as raised:
        Api(portal, "pws_x").get("api/v1/me/")
    assert raised.value.code == "not_json"
    assert raised.value.message == f"{portal}/api/v1/me/: expected JSON, got text/html"
