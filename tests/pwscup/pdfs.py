"""Tiny PDFs written by hand for the presentations' tests (no binary fixture): a valid
one-page PDF with a line of text, and the PNG signature for files that are not PDFs."""

import zlib


def minimal_pdf(text: str = "Our slides", *, junk_before: bytes = b"") -> bytes:
    """A valid one-page PDF (A4 landscape-ish 800x450 points) showing ``text``, with a
    correct cross-reference table; ``junk_before`` is put before the header (the PDF
    specification tolerates up to 1024 bytes of it)."""
    safe = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    stream = f"0.1 0.3 0.6 rg 0 390 800 60 re f 0 g BT /F1 36 Tf 60 220 Td ({safe}) Tj ET".encode(
        "latin-1"
    )
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 800 450] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(junk_before + b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out) - len(junk_before))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out) - len(junk_before)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def broken_pdf() -> bytes:
    """Starts like a PDF, but nothing after the header is one: poppler cannot read it."""
    return b"%PDF-1.4\n" + b"this is not a PDF body\n" * 20


# A PNG's first bytes, then anything: a file that is no PDF whatever its name says.
PNG_BYTES = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 64


def pdf_of(objects: list[bytes]) -> bytes:
    """A PDF of these objects (1: the catalog) with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def sized_pdf(width: float, height: float, *, content: bytes = b"0 g 0 0 5 5 re f") -> bytes:
    """A one-page PDF whose page is ``width`` × ``height`` points (the 583-byte hostile one:
    10 × 11,000), drawing ``content`` (deflated)."""
    stream = zlib.compress(content, 9)
    return pdf_of(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Contents 4 0 R >>"
            % (str(width).encode(), str(height).encode()),
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream",
        ]
    )


def slow_pdf(operations: int = 5_000) -> bytes:
    """A small PDF (the content deflates well) whose first page takes poppler seconds to
    render (a few milliseconds per operation): ``operations`` filled rectangles over the page."""
    return sized_pdf(800, 450, content=b"0.5 g " + b"1 1 798 448 re f " * operations)
