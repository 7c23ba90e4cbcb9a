"""A small JSON + multipart client over ``urllib`` (no dependency)."""

import json
import mimetypes
import secrets
import shutil
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from pwscup.client.formatting import moment
from pwscup.client.messages import language, tr

USER_AGENT = "pwscup-client/1"
# A busy site (the proxy's admission control, scripts/docker/nginx.conf) answers 503 with
# Retry-After before the request reaches the application: nothing was done, so the request is
# sent again after the wait it names, at most this many times, when it names a short one.
BUSY_RETRIES = 3
BUSY_LONGEST_WAIT = 30  # seconds: a longer Retry-After (a restart, a maintenance) is an error


class ApiError(Exception):
    """The server refused (``code`` and ``message`` from its JSON answer) or was unreachable.
    ``fields``: an invalid request's messages by field (the answer's ``fields``), else empty;
    ``retry_after``: the seconds a throttled request (429 ``throttled``) is told to wait, else
    ``None``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        fields: dict | None = None,
        retry_after: int | None = None,
    ):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.fields = fields or {}
        self.retry_after = retry_after


def preferred_language() -> str:
    """``ja`` or ``en`` for the server's messages: the client's own language."""
    return language()


class Api:
    def __init__(self, url: str, token: str | None, *, timeout: float = 60.0):
        self.base = url.rstrip("/") + "/"
        self.token = token
        self.timeout = timeout

    def url(self, path: str) -> str:
        return urllib.parse.urljoin(self.base, path.lstrip("/"))

    def _request(self, method: str, path: str, *, body=None, content_type=None):
        headers = {
            "User-Agent": USER_AGENT,
            "Accept-Language": preferred_language(),
        }
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if content_type:
            headers["Content-Type"] = content_type
        if isinstance(body, MultipartBody):  # sent as it is read: its length said first
            headers["Content-Length"] = str(len(body))
        for attempt in range(BUSY_RETRIES + 1):
            request = urllib.request.Request(
                self.url(path), data=body, method=method, headers=headers
            )
            try:
                return urllib.request.urlopen(request, timeout=self.timeout)  # noqa: S310
            except urllib.error.HTTPError as error:
                wait = _busy_wait(error)
                if wait is None or attempt == BUSY_RETRIES:
                    raise _api_error(error) from None
                error.close()
                print(
                    tr("The site is busy: trying again in {seconds} s.").format(seconds=wait),
                    file=sys.stderr,
                )
                time.sleep(wait)
            except urllib.error.URLError as error:
                raise unreachable(self.base, error.reason) from None
            except (TimeoutError, ConnectionError) as error:  # after the connection was made
                raise unreachable(self.base, error) from None
        raise AssertionError("unreachable")  # the loop returns or raises

    def get(self, path: str):
        with self._request("GET", path) as response:
            return _json_answer(response)

    def post(self, path: str, *, data: dict | None = None):
        """POST nothing, or ``data`` as a JSON body."""
        if data is None:
            body, content_type = b"", None
        else:
            body, content_type = json.dumps(data).encode(), "application/json"
        with self._request("POST", path, body=body, content_type=content_type) as response:
            return _json_answer(response)

    def download(self, path: str, destination: Path) -> Path:
        with self._request("GET", path) as response, open(destination, "wb") as handle:
            shutil.copyfileobj(response, handle)
        return destination

    def download_into(self, path: str, folder: Path) -> Path:
        """Save the file under the name the server gives it (Content-Disposition)."""
        with self._request("GET", path) as response:
            name = response.headers.get_filename() or Path(urllib.parse.urlparse(path).path).name
            destination = Path(folder) / Path(name).name
            with open(destination, "wb") as handle:
                shutil.copyfileobj(response, handle)
        return destination

    def post_multipart(self, path: str, *, fields: dict, file_field: str, file_path: Path):
        body, content_type = multipart(fields, file_field, Path(file_path))
        with self._request("POST", path, body=body, content_type=content_type) as response:
            return _json_answer(response)


def unreachable(address: str, reason) -> ApiError:
    """The server could not be reached: the address and why, in the client's language (the
    system's own words, "[Errno 111] Connection refused", only for a reason not named here)."""
    if isinstance(reason, ConnectionRefusedError):
        why = tr("nothing answers there (is the server running, and the address right?)")
    elif isinstance(reason, socket.gaierror):
        why = tr("no such host name (check the address)")
    elif isinstance(reason, TimeoutError):
        why = tr("no answer in time")
    elif isinstance(reason, ConnectionError):
        why = tr("the connection was cut")
    else:
        why = str(getattr(reason, "strerror", None) or reason)
    message = tr("cannot reach the server {url}: {reason}").format(url=address, reason=why)
    return ApiError(0, "unreachable", message)


