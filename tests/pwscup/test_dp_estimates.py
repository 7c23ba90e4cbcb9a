"""Releases, estimates, the close and the leaderboard rows of the DP round (spec §7.3–7.5,
§8.2, §12), through the services."""

import csv
import html
import io
import math

import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from pwscup.core.errors import Refused
from pwscup.dp.models import Estimate
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.dp.services import (
    DPRequestError,
    dp_declared_upload,
    dp_estimate_check,
    dp_estimate_from_answer,
    dp_estimate_from_release,
    dp_estimate_upload,
    dp_query_answer,
    dp_release_request,
    dp_round_score,
)
from scoring.dp._examples import TOY_CONFIG, TOY_ROWS
from tests.pwscup.dp_world import TOY_Z, build_dp_world, close_now, toy_csv


@pytest.fixture
def world(db):
    return build_dp_world()


def estimate_csv(gender_age, gender) -> bytes:
    lines = ["target,gender,age,count"]
    cells = [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")]
    lines += [f"gender_age,{g},{a},{v}" for (g, a), v in zip(cells, gender_age, strict=True)]
    lines += [f"gender,{g},,{v}" for g, v in zip("FM", gender, strict=True)]
    return ("\n".join(lines) + "\n").encode()


def checked(estimate) -> Estimate:
    """Run the estimate's check here, as the worker does (``dp_estimate_check``)."""
    assert estimate.status == Estimate.Status.QUEUED  # kept; never checked in the request
    dp_estimate_check(estimate_id=estimate.pk)
    return Estimate.objects.get(pk=estimate.pk)


def upload(world, content, letter="a", level="eps-1"):
    return checked(
        dp_estimate_upload(
            dp_round=world.dp_round,
            team=world.teams[letter],
            user=world.users[letter],
            level=level,
            uploaded_file=SimpleUploadedFile("estimate.csv", content),
        )
    )


def release(world, groups, letter="a", level="eps-4"):
    return dp_release_request(
        dp_round=world.dp_round,
        team=world.teams[letter],
        user=world.users[letter],
        level=level,
        payload={"mechanism": "pk_anonymization", "groups": groups},
    )


def read(field) -> bytes:
    field.open("rb")
    try:
        return field.read()
    finally:
        field.close()


def test_a_platform_release_is_charged_by_eq6_and_returns_rho_and_k(world):
    result = release(
        world, [{"attributes": ["gender"], "rho": 0.5}, {"attributes": ["age"], "rho": 0.5}]
    )
    charge = result.charge
    assert charge.epsilon == "2.48490665"  # EX5: ln 12 rounded up to 1e-9
    assert [g["rho"] for g in charge.reply["groups"]] == [0.5, 0.5]
    assert charge.reply["k"] == pytest.approx(1.0625)  # EX2
    rows = list(csv.reader(io.StringIO(read(charge.release_file).decode())))
    assert rows[0] == ["gender", "age"] and len(rows) == 11
    assert {r[0] for r in rows[1:]} <= {"F", "M"}


def test_an_unknown_mechanism_is_refused(world):
    with pytest.raises(DPRequestError, match="Unknown release mechanism 'laplace'"):
        dp_release_request(
            dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
            payload={"mechanism": "laplace", "groups": [{"attributes": ["gender", "age"], "epsilon": "1"}]},
        )  # fmt: skip


def test_epsilon_groups_are_charged_exactly(world):
    result = release(
        world,
        [{"attributes": ["gender"], "epsilon": "0.3"}, {"attributes": ["age"], "epsilon": "0.7"}],
    )
    assert result.charge.epsilon == "1"
    assert result.charge.reply["groups"][0]["rho"] == pytest.approx(
        (math.exp(0.3) - 1) / (2 - 1 + math.exp(0.3))
    )


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ([{"attributes": ["gender"], "epsilon": "1"}], "Attribute 'age' is in no group"),
        (
            [
                {"attributes": ["gender", "age"], "epsilon": "1"},
                {"attributes": ["age"], "rho": 0.1},
            ],
            "Attribute 'age' is in two groups (1 and 2)",
        ),
        (
            [{"attributes": ["gender", "age"], "epsilon": "1", "rho": 0.2}],
            "Group 1 gives both rho and epsilon",
        ),
        ([{"attributes": ["gender", "age"], "rho": 1.0}], "rho 1.0 is not < 1"),
        ([{"attributes": ["gender", "age"], "epsilon": "0"}], "The release's total epsilon is 0"),
    ],
)
def test_release_declarations_are_checked_with_the_spec_messages(world, groups, message):
    with pytest.raises(DPRequestError) as error:
        release(world, groups)
    assert message in str(error.value)


