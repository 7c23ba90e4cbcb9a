"""What a team is scored against (reads only): the round's configuration as teams may
download it, in words for the round page, and the commands that reproduce the server's
scores locally with the downloaded files and the toolkit wheel of the Data tab."""

import shlex
from dataclasses import dataclass

from pwscup.accounts.models import Team
from pwscup.competitions.models import Round
from pwscup.competitions.selectors import round_config
from pwscup.core.toolkit import install_argument
from pwscup.pwscup2015.value_ranges import parse_value_ranges
from scoring.schema import NUMBER, ORIGINAL_VALUES

ANONYMIZED_PLACEHOLDER = "anonymized.csv"
#: The toolkit extra this kind's kit and pages install (``pwscup.core.toolkit.EXTRAS``).
TOOLKIT_EXTRA = "kit"


def round_scoring_config(*, round: Round) -> dict:
    """The configuration every job of the round scores with (column roles, domains and
    integer columns: names only, no value of the original), as teams download it.

    A round stored before ``integer_columns`` existed gets them decided on its original,
    exactly as ``table_config`` does for the jobs.
    """
    if "integer_columns" in round.config:
        return round.config
    return round_config(round=round).to_dict()


def original_download_name(*, round: Round, team: Team | None) -> str:
    """The file name the data download carries: the team's sample in the per-team mode."""
    if round.pwscup2015.is_per_team and team is not None:
        return f"{team.slug}_original.csv"
    return f"{round.slug}_original.csv"


def config_download_name(*, round: Round) -> str:
    return f"{round.slug}_config.json"


@dataclass(frozen=True)
class ScoringGuide:
    """The round's configuration in words, for the round page."""

    config: dict
    unassigned: tuple[str, ...]
    value_columns: tuple[str, ...]
    number_columns: tuple[str, ...]
    command: str
    config_name: str
    wheel: str  # what the Data tab's ``pip install`` line installs: the wheel with its extra
    anonymized_placeholder: str = ANONYMIZED_PLACEHOLDER


def round_scoring_guide(*, round: Round, team: Team | None) -> ScoringGuide:
    config = round_scoring_config(round=round)
    roles = set(config["qi"]) | set(config["sa"])
    domains = config.get("domains") or {}
    # The round's range rule, as the worker passes it (``--range age=13:85``).
    ranges = [
        shlex.quote(f"{column}={low:g}:{high:g}")
        for column, (low, high) in parse_value_ranges(round.pwscup2015.value_ranges).items()
    ]
    command = " ".join(
        [
            "python -m scoring evaluate",
            original_download_name(round=round, team=team),
            ANONYMIZED_PLACEHOLDER,
            "--config",
            config_download_name(round=round),
            *(f"--range {value}" for value in ranges),
        ]
    )
    return ScoringGuide(
        config=config,
        unassigned=tuple(c for c in config["columns"] if c not in roles),
        # In the file's column order (the database does not keep the keys' order).
        value_columns=tuple(c for c in config["columns"] if domains.get(c) == ORIGINAL_VALUES),
        number_columns=tuple(c for c in config["columns"] if domains.get(c) == NUMBER),
        command=command,
        config_name=config_download_name(round=round),
        wheel=install_argument(TOOLKIT_EXTRA),  # the Data tab's line
    )
