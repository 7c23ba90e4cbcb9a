"""After the organizers upload a new version of their scoring program, a team whose uploads
were scored by an older version is told so on its Overview and Submit tabs, in English and
Japanese: how many of its uploads still carry an older version's scores, and that the
organizers may rescore them. Nothing is said while every upload is on the current version
(PWSCup 2026 walk: teams saw `v1` beside their scores and "Scored by program v2." with no
word about it)."""

import html
import re

import pytest
from django.test import Client

from pwscup.kinds.tabs import OVERVIEW, SUBMIT, tab_url
from pwscup.scorer import services
from pwscup.scorer.models import Release
from tests.pwscup.scorer_world import (
    demo_program_zip,
    program_version,
    release,
    release_bytes,
    scorer_world,
)

pytestmark = pytest.mark.django_db

OLDER = {
    "en": "2 releases of yours still carry scores from an older version of the program (v1). "
    "The organizers may rescore them with v2; until then their scores stay as shown.",
    "ja": "あなたの提出のうち 公開データ 2 件 は、古いバージョンのプログラム（v1）のスコアの"
    "ままです。運営者が v2 で再採点することがあります。それまでスコアは表示のままです。",
}


def _notes(client, world) -> dict:
    """The older-scores note of the Overview and the Submit tab, per language (``""``:
    none)."""
    notes = {}
    for language in OLDER:
        for tab in (OVERVIEW, SUBMIT):
            page = client.get(
                tab_url(world.round, tab), HTTP_ACCEPT_LANGUAGE=language
            ).content.decode()
            found = re.search(r'data-testid="older-scores">(.*?)</p>', page, re.S)
            text = html.unescape(re.sub(r"<[^>]+>", "", found.group(1))) if found else ""
            notes[language, tab] = " ".join(text.split())
    return notes


def test_a_team_is_told_its_uploads_carry_an_older_versions_scores():
    world = scorer_world(slug="olds", letters="ab")
    for noise in (0, 10):
        assert release(world, "a", release_bytes(noise=noise)).status == Release.Status.FINISHED
    team_a, team_b = Client(), Client()
    team_a.force_login(world.users["a"])
    team_b.force_login(world.users["b"])
    assert set(_notes(team_a, world).values()) == {""}  # every upload on v1, the current one
    program_version(world, demo_program_zip())
    for (language, _tab), note in _notes(team_a, world).items():
        assert note == " ".join(OLDER[language].split()), language
    assert set(_notes(team_b, world).values()) == {""}  # team B has no upload
    release(world, "a", release_bytes(noise=20, seed=1))  # scored by v2: the count stays 2
    assert _notes(team_a, world)["en", OVERVIEW] == OLDER["en"]
    services.rescore_outdated(scorer=world.scorer, user=world.organizer)
    for kept in Release.objects.filter(scorer=world.scorer):
        services.release_score(release_id=kept.pk)
    assert set(_notes(team_a, world).values()) == {""}


def test_the_note_names_releases_and_attacks_in_both_languages():
    from django.utils import translation

    from pwscup.scorer.older_scores import OlderScores

    older = OlderScores(releases=1, attacks=3, versions=("v1", "v2"), current="v3")
    with translation.override("en"):
        assert older.text().startswith(
            "1 release and 3 attacks of yours still carry scores from an older version of the "
            "program (v1, v2). The organizers may rescore them with v3;"
        )
    with translation.override("ja"):
        assert older.text().startswith(
            "あなたの提出のうち 公開データ 1 件と攻撃 3 件 は、古いバージョンのプログラム（v1, v2）"
        )
    one = OlderScores(releases=1, attacks=0, versions=("v2",), current="v3")
    with translation.override("en"):  # the verb agrees with one upload
        assert one.text().startswith(
            "1 release of yours still carries scores from an older version of the program (v2). "
            "The organizers may rescore it with v3; until then its scores stay as shown."
        )
