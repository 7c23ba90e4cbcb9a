"""Every field of the platform's models has a name in both languages: the admin (read-only
for organizers) and the forms title their columns, filters and inputs by the fields'
``verbose_name``, and a field without a translated one showed English words ("elapsed ms",
"persons", "config text", "created at") on a Japanese page."""

from django.apps import apps
from django.utils import translation

# Names that are written the same in English and Japanese, so that an unchanged name is no
# sign of a missing translation. Keep it tiny: only a technical name a Japanese page keeps as
# it is (the hash algorithm's name).
SAME_IN_BOTH_LANGUAGES = {"SHA-256"}


def platform_fields():
    """``(label, field)`` of each field the platform's own models declare or inherit (the
    reverse relations and automatic primary keys Django adds apart)."""
    for model in apps.get_models():
        if not model.__module__.startswith("pwscup."):
            continue
        for field in model._meta.get_fields():
            if field.auto_created or not hasattr(field, "verbose_name"):
                continue
            yield f"{model._meta.label}.{field.name}", field


def name_in(language: str, field) -> str:
    with translation.override(language):
        return str(field.verbose_name)


def test_every_model_field_has_a_name_in_english_and_in_japanese():
    fields = list(platform_fields())
    assert len(fields) > 300
    unnamed = [
        f"{label}: {name_in('en', field)!r}"
        for label, field in fields
        if name_in("en", field) == name_in("ja", field)
        and name_in("en", field) not in SAME_IN_BOTH_LANGUAGES
    ]
    assert not unnamed, "Fields without a Japanese name (give them _(...) and a .po entry):\n" + (
        "\n".join(unnamed)
    )


def test_a_row_s_own_name_is_in_the_reader_s_language():
    """A row's name titles its admin page and its breadcrumbs ("Team A release #3" was
    English on a Japanese page)."""
    from pwscup.accounts.models import Team
    from pwscup.competitions.models import Competition, Round
    from pwscup.pwscup2015.models import TeamDataset
    from pwscup.scorer.models import RankingRun, ScorerRound
    from pwscup.scorer.models import Release as ScorerRelease
    from pwscup.sequential.models import Release as SeqRelease
    from pwscup.sequential.models import SeqTarget
    from pwscup.synthetic.models import SynRelease

    team = Team(name="Team A")
    rows = [
        SeqRelease(team=team, step=2, pk=5),
        SeqTarget(team=team),
        SynRelease(team=team, number=3),
        ScorerRelease(team=team, number=3),
        RankingRun(
            scorer=ScorerRound(round=Round(name="R1", competition=Competition(name="C"))), pk=4
        ),
        TeamDataset(team=team, rows=10),
    ]
    for row in rows:
        with translation.override("en"):
            english = str(row)
        with translation.override("ja"):
            japanese = str(row)
        assert japanese != english, type(row).__name__
        assert any("\u3040" <= c <= "\u9fff" for c in japanese), japanese
