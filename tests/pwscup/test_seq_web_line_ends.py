"""A release uploaded with CRLF, CR-only or BOM-prefixed UTF-8 is checked exactly like the same
release with ``\\n`` line ends (the check reads it with scoring's one table reader)."""

import pytest

from pwscup.sequential.models import Release
from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world

pytestmark = pytest.mark.django_db

VARIANTS = {
    "LF": lambda data: data,
    "CRLF": lambda data: data.replace(b"\n", b"\r\n"),
    "CR": lambda data: data.replace(b"\n", b"\r"),
    "BOM": lambda data: b"\xef\xbb\xbf" + data,
    "BOM CR": lambda data: b"\xef\xbb\xbf" + data.replace(b"\n", b"\r"),
}


def lf(name: str) -> bytes:
    return fixture(name).replace(b"\r\n", b"\n")


def test_line_ends_and_bom_give_the_same_stored_results_and_messages():
    stored = {}
    for index, (variant, encode) in enumerate(VARIANTS.items()):
        world = seq_world(slug=f"ends{index}", letters="a")
        first = publish(world, "a", 1, encode(lf("zhang_release_1.csv")))
        assert first.status == Release.Status.FINISHED, (variant, first.message)
        freeze(world)
        second = publish(world, "a", 2, encode(lf("zhang_release_2_table9.csv")))
        wrong = publish(world, "a", 2, encode(lf("zhang_release_2_table9_as_printed.csv")))
        assert wrong.status == Release.Status.FAILED
        stored[variant] = (first.results, second.results, second.per_person, wrong.message)
    assert all(value == stored["LF"] for value in stored.values())
    assert "release 2, row 1: pid 'Bob' must carry its true Disease" in stored["CR"][3]
