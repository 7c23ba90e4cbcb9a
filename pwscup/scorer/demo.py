"""The scorer round of the demo competition (``manage.py load_demo``).

``scorer-demo``: the platform's own small scoring program (``scoring.scorer.demo``: standard
library only) plays the two-sided game on a 200-person table. Every team downloads the
table (``original.csv``, the public pack) and a sample release of its own (its slot's folder);
it uploads ``release.csv`` (the same people, numbers perturbed), scored by ``utility``; after
the freeze it uploads ``guess.csv`` (``row,id``) against another team's published release,
scored by the share of rows re-identified, shown in four bands until the results are
published (PWSCup 2026's rule). The program is built by the worker when the demo loads.
The release phase is open now for a week; *Open the attack phase now* brings the attack
phase to a class. A second ``load_demo`` changes nothing."""

import io
import zipfile

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from pwscup.competitions.models import Round
from pwscup.kinds.round_basics import RoundBasics
from pwscup.scorer import services
from pwscup.scorer.models import DataPack, ScorerRound
from pwscup.submissions.services.two_sided import two_sided_demo_windows
from scoring.scorer.demo import (
    demo_program_zip,
    demo_reference_csv,
    demo_reference_zip,
    demo_release_csv,
)

SLUG = "scorer-demo"
NAME = "ラウンド S：運営者の採点プログラム / Round S: the organizer's own scoring program"
ROWS, SEED, SLOTS = 200, 0, 12
CONFIG = {
    "release_columns": [
        {"key": "utility", "label": "Utility", "label_ja": "有用性", "higher_is_better": True}
    ],
    "attack_columns": [
        {
            "key": "reidentified",
            "label": "Re-identified share",
            "label_ja": "再識別率",
            "higher_is_better": True,
        }
    ],
    "attack_mode": "per_target",
    "protection_rule": "worst",
    "power_rule": "mean",
    "release_rank": "rank_sum",
    "visibility": "band",
    "bands": [0.25, 0.5, 0.75],
    "gates": [{"key": "utility", "min": 50}],
    # The public leaderboard of the phases: every team sees every team's utility.
    "public_columns": ["utility"],
    "limits": {"timeout_seconds": 60, "memory_mb": 1024, "processes": 64},
}
README = (
    "release.csv: the people of original.csv (same id column), each number perturbed as you "
    "like; scored by utility (100 = unchanged).\n"
    "guess.csv: row,id for another team's published release.csv; scored by the share of rows "
    "re-identified.\n\n"
    "release.csv：original.csv と同じ人（id 列はそのまま）で、数値を自由に加工したもの。"
    "有用性（100 が無加工）で採点します。\n"
    "guess.csv：他チームの公開 release.csv の各行について row,id を推定したもの。"
    "再識別できた行の割合で採点します。\n"
)


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _upload(data: bytes, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/zip")


def demo_packs() -> dict[str, bytes]:
    """The round's packs by role: the hidden reference, the public table and a sample
    release per slot (``team_NN/sample_release.csv``, noise growing with the slot)."""
    original = demo_reference_csv(rows=ROWS, seed=SEED)
    return {
        DataPack.Role.REFERENCE: demo_reference_zip(rows=ROWS, seed=SEED),
        DataPack.Role.PUBLIC: _zip({"original.csv": original, "README.txt": README.encode()}),
        DataPack.Role.SLOTS: _zip(
            {
                f"team_{slot:02d}/sample_release.csv": demo_release_csv(
                    original, noise=2 * slot, seed=slot
                )
                for slot in range(1, SLOTS + 1)
            }
        ),
    }


def demo_load(competition, *, organizer, now=None) -> ScorerRound | None:
    """Add the demo's scorer round to ``competition`` unless it has one by that address;
    returns the round made (None: nothing to do)."""
    if Round.objects.filter(competition=competition, slug=SLUG).exists():
        return None
    scorer = services.scorer_round_create(
        basics=RoundBasics(competition=competition, name=NAME, slug=SLUG),
        config=CONFIG,
        windows=two_sided_demo_windows(now or timezone.now()),
        user=organizer,
    )
    for role, data in demo_packs().items():
        services.pack_upload(
            scorer=scorer, role=role, uploaded_file=_upload(data, f"{role}.zip"), user=organizer
        )
    services.program_upload(
        scorer=scorer, uploaded_file=_upload(demo_program_zip(), "demo_program.zip"), user=organizer
    )
    return scorer
