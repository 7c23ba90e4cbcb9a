"""The ``pwscup`` client's command line as a user meets it: a refused line names what to
type, in the client's language."""

import pytest

from pwscup.client import cli


def refusal(capsys, monkeypatch, argv, language="en") -> str:
    """What the client writes on stderr when argparse refuses ``argv`` (exit status 2)."""
    monkeypatch.setenv("PWSCUP_LANG", language)
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    return capsys.readouterr().err


def test_a_missing_command_is_named_by_its_choices(capsys, monkeypatch):
    said = refusal(capsys, monkeypatch, [])
    choices = "{login,submit,status,download,data,leaderboard,targets,attack}"
    assert said.endswith(f"pwscup: error: the following arguments are required: {choices}\n")
