"""A tiny HTTP server for the ``pwscup`` client's tests: every ``GET`` gets the same answer
(a proxy's or portal's HTML page, a site's "not found", the API's refusal of a token)."""

import contextlib
import http.server
import threading


@contextlib.contextmanager
def answering(status: int, content_type: str, body: bytes, *, port: int = 0):
    """A server on ``port`` (else a free local port) answering each ``GET`` with ``status``
    and ``body``; yields its address (``http://127.0.0.1:PORT``)."""

    class Fixed(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Fixed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
