"""An organizer's CSV of the sequential and DP round kinds goes through the one entry point
(``pwscup.core.files.organizer_csv``), through the real console views: a Shift_JIS (CP932)
master, pool or DP hidden table is kept as uploaded and stored, scored and served as UTF-8
(``text/csv; charset=utf-8``); the console says what it was converted from; a file whose
encoding is not sure is refused naming the likely one, in the organizer's language."""

import hashlib
import io
import json

import pandas as pd
import pytest
from django.urls import reverse

from pwscup.competitions.models import Round
from pwscup.sequential.models import Master, SequentialRound
from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.seq_web_world import fixture, publish, seq_world, upload_file

pytestmark = pytest.mark.django_db

CONFIG = {"type": "sequential", "n_releases": 2, "m": 2, "qi": {"年齢": "num"}, "sa": "病名"}
DISEASES = ["胃炎", "気管支炎", "インフルエンザ", "消化不良"]


def japanese_master() -> str:
    """16 persons (katakana pids), a numeric QI, a Japanese SA, lifespans over 2 releases."""
    rows = [
        f"タロウ{k},{21 + 3 * k},{DISEASES[k % 4]},{1 + k // 11},{2 if k % 2 or k >= 11 else 1}"
        for k in range(16)
    ]
    return "pid,年齢,病名,lsf,lsb\n" + "\n".join(rows) + "\n"


def japanese_pool() -> str:
    rows = [f"ハナコ{k},{20 + k % 50},{DISEASES[k % 4]}" for k in range(120)]
    return "pid,年齢,病名\n" + "\n".join(rows) + "\n"


def _create(client, world, slug, **files):
    config = dict(CONFIG)
    if "pool" in files:
        config["per_team"] = {"pool": "pool.csv", "size": 30, "turnover": 0.2, "seed": 3}
    return client.post(
        reverse("sequential_console:create", args=[world.competition.slug]),
        {"name": "順次公開", "slug": slug, "config": json.dumps(config), **files},
    )


def _console(client, world, slug) -> str:
    return client.get(
        reverse("console:round", args=[world.competition.slug, slug])
    ).content.decode()


def _download(client, world, slug, query=""):
    response = client.get(reverse("sequential:master", args=[world.competition.slug, slug]) + query)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return response.content


def test_a_cp932_master_is_kept_as_uploaded_and_stored_scored_and_served_as_utf8(client):
    world = seq_world(slug="seqenc", master=None)
    client.force_login(world.organizer)
    uploaded = japanese_master().encode("cp932")
    response = _create(client, world, "jp", master=upload_file(uploaded, "名簿.csv"))
    assert response.status_code == 302, response.context["form"].errors
    served = _download(client, world, "jp")
    assert served == japanese_master().encode("utf-8")
    table = pd.read_csv(io.BytesIO(served))
    assert list(table.columns) == ["pid", "年齢", "病名", "lsf", "lsb"]
    assert table["病名"].iloc[1] == "気管支炎"
    # The upload is kept byte for byte; the master holds (and hashes) the UTF-8 copy.
    master = Master.objects.get(sequential__round__slug="jp", team=None)
    assert master.source_encoding == "cp932"
    with master.source.open("rb") as handle:
        assert handle.read() == uploaded
    assert master.sha256 == hashlib.sha256(japanese_master().encode()).hexdigest()
    assert master.persons == 16
    assert "Master table: converted from Shift_JIS (CP932) to UTF-8" in _console(
        client, world, "jp"
    )
    # A team downloads its master and T(1) as UTF-8 too.
    client.force_login(world.users["a"])
    assert "インフルエンザ" in _download(client, world, "jp").decode("utf-8")
    step = client.get(reverse("sequential:step_table", args=[world.competition.slug, "jp", 1]))
    assert step["Content-Type"] == "text/csv; charset=utf-8"
    assert "タロウ0" in step.content.decode("utf-8")


def test_a_cp932_master_uploaded_on_the_console_panel_is_converted(client):
    world = seq_world(slug="seqencpanel", config=CONFIG, master=japanese_master().encode())
    client.force_login(world.organizer)
    team = world.teams["b"]
    response = client.post(
        reverse("sequential:action", args=[world.competition.slug, world.round.slug, "master"]),
        {"team": team.pk, "file": upload_file(japanese_master().encode("cp932"), "b.csv")},
    )
    assert response.status_code == 302
    served = _download(client, world, world.round.slug, f"?team={team.slug}")
    assert served == japanese_master().encode("utf-8")
    master = Master.objects.get(sequential=world.sequential, team=team)
    assert master.source_encoding == "cp932"
    page = _console(client, world, world.round.slug)
    assert page.count("Master table: converted from Shift_JIS (CP932) to UTF-8") == 1


