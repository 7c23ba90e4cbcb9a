"""A division that counts other divisions' ranks: PWSCup 2023's grand ranking, the sum of
the ranks of the anonymization division and the attack division, each of which combines
the preliminary and the final 1 : 9 by the weighted sum of ranks
(/work/shared/spec/pwscup-editions.md, 2023). The season (two rounds, five teams, an
anonymization and an attack ranking per round) is tests/pwscup/test_standings.py's.

The expected ranks were written by hand:

* anonymization: A 0.1 × 1 + 0.9 × 2 = 1.9, B 0.2 + 0.9 = 1.1, C 0.3 + 2.7 = 3.0,
  D 0.4 + 4.5 = 4.9, E 0.5 + 3.6 = 4.1, so B 1, A 2, C 3, E 4, D 5;
* attack: A 0.4 + 0.9 = 1.3, B 0.1 + 1.8 = 1.9, C 0.5 + 2.7 = 3.2, D 0.2 + 4.5 = 4.7,
  E 0.3 + 3.6 = 3.9, so A 1, B 2, C 3, E 4, D 5;
* grand (1 × anonymization rank + 1 × attack rank): A 2 + 1 = 3, B 1 + 2 = 3, C 6, E 8,
  D 10, so A and B share rank 1, then C 3, E 4, D 5.
"""

import csv
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from pwscup.accounts.services import user_create
from pwscup.competitions import standings
from pwscup.competitions.services import competition_create
from pwscup.competitions.standings import standings_csv, standings_of, standings_tables
from pwscup.competitions.standings_models import Standings
from pwscup.competitions.standings_services import (
    CountedInput,
    DivisionInput,
    EntryInput,
    standings_division_add,
    standings_division_remove,
    standings_update,
)
from pwscup.competitions.totals import round_published_rankings
from tests.pwscup.rendered_forms import form_fields_of, post_as_rendered, post_data
from tests.pwscup.test_standings import PUBLISHED, ranking, season  # noqa: F401
from tests.pwscup.test_standings_divisions import entries

pytestmark = pytest.mark.django_db

ONE = Decimal(1)


