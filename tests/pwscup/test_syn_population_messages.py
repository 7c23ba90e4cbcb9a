"""A data pack's population that fails the checks names the population as the faulty table
(the look-79 walk: "…but the original table holds row 5" for an uploaded population), in
both languages; a message stored before it named its table still names the original."""

import pytest
from django.core.exceptions import ValidationError

from pwscup.competitions.choice_services import choices_set
from pwscup.synthetic.services.populations import population_check
from scoring.synthetic.errors import SynthError, render_synth
from tests.pwscup.syn_world import syn_world
from tests.pwscup.test_syn_choice import PACKS, adult_slice


@pytest.mark.django_db
def test_a_faulty_population_is_named_not_the_original():
    world = syn_world(slug="synpopmsg", letters="")
    choices_set(user=world.organizer, round=world.round, rows=PACKS[:1])
    bad = adult_slice(0, 3000).replace(b"\n39,", b"\nabc,", 1)
    with pytest.raises(ValidationError) as refused:
        population_check(synthetic=world.synthetic, table=bad, filename="p1.csv")
    message = " ".join(refused.value.message_dict["table"])
    assert "the population holds" in message and "original" not in message
    few = adult_slice(0, 900)
    with pytest.raises(ValidationError) as refused:
        population_check(synthetic=world.synthetic, table=few, filename="p1.csv")
    assert "The population has 900 rows" in " ".join(refused.value.messages)


def test_the_table_of_a_message_is_said_in_each_language():
    error = SynthError(
        "syn.config.not_number",
        column="age",
        rows={"rows": [[5, "abc"]], "total": 1},
        table="the population",
    )
    assert str(error) == "Column 'age' is numeric, but the population holds row 5 ('abc')"
    assert error.render("ja").startswith("列 'age' は数値列ですが、母集団に数値でない値")
    too_small = SynthError("syn.config.too_small", rows=9, needed=10, table="the population")
    assert str(too_small).startswith("The population has 9 rows")
    assert too_small.render("ja").startswith("母集団は 9 行です")
    # A message stored before it named its table names the original.
    old = render_synth(
        "syn.config.not_number", {"column": "age", "rows": {"rows": [[5, "x"]], "total": 1}}, "ja"
    )
    assert "元のテーブルに" in old
    assert render_synth("syn.config.too_small", {"rows": 9, "needed": 10}).startswith(
        "The original table has 9 rows"
    )
