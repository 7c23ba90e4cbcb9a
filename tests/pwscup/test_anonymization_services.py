"""Anonymization phase services: upload, scoring, idempotent delivery, final submission."""

import datetime as dt
import hashlib

import pandas as pd
import pytest
from django.urls import reverse

import scoring
from pwscup.core.errors import Refused
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round
from pwscup.pwscup2015.selectors import representative_submission
from pwscup.submissions.models import Status
from tests.pwscup.factories import (
    evaluate_bytes,
    read_csv_text,
    read_field,
    score,
    scored,
    upload,
)
from tests.support import noisy_copy, table_bytes

pytestmark = pytest.mark.django_db


def with_bad_cell(original: bytes, *, row: int, column: str, value: str) -> bytes:
    """``original`` with the 1-based data row ``row`` of ``column`` set to ``value``."""
    table = read_csv_text(original)
    table.loc[row - 1, column] = value
    return table_bytes(table)


def test_upload_is_queued_with_its_sha256_and_kept_byte_identical(world):
    content = noisy_copy(world.original, seed=3, delete=2)
    # A Windows line end and a BOM must survive storage: the file is kept as uploaded.
    content = b"\xef\xbb\xbf" + content.replace(b"\n", b"\r\n")
    submission = upload(world, "a", content, name="my anonymization.csv")
    submission.refresh_from_db()
    assert submission.status == Status.QUEUED
    assert submission.sha256 == hashlib.sha256(content).hexdigest()
    assert submission.size == len(content)
    assert submission.attempts == 0
    assert submission.original_filename == "my anonymization.csv"
    assert submission.uploaded_by == world.users["a"]
    assert read_field(submission.file) == content
    assert submission.scores == {}


def test_scoring_finishes_with_all_metrics_equal_to_scoring_evaluate(world):
    content = noisy_copy(world.original, seed=5, delete=4)
    submission = score(upload(world, "a", content))
    assert submission.status == Status.FINISHED, submission.message
    assert submission.message == ""
    assert submission.attempts == 1
    assert submission.scorer_version == scoring.SCORER_VERSION
    assert submission.started_at is not None and submission.finished_at is not None
    assert set(scoring.METRICS) <= set(submission.scores)
    expected = evaluate_bytes(world.original, content, world.round.config)
    for metric in scoring.METRICS:
        if expected[metric] is None:
            assert submission.scores[metric] is None
        else:
            assert submission.scores[metric] == pytest.approx(expected[metric]), metric
    assert submission.scores["U6"] == 4
    # The stored file is untouched by scoring.
    assert read_field(submission.file) == content


def test_invalid_upload_fails_with_a_message_naming_column_and_row(world):
    content = with_bad_cell(world.original, row=7, column="workclass", value="Martian-gov")
    submission = score(upload(world, "a", content))
    assert submission.status == Status.FAILED
    assert "Column 'workclass' holds values" in submission.message, submission.message
    assert "row 7 ('Martian-gov')" in submission.message, submission.message
    assert submission.scores == {}
    assert read_field(submission.file) == content
    assert submission.sha256 == hashlib.sha256(content).hexdigest()


def test_ragged_upload_fails_naming_the_row(world):
    lines = world.original.split(b"\n")
    lines[12] = lines[12] + b",extra"  # data row 12 gets one field too many
    content = b"\n".join(lines)
    submission = score(upload(world, "a", content))
    assert submission.status == Status.FAILED
    assert "row 12 has 16 fields" in submission.message, submission.message
    assert read_field(submission.file) == content


def test_second_delivery_of_a_scoring_task_changes_nothing(world):
    submission = scored(world, "a", seed=1, delete=3)
    assert submission.status == Status.FINISHED
    services.anonymization_submission_score(submission_id=submission.pk)
    services.anonymization_submission_score(submission_id=submission.pk)
    again = AnonymizationSubmission.objects.get(pk=submission.pk)
    assert again.status == Status.FINISHED
    assert again.scores == submission.scores
    assert again.attempts == submission.attempts == 1
    assert again.finished_at == submission.finished_at
    assert again.started_at == submission.started_at


def test_second_delivery_of_a_failed_task_changes_nothing(world):
    content = with_bad_cell(world.original, row=2, column="sex", value="Other")
    failed = score(upload(world, "a", content))
    assert failed.status == Status.FAILED
    services.anonymization_submission_score(submission_id=failed.pk)
    again = AnonymizationSubmission.objects.get(pk=failed.pk)
    assert (again.status, again.message, again.attempts) == (
        Status.FAILED,
        failed.message,
        1,
    )


# --- the final submission --------------------------------------------------------------


def test_select_makes_one_finished_submission_final(world):
    first = scored(world, "a", seed=1)
    second = scored(world, "a", seed=2)
    services.anonymization_submission_select(submission=first, team=world.teams["a"])
    assert AnonymizationSubmission.objects.get(pk=first.pk).is_selected
    services.anonymization_submission_select(submission=second, team=world.teams["a"])
    selected = AnonymizationSubmission.objects.filter(team=world.teams["a"], is_selected=True)
    assert list(selected.values_list("pk", flat=True)) == [second.pk]