def test_estimate_upload_is_kept_and_checked(world):
    good = upload(world, estimate_csv([0, 2, 2, 1, 2, 3], [4, 6]))
    assert good.status == Estimate.Status.FINISHED and good.scores == {}
    assert read(good.file) == estimate_csv([0, 2, 2, 1, 2, 3], [4, 6])
    assert good.counts["gender"] == [4.0, 6.0]
    bad = upload(world, estimate_csv([0, 2, 2, 1, 2, "inf"], [4, 6]))
    assert bad.status == Estimate.Status.FAILED
    assert bad.message == (
        "Row 6: count 'inf' is not a finite number. Rows are numbered from 1 after the header line."
    )
    assert read(bad.file).endswith(b"gender,M,,6\n")  # kept as uploaded
    assert bad.message_in("ja") == (
        "6 行目: count 'inf' は有限の数ではありません。行番号はヘッダー行の次の行を 1 とします。"
    )
    header = upload(world, b"target,age,gender,count\n")
    assert header.message == (
        "estimate.csv: the header must be target,gender,age,count; "
        "misordered column(s): 'age', 'gender'"
    )
    missing = upload(
        world, estimate_csv([0, 2, 2, 1, 2, 3], [4, 6]).replace(b"gender_age,M,25-34,3\n", b"")
    )
    assert missing.status == Estimate.Status.FAILED and "misses cells (M,25-34)" in missing.message


def test_an_estimate_typed_with_full_width_digits_is_read_as_its_numbers(world):
    """The walk's Japanese student: counts typed in full width (``１２３``) were refused."""
    typed = upload(world, estimate_csv([0, 2, 2, 1, 2, "１２３"], ["４", "６"]))
    assert typed.status == Estimate.Status.FINISHED, typed.message
    assert typed.counts["gender_age"][-1] == 123.0 and typed.counts["gender"] == [4.0, 6.0]


@pytest.fixture
def language_restored():
    """The test client's requests leave the reader's language active in this thread."""
    with translation.override("en"):
        yield


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_estimate_not_in_utf8_is_kept_and_refused_naming_it_in_the_reader_s_language(
    world, lang, language_restored
):
    """The file rules of every kind (``scoring.tables``): Shift_JIS is read, Latin-1 (which
    also decodes as CP932: "Femäle" as "Fem舁e") is refused as Windows-1252, naming the file
    as uploaded, on the level page in the reader's language."""
    client = Client()
    client.cookies["django_language"] = lang
    client.force_login(world.users["a"])
    address = reverse(
        "dp:estimate_upload",
        kwargs={
            "competition_slug": world.competition.slug,
            "round_slug": world.round.slug,
            "level": "eps-1",
        },
    )
    shift_jis = estimate_csv([0, 2, 2, 1, 2, 3], [4, 6]).decode().replace("gender,F,", "gender,女,")
    sent = client.post(
        address, {"file": SimpleUploadedFile("見積もり.csv", shift_jis.encode("cp932"))}
    )
    assert sent.status_code == 302
    latin1 = estimate_csv([0, 2, 2, 1, 2, 3], [4, 6]).replace(
        b"gender,F,,4", "gender,Femäle,,4".encode("latin-1")
    )
    sent = client.post(address, {"file": SimpleUploadedFile("Schätzung.csv", latin1)})
    assert sent.status_code == 302
    japanese, refused = Estimate.objects.filter(team=world.teams["a"]).order_by("number")
    # Read as Shift_JIS, as every kind reads it: on to the domain check of its cells.
    japanese = checked(japanese)
    assert japanese.message_code == "dp.estimate.outside_domain"
    assert "'女'" in japanese.message_in(lang)
    refused = checked(refused)
    assert refused.status == Estimate.Status.FAILED and refused.message_code == "table.encoding"
    assert read(refused.file) == latin1  # kept as uploaded
    offset = latin1.index(b"\xe4")
    expected = {
        "en": "Schätzung.csv is not UTF-8 (it looks like Windows-1252 (Latin-1)): the first "
        f"byte that is not UTF-8 is on line 8 of the file (byte offset {offset}). Save it as "
        'UTF-8 (in Excel: Save As, "CSV UTF-8 (Comma delimited)") and upload it again.',
        "ja": "Schätzung.csv は UTF-8 ではありません（Windows-1252 (Latin-1) のようです）。"
        f"UTF-8 でない最初のバイトはファイルの 8 行目（バイト位置 {offset}）にあります。",
    }[lang]
    assert refused.message_in(lang).startswith(expected)
    page = client.get(sent["Location"].split("#")[0]).content.decode()
    assert html.escape(expected) in page
    assert "舁" not in page


