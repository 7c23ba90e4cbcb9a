"""``selectors.final_release_among``: the Submit tab finds the team's final release among the
releases it read, by ``final_release``'s rule (the chosen one if scored, else the newest
scored), with no query."""

from pwscup.scorer import selectors
from pwscup.scorer.models import Release
from pwscup.submissions.models import Status


def releases(*rows):
    """Releases newest first, as the tab reads them: ``(number, status, selected)``."""
    return [
        Release(pk=number, number=number, status=status, selected=selected)
        for number, status, selected in rows
    ]


def test_the_chosen_scored_release_is_final_even_when_older():
    team = releases(
        (3, Status.FINISHED, False), (2, Status.FINISHED, True), (1, Status.FINISHED, False)
    )
    assert selectors.final_release_among(team).number == 2


def test_without_a_choice_the_newest_scored_release_is_final():
    team = releases(
        (3, Status.QUEUED, False), (2, Status.FAILED, False), (1, Status.FINISHED, False)
    )
    assert selectors.final_release_among(team).number == 1


def test_a_chosen_release_not_scored_is_passed_over():
    team = releases((2, Status.FINISHED, False), (1, Status.FAILED, True))
    assert selectors.final_release_among(team).number == 2


def test_no_scored_release_no_final_one():
    assert selectors.final_release_among(releases((1, Status.RUNNING, False))) is None
    assert selectors.final_release_among([]) is None