def test_a_cp932_pool_is_kept_as_uploaded_and_drawn_from_as_utf8(client):
    world = seq_world(slug="seqencpool", master=None, letters="ab")
    client.force_login(world.organizer)
    uploaded = japanese_pool().encode("cp932")
    response = _create(client, world, "pool", pool=upload_file(uploaded, "プール.csv"))
    assert response.status_code == 302, response.context["form"].errors
    sequential = SequentialRound.objects.get(round__slug="pool")
    with sequential.pool_file.open("rb") as handle:
        assert handle.read() == japanese_pool().encode("utf-8")
    assert sequential.pool_encoding == "cp932"
    with sequential.pool_source.open("rb") as handle:
        assert handle.read() == uploaded
    assert "Pool of persons: converted from Shift_JIS (CP932) to UTF-8" in _console(
        client, world, "pool"
    )
    drawn = _download(client, world, "pool", f"?team={world.teams['a'].slug}").decode("utf-8")
    assert drawn.startswith("pid,年齢,病名,lsf,lsb") and "ハナコ" in drawn


def test_a_master_whose_encoding_is_not_sure_is_refused_in_the_organizers_language(client):
    world = seq_world(slug="seqencbad", master=None)
    client.force_login(world.organizer)
    # Latin-1 "é" followed by a letter also reads as a CP932 kanji: not sure either way.
    text = "pid,Age,Disease,lsf,lsb\néa,21,flu,1,2\nb,22,cold,1,2\n"
    response = client.post(
        reverse("sequential_console:create", args=[world.competition.slug]),
        {
            "name": "S",
            "slug": "bad",
            "config": json.dumps(CONFIG),
            "master": upload_file(text.encode("latin-1"), "master.csv"),
        },
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 200
    (error,) = response.context["form"].errors["master"]
    assert "文字コードを確定できません" in error and "master.csv" in error
    assert not Round.objects.filter(competition=world.competition, slug="bad").exists()


def test_a_cp932_dp_hidden_table_is_converted_through_the_console(client):
    world = build_dp_world(slug="dpenc")
    client.force_login(world.organizer)
    config = {
        "attributes": {"性別": ["女性", "男性"], "年代": ["20代", "30代", "40代"]},
        "workload": [{"id": "sex_age", "attributes": ["性別", "年代"]}],
        "levels": [{"id": "eps-1", "epsilon": "1"}],
    }
    text = "性別,年代\n" + "".join(
        f"{'女性' if k % 3 else '男性'},{(20, 30, 40)[k % 3]}代\n" for k in range(12)
    )
    uploaded = text.encode("cp932")
    response = client.post(
        reverse("dp_console:create", args=[world.competition.slug]),
        {
            "name": "DP 日本語",
            "slug": "dpjp",
            "table": upload_file(uploaded, "秘匿.csv"),
            "config": json.dumps(config, ensure_ascii=False),
            "opens_at": "2030-01-01 00:00",
            "closes_at": "2030-01-08 00:00",
            "timezone": "Asia/Tokyo",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    round_ = Round.objects.get(competition=world.competition, slug="dpjp")
    with round_.original_file.open("rb") as handle:
        assert handle.read() == text.encode("utf-8")
    assert round_.original_rows == 12
    assert round_.original_encoding == "cp932"
    with round_.original_source.open("rb") as handle:
        assert handle.read() == uploaded
    assert round_.original_sha256 == hashlib.sha256(text.encode()).hexdigest()


def test_every_csv_of_a_sequential_round_is_text_csv_in_utf8(client):
    world = seq_world(slug="seqcsvtype")
    release = publish(world, "a", 1, fixture("zhang_release_1.csv"))
    client.force_login(world.users["a"])
    args = [world.competition.slug, world.round.slug]
    urls = [
        reverse("sequential:master", args=args),
        reverse("sequential:step_table", args=[*args, 1]),
        reverse("sequential:release_file", args=[*args, release.pk]),
        reverse("sequential:release_risk", args=[*args, release.pk]),
    ]
    for address in urls:
        response = client.get(address)
        assert response.status_code == 200, address
        assert response["Content-Type"] == "text/csv; charset=utf-8", address