def publish(*slugs):
    rounds = {
        "pre": ({"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}, {"A": 4, "B": 1, "C": 5, "D": 2, "E": 3}),
        "final": (
            {"A": 2, "B": 1, "C": 3, "D": 5, "E": 4},
            {"A": 1, "B": 2, "C": 3, "D": 5, "E": 4},
        ),
    }
    for slug in slugs or rounds:
        anonymization, attack = rounds[slug]
        PUBLISHED[slug] = {"anonymization": ranking(anonymization), "attack": ranking(attack)}


def phase_divisions(competition, rounds) -> dict:
    """2023's two phase divisions, each 0.1 × preliminary + 0.9 × final ranks."""
    return {
        key: standings_division_add(
            user=None,
            competition=competition,
            division=DivisionInput(key, name_en, name_ja),
            rule="weighted_rank",
            entries=entries(rounds, key),
        )
        for key, name_en, name_ja in (
            ("anonymization", "Anonymization division", "匿名加工部門"),
            ("attack", "Attack division", "攻撃部門"),
        )
    }


def grand(competition, divisions, *, rule="weighted_rank", key="grand"):
    return standings_division_add(
        user=None,
        competition=competition,
        division=DivisionInput(key, "Grand ranking", "総合順位"),
        rule=rule,
        entries=[],
        counted=[
            CountedInput(divisions["anonymization"], ONE),
            CountedInput(divisions["attack"], ONE),
        ],
    )


def ranks(table) -> list[tuple]:
    return [(row.rank, row.team.slug, row.value) for row in table.rows]


def test_2023_grand_ranking_sums_the_phase_divisions_ranks(season):  # noqa: F811
    competition, rounds, _organizer = season
    publish()
    divisions = phase_divisions(competition, rounds)
    assert [r[:2] for r in ranks(standings_of(competition=competition, key="anonymization"))] == [
        (1, "B"), (2, "A"), (3, "C"), (4, "E"), (5, "D")
    ]  # fmt: skip
    assert [r[:2] for r in ranks(standings_of(competition=competition, key="attack"))] == [
        (1, "A"), (2, "B"), (3, "C"), (4, "E"), (5, "D")
    ]  # fmt: skip
    grand(competition, divisions)
    table = standings_of(competition=competition, key="grand")
    assert not table.pending and not table.higher_is_better
    assert ranks(table) == [
        (1, "A", 3.0), (1, "B", 3.0), (3, "C", 6.0), (4, "E", 8.0), (5, "D", 10.0)
    ]  # fmt: skip
    header, rows = standings_csv(table)
    assert header == [
        "rank", "team", "combined",
        "anonymization:rank", "anonymization:combined", "attack:rank", "attack:combined",
    ]  # fmt: skip
    assert rows[0] == [1, "Team A", 3.0, 2, 1.9, 1, 1.3]
    assert rows[1] == [1, "Team B", 3.0, 1, 1.1, 2, 1.9]
    # The inverse of the rank sums takes each division's rank as one more place:
    # A 1/2 + 1/1 = 1.5, B 1/1 + 1/2 = 1.5, C 1/3 + 1/3, E 1/4 + 1/4, D 1/5 + 1/5.
    inverse = [CountedInput(divisions[key], ONE) for key in ("anonymization", "attack")]
    standings_update(
        user=None, competition=competition, key="grand", rule="inverse_rank_sum",
        entries=[], counted=inverse,
    )  # fmt: skip
    table = standings_of(competition=competition, key="grand")
    assert table.higher_is_better
    assert [r[:2] for r in ranks(table)] == [(1, "A"), (1, "B"), (3, "C"), (4, "E"), (5, "D")]


def test_every_division_s_table_reads_each_round_once(season, monkeypatch):  # noqa: F811
    """The standings page and the archive read every division (``standings_tables``): the
    grand ranking takes the phase divisions' tables computed before it, never computing
    them a second time, and reads the same as on its own page."""
    competition, rounds, _organizer = season
    publish()
    grand(competition, phase_divisions(competition, rounds))
    alone = ranks(standings_of(competition=competition, key="grand"))
    reads = []

    def counted_reads(round_):
        reads.append(round_.pk)
        return round_published_rankings(round_)

    monkeypatch.setattr(standings, "round_published_rankings", counted_reads)
    tables = dict(
        (division.key, table) for division, table in standings_tables(competition=competition)
    )
    assert list(tables) == ["anonymization", "attack", "grand"]
    assert ranks(tables["grand"]) == alone
    # Two phase divisions of two rounds each: four reads, none for the grand ranking.
    assert len(reads) == 4


def test_a_division_counts_rounds_and_divisions_together(season):  # noqa: F811
    """Beside its rounds: 2 × the attack division's rank + 1 × the final's anonymization
    rank. A 2 + 2 = 4, B 4 + 1 = 5, C 6 + 3 = 9, E 8 + 4 = 12, D 10 + 5 = 15."""
    competition, rounds, _organizer = season
    publish()
    divisions = phase_divisions(competition, rounds)
    standings_division_add(
        user=None,
        competition=competition,
        division=DivisionInput("mixed"),
        rule="weighted_rank",
        entries=[EntryInput(rounds[1], ONE, ("anonymization",))],
        counted=[CountedInput(divisions["attack"], Decimal(2))],
    )
    table = standings_of(competition=competition, key="mixed")
    assert [(r[0], r[1]) for r in ranks(table)] == [
        (1, "A"),
        (2, "B"),
        (3, "C"),
        (4, "E"),
        (5, "D"),
    ]
    assert [r[2] for r in ranks(table)] == [4.0, 5.0, 9.0, 12.0, 15.0]


def test_pending_and_unranked_pass_to_the_counting_division(season):  # noqa: F811
    competition, rounds, _organizer = season
    publish("pre")  # the final is not published: both phase divisions are pending
    divisions = phase_divisions(competition, rounds)
    grand(competition, divisions)
    table = standings_of(competition=competition, key="grand")
    assert table.pending and all(column.pending for column in table.divisions)
    assert {row.value for row in table.rows} == {None} and {row.rank for row in table.rows} == {
        None
    }
    assert standings_csv(table)[1][0][3:] == ["pending"] * 4
    # Published, with E absent from the final's attack ranking: E has no attack division
    # rank, so no grand value; listed last without a rank.
    publish()
    del PUBLISHED["final"]["attack"]["E"]
    table = standings_of(competition=competition, key="grand")
    assert not table.pending
    assert ranks(table)[-1] == (None, "E", None)
    assert [r[:2] for r in ranks(table)[:4]] == [(1, "A"), (1, "B"), (3, "C"), (4, "D")]
    # A counted division is protected from being removed alone, not from its competition's
    # deletion (the demo's reset, the admin): the divisions go with it.
    competition.delete()
    assert not Standings.objects.filter(key__in=["grand", "attack", "anonymization"]).exists()


def refusal(call, **fields) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        call(user=None, **fields)
    return caught.value.messages


def test_the_service_refuses_what_would_break_a_ranking(season):  # noqa: F811
    competition, rounds, _organizer = season
    divisions = phase_divisions(competition, rounds)
    grand_division = grand(competition, divisions)
    attack = divisions["attack"]

    def update(key, counted, rule="weighted_rank", entries=()):
        return refusal(
            standings_update, competition=competition, key=key, rule=rule,
            entries=list(entries), counted=counted,
        )  # fmt: skip

    assert update("grand", [CountedInput(grand_division, ONE)]) == [
        "A division cannot count itself."
    ]
    other = competition_create(
        name="Other", slug="other", organizers=[user_create(username="other-o", password="pw")]
    )
    elsewhere = Standings.objects.create(competition=other, key="elsewhere", rule="weighted_rank")
    assert update("grand", [CountedInput(elsewhere, ONE)]) == [
        "Standings is not a division of this competition."
    ]
    assert update("grand", [CountedInput(attack, ONE)], rule="weighted_score") == [
        "A weighted sum of scores cannot count divisions: divisions count by rank. Choose a "
        "sum of ranks or an inverse of the rank sums."
    ]
    assert update("grand", [CountedInput(attack, Decimal(0))]) == [
        "The weight of Attack division must be above 0."
    ]
    assert update("grand", [CountedInput(attack, ONE), CountedInput(attack, ONE)]) == [
        "Attack division is counted twice."
    ]
    # One level: the grand ranking counts divisions, so it cannot be counted; the attack
    # division is counted, so it cannot count divisions.
    assert update(
        "attack", [CountedInput(grand_division, ONE)], entries=entries(rounds, "attack")
    ) == [
        "Grand ranking counts this division: a division that is counted cannot count other "
        "divisions (one level).",
        "Grand ranking counts other divisions: a division that counts divisions cannot be "
        "counted itself (one level).",
    ]
    assert refusal(
        standings_division_add, competition=competition, division=DivisionInput("higher"),
        rule="weighted_rank", entries=[], counted=[CountedInput(grand_division, ONE)],
    ) == [
        "Grand ranking counts other divisions: a division that counts divisions cannot be "
        "counted itself (one level)."
    ]  # fmt: skip
    assert refusal(
        standings_division_add, competition=competition, division=DivisionInput("empty"),
        rule="weighted_rank", entries=[],
    ) == ["Tick at least one round or division that counts in the division."]  # fmt: skip
    # A counted division is not removed (nor emptied, which removes it): it names who counts it.
    removal = ["Grand ranking counts this division: untick it there before removing it."]
    assert refusal(standings_division_remove, competition=competition, key="attack") == removal
    assert update("attack", []) == removal
    assert Standings.objects.filter(competition=competition).count() == 3
    assert [c.counted.key for c in grand_division.counted_divisions.all()] == [
        "anonymization",
        "attack",
    ]
    # Once the grand ranking is removed, the attack division may go.
    standings_division_remove(user=None, competition=competition, key="grand")
    standings_division_remove(user=None, competition=competition, key="attack")
    assert [d.key for d in Standings.objects.filter(competition=competition)] == ["anonymization"]


def test_the_console_form_sets_the_2023_divisions_as_rendered(season, client):  # noqa: F811
    competition, rounds, organizer = season
    publish()
    client.force_login(organizer)
    slug = competition.slug
    for key in ("anonymization", "attack"):
        response = post_as_rendered(
            client,
            reverse("console:standings_add", args=[slug]),
            "standings-form",
            {"division-key": key, "rounds-0-rankings": key, "rounds-1-rankings": key},
        )
        assert response.status_code == 302
    add = reverse("console:standings_add", args=[slug])
    page = client.get(add).content.decode()
    assert 'data-testid="standings-division-row-anonymization"' in page
    response = post_as_rendered(
        client,
        add,
        "standings-form",
        {
            "division-key": "grand",
            "division-name_en": "Grand ranking",
            "division-name_ja": "総合順位",
            "rounds-0-counts": False,
            "rounds-1-counts": False,
            "divisions-0-counts": True,
            "divisions-1-counts": True,
        },
    )
    assert response.status_code == 302, response.content.decode()
    grand_division = Standings.objects.get(competition=competition, key="grand")
    assert [(c.counted.key, c.weight) for c in grand_division.counted_divisions.all()] == [
        ("anonymization", ONE),
        ("attack", ONE),
    ]
    assert not grand_division.entries.exists()
    # Its edit page shows them ticked.
    edit = reverse("console:standings_division", args=[slug, "grand"])
    shown = client.get(edit).content.decode()
    assert 'name="divisions-0-counts" id="id_divisions-0-counts" checked' in shown
    attack_page = client.get(reverse("console:standings_division", args=[slug, "attack"]))
    # The attack division is counted: it may count no division, and its page says why.
    attack_html = attack_page.content.decode()
    assert 'data-testid="standings-division-row-' not in attack_html
    assert "Grand ranking counts this division's rank" in attack_html
    # Removing a counted division: its removal page says why not before offering a button,
    # and a post (a page opened before the grand ranking counted it) is refused the same.
    remove = reverse("console:standings_remove", args=[slug, "attack"])
    asked = client.get(remove).content.decode()
    assert 'data-testid="standings-remove-refusal"' in asked
    assert "Grand ranking counts this division" in asked
    assert 'data-testid="standings-remove-confirm"' not in asked
    refused = client.post(remove)
    assert refused.status_code == 200
    assert "Grand ranking counts this division" in refused.content.decode()
    with_ja = client.post(remove, headers={"accept-language": "ja"}).content.decode()
    assert "総合順位 がこの部門を数えています" in with_ja
    assert Standings.objects.filter(competition=competition, key="attack").exists()


def test_the_public_page_csv_and_api_show_the_counted_divisions(season, client):  # noqa: F811
    competition, rounds, _organizer = season
    publish()
    grand(competition, phase_divisions(competition, rounds))
    slug = competition.slug
    url = reverse("competition_standings_division", args=[slug, "grand"])
    page = client.get(url).content.decode()
    assert 'data-testid="standings-division-column-anonymization"' in page
    assert 'data-testid="standings-divisions-counted"' in page
    assert 'data-testid="standings-rounds"' not in page  # it counts no round
    with_ja = client.get(url, headers={"accept-language": "ja"}).content.decode()
    assert "数える部門（その順位）" in with_ja and "匿名加工部門" in with_ja
    csv_url = reverse("competition_standings_division_csv", args=[slug, "grand"])
    rows = list(csv.reader(io.StringIO(client.get(csv_url).content.decode())))
    assert rows[0][3:] == [
        "anonymization:rank",
        "anonymization:combined",
        "attack:rank",
        "attack:combined",
    ]
    assert [row[:3] for row in rows[1:3]] == [["1", "Team A", "3.0"], ["1", "Team B", "3.0"]]
    answer = client.get(reverse("api:competition-standings-division", args=[slug, "grand"]))
    data = answer.json()
    assert data["columns"] == []
    assert data["counted_divisions"] == [
        {"division": "anonymization", "division_name": "Anonymization division", "weight": 1.0,
         "pending": False},
        {"division": "attack", "division_name": "Attack division", "weight": 1.0,
         "pending": False},
    ]  # fmt: skip
    assert [(row["rank"], row["team"]["slug"], row["combined"]) for row in data["rows"]][:3] == [
        (1, "A", 3.0),
        (1, "B", 3.0),
        (3, "C", 6.0),
    ]
    assert data["rows"][0]["division_cells"] == [
        {"rank": 2, "combined": 1.9, "pending": False},
        {"rank": 1, "combined": 1.3, "pending": False},
    ]


def test_a_page_from_before_a_division_was_added_is_refused(season, client):  # noqa: F811
    """The divisions' rows are read by the division each names, not by position: a page
    listing two divisions, posted after a third came first, would tick the wrong ones."""
    competition, rounds, organizer = season
    divisions = phase_divisions(competition, rounds)
    client.force_login(organizer)
    add = reverse("console:standings_add", args=[competition.slug])
    fields = form_fields_of(client.get(add).content.decode(), "standings-form")
    standings_division_add(
        user=None,
        competition=competition,
        division=DivisionInput("early", order=0),
        rule="weighted_rank",
        entries=entries(rounds, "attack"),
    )
    body = post_data(
        fields,
        {"division-key": "grand", "rounds-0-counts": False, "rounds-1-counts": False,
         "divisions-0-counts": True, "divisions-1-counts": True},
    )  # fmt: skip
    page = client.post(add, body).content.decode()
    assert "The competition&#x27;s divisions changed since this page was opened" in page
    assert not Standings.objects.filter(key="grand").exists()
    assert set(divisions.values()) <= set(Standings.objects.filter(competition=competition))
