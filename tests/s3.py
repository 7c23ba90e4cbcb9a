"""A real S3-compatible server over HTTP for the object-storage tests: moto's standalone
server (``python -m moto.server``) in a process of its own, on a free port.

It speaks the S3 REST protocol over HTTP exactly as MinIO or AWS does to boto3; the
platform reaches it through django-storages with the standard ``AWS_*`` variables, so a
test exercises the same code path as production.
"""

import contextlib
import socket
import subprocess
import sys
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import boto3

from tests.support import free_port, http_status, wait_for

# moto accepts any credentials; these only have to be present and identical everywhere.
ACCESS_KEY = "pwscup-test-access"
SECRET_KEY = "pwscup-test-secret"  # noqa: S105 - a test server's dummy credential
REGION = "us-east-1"


@dataclass
class S3Server:
    """moto's S3 server listening on ``host:port``; ``start()`` and ``stop()``."""

    log_path: Path
    host: str = "127.0.0.1"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None

    @property
    def endpoint_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> "S3Server":
        log = open(self.log_path, "a")  # noqa: SIM115 - the process owns it
        self.process = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", self.host, "-p", str(self.port)],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        wait_for(self._answers, timeout=60, what=f"moto's S3 server on {self.endpoint_url}")
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None

    def client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint_url,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            region_name=REGION,
        )

    def new_bucket(self) -> str:
        """A fresh, empty, private bucket (what MinIO's start-up job creates)."""
        name = f"pwscup-{uuid.uuid4().hex[:12]}"
        self.client().create_bucket(Bucket=name)
        return name

    def env(self, bucket: str) -> dict[str, str]:
        """The standard variables a platform process (web, worker) is configured with."""
        return {
            "AWS_STORAGE_BUCKET_NAME": bucket,
            "AWS_S3_ENDPOINT_URL": self.endpoint_url,
            "AWS_S3_REGION_NAME": REGION,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
        }

    def storage(self, bucket: str, **options) -> dict:
        """The STORAGES["default"] entry those variables give (``pwscup.settings.files``);
        ``options``: ``s3_storage``'s others (its timeouts, its retries)."""
        # Imported here: importing the settings module reads the environment as it is now.
        from pwscup.settings.files import s3_storage

        return s3_storage(
            bucket=bucket,
            endpoint_url=self.endpoint_url,
            region_name=REGION,
            access_key=ACCESS_KEY,
            secret_key=SECRET_KEY,
            **options,
        )

    def names(self, bucket: str) -> list[str]:
        """The names of ``bucket``'s objects (a listing only: an object deleted meanwhile,
        which ``objects`` would fail to read, is simply not there)."""
        client = self.client()
        return [
            item["Key"]
            for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket)
            for item in page.get("Contents", [])
        ]

    def objects(self, bucket: str) -> dict[str, bytes]:
        """Every object of ``bucket``: name to content."""
        client = self.client()
        return {
            name: client.get_object(Bucket=bucket, Key=name)["Body"].read()
            for name in self.names(bucket)
        }

    def _answers(self) -> bool:
        status = http_status(self.endpoint_url)
        return status is not None and status < 500


class LateAnswers:
    """A TCP forwarder on a free local port to the server at ``host:port``: what a client
    sends passes at once; while ``held()``, what the server answers waits here (a bucket that
    did the work but whose answer comes late: a congested link, an overloaded front end).
    ``url``: the address to give the client instead of the server's."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.passing = threading.Event()
        self.passing.set()
        threading.Thread(target=self._accept, daemon=True).start()

    def hold(self) -> None:
        self.passing.clear()

    def release(self) -> None:
        self.passing.set()

    def close(self) -> None:
        self.release()
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(self.target)
            threading.Thread(target=self._pipe, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, True), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if answers:
                    self.passing.wait()
                sink.sendall(data)
        # The sender is done (a client that gave up): the other side reads what it was sent.
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