def test_estimates_from_a_release_and_from_an_answer(world):
    charge = release(world, [{"attributes": ["gender", "age"], "epsilon": "4"}]).charge
    for estimator in ("BT", "BR", "BI"):
        estimate = dp_estimate_from_release(
            dp_round=world.dp_round,
            team=world.teams["a"],
            user=world.users["a"],
            level="eps-4",
            charge_no=charge.number,
            estimator=estimator,
        )
        assert estimate.method == estimator and estimate.status == Estimate.Status.FINISHED
        assert sum(estimate.counts["gender"]) == pytest.approx(10)
    bt = np.asarray(estimate.counts["gender_age"])
    assert bt.size == 6
    answer = dp_query_answer(
        dp_round=world.dp_round,
        team=world.teams["b"],
        user=world.users["b"],
        level="eps-1",
        payload={"type": "histogram", "attributes": ["gender", "age"], "epsilon": "1"},
    ).charge
    from_answer = dp_estimate_from_answer(
        dp_round=world.dp_round,
        team=world.teams["b"],
        user=world.users["b"],
        level="eps-1",
        charge_no=answer.number,
    )
    assert from_answer.counts["gender_age"] == answer.reply["answer"]
    assert from_answer.counts["gender"] == [5.0, 5.0]  # N / V_S for the other target
    assert from_answer.method == "IT1"
    with pytest.raises(DPRequestError, match="has no batch release number 1"):
        dp_estimate_from_release(
            dp_round=world.dp_round,
            team=world.teams["b"],
            user=world.users["b"],
            level="eps-1",
            charge_no=1,
            estimator="BT",
        )


def test_scores_exist_only_after_the_close_and_rank_by_l2(world):
    upload(world, estimate_csv(TOY_Z, [4, 6]), letter="a")  # the truth: L2 0
    upload(world, estimate_csv([1, 1, 1, 1, 1, 5], [5, 5]), letter="b")
    assert dp_round_score(dp_round=world.dp_round) is False  # still open
    assert not Estimate.objects.exclude(scores={}).exists()
    assert level_boards(dp_round=world.dp_round) == []
    close_now(world)
    assert dp_round_score(dp_round=world.dp_round) is True
    assert dp_round_score(dp_round=world.dp_round) is False  # once
    from pwscup.notifications.models import Notification

    told = Notification.objects.filter(kind="results_published")
    assert sorted(told.values_list("user__username", flat=True)) == ["dpcup-team-a", "dpcup-team-b"]
    assert told.first().url.endswith("/dp/leaderboard/")
    boards = level_boards(dp_round=world.dp_round)
    eps1 = next(b for b in boards if b.level == "eps-1")
    assert [row.team.slug for row in eps1.verified] == ["teama", "teamb"]
    assert eps1.verified[0].mean_l2 == 0.0
    assert eps1.verified[0].mean_spearman == pytest.approx(1.0)
    expected_b = (math.sqrt(1 + 1 + 1 + 0 + 1 + 4) + math.sqrt(2)) / 2
    assert eps1.verified[1].mean_l2 == pytest.approx(expected_b)
    assert eps1.verified[0].label == "prior (ε = 0)"
    labels = [row["label"] for row in eps1.baselines["rows"]]
    assert labels[:2] == ["BT", "BR"] and labels[-1] == "prior"
    assert "l2" in eps1.baselines["crossing"]
    overall = overall_ranking(boards)
    assert [row.team.slug for row in overall] == ["teama", "teamb"]


