"""The client package alone: no Django, Celery or pandas on import; its pieces."""

import email.message
import http.server
import io
import json
import subprocess
import sys
import threading
import urllib.error
from pathlib import Path

import pytest

from pwscup.client import cli, formatting, reading, session, uploads
from pwscup.client.config import save_credentials
from pwscup.client.transport import (
    BUSY_RETRIES,
    Api,
    ApiError,
    MultipartBody,
    _api_error,
    _busy_wait,
    multipart,
)

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_client_loads_neither_django_celery_nor_pandas():
    code = (
        "import sys, pwscup.client.cli; "
        "print(sorted({m.split('.')[0] for m in sys.modules} "
        "& {'django', 'celery', 'pandas', 'numpy', 'scoring', 'rest_framework'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]"


def test_multipart_body_carries_the_fields_and_the_file_bytes(tmp_path):
    path = tmp_path / "a.csv"
    content = b"age,sex\n1,\xe7\x94\xb7\n"
    path.write_bytes(content)
    streamed, content_type = multipart({"note": "k=5 σ"}, "file", path)
    body = b"".join(streamed)
    assert len(streamed) == len(body) and b"".join(streamed) == body  # again, for a resend
    boundary = content_type.split("boundary=")[1]
    assert body.count(f"--{boundary}".encode()) == 3
    assert b'name="note"\r\n\r\nk=5 \xcf\x83\r\n' in body
    assert b'filename="a.csv"' in body and content in body


def test_a_huge_file_is_sent_as_it_is_read_not_held_in_memory(tmp_path):
    path = tmp_path / "huge.csv"
    path.write_bytes(b"a" * (5 * MultipartBody.CHUNK + 7))
    body, _type = multipart({}, "file", path)
    assert max(len(chunk) for chunk in body) <= MultipartBody.CHUNK
    assert len(body) == sum(len(chunk) for chunk in body) > path.stat().st_size


def test_score_table_prints_the_servers_texts_and_the_meaning_of_a_missing_value():
    text = formatting.score_table(
        {"U1": 0.5, "U6": 20.0, "L3": None, "rows": 10, "kept_rows": 9, "classes": 4},
        {"U1": "0.5000", "U6": "20", "L3": "∞"},
        metrics=["U1", "U6", "L3"],
        names={"U1": "meanMAE", "U6": "nrow", "L3": "recursive (c,l)-diversity C_l"},
        notes={"U1": "–: no value", "U6": "–: no value", "L3": "∞: a class has one value"},
    )
    lines = text.splitlines()
    assert lines[1].split() == ["U1", "meanMAE", "0.5000"]
    assert lines[2].split() == ["U6", "nrow", "20"]
    assert lines[3].endswith(" ∞") and lines[4] == "L3 ∞: a class has one value"
    assert text.endswith("9 of 10 rows kept, 4 equivalence classes.")


def test_score_table_keeps_its_columns_for_a_long_key():
    text = formatting.score_table(
        {},
        {"reidentified": "0.25", "u": "98.7"},
        metrics=["reidentified", "u"],
        names={},
        notes={},
    )
    head, first, second = text.splitlines()
    # The names start in one column, whatever the key's length (the scorer round's keys).
    assert head.index("name") == first.index("reidentified", 1) == second.index("u", 1)


def test_tables_align_japanese_text_by_its_width_on_screen(monkeypatch):
    """A wide character takes two columns: a Japanese header or cell pads the others."""
    table = formatting.table(["状態", "id"], [["受付中", 1], ["open", 22]])
    rows = table.splitlines()
    widths = [formatting.text_width(row[: row.rindex(" ") + 1]) for row in rows]
    assert len(set(widths)) == 1, table  # the second column starts at one screen column
    assert formatting.text_width("受付中") == 6 and formatting.text_width("open") == 4


def test_times_and_states_as_people_read_them(monkeypatch):
    assert formatting.moment("2026-11-29T13:15:55.545680+09:00") == "2026-11-29 13:15 +09:00"
    assert formatting.moment("2026-11-29T04:15:55Z") == "2026-11-29 04:15 +00:00"
    assert formatting.moment(None) == "—"
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    assert [formatting.state_text(s) for s in ("open", "upcoming", "finished")] == [
        "受付中",
        "開始前",
        "完了",
    ]
    monkeypatch.setenv("PWSCUP_LANG", "en")
    assert formatting.state_text("open") == "open"


def test_a_file_the_client_cannot_send_is_a_usage_error_before_any_request(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("PWSCUP_LANG", "en")
    with pytest.raises(session.UsageError, match="no such file: .*missing.csv"):
        uploads.upload_file(tmp_path / "missing.csv")
    with pytest.raises(session.UsageError, match="is a folder, not a file"):
        uploads.upload_file(tmp_path)
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    with pytest.raises(session.UsageError, match="ファイルがありません"):
        uploads.upload_file(tmp_path / "missing.csv")
    # The command exits 2 with that message, before any request (the stored server is an
    # address nothing answers on: a request would end in a connection error, exit 1).
    monkeypatch.setenv("PWSCUP_LANG", "en")
    monkeypatch.setenv("PWSCUP_CONFIG_DIR", str(tmp_path / "home"))
    save_credentials(url="http://127.0.0.1:9/", token="t")
    assert cli.main(["submit", "cup/r1", str(tmp_path / "missing.csv")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_required_field_of_a_closed_type_says_the_type_is_not_open():
    closed = {
        "label": "Release",
        "open": False,
        "fields": [{"name": "step", "required": True, "choices": []}],
    }
    with pytest.raises(session.UsageError, match="Release: not open now"):
        uploads.upload_fields(closed, {}, "")
    with pytest.raises(session.UsageError, match="give --field step=VALUE"):
        uploads.upload_fields({**closed, "open": True}, {}, "")
    assert uploads.upload_fields(closed, {"step": "2"}, "") == {"step": "2"}


@pytest.mark.parametrize("value", ["a", "a/", "/b", "a/b/c"])
def test_round_arguments_need_competition_and_round(value):
    with pytest.raises(Exception, match="COMPETITION/ROUND"):
        cli.split_round(value)


def test_round_argument():
    assert cli.split_round("cup/r1") == ("cup", "r1")


def test_wait_gives_up_after_the_timeout(monkeypatch):
    class Running:
        def get(self, url):
            return {"id": 7, "number": 1, "status": "running"}

    monkeypatch.setattr(uploads.time, "sleep", lambda seconds: None)
    with pytest.raises(session.WaitTimeout, match="still running"):
        uploads.wait_for(
            Running(), "/api/v1/competitions/cup/rounds/r1/submissions/7/", timeout=0, quiet=True
        )


def _http_error(status: int, body: dict, headers: dict) -> urllib.error.HTTPError:
    message = email.message.Message()
    for name, value in headers.items():
        message[name] = value
    raw = io.BytesIO(json.dumps(body).encode())
    return urllib.error.HTTPError("http://x/api/", status, "Too Many Requests", message, raw)


def test_a_daily_quota_refusal_says_when_the_team_may_submit_again():
    body = {
        "code": "quota_exceeded",
        "message": "Your team has used its 3 submissions for today.",
        "retry_after": 7500,
        "resets_at": "2026-11-23T00:00:00+09:00",
    }
    error = _api_error(_http_error(429, body, {"Retry-After": "7500"}))
    assert error.code == "quota_exceeded"
    assert error.message == (
        "Your team has used its 3 submissions for today. "
        "You may submit again at 2026-11-23 00:00 +09:00, in 2 h 05 min."
    )  # the time as `pwscup status` prints every time, not the API's ISO 8601
    spent = {"code": "quota_exhausted", "message": "Your team has used all 5 submissions."}
    assert _api_error(_http_error(429, spent, {})).message == spent["message"]
    # A wait that is not ASCII digits ("²" passes str.isdigit) is left out, not a traceback.
    odd = _api_error(_http_error(429, {**body, "retry_after": "²"}, {"Retry-After": "²"}))
    assert odd.message.endswith("2026-11-23 00:00 +09:00.")
    assert _busy_wait(_http_error(503, {}, {"Retry-After": "²"})) is None
    assert _busy_wait(_http_error(503, {}, {"Retry-After": "3"})) == 3


class _BusyThenOk(http.server.BaseHTTPRequestHandler):
    """503 with ``Retry-After`` (the proxy's admission control) to the first ``busy``
    requests, then the JSON answer; every request's body is kept."""

    busy = 0
    retry_after = "1"
    bodies: list = []

    def do_POST(self):
        type(self).bodies.append(self.rfile.read(int(self.headers["Content-Length"])))
        if len(type(self).bodies) <= type(self).busy:
            payload, status = {"code": "server_unavailable", "message": "busy"}, 503
        else:
            payload, status = {"id": 7}, 202
        data = json.dumps(payload).encode()
        self.send_response(status)
        if status == 503:
            self.send_header("Retry-After", type(self).retry_after)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def busy_server():
    _BusyThenOk.bodies = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _BusyThenOk)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def test_an_upload_refused_as_busy_is_sent_again_after_retry_after(busy_server, tmp_path, capsys):
    _BusyThenOk.busy, _BusyThenOk.retry_after = 2, "1"
    path = tmp_path / "a.csv"
    path.write_bytes(b"age\n1\n")
    api = Api(f"http://127.0.0.1:{busy_server.server_port}", "pws_x")
    answer = api.post_multipart("upload/", fields={"note": "n"}, file_field="file", file_path=path)
    assert answer == {"id": 7}
    assert len(_BusyThenOk.bodies) == 3 and len(set(_BusyThenOk.bodies)) == 1  # the same body
    assert capsys.readouterr().err.count("trying again in 1 s") == 2


def test_a_busy_site_that_stays_busy_or_names_a_long_wait_is_an_error(busy_server):
    api = Api(f"http://127.0.0.1:{busy_server.server_port}", "pws_x")
    _BusyThenOk.busy, _BusyThenOk.retry_after = 10, "0"
    with pytest.raises(ApiError) as refused:
        api.post("upload/")
    assert (refused.value.status, refused.value.code) == (503, "server_unavailable")
    assert len(_BusyThenOk.bodies) == 1 + BUSY_RETRIES
    _BusyThenOk.bodies, _BusyThenOk.retry_after = [], "600"  # a maintenance: not waited for
    with pytest.raises(ApiError):
        api.post("upload/")
    assert len(_BusyThenOk.bodies) == 1


def test_status_gives_each_failed_upload_s_reason_in_full_beside_its_note():
    # The note column held the reason of a failed upload only when it had no note, cut at
    # 60 characters: with a note, nothing said why the upload failed.
    from pwscup.client.reading import uploads_table

    reason = (
        "Column 'age' holds values that do not occur in that column of the original table: "
        "row 10 ('thirty') (1 row in all)."
    )
    upload = {
        "number": 7,
        "id": 31,
        "status": "failed",
        "final": False,
        "about": "",
        "created_at": "2026-12-01T18:00:00+09:00",
        "scores_text": {},
        "note": "k=5",
        "message": reason,
    }
    printed = uploads_table([upload], [], selectable=True)
    assert f"#7 failed: {reason}" in printed.splitlines()
    row = next(line for line in printed.splitlines() if line.startswith("#7 "))
    assert row.rstrip().endswith("k=5")


def _listed(number: int, *, note: str, remark: str) -> dict:
    return {
        "number": number,
        "id": 40 + number,
        "status": "finished",
        "final": False,
        "about": "",
        "created_at": "2026-12-01T18:00:00+09:00",
        "scores_text": {},
        "note": note,
        "remark": remark,
        "message": "",
    }


@pytest.mark.parametrize(
    ("lang", "note", "remarks"), [("en", "note", "remarks"), ("ja", "メモ", "備考")]
)
def test_status_keeps_the_team_s_note_and_the_platform_s_remarks_under_their_own_headings(
    monkeypatch, lang, note, remarks
):
    """A synthetic release's "fails the gates" (the platform's remark; the type takes no
    note) read under the note heading (メモ), as if the team had written it."""
    from pwscup.client.reading import uploads_table

    monkeypatch.setenv("PWSCUP_LANG", lang)
    release = uploads_table([_listed(2, note="", remark="fails the gates")], [], selectable=True)
    header, row = release.splitlines()[:2]
    assert header.split()[-1] == remarks and note not in header.split()
    assert row.rstrip().endswith("fails the gates")
    both = uploads_table(
        [_listed(3, note="k=5", remark="dev half"), _listed(1, note="", remark="")],
        [],
        selectable=False,
        takes_note=True,
    )
    header, row = both.splitlines()[:2]
    assert header.split()[-2:] == [note, remarks]
    assert row.split()[-3:] == ["k=5", "dev", "half"]
    table = uploads_table([_listed(1, note="", remark="")], [], selectable=False, takes_note=True)
    assert table.splitlines()[0].split()[-1] == note and remarks not in table


def test_a_note_or_a_field_the_upload_does_not_take_is_refused_not_dropped(monkeypatch):
    """A DP estimate takes no note, a sequential release no ``stpe``: the server ignores a
    field it does not read, so the client refuses it (exit 2) rather than lose it quietly."""
    estimate = {"label": "Estimate at level eps-1", "open": True, "fields": []}
    monkeypatch.setenv("PWSCUP_LANG", "en")
    with pytest.raises(session.UsageError, match="Estimate at level eps-1 takes no note"):
        uploads.upload_fields(estimate, {}, "my note")
    release = {
        "label": "A release",
        "open": True,
        "fields": [{"name": "step", "required": True, "choices": ["1"]}],
    }
    with pytest.raises(session.UsageError, match=r"A release takes no field 'stpe'; .*: step"):
        uploads.upload_fields(release, {"stpe": "2"}, "")
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    with pytest.raises(session.UsageError, match="メモ"):
        uploads.upload_fields(estimate, {}, "my note")
    with pytest.raises(session.UsageError, match="項目 'stpe'"):
        uploads.upload_fields(release, {"stpe": "2"}, "")
    # What the type takes is still sent as before.
    assert uploads.upload_fields(release, {}, "") == {"step": "1"}
    assert uploads.upload_fields(estimate, {}, "") == {}


def test_scores_the_round_s_metrics_do_not_name_are_printed_not_dropped(capsys, monkeypatch):
    """An upload's score the round status's metrics leave out (a sequential attack's accuracy
    beside the release metrics) is still printed, after the named ones: not a table of
    headings only."""
    monkeypatch.setenv("PWSCUP_LANG", "en")
    status = {"metrics": [{"key": "MINV", "name": "MINV", "note": "", "headline": True}]}
    upload = {"number": 1, "scores": {"accuracy": 0.19}, "scores_text": {"accuracy": "0.1900"}}
    uploads.print_scores(upload, status)
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["accuracy", "accuracy", "0.1900"], lines


def test_wait_waits_out_a_throttled_poll_and_gives_up_on_any_other_refusal(monkeypatch, capsys):
    # `pwscup submit --wait` polls; a site that throttles the polls (429 throttled, with
    # Retry-After) is asked again after that wait, not left with exit 1 and a queued upload.
    answers = [
        _api_error(
            _http_error(429, {"code": "throttled", "message": "slow"}, {"Retry-After": "7"})
        ),
        {"id": 7, "number": 1, "status": "running"},
        {"id": 7, "number": 1, "status": "finished"},
    ]
    slept = []

    class Throttling:
        def get(self, url):
            answer = answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer

    monkeypatch.setenv("PWSCUP_LANG", "en")
    monkeypatch.setattr(uploads.time, "sleep", slept.append)
    done = uploads.wait_for(Throttling(), "/u/7/", timeout=60, quiet=True)
    assert done["status"] == "finished" and slept[0] == 7
    assert "asking again in 7 s" in capsys.readouterr().err
    # A wait past the timeout, and a refusal that is not a throttle, end the wait.
    answers[:] = [
        _api_error(_http_error(429, {"code": "throttled", "message": "s"}, {"Retry-After": "99"}))
    ]
    with pytest.raises(ApiError):
        uploads.wait_for(Throttling(), "/u/7/", timeout=60, quiet=True)
    answers[:] = [_api_error(_http_error(404, {"code": "not_found", "message": "gone"}, {}))]
    with pytest.raises(ApiError, match="gone"):
        uploads.wait_for(Throttling(), "/u/7/", timeout=60, quiet=True)


def test_the_leaderboard_prints_the_servers_figures_not_the_exact_values(capsys, monkeypatch):
    """``pwscup leaderboard`` prints each table's ``rows_text`` (the site's rule, written by
    the server: the client cannot import ``scoring.display``), not ``rows``, whose values the
    API keeps exact (a program's 0.9373334348159401, a total to the tie's 9 decimals)."""
    monkeypatch.setenv("PWSCUP_LANG", "en")
    board = {
        "note": "",
        "tables": [
            {
                "title": "Release ranking",
                "columns": ["Rank", "Team", "Utility"],
                "rows": [[1, "Team A", 0.9373334348159401], [None, "Team B", None]],
                "rows_text": [["1", "Team A", "0.9373"], ["–", "Team B", "–"]],
            }
        ],
    }

    class Board:
        def get(self, path):
            return board

    reading.cmd_leaderboard(Board(), type("Args", (), {"round": ("c", "r")}))
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["1", "Team", "A", "0.9373"], lines
    assert lines[2].split() == ["–", "Team", "B", "–"], lines


def test_status_says_which_attack_counts_and_marks_the_counted_one(capsys, monkeypatch):
    """A round counting each team's newest attack (PWSCup 2025's rule) says so beside the
    attack type, and "(final)" marks the upload that counts though the team chooses none."""
    from types import SimpleNamespace

    from pwscup.client.reading import cmd_status

    monkeypatch.setenv("PWSCUP_LANG", "en")
    counts = "on each target, the team's newest scored attack on it counts"
    kind = {"key": "attack", "label": "An attack", "open": True, "fields": [], "files": {}}
    status = {
        "name": "Final",
        "competition": "c",
        "slug": "r",
        "kind_label": "Scorer",
        "team": {"name": "Team B"},
        "schedule": [],
        "submission_types": [{**kind, "selectable": False, "counts": counts}],
        "metrics": [],
        "uploads": [
            {**_listed(2, note="", remark=""), "type": "attack", "final": True},
            {**_listed(1, note="", remark=""), "type": "attack"},
        ],
    }
    api = SimpleNamespace(get=lambda path: status)
    assert cmd_status(api, SimpleNamespace(round=("c", "r"))) == 0
    out = capsys.readouterr().out
    assert f"attack: An attack\n{counts}\n" in out  # under the attacks' heading
    rows = [line for line in out.splitlines() if line.lstrip().startswith(("#1", "#2"))]
    assert [("(final)" in row) for row in rows] == [True, False], out


@pytest.mark.parametrize(
    ("lang", "voided", "withdrawn"),
    [
        ("en", "finished (voided)", "finished (withdrawn)"),
        ("ja", "完了 (無効化済み)", "完了 (取り消し済み)"),
    ],
)
def test_status_marks_a_voided_and_a_withdrawn_upload_as_the_pages_do(
    monkeypatch, lang, voided, withdrawn
):
    """An upload that counts nowhere (the status's ``voided``: the organizers', or its
    team's withdrawal) read as a plain finished one in ``pwscup status``, though the pages
    mark it: a team took it for one that counts."""
    from pwscup.client.reading import uploads_table

    monkeypatch.setenv("PWSCUP_LANG", lang)
    by_organizers = {**_listed(1, note="", remark=""), "voided": {"by_organizers": True}}
    by_team = {**_listed(2, note="", remark=""), "voided": {"by_organizers": False}}
    counting = {**_listed(3, note="", remark=""), "voided": None}
    rows = uploads_table([counting, by_team, by_organizers], [], selectable=True).splitlines()
    row = {line.split()[0]: line for line in rows[1:4]}
    assert voided in row["#1"] and withdrawn in row["#2"]
    assert "(" not in row["#3"]  # it counts: finished, nothing more


class _WithdrawApi:
    """A round whose uploads carry no ``withdraw_url`` (its game lets no upload be
    withdrawn: a 2015 round's)."""

    def get(self, url):
        if url.endswith("status/"):
            return {"uploads": [{"number": 1, "type": "anonymized", "url": "/u/1/"}]}
        return {"number": 1, "voided": None}


WITHDRAW_SAID = {  # per language: the refusal of #1, and what names a missing #9
    "en": ("#1 cannot be withdrawn in this round", "no upload #9"),
    "ja": ("#1 はこのラウンドでは取り消せません", "#9"),
}


@pytest.mark.parametrize("lang", sorted(WITHDRAW_SAID))
def test_withdraw_tells_an_upload_not_withdrawable_from_no_upload(monkeypatch, lang):
    """A team's upload #1 that the round lets nobody withdraw read "your team has no upload
    #1 it may withdraw", as if #1 did not exist: the client says it cannot be withdrawn in
    this round, and where the rules are; a number with no upload stays "no upload"."""
    from pwscup.client.withdrawing import cmd_withdraw

    monkeypatch.setenv("PWSCUP_LANG", lang)
    refused, missing = WITHDRAW_SAID[lang]

    def withdraw(number):
        args = type("Args", (), {"round": ("demo", "round-1"), "number": number, "type": None})
        with pytest.raises(session.UsageError) as raised:
            cmd_withdraw(_WithdrawApi(), args)
        return str(raised.value)

    said = withdraw(1)
    assert refused in said and ("Rules tab" in said or "「ルールと採点」タブ" in said)
    assert missing in withdraw(9) and refused not in withdraw(9)
