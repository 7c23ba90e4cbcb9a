"""A small DP round for the platform tests: the toy table of spec dp-round.md §5 (10 rows,
gender × age), or a MovieLens-sized table built from the 14 published counts (§0)."""

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from scoring.dp._examples import TOY_CONFIG, TOY_ROWS, TOY_Z  # noqa: F401 (re-exported)
from tests.support import settled

MOVIELENS_Z = [78, 298, 558, 338, 189, 146, 102, 144, 805, 1538, 855, 361, 350, 278]
MOVIELENS_AGES = ["<=17", "18-24", "25-34", "35-44", "45-49", "50-55", "56+"]


def toy_csv(rows=TOY_ROWS) -> bytes:
    return ("gender,age\n" + "".join(f"{g},{a}\n" for g, a in rows)).encode()


def toy_estimate_csv(counts=TOY_Z, gender=(4, 6)) -> bytes:
    """An estimate of the toy round's two targets: gender × age ``counts`` (row-major), then
    the ``gender`` histogram."""
    cells = [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")]
    rows = "".join(f"gender_age,{g},{a},{v}\n" for (g, a), v in zip(cells, counts, strict=True))
    return f"target,gender,age,count\n{rows}gender,F,,{gender[0]}\ngender,M,,{gender[1]}\n".encode()


def movielens_csv() -> bytes:
    """6,040 rows whose gender × age histogram is the paper's 14 counts (no MovieLens row)."""
    lines = ["gender,age"]
    cells = [(g, a) for g in "FM" for a in MOVIELENS_AGES]
    for (g, a), count in zip(cells, MOVIELENS_Z, strict=True):
        lines.extend([f"{g},{a}"] * count)
    return ("\n".join(lines) + "\n").encode()


MOVIELENS_CONFIG = {
    "attributes": {"gender": ["F", "M"], "age": MOVIELENS_AGES},
    "workload": [{"id": "gender_age", "attributes": ["gender", "age"]}],
    "levels": [
        {"id": "eps-0.1", "epsilon": "0.1"},
        {"id": "eps-1", "epsilon": "1.0"},
        {"id": "eps-4", "epsilon": "4.0"},
    ],
    "baselines": {"trials": 10},
}


@dataclass
class DPWorld:
    competition: object
    round: object
    dp_round: object
    teams: dict
    users: dict
    organizer: object


def build_dp_world(
    *,
    slug: str = "dpcup",
    table: bytes | None = None,
    config: dict | None = None,
    open_now: bool = True,
    password: str = "pw",
    **round_options,
) -> DPWorld:
    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.services import competition_create
    from pwscup.dp.services import dp_round_create
    from pwscup.kinds.round_basics import RoundBasics

    now, hour = timezone.now(), dt.timedelta(hours=1)
    organizer = user_create(username=f"{slug}-organizer", password=password)
    competition = competition_create(name=f"DP {slug}", slug=slug, organizers=[organizer])
    dp_round = dp_round_create(
        basics=RoundBasics(competition=competition, name="DP round", slug="dp"),
        table=table if table is not None else toy_csv(),
        table_filename="hidden.csv",
        config_raw=config or TOY_CONFIG,
        opens_at=now - hour,
        closes_at=now + hour if open_now else now - dt.timedelta(minutes=1),
        **round_options,
    )
    teams, users = {}, {}
    for letter in "ab":
        teams[letter] = team_create(
            competition=competition, name=f"Team {letter.upper()}", slug=f"team{letter}"
        )
        users[letter] = user_create(username=f"{slug}-team-{letter}", password=password)
        membership_add(team=teams[letter], user=users[letter])
    return DPWorld(competition, dp_round.round, dp_round, teams, users, organizer)


def upload_estimate(world: DPWorld, letter: str, level: str, content: bytes):
    """Team ``letter``'s estimate of ``level``, uploaded and checked (what the worker runs)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from pwscup.dp.models import Estimate
    from pwscup.dp.services import dp_estimate_check, dp_estimate_upload

    kept = dp_estimate_upload(
        dp_round=world.dp_round,
        team=world.teams[letter],
        user=world.users[letter],
        level=level,
        uploaded_file=SimpleUploadedFile("estimate.csv", content),
    )
    dp_estimate_check(estimate_id=kept.pk)
    return settled(Estimate, kept.pk)


def close_now(world: DPWorld) -> None:
    """Move the release phase's close to a minute ago."""
    from pwscup.dp.services import dp_round_window_set

    now = timezone.now()
    dp_round_window_set(
        dp_round=world.dp_round,
        opens_at=now - dt.timedelta(hours=2),
        closes_at=now - dt.timedelta(minutes=1),
    )
