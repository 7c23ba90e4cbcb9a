"""The slides' checks and first-page preview: bytes in, bytes out (no model, no storage).

The type is read from the file's bytes, never its name or the browser's content type: a PDF
starts with ``%PDF-`` within its first 1024 bytes (the PDF specification lets a file carry
bytes before its header). The preview is Debian's poppler-utils run in subprocesses on the
first page only: ``pdfinfo`` reads the page's size first (a page past ``MAX_PAGE_POINTS``
on a side is refused), then ``pdftoppm`` renders it into a PNG that fits in
``PREVIEW_WIDTH`` × ``PREVIEW_MAX_HEIGHT`` pixels (a 10 × 11,000 pt page once became an
undecodable 800 × 880,000 px image).

Each tool runs bounded (a 583-byte PDF made ``pdftoppm`` take 2.7 GB for 30 s): under an
address-space limit, with a time limit, in its own process group killed as a whole on
timeout, and with a parent-death signal so that a worker killed mid-render does not leave
it running. Its folder is a temporary one under ``work_dir`` (a folder of the project,
never the system's temp folder), removed on every way out; a folder left by a worker
killed outright is swept by the next render.
"""

import ctypes
import ctypes.util
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

PDF_HEADER = b"%PDF-"
HEADER_WINDOW = 1024
PREVIEW_WIDTH = 800
PREVIEW_MAX_HEIGHT = 2000
# 200 inches: the largest page the PDF specification's implementation limits allow.
MAX_PAGE_POINTS = 14_400
RENDER_TIMEOUT_SECONDS = 60
RENDER_MEMORY_BYTES = 1024**3
PDFINFO = "pdfinfo"
PDFTOPPM = "pdftoppm"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FOLDER_PREFIX = "pwscup-slides-"
# A folder older than this was left by a worker killed outright (no render lasts as long).
STALE_SECONDS = 3600
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
_PAGE_SIZE = re.compile(rb"^Page\s+1\s+size:\s*([0-9.]+)\s*x\s*([0-9.]+)\s*pts", re.MULTILINE)
_PAGE_ROTATION = re.compile(rb"^Page\s+1\s+rot:\s*(-?[0-9]+)", re.MULTILINE)
# Loaded once in the parent: the child between fork and exec only calls into it. Linux only
# (the platform's hosts); elsewhere the tools run without the parent-death signal.
_PRCTL = getattr(ctypes.CDLL(ctypes.util.find_library("c") or None), "prctl", None)


