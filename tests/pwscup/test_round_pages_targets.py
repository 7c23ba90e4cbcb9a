"""The Submit tab's targets of an attack phase, as every kind with one lists them
(``pwscup.submissions.round_pages.attacks_by_target``)."""

from types import SimpleNamespace as Row

from pwscup.submissions.round_pages import attacks_by_target

TEAM_A, TEAM_B = Row(pk=1), Row(pk=2)
TARGET_A, TARGET_B = Row(pk=10, team_id=1), Row(pk=20, team_id=2)


def test_each_target_has_the_teams_attacks_on_it_its_uses_and_whether_it_is_its_own():
    attacks = [Row(pk=100, target_id=20), Row(pk=101, target_id=10), Row(pk=102, target_id=20)]
    rows = attacks_by_target([TARGET_A, TARGET_B], attacks, team=TEAM_A, uses={20: 2})
    assert [row["target"] for row in rows] == [TARGET_A, TARGET_B]
    assert [row["own"] for row in rows] == [True, False]
    assert [[a.pk for a in row["attacks"]] for row in rows] == [[101], [100, 102]]
    assert [row["used"] for row in rows] == [0, 2]


def test_a_caller_without_a_team_owns_no_target():
    rows = attacks_by_target([TARGET_A, TARGET_B], [], team=None, uses={})
    assert [row["own"] for row in rows] == [False, False]
    assert all(row["attacks"] == [] and row["used"] == 0 for row in rows)
