"""What a team meets with the ``pwscup`` client off the happy path (a walk through the demo in
Japanese and English): a server that is down, an address that is not the site's, Ctrl-C, the
score table's words, choosing the final upload. Each says what happened in the client's
language, with its documented exit status, never a traceback."""

import http.server
import io

import pytest
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.client import cli, formatting, uploads
from pwscup.client.config import save_credentials
from pwscup.client.session import UsageError
from pwscup.client.transport import ApiError
from scoring.messages import render
from tests.pwscup.client_servers import answering
from tests.support import csv_upload


@pytest.fixture
def logged_in_to(tmp_path, monkeypatch):
    """Credentials for ``url`` kept in a fresh config folder."""

    def log_in(url: str) -> None:
        monkeypatch.setenv("PWSCUP_CONFIG_DIR", str(tmp_path / "home"))
        save_credentials(url=url, token="pws_x")

    return log_in


def free_port() -> int:
    """A port on which nothing listens (bound once, then closed)."""
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    port = server.server_address[1]
    server.server_close()
    return port


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("ja", "に接続できません: 応答がありません (サーバーが動いているか"),
        ("en", ": nothing answers there (is the server running, and the address right?)"),
    ],
)
def test_a_server_that_is_down_is_said_in_the_client_s_language(
    logged_in_to, monkeypatch, capsys, language, said
):
    monkeypatch.setenv("PWSCUP_LANG", language)
    url = f"http://127.0.0.1:{free_port()}/"
    logged_in_to(url)
    assert cli.main(["status", "demo/round-1"]) == 1
    err = capsys.readouterr().err
    assert url in err and said in err, err
    assert "Errno" not in err and "Connection refused" not in err


def test_login_refuses_an_address_without_its_scheme_before_any_request(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("PWSCUP_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    monkeypatch.setattr("sys.stdin", _Line("pws_x\n"))
    assert cli.main(["login", "127.0.0.1:8000", "--token-stdin"]) == 2
    err = capsys.readouterr().err
    assert "'127.0.0.1:8000': サイトのアドレスは http:// または https:// から" in err, err
    assert not (tmp_path / "credentials.json").exists()


class _Line:
    def __init__(self, text: str):
        self.text = text

    def readline(self) -> str:
        return self.text


@pytest.fixture
def html_site():
    """A site's HTML "not found" page for every address (a round page's URL given to login)."""
    with answering(404, "text/html", b"<html><body>Not Found</body></html>") as address:
        yield address


def test_login_at_an_address_with_no_api_says_so(html_site, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PWSCUP_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("PWSCUP_LANG", "en")
    monkeypatch.setattr("sys.stdin", _Line("pws_x\n"))
    assert cli.main(["login", f"{html_site}/c/demo/", "--token-stdin"]) == 1
    err = capsys.readouterr().err
    assert f"{html_site}/c/demo: no PWSCup API at this address; give the site's address" in err
    assert "HTTP 404" not in err


def test_ctrl_c_is_a_line_and_exit_130_not_a_traceback(logged_in_to, monkeypatch, capsys):
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    logged_in_to("http://127.0.0.1:9/")

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "connect", interrupted)
    assert cli.main(["status"]) == 130
    assert capsys.readouterr().err == "\n中断しました\n"


def test_the_score_table_speaks_the_language_of_scoring_s_own_table(monkeypatch):
    """Under ``ja`` the labels are ``python -m scoring --lang ja evaluate``'s, word for word."""
    scores = {"U1": 0.5, "REF": 0.25, "rows": 10, "kept_rows": 9, "classes": 4}
    counts = {key: scores[key] for key in ("kept_rows", "rows", "classes")}
    for language in ("ja", "en"):
        monkeypatch.setenv("PWSCUP_LANG", language)
        text = formatting.score_table(
            scores, {"U1": "0.5000", "REF": "0.2500"}, metrics=["U1"], names={}, notes={}
        )
        lines = text.splitlines()
        assert lines[0].split() == render("cli.evaluate_columns", {}, language).split("|")
        assert lines[2].split()[1:] == [
            *render("cli.reference_attack", {}, language).split(),
            "0.2500",
        ]
        assert lines[-1] == render("cli.evaluate_summary", counts, language)


class _Round:
    """The API of a round whose anonymized uploads the team chooses among: its status, an
    upload's answer (with its ``select_url``) and the select."""

    def __init__(self):
        self.posted = []

    def get(self, path):
        if path.endswith("status/"):
            kinds = [
                {"key": "anonymized", "selectable": True},
                {"key": "attack", "selectable": False},
            ]
            uploads = [
                {"type": "anonymized", "number": n, "id": 40 + n, "url": f"/sub/{40 + n}/"}
                for n in (1, 2)
            ]
            return {"submission_types": kinds, "uploads": uploads}
        return {"id": 42, "number": 2, "select_url": f"{path}select/"}

    def post(self, path):
        self.posted.append(path)
        return {"id": 42, "number": 2, "message": "Submission #2 is now your final one."}


def test_select_makes_the_upload_of_that_number_final(monkeypatch, capsys):
    api = _Round()
    args = cli.build_parser().parse_args(["select", "demo/round-1", "#2"])
    assert args.run(api, args) == 0
    assert api.posted == ["/sub/42/select/"]
    assert capsys.readouterr().out == "Submission #2 is now your final one.\n"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["7"], "your team has no upload #7 of 'anonymized'"),
        (["1", "--type", "attack"], "no final upload of 'attack'; it chooses one of: anonymized"),
    ],
)
def test_select_names_what_cannot_be_chosen(monkeypatch, argv, said):
    monkeypatch.setenv("PWSCUP_LANG", "en")
    api = _Round()
    args = cli.build_parser().parse_args(["select", "demo/round-1", *argv])
    with pytest.raises(UsageError, match=said):
        args.run(api, args)
    assert api.posted == []


