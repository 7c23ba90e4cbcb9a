"""Failure messages made by the worker are shown in the reader's language, not the server's.

The worker stores a code and its parameters; each page renders them in the language of
its request (Accept-Language or the language cookie): the scoring library's codes by
its own catalogue, the platform's (internal error, attempts used up) by gettext.
"""

import html

import pytest
from django.conf import settings
from django.urls import reverse

from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.pwscup2015.models import AnonymizationSubmission, TeamDataset
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import job_claim
from scoring.tables import MAX_CELL_BYTES
from tests.pwscup.factories import read_csv_text, score, upload
from tests.pwscup.test_admin import ADD_URL, form_errors, round_form
from tests.support import adult_config, adult_head, table_bytes

pytestmark = pytest.mark.django_db

ENGLISH = (
    "Column 'workclass' holds values that do not occur in that column of the original "
    "table: row 7 ('Martian-gov') (1 row in total). "
    "To generalize, replace each value by a value of the column that occurs in the original "
    "(e.g. every age from 30 to 39 by 35): a range such as 30-39 or a new label is refused. "
    "Rows are numbered from 1 after the header line."
)
JAPANESE = (
    "列 'workclass' に元のテーブルのその列にない値があります: 7 行目 ('Martian-gov')（計 1 行）。"
    "一般化するには、各値を元のテーブルのその列にある値で置き換えてください"
    "（例: 30〜39 歳をすべて 35 に）。30-39 のような範囲や新しいラベルは受け付けません。"
    "行番号はヘッダー行の次の行を 1 とします。"
)


@pytest.fixture
def failed(world):
    table = read_csv_text(world.original)
    table.loc[6, "workclass"] = "Martian-gov"
    submission = score(upload(world, "a", table_bytes(table)))
    assert submission.status == Status.FAILED
    return submission


def page(client, world, **headers) -> str:
    client.force_login(world.users["a"])
    return html.unescape(client.get(tab_url(world.round, SUBMIT), **headers).content.decode())


def status_messages(client, world, **headers) -> list[str]:
    client.force_login(world.users["a"])
    url = reverse("status_json", args=[world.competition.slug, world.round.slug])
    return [s["message"] for s in client.get(url, **headers).json()["submissions"]]


def test_the_worker_stores_a_code_and_its_parameters(failed):
    assert failed.message_code == "submission.outside_domain"
    assert failed.message_params["column"] == "'workclass'"
    assert failed.message_params["rows"]["items"] == [[7, "Martian-gov"]]
    assert failed.message == ENGLISH  # the English text, for the admin and logs


def test_the_same_failed_submission_reads_in_japanese_or_english(client, world, failed):
    assert JAPANESE in page(client, world, HTTP_ACCEPT_LANGUAGE="ja")
    assert ENGLISH not in page(client, world, HTTP_ACCEPT_LANGUAGE="ja")
    assert ENGLISH in page(client, world, HTTP_ACCEPT_LANGUAGE="en")
    assert JAPANESE not in page(client, world, HTTP_ACCEPT_LANGUAGE="en")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ja"
    assert JAPANESE in page(client, world)
    assert status_messages(client, world) == [JAPANESE]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert ENGLISH in page(client, world)
    assert status_messages(client, world) == [ENGLISH]


def test_an_internal_error_reads_in_the_readers_language(client, world, monkeypatch):
    def crash(*args, **kwargs):
        raise KeyError("boom")

    monkeypatch.setattr("scoring.evaluate", crash)
    submission = score(upload(world, "a", world.original))
    assert submission.message_code == "job.internal_error"
    assert submission.message_params == {"kind": "KeyError"}
    japanese = "採点プログラムが内部エラー（KeyError）で失敗しました。運営者が再採点できます。"
    english = "The scorer failed with an internal error (KeyError); the organizers can rescore it."
    assert japanese in page(client, world, HTTP_ACCEPT_LANGUAGE="ja")
    assert english in page(client, world, HTTP_ACCEPT_LANGUAGE="en")


