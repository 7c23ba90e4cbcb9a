"""The one rule for a text an organizer gives in English and Japanese
(``pwscup.core.languages``) and the labels that read it."""

import doctest

from django.utils import translation

from pwscup.competitions.choice_models import DataChoice
from pwscup.core import languages
from scoring.scorer.round_config import ScoreColumn


def test_the_module_examples():
    result = doctest.testmod(languages)
    assert result.attempted > 0 and result.failed == 0


def test_a_regional_japanese_reads_japanese():
    with translation.override("ja-jp"):
        assert languages.reads_japanese()
    with translation.override("en"):
        assert not languages.reads_japanese()


def test_a_data_pack_and_a_score_column_follow_the_rule():
    from pwscup.scorer.api.common import column_label

    pack = DataChoice(key="a", label="Adult", label_ja="成人")
    bare = DataChoice(key="b", label="Census", label_ja="")
    column = ScoreColumn(key="u", label="Utility", label_ja="有用性", higher_is_better=True)
    with translation.override("ja"):
        assert (pack.label_shown, bare.label_shown, column_label(column)) == (
            "成人",
            "Census",
            "有用性",
        )
    with translation.override("en"):
        assert (pack.label_shown, column_label(column)) == ("Adult", "Utility")
