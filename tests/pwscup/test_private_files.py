"""Private files are written 0640 in 0750 folders: never readable by every local account."""

import contextlib
import os
import stat
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import TemporaryUploadedFile

from pwscup.pwscup2015.models import Pwscup2015Round, TeamDataset
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of

pytestmark = pytest.mark.django_db

FILE_MODE = 0o640
FOLDER_MODE = 0o750


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_every_kind_of_private_file_is_0640(make_world):
    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    submission = scored(world, "a", seed=1, delete=2)
    scored(world, "b", seed=2, delete=2)
    target = freeze(world)["a"]
    attack = scored_attack(world, "b", target, truth_of(target))
    files = {
        "original": world.round.original_file,
        "team sample": TeamDataset.objects.filter(round=world.round).first().file,
        "anonymization upload": submission.file,
        "attack upload": attack.file,
        "published target": target.published_file,
        "truth": target.truth_file,
        "candidate table": target.candidate_file,
    }
    modes = {kind: oct(mode(Path(field.path))) for kind, field in files.items()}
    assert modes == dict.fromkeys(files, oct(FILE_MODE))
    media = Path(settings.MEDIA_ROOT).resolve()
    for kind, field in files.items():
        folder = Path(field.path).resolve().parent
        while folder != media:
            assert mode(folder) == FOLDER_MODE, f"{kind}: {folder}"
            folder = folder.parent


def test_a_large_upload_moved_from_its_temporary_file_is_0640():
    # Uploads above FILE_UPLOAD_MAX_MEMORY_SIZE arrive as temporary files, moved into place.
    upload = TemporaryUploadedFile("big.csv", "text/csv", 3, "utf-8")
    upload.write(b"a\n1")
    upload.seek(0)
    name = default_storage.save("private/uploads/test/big.csv", upload)
    with contextlib.suppress(FileNotFoundError):  # moved away: nothing left to delete
        upload.close()
    assert mode(Path(default_storage.path(name))) == FILE_MODE