def claimed_estimate(world):
    """Team a's valid estimate, checked; team b's uploaded and claimed by a worker (task
    "busy") that has not finished it."""
    from pwscup.submissions.services.jobs import job_claim

    upload(world, estimate_csv(TOY_Z, [4, 6]), letter="a")
    running = dp_estimate_upload(
        dp_round=world.dp_round,
        team=world.teams["b"],
        user=world.users["b"],
        level="eps-1",
        uploaded_file=SimpleUploadedFile("estimate.csv", estimate_csv(TOY_Z, [4, 6])),
    )
    assert job_claim(model=Estimate, pk=running.pk, task_id="busy", worker="w@host") is not None
    close_now(world)
    world.dp_round.refresh_from_db()
    return running


def test_the_close_waits_for_an_estimate_a_worker_is_still_checking(world):
    """An estimate uploaded before the close counts though its check is still running on a
    worker when the round is scored: the scoring waits for it (``uploads_in_flight``),
    at most ``AUTO_FREEZE_WAITS_AT_MOST`` after the close (the next test)."""
    running = claimed_estimate(world)
    assert dp_round_score(dp_round=world.dp_round) is False  # team b's check is under way
    world.dp_round.refresh_from_db()
    assert world.dp_round.scored_at is None
    dp_estimate_check(estimate_id=running.pk, task_id="busy")  # its run, delivered again
    assert dp_round_score(dp_round=world.dp_round) is True
    eps1 = next(b for b in level_boards(dp_round=world.dp_round) if b.level == "eps-1")
    assert sorted(row.team.slug for row in eps1.verified) == ["teama", "teamb"]


def test_a_check_running_past_the_wait_does_not_hold_the_close(world):
    import datetime as dt

    from pwscup.submissions.services.maintenance import AUTO_FREEZE_WAITS_AT_MOST

    claimed_estimate(world)
    later = world.dp_round.closes_at + AUTO_FREEZE_WAITS_AT_MOST
    assert dp_round_score(dp_round=world.dp_round, now=later - dt.timedelta(seconds=1)) is False
    assert dp_round_score(dp_round=world.dp_round, now=later) is True
    eps1 = next(b for b in level_boards(dp_round=world.dp_round) if b.level == "eps-1")
    assert [row.team.slug for row in eps1.verified] == ["teama"]


def test_a_failed_estimate_does_not_replace_the_valid_one(world):
    upload(world, estimate_csv(TOY_Z, [4, 6]))
    upload(world, b"nonsense\n")
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    eps1 = next(b for b in level_boards(dp_round=world.dp_round) if b.level == "eps-1")
    assert eps1.verified[0].mean_l2 == 0.0


def test_uploads_after_the_close_are_refused(world):
    close_now(world)
    with pytest.raises(Refused, match="Release phase closed at ") as refused:
        upload(world, estimate_csv(TOY_Z, [4, 6]))
    assert refused.value.status == 403  # the core's deadline answer, as in every kind


DECLARED_CONFIG = {
    "attributes": {"gender": ["F", "M"], "age": ["<=17", "18-24", "25-34"]},
    "workload": [{"id": "gender_age", "attributes": ["gender", "age"]}],
    "levels": [{"id": "eps-1", "epsilon": "1"}],
    "tracks": {"interactive": False, "batch": "upload"},
}


@pytest.fixture
def declared_world(db):
    return build_dp_world(slug="dpdecl", config=DECLARED_CONFIG)


def declare(world, content, declaration, letter="a", name="release.csv"):
    return checked(
        dp_declared_upload(
            dp_round=world.dp_round,
            team=world.teams[letter],
            user=world.users[letter],
            level="eps-1",
            uploaded_file=SimpleUploadedFile(name, content),
            declaration_raw=declaration,
        )
    )