@pytest.mark.parametrize("value", ["0", "x", "٣", "-1", "#"])
def test_an_upload_number_is_ascii_digits(value):
    with pytest.raises(Exception, match="give the upload's number"):
        uploads.upload_number(value)


def _types(*opens: bool) -> dict:
    keys = ["anonymized", "attack", "third"]
    return {
        "submission_types": [
            {"key": key, "label": key.title(), "open": is_open}
            for key, is_open in zip(keys, opens, strict=False)
        ]
    }


def test_without_type_a_file_goes_to_the_main_upload_never_to_another_open_one(monkeypatch):
    """After the freeze (the table's window closed, attacks open) ``submit ROUND table.csv``
    is not sent as an attack: it says the table's window is closed and how to attack."""
    monkeypatch.setenv("PWSCUP_LANG", "en")
    with pytest.raises(UsageError, match=r"^Anonymized: not open now; to upload attack, give"):
        uploads.choose_type(_types(False, True), None)
    assert uploads.choose_type(_types(False, True), "attack")["key"] == "attack"
    assert uploads.choose_type(_types(True, False), None)["key"] == "anonymized"
    # Nothing open: the main upload, which the server refuses with its own message.
    assert uploads.choose_type(_types(False, False), None)["key"] == "anonymized"
    with pytest.raises(UsageError, match="several uploads; choose one with --type"):
        uploads.choose_type(_types(True, True), None)