def test_only_a_finished_submission_can_be_selected(world):
    queued = upload(world, "a", noisy_copy(world.original, seed=1))
    with pytest.raises(Refused):
        services.anonymization_submission_select(submission=queued, team=world.teams["a"])
    failed = score(
        upload(world, "a", with_bad_cell(world.original, row=1, column="race", value="?"))
    )
    assert failed.status == Status.FAILED
    with pytest.raises(Refused):
        services.anonymization_submission_select(submission=failed, team=world.teams["a"])
    assert not AnonymizationSubmission.objects.filter(is_selected=True).exists()


def test_a_team_cannot_select_another_teams_submission(world, client):
    theirs = scored(world, "a", seed=1)
    with pytest.raises(Refused) as refusal:
        services.anonymization_submission_select(submission=theirs, team=world.teams["b"])
    assert refusal.value.status == 404
    # Through the view too: team B posting to A's submission gets a 404.
    client.force_login(world.users["b"])
    response = client.post(reverse("submission_select", args=[theirs.pk]))
    assert response.status_code == 404
    assert not AnonymizationSubmission.objects.get(pk=theirs.pk).is_selected
    # The owner can.
    client.force_login(world.users["a"])
    response = client.post(reverse("submission_select", args=[theirs.pk]))
    assert response.status_code == 302
    assert AnonymizationSubmission.objects.get(pk=theirs.pk).is_selected


def test_selection_is_refused_once_the_phase_closed_or_the_round_is_frozen(world):
    submission = scored(world, "a", seed=1)
    after_close = world.anonymization.closes_at + dt.timedelta(seconds=1)
    with pytest.raises(Refused):
        services.anonymization_submission_select(
            submission=submission, team=world.teams["a"], now=after_close
        )
    services.round_freeze(round=world.round)
    submission = AnonymizationSubmission.objects.select_related("phase__round").get(
        pk=submission.pk
    )
    with pytest.raises(Refused):
        services.anonymization_submission_select(submission=submission, team=world.teams["a"])
    assert not AnonymizationSubmission.objects.filter(is_selected=True).exists()


# --- which submission represents a team ---------------------------------------------------


def test_representative_is_the_selected_one_else_the_last_valid_one(world):
    phase, team = world.anonymization, world.teams["a"]
    assert representative_submission(phase=phase, team=team) is None
    first = scored(world, "a", seed=1)
    second = scored(world, "a", seed=2)
    # A later FAILED upload never represents the team.
    failed = score(
        upload(world, "a", with_bad_cell(world.original, row=3, column="age", value="abc"))
    )
    assert failed.status == Status.FAILED
    # A later queued (not yet scored) one does not either.
    upload(world, "a", noisy_copy(world.original, seed=9))
    assert representative_submission(phase=phase, team=team).pk == second.pk
    services.anonymization_submission_select(submission=first, team=team)
    assert representative_submission(phase=phase, team=team).pk == first.pk
    # Other teams are unaffected.
    assert representative_submission(phase=phase, team=world.teams["b"]) is None


def identity_and_shifted(world) -> tuple[bytes, bytes]:
    """An unprotected copy, and one whose records moved one row down (attacks fail)."""
    table = read_csv_text(world.original)
    shifted = pd.concat([table.iloc[-1:], table.iloc[:-1]], ignore_index=True)
    return table_bytes(table), table_bytes(shifted)


def test_best_rule_picks_the_safest_valid_submission_and_respects_the_gates(world):
    Pwscup2015Round.objects.filter(round=world.round).update(
        selection_rule=Pwscup2015Round.SelectionRule.BEST
    )
    world.anonymization.round.refresh_from_db()
    phase, team = world.anonymization, world.teams["a"]
    identity, shifted = identity_and_shifted(world)
    safe = scored(world, "a", content=shifted)
    unsafe = scored(world, "a", content=identity)
    noisy = scored(world, "a", seed=4, delete=3)
    for submission in (safe, unsafe, noisy):
        assert submission.status == Status.FINISHED, submission.message

    def worst(s):
        return max(s.scores[m] for m in scoring.ATTACK_METRICS)

    assert worst(safe) < min(worst(unsafe), worst(noisy)), "fixture: shifting must be safer"
    # Without gates the safest one wins, although it was not the last upload.
    assert representative_submission(phase=phase, team=team).pk == safe.pk
    # A gate on the row-aligned loss U5 rules the shifted copy out; among the rest, equal
    # worst-case rates are broken by the lower U1 (the identity copy has U1 = 0).
    assert safe.scores["U5"] > max(unsafe.scores["U5"], noisy.scores["U5"])
    gate = (safe.scores["U5"] + max(unsafe.scores["U5"], noisy.scores["U5"])) / 2
    Pwscup2015Round.objects.filter(round=world.round).update(utility_gates={"U5": gate})
    phase.round.refresh_from_db()
    assert worst(unsafe) == worst(noisy)
    assert unsafe.scores["U1"] < noisy.scores["U1"]
    assert representative_submission(phase=phase, team=team).pk == unsafe.pk
    # The selected_or_last rule would have taken the last valid upload instead.
    Pwscup2015Round.objects.filter(round=world.round).update(
        selection_rule=Pwscup2015Round.SelectionRule.SELECTED_OR_LAST
    )
    phase.round.refresh_from_db()
    assert representative_submission(phase=phase, team=team).pk == noisy.pk
