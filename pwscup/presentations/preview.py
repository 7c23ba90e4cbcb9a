"""The slides' checks and first-page preview: bytes in, bytes out (no model, no storage).

The type is read from the file's bytes, never its name or the browser's content type: a PDF
starts with ``%PDF-`` within its first 1024 bytes (the PDF specification lets a file carry
bytes before its header). The preview is Debian's ``pdftoppm`` (poppler-utils) run in a
subprocess on the first page only, with a time limit, into a PNG about ``PREVIEW_WIDTH``
pixels wide.
"""

import subprocess
import tempfile
from pathlib import Path

PDF_HEADER = b"%PDF-"
HEADER_WINDOW = 1024
PREVIEW_WIDTH = 800
RENDER_TIMEOUT_SECONDS = 60
PDFTOPPM = "pdftoppm"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class PreviewError(Exception):
    """The PDF could not be rendered: ``code`` (``slides.*``) and its parameters."""

    def __init__(self, code: str, **params) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def looks_like_pdf(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) holds the PDF header in its first 1024."""
    return PDF_HEADER in head[:HEADER_WINDOW]


def first_page_png(pdf: bytes, *, timeout: float = RENDER_TIMEOUT_SECONDS) -> bytes:
    """The PDF's first page as a PNG ``PREVIEW_WIDTH`` pixels wide (height to scale).

    Raises ``PreviewError("slides.unreadable", reason=...)`` when poppler cannot read it,
    ``PreviewError("slides.render_timeout", seconds=...)`` past ``timeout``."""
    with tempfile.TemporaryDirectory(prefix="pwscup-slides-") as folder:
        source = Path(folder) / "slides.pdf"
        source.write_bytes(pdf)
        target = Path(folder) / "preview"
        command = [
            PDFTOPPM,
            "-f", "1", "-l", "1",
            "-png", "-singlefile",
            "-scale-to-x", str(PREVIEW_WIDTH), "-scale-to-y", "-1",
            str(source), str(target),
        ]  # fmt: skip
        try:
            done = subprocess.run(command, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise PreviewError("slides.render_timeout", seconds=int(timeout)) from None
        png = target.with_suffix(".png")
        if done.returncode != 0 or not png.exists():
            reason = _last_line(done.stderr) or f"pdftoppm exit status {done.returncode}"
            raise PreviewError("slides.unreadable", reason=reason)
        data = png.read_bytes()
    if not data.startswith(PNG_SIGNATURE):
        raise PreviewError("slides.unreadable", reason="no image")
    return data


def _last_line(stderr: bytes) -> str:
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    return lines[-1][:200] if lines else ""
