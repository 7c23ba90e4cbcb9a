"""The slides renderer bounded against hostile PDFs (real poppler, real processes): a page
of extreme proportions gets a preview that fits its box, a huge page is refused with a
message stored on the slides' job, the tools run under a memory limit, a render past its
time limit is killed with its whole process group, a worker killed mid-render does not
leave ``pdftoppm`` running, and the renderer's temporary folders live in its own folder
(this test's ``tmp_path``) and are removed."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from django.utils import translation

from pwscup.presentations.messages import slides_message_text
from pwscup.presentations.models import Slides
from pwscup.presentations.preview import (
    FOLDER_PREFIX,
    STALE_SECONDS,
    PreviewError,
    first_page_png,
)
from tests.pwscup.pdfs import minimal_pdf, sized_pdf, slow_pdf
from tests.pwscup.presentations_support import png_size, rendered, upload, window_for
from tests.support import wait_for

ROOT = Path(__file__).resolve().parents[2]


def _poppler_processes(marker: Path) -> list[int]:
    """The pids of the poppler tools whose command line names ``marker`` (this test's folder)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().split(")")[-1].split()[0]
        except OSError:
            continue
        if str(marker).encode() in cmdline and b"pdftoppm" in cmdline and state != "Z":
            pids.append(int(entry.name))
    return pids


def test_a_page_of_extreme_proportions_gets_a_preview_within_its_box(tmp_path):
    # The field probe's 583-byte PDF: a 10 × 11,000 pt page once made an 800 × 880,000 px
    # preview (and pdftoppm take 2.7 GB).
    hostile = sized_pdf(10, 11000)
    assert len(hostile) < 600
    width, height = png_size(first_page_png(hostile, work_dir=tmp_path))
    assert height == 2000 and 1 <= width <= 3
    width, height = png_size(first_page_png(sized_pdf(11000, 10), work_dir=tmp_path))
    assert width == 800 and height == 1
    assert list(tmp_path.iterdir()) == []  # every temporary folder removed


@pytest.mark.django_db
def test_a_huge_page_is_refused_with_a_message_on_the_slides_job(world, settings, tmp_path):
    settings.PWSCUP_SLIDES_WORK_DIR = tmp_path
    window = window_for(world)
    slides = rendered(upload(world, window, content=sized_pdf(20000, 300), name="big.pdf"))
    assert slides.status == Slides.Status.FAILED
    assert slides.message_code == "slides.page_too_large"
    assert not slides.preview
    assert slides_message_text(slides) == (
        "The first page of big.pdf is 20,000 × 300 points; a page may be at most 14,400 "
        "points on a side. Export your slides with a usual page size (such as 16:9 or A4)."
    )
    with translation.override("ja"):
        assert "big.pdf" in slides_message_text(slides)
        assert "points" not in slides_message_text(slides)
    assert list(tmp_path.iterdir()) == []


def test_the_tools_run_under_the_memory_limit(tmp_path):
    assert png_size(first_page_png(minimal_pdf(), work_dir=tmp_path, memory_bytes=512 * 1024**2))
    # Too little address space for poppler to start: a refusal, never a hang or a crash here.
    with pytest.raises(PreviewError) as caught:
        first_page_png(minimal_pdf(), work_dir=tmp_path, memory_bytes=4 * 1024**2)
    assert caught.value.code == "slides.unreadable"
    assert list(tmp_path.iterdir()) == []


def test_a_render_past_its_time_limit_is_killed_with_its_process_group(tmp_path):
    with pytest.raises(PreviewError) as caught:
        first_page_png(slow_pdf(), work_dir=tmp_path, timeout=1)
    assert caught.value.code == "slides.render_timeout"
    assert _poppler_processes(tmp_path) == []  # killed and reaped, not left running
    assert list(tmp_path.iterdir()) == []


WORKER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from pwscup.presentations.preview import first_page_png
    first_page_png(Path(sys.argv[1]).read_bytes(), work_dir=Path(sys.argv[2]), timeout=600)
    """
)


def test_a_worker_killed_mid_render_leaves_no_pdftoppm_and_its_folder_is_swept(tmp_path):
    pdf = tmp_path / "slow.pdf"
    # About 90 s of rendering: left alone, pdftoppm outlives the 20 s this test waits.
    pdf.write_bytes(slow_pdf(30_000))
    work = tmp_path / "work"
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(pdf), str(work)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        rendering = wait_for(lambda: _poppler_processes(work), timeout=60, what="pdftoppm to start")
        worker.send_signal(signal.SIGKILL)  # as the OOM killer or a hard time limit does
        worker.wait(timeout=30)
        wait_for(
            lambda: not _poppler_processes(work),
            timeout=20,
            what=f"pdftoppm {rendering} to die with its worker",
        )
    finally:
        worker.kill()
        worker.wait()
        for pid in _poppler_processes(work):
            os.kill(pid, signal.SIGKILL)
    left = [p for p in work.iterdir() if p.name.startswith(FOLDER_PREFIX)]
    assert len(left) == 1  # nothing ran in the killed worker to remove it
    old = time.time() - STALE_SECONDS - 60
    os.utime(left[0], (old, old))
    first_page_png(minimal_pdf(), work_dir=work)  # the next render sweeps it
    assert list(work.iterdir()) == []
