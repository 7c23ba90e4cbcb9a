"""The synthetic round of the demo competition (``manage.py load_demo``).

``syn-adult``: the whole Adult fixture (32,561 rows) as the population, the column roles and
the label the console would propose (numbers → numeric, ``income`` the label), the spec's
sizes (5,000 holdout, 2,000 auxiliary rows, 2,000 members and 400 challenge rows per team:
some eleven teams still get rows of their own), the release phase open now for a week and
the attack phase the week after. A class plays both phases in one session: the organizer's
console action *Open the attack phase now* (``actions.py``) freezes the releases and opens
the attack phase at once. The demo teams play it from a fresh
``scripts/demo``; a team of the class that registers later is drawn when it joins. A second
``load_demo`` adds the round only when the competition lacks it, and changes nothing else.
"""

from django.conf import settings
from django.utils import timezone

from pwscup.competitions.demo_rounds import demo_round_add
from pwscup.submissions.services.two_sided import two_sided_demo_windows
from pwscup.synthetic import drafts, services
from pwscup.synthetic.models import SyntheticRound

SLUG = "syn-adult"
NAME = (
    "ラウンド Y：合成データとメンバーシップ推定 (Adult) / "
    "Round Y: synthetic data and membership inference (Adult)"
)


def adult_bytes() -> bytes:
    return (settings.BASE_DIR / "fixtures" / "adult.csv").read_bytes()


def demo_config(content: bytes, *, teams: int) -> dict:
    """The configuration the console proposes for the table (roles, label), with the spec's
    sizes when the table holds them for ``teams`` teams, else scaled down."""
    frame = drafts.table_frame(content, filename="adult.csv")
    profiles = drafts.column_profiles(frame)
    return {
        "columns": {p.name: "numeric" if p.numeric else "categorical" for p in profiles},
        "label": drafts.proposed_label(profiles),
        **drafts.proposed_sizes(len(frame), teams=teams),
    }


def demo_load(competition, *, organizer, now=None) -> SyntheticRound | None:
    """Add the demo's synthetic round to ``competition`` unless it has one by that address
    (``demo_round_add``); returns the round made (None: nothing to do)."""

    def create(basics) -> SyntheticRound:
        content = adult_bytes()
        return services.synthetic_round_create(
            basics=basics,
            table=content,
            table_filename="adult.csv",
            config=demo_config(content, teams=max(competition.teams.count(), 1)),
            windows=two_sided_demo_windows(now or timezone.now()),
            user=organizer,
        )

    return demo_round_add(competition, slug=SLUG, name=NAME, create=create)