def test_a_declared_upload_s_refusal_names_the_file_as_uploaded(declared_world):
    world = declared_world
    declaration = '{"groups": [{"attributes": ["gender", "age"], "epsilon": "1"}]}'
    latin1 = toy_csv().replace(b"\nF,", "\nFemäle,".encode("latin-1"), 1)
    refused = declare(world, latin1, declaration, name="ma_publication.csv")
    assert refused.status == Estimate.Status.FAILED and read(refused.file) == latin1
    assert refused.message.startswith(
        "ma_publication.csv is not UTF-8 (it looks like Windows-1252 (Latin-1))"
    )
    assert refused.message_in("ja").startswith(
        "ma_publication.csv は UTF-8 ではありません（Windows-1252 (Latin-1) のようです）"
    )
    renamed = toy_csv().replace(b"gender,age", b"sex,age", 1)
    header = declare(world, renamed, declaration, name="noisy.csv")
    assert header.message == (
        "noisy.csv: the header must be gender,age; "
        "missing column(s): 'gender'; unexpected column(s): 'sex'"
    )
    counts = declare(
        world, b"target,gender,count\n", {"mechanism": "laplace", "targets": {"gender_age": "1"}}
    )
    assert counts.message == (
        "release.csv: the header must be target,gender,age,count; missing column(s): 'age'"
    )


