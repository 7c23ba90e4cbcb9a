"""The downloadable starter kit of a round (reads only): a ZIP with the team's data, the
configuration, an ``attr_depth.json`` example, a bilingual README, two example scripts and the
participants' toolkit wheel (``pip install`` it: the scripts then run anywhere).

What goes in follows the download rules of the single files: the data as the data
download gives it, the targets (and candidate tables) as the attack downloads give them.
"""

import json

from django.template.loader import render_to_string
from django.utils import timezone

from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import (
    phase_of,
    phase_state,
    round_original_table,
    table_config,
)
from pwscup.core.kits import KitFile
from pwscup.core.toolkit import install_argument, wheel_filename
from pwscup.pwscup2015.scoring_guide import (
    TOOLKIT_EXTRA,
    config_download_name,
    original_download_name,
    round_scoring_config,
)
from pwscup.pwscup2015.selectors import round_targets, team_dataset, team_original_table
from scoring import kit


def _data_field(*, round: Round, team: Team | None):
    if round.pwscup2015.is_per_team and team is not None:
        dataset = team_dataset(round=round, team=team)
        return dataset.file if dataset is not None else None
    return round.original_file


def kit_targets(*, round: Round, team: Team | None, is_organizer: bool, now=None) -> list:
    """The targets the reader may download now: others' targets once the attack phase opened."""
    if round.pwscup2015.frozen_at is None:
        return []
    phase = phase_of(round=round, kind=Phase.Kind.ATTACK)
    if not is_organizer and (phase is None or phase_state(phase=phase, now=now) == "upcoming"):
        return []
    return [t for t in round_targets(round=round) if team is None or t.team_id != team.pk]


def round_kit_files(*, round: Round, team: Team | None, is_organizer: bool, now=None):
    """The kit's files (``pwscup.core.kits`` packs them with the toolkit wheel)."""
    now = now or timezone.now()
    original = original_download_name(round=round, team=team)
    config_name = config_download_name(round=round)
    config = round_scoring_config(round=round)
    data_field = _data_field(round=round, team=team)
    if team is not None:
        table, table_cfg = team_original_table(round=round, team=team)
    else:
        table = round_original_table(round=round)
        table_cfg = table_config(round=round, table=table)
    example = kit.attr_depth_example(table, table_cfg)
    targets = kit_targets(round=round, team=team, is_organizer=is_organizer, now=now)
    context = {
        "round_name": round.name,
        "who": team.name if team is not None else round.competition.name,
        "made_at": timezone.localtime(now).strftime("%Y-%m-%d %H:%M %Z"),
        "original": original,
        "config": config_name,
        "per_team": round.pwscup2015.is_per_team,
        "targets": [t.team.slug for t in targets],
        "levels": ",".join(f"{column}:1" for column in example),
        "wheel": wheel_filename(),
        "install": install_argument(TOOLKIT_EXTRA),
    }
    files = []
    if data_field:
        files.append(KitFile(original, data_field))
    files.append(KitFile(config_name, json.dumps(config, indent=2, ensure_ascii=False)))
    files.append(KitFile("attr_depth.json", json.dumps(example, indent=2, ensure_ascii=False)))
    for name in ("README.md", "anonymize_example.py", "attack_example.py"):
        files.append(KitFile(name, render_to_string(f"pwscup2015/kit/{name}", context)))
    for target in targets:
        files.append(KitFile(f"targets/{target.team.slug}_anonymized.csv", target.published_file))
        if round.pwscup2015.is_per_team and target.candidate_file:
            files.append(
                KitFile(f"targets/{target.team.slug}_candidate.csv", target.candidate_file)
            )
    return files