def test_attempts_used_up_read_in_the_readers_language(client, world):
    submission = upload(world, "a", world.original)
    for _ in range(settings.PWSCUP_SCORING_MAX_ATTEMPTS):
        AnonymizationSubmission.objects.filter(pk=submission.pk).update(status=Status.QUEUED)
        job_claim(model=AnonymizationSubmission, pk=submission.pk, task_id="t-1")
    assert job_claim(model=AnonymizationSubmission, pk=submission.pk, task_id="t-1") is None
    submission.refresh_from_db()
    assert (submission.status, submission.message_code) == (Status.FAILED, "job.attempts_exhausted")
    n = settings.PWSCUP_SCORING_MAX_ATTEMPTS
    assert f"採点が {n} 回中断されました" in page(client, world, HTTP_ACCEPT_LANGUAGE="ja")
    assert f"Scoring was interrupted {n} times" in page(client, world, HTTP_ACCEPT_LANGUAGE="en")


def test_a_message_stored_before_codes_existed_is_shown_as_it_is(client, world):
    submission = upload(world, "a", world.original)
    AnonymizationSubmission.objects.filter(pk=submission.pk).update(
        status=Status.FAILED, message="An old plain message (row 3).", message_code=""
    )
    assert "An old plain message (row 3)." in page(client, world, HTTP_ACCEPT_LANGUAGE="ja")
    assert "An old plain message (row 3)." in page(client, world, HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize("length", [MAX_CELL_BYTES, 2_000_000])
def test_a_long_cell_is_echoed_clipped_on_the_round_page(client, world, length):
    """A cell within the bound is echoed clipped to 80 characters; a huge one is refused by
    the bound, naming its row and size, never echoed."""
    table = read_csv_text(world.original)
    table.loc[6, "workclass"] = "x" * length
    submission = score(upload(world, "a", table_bytes(table)))
    assert len(submission.message) < 600
    assert len(str(submission.message_params)) < 600
    text = page(client, world, HTTP_ACCEPT_LANGUAGE="en")
    if length <= MAX_CELL_BYTES:
        assert f"row 7 ('{'x' * 79}…') (1 row in total)" in text
    else:
        assert f"'workclass' at row 7 holds {length} bytes" in text and "x" * 80 not in text
    assert len(text) < 100_000


def test_a_platform_failure_inside_the_job_reads_in_the_readers_language(client, make_world):
    world = make_world(data_mode="per_team")
    TeamDataset.objects.filter(team=world.teams["a"]).delete()
    submission = score(upload(world, "a", world.original))
    assert (submission.status, submission.message_code) == (Status.FAILED, "job.no_sample")
    assert "このチームのサンプルはまだ抽出されていません。" in page(
        client, world, HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert "No sample has been drawn for this team yet." in page(
        client, world, HTTP_ACCEPT_LANGUAGE="en"
    )


def test_the_round_form_shows_the_scoring_message_in_the_organizers_language(
    world, client, django_user_model
):
    client.force_login(django_user_model.objects.create_superuser("boss", "b@example.org", "pw"))
    lines = adult_head(20).split(b"\n")
    lines[5] += b",surplus"  # data row 5 has one field too many
    form = round_form(world.competition, original=b"\n".join(lines), config=adult_config())
    response = client.post(ADD_URL, form, HTTP_ACCEPT_LANGUAGE="ja")
    assert "5 行目のフィールド数 16（計 1 行）" in form_errors(response)["original_file"]


def test_a_cr_only_upload_is_scored_like_its_lf_version(world):
    """Old Mac/Excel exports ended with "internal error (Error)"; now they are read."""
    lf = score(upload(world, "a", world.original))
    cr = score(upload(world, "a", world.original.replace(b"\n", b"\r")))
    assert (cr.status, cr.message) == (Status.FINISHED, "")
    assert cr.scores == lf.scores