class PreviewError(Exception):
    """The PDF could not be rendered: ``code`` (``slides.*``) and its parameters."""

    def __init__(self, code: str, **params) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def looks_like_pdf(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) holds the PDF header in its first 1024."""
    return PDF_HEADER in head[:HEADER_WINDOW]


def first_page_png(
    pdf: bytes,
    *,
    work_dir: Path,
    timeout: float = RENDER_TIMEOUT_SECONDS,
    memory_bytes: int = RENDER_MEMORY_BYTES,
) -> bytes:
    """The PDF's first page as a PNG at most ``PREVIEW_WIDTH`` wide and
    ``PREVIEW_MAX_HEIGHT`` high (its proportions kept).

    Raises ``PreviewError``: ``slides.unreadable`` (``reason=...``) when poppler cannot read
    it or runs out of its ``memory_bytes``, ``slides.page_too_large`` (``width``,
    ``height``, ``limit`` in points), ``slides.render_timeout`` (``seconds=...``) past
    ``timeout`` (for each of the two tools)."""
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    _sweep_stale(work_dir)
    limits = {"timeout": timeout, "memory_bytes": memory_bytes}
    with tempfile.TemporaryDirectory(prefix=FOLDER_PREFIX, dir=work_dir) as folder:
        source = Path(folder) / "slides.pdf"
        source.write_bytes(pdf)
        width, height = _page_size(source, **limits)
        if max(width, height) > MAX_PAGE_POINTS:
            raise PreviewError(
                "slides.page_too_large",
                width=f"{width:,.0f}",
                height=f"{height:,.0f}",
                limit=f"{MAX_PAGE_POINTS:,}",
            )
        box_width, box_height = _preview_box(width, height)
        target = Path(folder) / "preview"
        command = [
            PDFTOPPM,
            "-f", "1", "-l", "1",
            "-png", "-singlefile",
            "-scale-to-x", str(box_width), "-scale-to-y", str(box_height),
            str(source), str(target),
        ]  # fmt: skip
        returncode, _stdout, stderr = _run(command, **limits)
        png = target.with_suffix(".png")
        if returncode != 0 or not png.exists():
            reason = _last_line(stderr) or f"pdftoppm exit status {returncode}"
            raise PreviewError("slides.unreadable", reason=reason)
        data = png.read_bytes()
    if not data.startswith(PNG_SIGNATURE):
        raise PreviewError("slides.unreadable", reason="no image")
    return data


def _page_size(source: Path, **limits) -> tuple[float, float]:
    """The first page's width and height in points as shown (its rotation applied)."""
    returncode, stdout, stderr = _run([PDFINFO, "-f", "1", "-l", "1", str(source)], **limits)
    size = _PAGE_SIZE.search(stdout)
    if returncode != 0 or size is None:
        reason = _last_line(stderr) or f"pdfinfo exit status {returncode}"
        raise PreviewError("slides.unreadable", reason=reason)
    width, height = float(size.group(1)), float(size.group(2))
    rotation = _PAGE_ROTATION.search(stdout)
    if rotation is not None and int(rotation.group(1)) % 180 == 90:
        width, height = height, width
    if not (width > 0 and height > 0):
        raise PreviewError("slides.unreadable", reason="empty page")
    return width, height


def _preview_box(width: float, height: float) -> tuple[int, int]:
    """The preview's pixels: ``PREVIEW_WIDTH`` wide unless that makes it higher than
    ``PREVIEW_MAX_HEIGHT``; never less than one pixel either way."""
    scale = min(PREVIEW_WIDTH / width, PREVIEW_MAX_HEIGHT / height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def _run(command: list[str], *, timeout: float, memory_bytes: int):
    """``command``'s exit status, standard output and error, run bounded (module
    docstring). Past ``timeout`` its whole process group is killed."""
    parent = os.getpid()

    def bound_child() -> None:
        # Between fork and exec: only system calls, no Python lock taken. The address-space
        # limit makes an allocation past it fail (poppler then exits with an error).
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        # The kernel kills the tool when the worker that started it dies (a SIGKILLed worker
        # runs no cleanup, and the tool's own time limit lives in that worker). Linux's
        # prctl has no Python binding in the standard library, hence ctypes; the signal is
        # kept across exec. If the worker died before the call took effect, stop now.
        if _PRCTL is not None:
            _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, killed as one on timeout
        preexec_fn=bound_child,  # noqa: PLW1509 - the worker renders in its main thread
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise PreviewError("slides.render_timeout", seconds=int(timeout)) from None
    except BaseException:
        _kill_group(process)
        raise
    if process.returncode in (-signal.SIGKILL, -signal.SIGSEGV, -signal.SIGABRT):
        return process.returncode, stdout, stderr + b"\nout of memory or crashed"
    return process.returncode, stdout, stderr


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate()


def _sweep_stale(work_dir: Path) -> None:
    """Remove the folders a worker killed outright left (older than ``STALE_SECONDS``)."""
    limit = time.time() - STALE_SECONDS
    for folder in work_dir.glob(FOLDER_PREFIX + "*"):
        try:
            if folder.stat().st_mtime < limit:
                shutil.rmtree(folder, ignore_errors=True)
        except FileNotFoundError:
            continue


def _last_line(stderr: bytes) -> str:
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    return lines[-1][:200] if lines else ""