def test_declared_upload_of_the_truth_is_flagged_and_ranked_apart(declared_world):
    world = declared_world
    # The hidden table itself uploaded as a "release" at ε = 1: flagged, not rejected.
    truth = declare(
        world,
        toy_csv(),
        '{"mechanism": "pk_anonymization", "groups": [{"attributes": ["gender", "age"], "epsilon": "1"}], "estimator": "BT"}',
    )
    assert truth.status == Estimate.Status.FINISHED and truth.declared and truth.flagged
    assert truth.plausibility["retention"][0]["kept"] == 10
    over = declare(
        world,
        toy_csv(),
        '{"mechanism": "pk_anonymization", "groups": [{"attributes": ["gender", "age"], "epsilon": "2"}]}',
        letter="b",
    )
    assert over.status == Estimate.Status.FAILED
    assert over.message == "The release costs epsilon 2, above the level's budget 1"
    counts = "target,gender,age,count\n" + "".join(
        f"gender_age,{g},{a},{v}\n"
        for (g, a), v in zip(
            [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")], TOY_Z, strict=True
        )
    )
    laplace = declare(
        world, counts.encode(), {"mechanism": "laplace", "targets": {"gender_age": "1"}}, letter="b"
    )
    assert laplace.flagged and laplace.plausibility["counts"]["gender_age"]["T"] == 0
    free_form = upload(world, counts.encode())
    assert free_form.status == Estimate.Status.FAILED
    assert "computed by the platform from release.csv" in free_form.message
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    board = level_boards(dp_round=world.dp_round)[0]
    assert board.verified == []
    assert {row.team.slug for row in board.declared} == {"teama", "teamb"}
    assert all(row.declared for row in board.declared)


def test_large_workloads_build_br_on_the_worker(
    world, monkeypatch, django_capture_on_commit_callbacks
):
    from pwscup.dp.services import estimates

    monkeypatch.setattr(estimates, "ESTIMATE_INLINE_CELLS", 0)
    charge = release(world, [{"attributes": ["gender", "age"], "epsilon": "4"}]).charge
    with django_capture_on_commit_callbacks() as callbacks:
        queued = dp_estimate_from_release(
            dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"],
            level="eps-4", charge_no=charge.number, estimator="BR",
        )  # fmt: skip
    assert queued.status == Estimate.Status.QUEUED and queued.counts == {}
    assert len(callbacks) == 1
    dp_estimate_check(estimate_id=queued.pk)
    dp_estimate_check(estimate_id=queued.pk)  # a second delivery does nothing
    built = Estimate.objects.get(pk=queued.pk)
    assert built.attempts == 1
    assert built.status == Estimate.Status.FINISHED and sum(
        built.counts["gender"]
    ) == pytest.approx(10)
    # One left queued (its job lost) is built by the close before scoring.
    lost = dp_estimate_from_release(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"],
        level="eps-4", charge_no=charge.number, estimator="BI",
    )  # fmt: skip
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    lost.refresh_from_db()
    assert lost.status == Estimate.Status.FINISHED and lost.scores["mean_l2"] >= 0


def test_live_feedback_in_an_upload_only_round_and_published_truth(db):
    from django.test import Client
    from django.urls import reverse

    config = {**DECLARED_CONFIG, "feedback": "live", "publish_truth": True}
    world = build_dp_world(slug="dplive", config=config)
    honest = declare(
        world,
        toy_csv(),
        {
            "mechanism": "pk_anonymization",
            "groups": [{"attributes": ["gender", "age"], "epsilon": "1"}],
        },
    )
    assert honest.scores["mean_l2"] == 0.0  # live: the team holds the table anyway
    client = Client()
    client.force_login(world.users["a"])
    kwargs = {"competition_slug": world.competition.slug, "round_slug": world.round.slug}
    page = client.get(reverse("dp:level", kwargs={**kwargs, "level": "eps-1"})).content.decode()
    assert f'data-testid="dp-live-score-{honest.pk}"' in page
    board = client.get(reverse("dp:leaderboard", kwargs=kwargs)).content.decode()
    assert "dp-truth" not in board  # before the close, never
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    board = client.get(reverse("dp:leaderboard", kwargs=kwargs)).content.decode()
    assert 'data-testid="dp-truth"' in board


def test_the_truth_is_not_published_by_default(world):
    from django.test import Client
    from django.urls import reverse

    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    client = Client()
    client.force_login(world.users["a"])
    kwargs = {"competition_slug": world.competition.slug, "round_slug": world.round.slug}
    assert "dp-truth" not in client.get(reverse("dp:leaderboard", kwargs=kwargs)).content.decode()


def test_the_services_send_the_dp_jobs_by_the_tasks_registered_names():
    # The services send jobs by name (no import of tasks.py): a renamed task would be lost.
    from pwscup import celery_app
    from pwscup.dp import tasks
    from pwscup.dp.services.common import CHECK_DP_ESTIMATE, SCORE_DP_ROUND

    assert (SCORE_DP_ROUND, CHECK_DP_ESTIMATE) == (
        tasks.score_dp_round.name,
        tasks.check_dp_estimate.name,
    )
    assert {SCORE_DP_ROUND, CHECK_DP_ESTIMATE} <= set(celery_app.tasks)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_latin1_estimate_that_detection_read_as_cp932_is_refused_naming_its_line(world, lang):
    """Issue 47: "ÂGÉE" in Latin-1 also reads as CP932 ("ﾂGﾉE"), which the reader took,
    so the upload failed on the domain check instead of the file rule of every kind."""
    latin1 = estimate_csv([0, 2, 2, 1, 2, 3], [4, 6]).replace(
        b"gender_age,F,<=17,", "gender_age,F,ÂGÉE,".encode("latin-1")
    )
    refused = upload(world, latin1)
    assert refused.status == Estimate.Status.FAILED
    assert refused.message_code in ("table.encoding", "table.encoding_unsure")
    assert read(refused.file) == latin1  # kept as uploaded
    message = refused.message_in(lang)
    assert message.startswith("estimate.csv ")
    assert "Windows-1252 (Latin-1)" in message
    assert {"en": "line 2 of the file", "ja": "2 行目"}[lang] in message
    assert "ﾂ" not in message


def test_a_cp932_estimate_meets_a_domain_typed_with_the_wave_dash(db):
    """Issue 47: "18〜24" typed in the domain (WAVE DASH) and "18～24" from a CP932 file
    (FULLWIDTH TILDE) are one value; a value outside is echoed as uploaded."""
    typed = "18\u301c24"
    config = {**TOY_CONFIG, "attributes": {"gender": ["F", "M"], "age": ["<=17", typed, "25-34"]}}
    rows = [(g, typed if a == "18-24" else a) for g, a in TOY_ROWS]
    world = build_dp_world(config=config, table=toy_csv(rows))
    text = estimate_csv([0, 2, 2, 1, 2, 3], [4, 6]).decode().replace("18-24", "18\uff5e24")
    accepted = upload(world, text.encode("cp932"))
    assert accepted.status == Estimate.Status.FINISHED, accepted.message_in("en")
    assert accepted.counts["gender_age"] == [0, 2, 2, 1, 2, 3]
    outside = upload(world, text.replace("F,18\uff5e24", "F,18\uff0d24").encode("cp932"))
    assert outside.status == Estimate.Status.FAILED
    assert outside.message_code == "dp.estimate.outside_domain"
    assert "'18\uff0d24'" in outside.message_in("en") and "'18\uff0d24'" in outside.message_in("ja")
