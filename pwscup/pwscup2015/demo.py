"""The 2015 game's demo rounds (``manage.py load_demo``, through ``Pwscup2015Kind.demo_load``):

* ``round-1``: the Adult fixture shared by every team, utility gates U1 ≤ 2000 and U4 ≤ 0.1,
  with the attribute-disclosure indicators L1, L2, L3 and T on the income class;
* ``round-2``: per-team samples of 100 rows among 100 decoys.

Both windows are open at once so that the demo can be played through in minutes: the
organizer freezes a round from the console to start the attacks.
"""

import datetime as dt
import json

from django.conf import settings
from django.utils import timezone

from pwscup.competitions.models import Phase, Round
from pwscup.competitions.services import phase_set
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.services import round_assign_samples
from pwscup.pwscup2015.services.rounds import round_create

# Round 1 also shows the attribute-disclosure indicators L1, L2, L3 and T on the income
# class (<=50K / >50K), a column with no role: how well each QI class hides it.
DEMO_INDICATORS = {"sa": "income"}

# Each phase of a demo round: opened an hour ago, open for this many days, with its limits.
DEMO_PHASES = [
    (
        Phase.Kind.ANONYMIZATION,
        7,
        {"daily_limit": 20, "total_limit": 100, "leaderboard_public": True},
    ),
    (Phase.Kind.ATTACK, 14, {"daily_limit": 50, "total_limit": 300}),
]


# The keys of ``demo_rounds``' settings that are the round's ``RoundBasics``.
BASICS = ("name", "slug", "order")


def demo_rounds(config: dict) -> list[dict]:
    """The two rounds' settings (``round_create``'s arguments but the original). Names are
    an organizer's own text (not translated by the site): the demo writes them in Japanese
    and English, as a lecturer of a mixed class would."""
    return [
        {
            "name": "ラウンド 1：共通の元データ / Round 1: shared original",
            "slug": "round-1",
            "order": 1,
            "config_raw": {**config, "indicators": DEMO_INDICATORS},
            "utility_gates": {"U1": 2000, "U4": 0.1},
            "tie_break_metric": "U5",
        },
        {
            "name": "ラウンド 2：チームごとの標本 / Round 2: per-team samples",
            "slug": "round-2",
            "order": 2,
            "config_raw": config,
            "data_mode": Pwscup2015Round.DataMode.PER_TEAM,
            "sample_size": 100,
            "decoy_count": 100,
            "tie_break_metric": "U5",
        },
    ]


def pwscup2015_demo_load(*, competition, now=None) -> list[Round]:
    """Add the two demo rounds to ``competition`` (those it lacks), both phases open, and
    draw each team's sample of the per-team round; returns the rounds made."""
    fixtures = settings.BASE_DIR / "fixtures"
    original = (fixtures / "adult.csv").read_bytes()
    config = json.loads((fixtures / "adult_round.json").read_text())
    now = now or timezone.now()
    made = []
    for options in demo_rounds(config):
        if Round.objects.filter(competition=competition, slug=options["slug"]).exists():
            continue
        round_ = round_create(
            basics=RoundBasics(
                competition=competition, **{key: options.pop(key) for key in BASICS}
            ),
            original=original,
            original_filename="adult.csv",
            **options,
        )
        for kind, days, limits in DEMO_PHASES:
            phase_set(
                round=round_,
                kind=kind,
                opens_at=now - dt.timedelta(hours=1),
                closes_at=now + dt.timedelta(days=days),
                **limits,
            )
        round_assign_samples(round=round_)
        made.append(round_)
    return made
