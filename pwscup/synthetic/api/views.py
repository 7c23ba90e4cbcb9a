"""The synthetic round's own REST endpoints, declared (``ROUND_ENDPOINTS``: the core serves
them under the round, with the access rules of its pages): my team's members ``T_X``
(``syn/members.csv``), its ``population.json`` and ``config.json`` (the kit's, what its
commands read) and, once the releases are frozen, the other teams' targets
(``syn/targets/``), each target's release and challenge set (ids and columns, no label) and
the auxiliary table (``syn/aux.csv``). The challenge sets and the auxiliary table are also
the Data tab's downloads, at the same addresses among the pages (``page_name``). Its
uploads are declared types (``submissions.py``).

A target's built-in attacks' scores are those of the half ``selectors.visible_half`` allows;
the final half's scores, ROC curves and the membership labels are never in an answer
before the results are published.
"""

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.core.exports import csv_bytes_response, json_text_response
from pwscup.core.rest import CSV_FILE, errors
from pwscup.core.rest_schemas import CSV_ANSWER, JSON_LIST, JSON_OBJECT
from pwscup.core.stored import stored_bytes
from pwscup.submissions.round_api import (
    AttackTargets,
    part_or_404,
    present_scores,
    require_team,
    round_args,
    team_ref,
)
from pwscup.submissions.round_endpoints import RoundEndpoints
from pwscup.synthetic import engine, selectors, services
from pwscup.synthetic.api import files
from pwscup.synthetic.models import SynTarget
from scoring.synthetic.attack import BUILTIN_ATTACKS
from scoring.synthetic.utility import SHOWN_RELEASE_SCORES

RELEASE_METRICS = SHOWN_RELEASE_SCORES


def synthetic_part(access):
    """The round's synthetic part (404 without)."""
    return part_or_404(selectors.synthetic_of(access.round))


def attack_metrics(synthetic) -> tuple[str, ...]:
    """The attack scores' keys in the order a client prints them: AUC, TPR at each of the
    round's FPR levels (the first is the headline), the advantage."""
    config = engine.round_config(synthetic.round)
    return ("auc", *(f"tpr@{level:g}" for level in config.fpr_levels), "adv")


def _aux_url(synthetic, target: SynTarget) -> str:
    """The auxiliary table of the target's population (its data pack's, if any)."""
    url = reverse("api:syn-aux", args=round_args(synthetic.round))
    pack = engine.draw_pack_key(synthetic=synthetic, team=target.team)
    return f"{url}?pack={pack}" if pack else url


def target_json(target: SynTarget, *, synthetic) -> dict:
    """A target as an attacker sees it: its team, the addresses of its files, and the
    built-in attacks' scores on the visible half (dev until publication)."""
    half = selectors.visible_half(synthetic=synthetic)
    args = [*round_args(synthetic.round), target.team.slug]
    keys = attack_metrics(synthetic)
    builtin = {}
    if target.status == SynTarget.Status.FINISHED:
        builtin = {
            name: present_scores((target.builtin.get(name) or {}).get(half), keys)
            for name in BUILTIN_ATTACKS
        }
    return {
        "team": team_ref(target.team),
        "status": target.status,
        "rows": target.release.rows,
        "release_url": reverse("api:syn-target-release", args=args),
        "challenge_url": reverse("api:syn-target-challenge", args=args),
        "aux_url": _aux_url(synthetic, target),
        "half": half,
        "builtin": builtin,
    }


# The targets the caller may download: after the freeze, every other team's (all of them
# for an organizer).
TARGETS = AttackTargets(read=selectors.targets, as_json=target_json, part_keyword="synthetic")
attackable = TARGETS.of

# Served under /api/ by the API (``SyntheticKind.api_round_endpoints``), each a CSV file
# unless it declares otherwise.
ROUND_ENDPOINTS = RoundEndpoints(part=synthetic_part, named_operation=True, responses=CSV_ANSWER)


@ROUND_ENDPOINTS.declare(
    "syn/members.csv",
    "syn-members",
    responses={(200, "text/csv"): CSV_FILE, **errors(401, 404, 409)},
    summary=gettext_lazy("My team's members table T_X (teamX_train.csv)"),
    description=gettext_lazy(
        "In a round offering a data choice, the first call draws the team from "
        "its pack and locks its pick; 409 population_missing while the pack has no "
        "population."
    ),
)
def members(request, access, synthetic):
    team = require_team(access)
    # Drawn now if the team has none yet (a round offering a data choice draws a team when
    # it first needs its data; the draw locks its pick).
    draw = services.team_draw(synthetic=synthetic, team=team)
    return csv_bytes_response(
        files.members_csv(synthetic=synthetic, draw=draw), files.members_name(team)
    )


@ROUND_ENDPOINTS.declare(
    "syn/population.json",
    "syn-population",
    responses={200: JSON_OBJECT, **errors(401, 404, 409)},
    summary=gettext_lazy(
        "My team's population.json: domains, ranges and bin edges (no row), for the kit's commands"
    ),
)
def population(request, access, synthetic):
    found = _team_population(access, synthetic)
    return json_text_response(files.population_text(found), files.POPULATION_NAME)


@ROUND_ENDPOINTS.declare(
    "syn/config.json",
    "syn-config",
    responses={200: JSON_OBJECT, **errors(401, 404, 409)},
    summary=gettext_lazy("The round's settings (the kit's config.json)"),
)
def config(request, access, synthetic):
    found = _team_population(access, synthetic)
    return json_text_response(files.config_text(found), files.CONFIG_NAME)


def _team_population(access, synthetic):
    """The population of the caller's team's draw (drawn now if it has none yet, as for
    its members table); 404 for a caller in no team."""
    draw = services.team_draw(synthetic=synthetic, team=require_team(access))
    return engine.draw_population(synthetic, draw).population


ROUND_ENDPOINTS.declare_targets(
    "syn",
    TARGETS,
    responses={200: JSON_LIST, **errors(401, 404)},
    summary=gettext_lazy("The other teams' frozen releases to attack, with their files' addresses"),
)


ROUND_ENDPOINTS.declare(
    "syn/targets/<str:team_slug>/release.csv",
    "syn-target-release",
    TARGETS.file(
        lambda target: csv_bytes_response(
            stored_bytes(target.release.file), files.release_name(target.team)
        )
    ),
    summary=gettext_lazy("A target's frozen release, as its team uploaded it"),
)


ROUND_ENDPOINTS.declare(
    "syn/targets/<str:team_slug>/challenge.csv",
    "syn-target-challenge",
    TARGETS.file(
        lambda target: csv_bytes_response(
            files.challenge_csv(target=target), files.challenge_name(target)
        )
    ),
    page_name="target_challenge",
    summary=gettext_lazy("A target's challenge set: id and the original's columns (no label)"),
)


@ROUND_ENDPOINTS.declare(
    "syn/aux.csv",
    "syn-aux",
    page_name="aux",
    summary=gettext_lazy("The auxiliary table A (the attack phase's reference population)"),
)
def aux(request, access, synthetic):
    attackable(access, synthetic)
    key = selectors.aux_pack_key(
        synthetic=synthetic,
        team=access.team,
        requested=str(request.GET.get("pack", ""))[:40],
    )
    if key is None:
        raise Http404(_("This round has no such data pack."))
    return csv_bytes_response(files.aux_csv(synthetic=synthetic, key=key), files.aux_name(key))