def _json_answer(response):
    """The answer's JSON; anything else (a page from a proxy or portal in between) is an
    ``ApiError`` naming the address, not a traceback."""
    try:
        return json.loads(response.read().decode("utf-8"))
    except ValueError:
        kind = response.headers.get_content_type()
        raise ApiError(
            response.status,
            "not_json",
            tr("{url}: expected JSON, got {kind}").format(url=response.url, kind=kind),
        ) from None


class MultipartBody:
    """A ``multipart/form-data`` body read from the file as it is sent, in chunks of
    ``CHUNK`` bytes: a huge file costs no memory before the server refuses it (its size cap).
    Iterable again for each try (a busy site's resend); ``len`` is its Content-Length."""

    CHUNK = 1 << 16

    def __init__(self, head: bytes, file_path: Path, tail: bytes):
        self.head, self.file_path, self.tail = head, file_path, tail

    def __len__(self) -> int:
        return len(self.head) + self.file_path.stat().st_size + len(self.tail)

    def __iter__(self):
        yield self.head
        with open(self.file_path, "rb") as handle:
            while chunk := handle.read(self.CHUNK):
                yield chunk
        yield self.tail


def multipart(fields: dict, file_field: str, file_path: Path) -> tuple[MultipartBody, str]:
    """A ``multipart/form-data`` body: the text fields, then the file as it is on disk."""
    boundary = f"pwscup-{secrets.token_hex(16)}"
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + str(value).encode("utf-8")
            + b"\r\n"
        )
    kind = mimetypes.guess_type(file_path.name)[0] or "text/csv"
    filename = file_path.name.replace('"', "_")
    parts.append(
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; '
            f'filename="{filename}"\r\nContent-Type: {kind}\r\n\r\n'
        ).encode()
    )
    tail = f"\r\n--{boundary}--\r\n".encode()
    body = MultipartBody(b"".join(parts), file_path, tail)
    return body, f"multipart/form-data; boundary={boundary}"


def _busy_wait(error: urllib.error.HTTPError) -> int | None:
    """The seconds to wait before sending again, for a 503 with a short Retry-After."""
    retry = (error.headers.get("Retry-After") or "").strip()
    if error.code == 503 and _seconds(retry) is not None and _seconds(retry) <= BUSY_LONGEST_WAIT:
        return _seconds(retry)
    return None


def _seconds(text) -> int | None:
    """A count of seconds a server sent, when it is ASCII digits of a sane length (``int``
    refuses "²", which ``str.isdigit`` lets through)."""
    text = str(text or "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _api_error(error: urllib.error.HTTPError) -> ApiError:
    """The server's ``{"code", "message"}`` (the API's errors and the nginx proxy's own:
    too_many_connections, too_large, server_unavailable, server_timeout), else the status."""
    try:
        payload = json.loads(error.read().decode("utf-8"))
        code, message = payload["code"], payload["message"]
    except (ValueError, KeyError, TypeError, OSError):
        payload = {}
        code, message = "http_error", f"HTTP {error.code} {error.reason}"
    retry = error.headers.get("Retry-After")
    throttled_for = None
    if retry and error.code == 429 and code == "throttled":
        message = f"{message} (Retry-After: {retry} s)"
        throttled_for = _seconds(retry.strip())
    elif error.code == 429 and code != "http_error" and payload.get("resets_at"):
        seconds = payload.get("retry_after") or retry
        wait = ""
        if _seconds(seconds) is not None:
            wait = tr(", in {duration}").format(duration=_duration(_seconds(seconds)))
        message = tr("{message} You may submit again at {at}{wait}.").format(
            message=message, at=moment(str(payload["resets_at"])), wait=wait
        )
    return ApiError(
        error.code, code, message, _field_messages(payload.get("fields")), throttled_for
    )


def _field_messages(fields) -> dict[str, list[str]]:
    """An invalid request's ``fields`` (name → its messages), when the answer holds them as
    the API documents; anything else is no field message."""
    if not isinstance(fields, dict):
        return {}
    return {
        str(name): [str(m) for m in messages]
        for name, messages in fields.items()
        if isinstance(messages, list)
    }


def _duration(seconds: int) -> str:
    """``2 h 05 min``, ``7 min``, ``40 s``: a wait, for people."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return tr("{hours} h {minutes:02d} min").format(hours=hours, minutes=minutes)
    if minutes:
        return tr("{minutes} min").format(minutes=minutes)
    return tr("{seconds} s").format(seconds=secs)
