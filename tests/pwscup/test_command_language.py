"""Management commands speak one language, the site's default (Django runs a command in
``LANGUAGE_CODE``; ``manage.py`` activates no other): every line they print is translated."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.utils import translation

from pwscup.pwscup2015.management.commands import freeze_round
from tests.pwscup.factories import run_operations, scored

pytestmark = pytest.mark.django_db

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _japanese_lines(out: str) -> list[str]:
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines
    return [line for line in lines if not JAPANESE.search(line)]


def test_freeze_round_speaks_japanese_on_every_line(world):
    scored(world, "a", seed=3)
    out = io.StringIO()
    with translation.override("ja"):
        call_command("freeze_round", world.competition.slug, world.round.slug, stdout=out)
    assert _japanese_lines(out.getvalue()) == []
    assert "Celery ワーカー" in out.getvalue()


def test_freeze_round_waiting_speaks_japanese_on_every_line(world, monkeypatch):
    scored(world, "a", seed=3)
    call_command("freeze_round", world.competition.slug, world.round.slug, stdout=io.StringIO())
    (finished,) = run_operations()
    # --wait on an operation a worker has finished: its progress and result lines.
    monkeypatch.setattr(freeze_round.Command, "service", staticmethod(lambda round: finished))
    out = io.StringIO()
    with translation.override("ja"):
        call_command("freeze_round", world.competition.slug, world.round.slug, "--wait", stdout=out)
    assert _japanese_lines(out.getvalue()) == []
    assert "完了: 公開済み=1, 攻撃対象=1, 変更なし=0" in out.getvalue()


def test_a_command_s_refusal_is_in_the_same_language(world):
    with translation.override("ja"), pytest.raises(CommandError) as refused:
        call_command("freeze_round", world.competition.slug, "missing")
    assert str(refused.value) == f"ラウンド {world.competition.slug}/missing はありません。"


def test_allow_competitions_and_bundle_export_speak_japanese(world, tmp_path):
    get_user_model().objects.create_user(username="lecturer", password="pw-long-enough")
    out = io.StringIO()
    with translation.override("ja"):
        call_command("allow_competitions", "lecturer", stdout=out)
        call_command("allow_competitions", "lecturer", "--revoke", stdout=out)
        call_command("bundle_export", world.competition.slug, str(tmp_path / "b.zip"), stdout=out)
    assert _japanese_lines(out.getvalue()) == []


def test_in_english_the_same_lines_are_english(world):
    scored(world, "a", seed=3)
    out = io.StringIO()
    with translation.override("en"):
        call_command("freeze_round", world.competition.slug, world.round.slug, stdout=out)
    assert not JAPANESE.search(out.getvalue())


def test_restore_s_refusal_speaks_japanese(tmp_path):
    with translation.override("ja"), pytest.raises(CommandError) as refused:
        call_command("restore", str(tmp_path))
    assert str(refused.value) == (
        f"{tmp_path / 'manifest.json'} がありません。{tmp_path} はバックアップではないか、"
        "途中で終わったバックアップです。"
    )