@pytest.mark.parametrize("kept", ["{oops", '{"url": "http://127.0.0.1:9/"}', "[]", "\xff"])
def test_a_credentials_file_login_did_not_write_asks_to_log_in_again(
    tmp_path, monkeypatch, capsys, kept
):
    monkeypatch.setenv("PWSCUP_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("PWSCUP_LANG", "en")
    (tmp_path / "credentials.json").write_bytes(kept.encode("latin-1"))
    assert cli.main(["status"]) == 2
    assert capsys.readouterr().err == "error: not logged in: run `pwscup login URL` first\n"


def test_a_folder_the_command_cannot_make_is_named_with_why(
    logged_in_to, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    logged_in_to("http://127.0.0.1:9/")
    in_the_way = tmp_path / "data"
    in_the_way.write_text("")
    assert cli.main(["download", "demo/round-1", "-o", str(in_the_way)]) == 1
    assert capsys.readouterr().err == f"エラー: {in_the_way}: 同じ名前のファイルがあります\n"


REVOKED = b'{"code": "authentication_failed", "message": "Invalid or revoked API token."}'


def test_a_revoked_token_says_how_to_get_a_new_one(logged_in_to, monkeypatch, capsys):
    monkeypatch.setenv("PWSCUP_LANG", "en")
    with answering(401, "application/json", REVOKED) as address:
        logged_in_to(f"{address}/")
        assert cli.main(["status"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "error: Invalid or revoked API token. [authentication_failed]",
        "Make a new token on your profile page and run `pwscup login URL` again.",
    ]


class _AttackRound:
    """A round's API whose status lists ``types``; uploads are kept, targets are 404."""

    def __init__(self, types):
        self.types, self.sent = types, []

    def get(self, path):
        if path.endswith("targets/"):
            raise ApiError(404, "not_found", "No such round.")
        return {"submission_types": self.types, "uploads": [], "metrics": []}

    def post_multipart(self, path, *, fields, file_field, file_path):
        self.sent.append((path, fields))
        return {"id": 9, "number": 1, "message": "", "url": "/a/9/"}


ATTACK = {
    "key": "attack",
    "label": "An attack",
    "open": True,
    "url": "/syn/attacks/",
    "fields": [{"name": "target", "required": True, "choices": ["teamb"]}],
}


def test_attack_is_the_round_s_attack_upload_in_a_round_of_any_kind(tmp_path, monkeypatch):
    monkeypatch.setenv("PWSCUP_LANG", "en")
    guess = tmp_path / "guess.csv"
    guess.write_text("1\n")
    release = {**ATTACK, "key": "release", "url": "/syn/releases/", "fields": []}
    api = _AttackRound([release, ATTACK])
    args = cli.build_parser().parse_args(["attack", "c/syn", "teamb", str(guess)])
    assert args.run(api, args) == 0
    assert api.sent == [("/syn/attacks/", {"target": "teamb"})]
    no_target = _AttackRound([release, {**ATTACK, "fields": []}])
    with pytest.raises(UsageError, match="attack covers every target at once: give no target"):
        args.run(no_target, args)
    with pytest.raises(
        UsageError, match="no submission type 'attack' in this round; it takes: release"
    ):
        args.run(_AttackRound([release]), args)
    assert no_target.sent == []


def test_targets_of_a_round_that_lists_none_is_said_so(monkeypatch):
    monkeypatch.setenv("PWSCUP_LANG", "en")
    args = cli.build_parser().parse_args(["targets", "c/dp"])
    with pytest.raises(
        UsageError,
        match=r"this round lists no target for your team now \(a round with an attack phase",
    ):
        args.run(_AttackRound([]), args)


class _FirstGameRound(_AttackRound):
    """A 2015 round's API before its freeze: its targets endpoint lists none yet."""

    def get(self, path):
        return [] if path.endswith("targets/") else super().get(path)


def test_targets_of_a_2015_round_before_its_freeze_is_said_as_in_every_kind(monkeypatch):
    """docs/api.md: before the targets exist (a two-sided round before its freeze) `targets`
    says the round lists no targets now, exit 2, whatever the round's game."""
    monkeypatch.setenv("PWSCUP_LANG", "en")
    args = cli.build_parser().parse_args(["targets", "c/r1"])
    with pytest.raises(
        UsageError,
        match=r"this round lists no target for your team now \(a round with an attack phase",
    ):
        args.run(_FirstGameRound([]), args)


@pytest.mark.django_db
def test_an_invalid_upload_names_the_field_in_the_client_s_words(
    world, client, logged_in_to, monkeypatch, capsys
):
    """The site's own answer to an empty file, in Japanese, as the client prints it: the field
    in the client's words, neither the API's field name ``file`` nor the code ``invalid``."""
    token = api_token_create(user=world.users["a"], name="cli").secret
    url = reverse("api:submissions", args=[world.competition.slug, world.round.slug])
    refused = client.post(
        url,
        {"file": csv_upload(b""), "note": ""},
        HTTP_AUTHORIZATION=f"Bearer {token}",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    (said,) = refused.json()["fields"]["file"]
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    with answering(400, "application/json", refused.content) as address:
        logged_in_to(f"{address}/")
        assert cli.main(["status", "demo/round-1"]) == 1
    assert capsys.readouterr().err == f"エラー: ファイル: {said}\n"


def test_field_messages_name_each_field_as_the_client_takes_it(monkeypatch):
    monkeypatch.setenv("PWSCUP_LANG", "en")
    fields = {"step": ["Pick a step."], "non_field_errors": ["Nothing to upload."]}
    error = ApiError(400, "invalid", "step: Pick a step. Nothing to upload.", fields)
    assert cli.api_error_lines(error) == ["--field step: Pick a step.", "Nothing to upload."]
    assert cli.api_error_lines(ApiError(403, "closed", "The window is closed.")) == [
        "The window is closed. [closed]"
    ]


class _Status:
    def __init__(self, answer):
        self.answer = answer

    def get(self, path):
        return self.answer


def test_status_says_when_a_window_closed_early_and_its_plan(monkeypatch, capsys):
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    line = {
        "label": "匿名化",
        "state": "closed",
        "opens_at": "2026-11-20T09:00:00+09:00",
        "closes_at": "2026-11-30T08:50:00+09:00",
        "planned_closes_at": "2026-12-07T18:00:00+09:00",
    }
    answer = {
        "name": "R1",
        "competition": "demo",
        "slug": "round-1",
        "kind_label": "PWSCup 2015",
        "team": None,
        "schedule": [line, {**line, "label": "攻撃", "planned_closes_at": None}],
        "submission_types": [],
    }
    args = cli.build_parser().parse_args(["status", "demo/round-1"])
    assert args.run(_Status(answer), args) == 0
    out = capsys.readouterr().out
    assert "2026-11-30 08:50 +09:00 (予定: 2026-12-07 18:00 +09:00)" in out
    assert out.count("予定") == 1


def test_targets_of_a_round_whose_attack_names_one_are_listed(monkeypatch, capsys):
    """A scoring-program round (PWSCup 2021's walk) has targets but no first-game targets
    endpoint: `pwscup targets` said it "lists no targets"; it lists the attack's targets."""
    monkeypatch.setenv("PWSCUP_LANG", "en")
    args = cli.build_parser().parse_args(["targets", "c/s1"])
    assert args.run(_AttackRound([ATTACK]), args) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[0].strip() == "target" and out.split()[-1] == "teamb"
    assert "`pwscup download ROUND`" in err
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    assert args.run(_AttackRound([ATTACK]), args) == 0
    assert "ダウンロードします" in capsys.readouterr().err


def test_targets_of_a_round_whose_attack_covers_every_target_says_so(monkeypatch, capsys):
    """PWSCup 2024's one attack CSV for every target (``all_targets``): the round has targets,
    but `pwscup targets` said it "lists no targets"; it says the attack covers them all."""
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    args = cli.build_parser().parse_args(["targets", "c/main"])
    assert args.run(_AttackRound([{**ATTACK, "fields": []}]), args) == 0
    out, err = capsys.readouterr()
    assert "すべての攻撃対象を攻撃します" in out and "`pwscup download ROUND`" in err


class _ClosedPipe:
    """Standard output whose reader has gone (``pwscup status | head -1`` once ``head`` has
    its line): every write fails as the system says it, and it has no file descriptor."""

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        pass

    def fileno(self):
        raise io.UnsupportedOperation("fileno")


@pytest.mark.parametrize("language", ["ja", "en"])
def test_output_cut_short_by_its_reader_ends_quietly(logged_in_to, monkeypatch, capsys, language):
    """A script that reads only the first lines is no error of the server's nor the user's:
    no "error: Broken pipe" (English, under ja), no exit 1 claiming the server refused;
    the shell's status of a command stopped by a closed pipe (128 + SIGPIPE)."""
    monkeypatch.setenv("PWSCUP_LANG", language)
    logged_in_to("http://127.0.0.1:9/")
    monkeypatch.setattr(
        "pwscup.client.reading._my_rounds", lambda api: print("demo/round-1\n" * 10_000) or 0
    )
    monkeypatch.setattr("sys.stdout", _ClosedPipe())
    assert cli.main(["status"]) == 141
    assert capsys.readouterr().err == ""
