"""The sequential rounds of the demo competition (``load_demo``): **S1** on the paper's
persons (Z's 表 5, one master for every team, online, m = 2) and **S2** on per-team masters
drawn from a generated pool, where teams B and C have published with the kit's baseline
publisher (spec §16). What each shows: docs/sequential.md (its introduction).
"""

import numpy as np
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from pwscup.accounts.models import Team
from pwscup.competitions.demo_rounds import demo_round_add
from pwscup.sequential import engine, selectors, services
from pwscup.sequential.models import SequentialRound

PAPER_CONFIG = {
    "type": "sequential",
    "n_releases": 2,
    "m": 2,
    "qi": {"Age": "num", "Zip": "num"},
    "sa": "Disease",
    "require_m_eligible": False,
}
GENERATED_CONFIG = {
    "type": "sequential",
    "n_releases": 4,
    "m": 2,
    "qi": {"Age": "num", "Zip": "num", "Sex": "cat"},
    "sa": "Disease",
    "mode": "batch",
    "utility_gates": {"IL": 0.5},
    "attack_phase": True,
    "per_team": {"pool": "pool.csv", "size": 100, "turnover": 0.2, "seed": 7},
}
DISEASES = ("bronchitis", "dyspepsia", "flu", "gastritis", "hepatitis", "pneumonia")
BASELINE_TEAMS = ("teamB", "teamC")


def _upload(content: bytes, name: str) -> SimpleUploadedFile:
    """A CSV uploaded as a team or an organizer would (the demo reads no request)."""
    return SimpleUploadedFile(name, content, content_type="text/csv")


def generated_pool(persons: int = 6000, *, seed: int = 2026) -> bytes:
    """A pool ``pid,Age,Zip,Sex,Disease`` (seeded: the same demo every time)."""
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 90, persons)
    zip_ = rng.integers(100, 500, persons) * 100
    sex = rng.choice(["F", "M"], persons)
    disease = rng.choice(DISEASES, persons, p=[0.1, 0.2, 0.25, 0.2, 0.1, 0.15])
    lines = ["pid,Age,Zip,Sex,Disease"]
    lines += [
        f"P{i:04d},{a},{z},{s},{d}"
        for i, (a, z, s, d) in enumerate(zip(age, zip_, sex, disease, strict=True))
    ]
    return ("\n".join(lines) + "\n").encode()


def paper_master() -> bytes:
    """Z's 表 5 with lifespans (spec §13; Gary and Mary's zips read as 20k and 30k, §15)."""
    return (settings.BASE_DIR / "fixtures" / "sequential" / "zhang_master.csv").read_bytes()


def demo_load(competition, *, organizer) -> list[SequentialRound]:
    """Add the two sequential demo rounds to ``competition`` (those it lacks,
    ``demo_round_add``); returns the rounds made. Teams B and C publish the generated round's
    releases when it is made."""

    def generated(basics) -> SequentialRound:
        made = services.sequential_round_create(
            basics=basics,
            config=GENERATED_CONFIG,
            pool_file=_upload(generated_pool(), "pool.csv"),
            user=organizer,
        )
        baseline_publish(sequential=made, team_slugs=BASELINE_TEAMS)
        return made

    made = [
        demo_round_add(
            competition,
            slug="seq-paper",
            name="ラウンド S1：逐次公開・論文の人物 / Round S1: sequential release, the paper's persons",
            create=lambda basics: services.sequential_round_create(
                basics=basics,
                config=PAPER_CONFIG,
                master_file=_upload(paper_master(), "master.csv"),
                user=organizer,
            ),
        ),
        demo_round_add(
            competition,
            slug="seq-generated",
            name="ラウンド S2：逐次公開・生成データ / Round S2: sequential release, generated data",
            create=generated,
        ),
    ]
    return [round_ for round_ in made if round_ is not None]


def baseline_publish(*, sequential: SequentialRound, team_slugs) -> int:
    """Publish every release of the given teams with the kit's baseline publisher (spec §16,
    ``engine.baseline_bytes``, the sample release's), each uploaded like a team's file."""
    published = 0
    for team in Team.objects.filter(competition=sequential.round.competition, slug__in=team_slugs):
        master = selectors.team_master(sequential=sequential, team=team)
        if master is None:
            continue
        member = team.members.first()
        frame = services.master_frame(master=master)
        previous = None
        for step in range(1, sequential.n_releases + 1):
            current = engine.table_bytes(engine.step_table(frame, step))
            release = engine.baseline_bytes(current, previous, sequential.config, step=step)
            uploaded = services.release_upload(
                sequential=sequential,
                team=team,
                user=member,
                step=step,
                uploaded_file=_upload(release, f"release_{step}.csv"),
                send_job=False,
            )
            # Checked here, as a worker would, and by no worker (a running one would race
            # this loop for it): the next release is checked after this one.
            services.release_check(release_id=uploaded.pk)
            previous = release
            published += 1
    return published
