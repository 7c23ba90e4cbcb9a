"""The synthetic round's answers to the API's round status and standings, the same shape for
every kind (``RoundKind.api_round_status``, ``api_leaderboard``): what the team may download
now (its own members table, its ``population.json`` and ``config.json``; after the freeze
the targets' releases, challenge sets and the auxiliary table) and the scores' names; what
it may upload and its uploads are the core's, from the declared types (``submissions.py``).
The standings are the two rankings (spec §5) the Results tab shows, to the same readers
(``selectors.rankings_visible``).
"""

from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.submissions import round_api
from pwscup.synthetic import engine, selectors
from pwscup.synthetic.api import files
from pwscup.synthetic.api.views import RELEASE_METRICS, attack_metrics, attackable

# The names a client prints for each score (``pwscup status``, ``pwscup submit --wait``).
METRIC_NAMES = {
    "u_ml": "U_ML",
    "u_1": "U_1",
    "u_2": "U_2",
    "r_copy": "R_copy",
    "r_copy_holdout": "R_copy(H)",
    "dcr_5_train": "DCR_5(T)",
    "dcr_5_holdout": "DCR_5(H)",
    "auc": "AUC",
    "adv": "ADV",
}


def metric_name(key: str) -> str:
    """A score's name as a client and the Submit tab print it (``TPR@FPR≤0.1``, ``U_ML``)."""
    if key.startswith("tpr@"):
        return f"TPR@FPR≤{key[4:]}"
    return METRIC_NAMES.get(key, key)


def attacker_name(row) -> str:
    """A row of the attack matrix (``MatrixRow``) as the pages name it (``attacker_label``)."""
    return attacker_label(row.name, builtin=row.builtin)


def attacker_label(name: str, *, builtin: bool) -> str:
    """An attacker as the pages name it: a team by its name, a built-in attack (its key
    ``name``) by what it is ("null, chance level (built-in)")."""
    if not builtin:
        return name
    names = {
        "dcr": _("DCR (built-in)"),
        "density": _("density (built-in)"),
        "null": _("null, chance level (built-in)"),
    }
    return names.get(name, name)


def worst_by_text(release: dict) -> str:
    """Who reached a release's worst attack (``selectors.release_ranking``'s ``worst_by``)."""
    return ", ".join(attacker_name(row) for row in release["worst_by"])


# A release's scores in an upload's one-line summary (``pwscup status``): the utility, then
# the copy gate's two shares side by side; an attack's is the round's headline score.
RELEASE_HEADLINE = ("u_ml", "u_1", "r_copy", "r_copy_holdout")


def _metrics(synthetic) -> list[dict]:
    headline = engine.round_config(synthetic.round).headline
    keys = [*RELEASE_METRICS, *attack_metrics(synthetic)]
    return [
        round_api.metric(key, metric_name(key), headline=key in RELEASE_HEADLINE or key == headline)
        for key in keys
    ]


def _downloads(access, synthetic) -> list[dict]:
    """The members table; after the freeze the targets' files and the auxiliary table (the
    uploads are the declared types')."""
    found = []
    team = access.team
    # A round offering a data choice draws a team at its first download.
    if team is not None and (
        selectors.team_drawn(synthetic=synthetic, team=team)
        or selectors.pack_populations(synthetic=synthetic)
    ):
        label = _("Your members table T_X")
        found += [
            round_api.api_download(access, "syn-members", files.members_name(team), label),
            round_api.api_download(
                access,
                "syn-population",
                files.POPULATION_NAME,
                _("Population (the commands' input)"),
            ),
            round_api.api_download(access, "syn-config", files.CONFIG_NAME, _("Configuration")),
        ]
    if synthetic.frozen_at is not None:
        found += _attack_phase(access, synthetic)
    return found


def _attack_phase(access, synthetic) -> list[dict]:
    """The attack phase's downloads in the status: the targets' files and the auxiliary
    table (one per data pack drawn from)."""
    found = round_api.target_downloads(
        access,
        attackable(access, synthetic),
        lambda target: [
            ("syn-target-release", files.release_name(target.team), _("Release of %(team)s")),
            ("syn-target-challenge", files.challenge_name(target), _("Challenge set of %(team)s")),
        ],
    )
    keys = sorted(set(selectors.draw_pack_keys(synthetic=synthetic).values()))
    if keys == [""]:
        keys = []
    if not keys:
        found.append(
            round_api.api_download(access, "syn-aux", files.AUX_NAME, _("Auxiliary table A"))
        )
    for key in keys:
        label = _("Auxiliary table A of the data pack %(key)s") % {"key": key}
        found.append(
            round_api.api_download(
                access, "syn-aux", files.aux_name(key), label, query=f"pack={key}"
            )
        )
    return found


# ``SyntheticKind.api_round_status``.
round_status = round_api.RoundStatus(
    part=selectors.synthetic_of, metrics=_metrics, downloads=_downloads
)


def round_leaderboard(request, access) -> dict:
    """``SyntheticKind.api_leaderboard``: the release ranking and the attack ranking the
    Results tab shows (disqualified teams left out): provisional on the dev half after the
    freeze, final once the results are published; 404 to a reader who may not see them."""
    synthetic = selectors.synthetic_of(access.round)
    if synthetic is None or not selectors.rankings_visible(
        synthetic=synthetic, team=access.team, is_organizer=access.is_organizer
    ):
        raise Refused(
            _(
                "The rankings are shown after the freeze to the teams and the organizers "
                "(provisional, on the dev half of the challenge sets), and to everyone once "
                "the organizers publish the results."
            ),
            status=404,
        )
    results = selectors.round_results(
        synthetic=synthetic, half=selectors.visible_half(synthetic=synthetic)
    )
    headline = engine.round_config(synthetic.round).headline
    name = metric_name(headline)
    releases = [
        [
            row["rank"],
            row["team"].name,
            _("passes") if row["passes"] else _("fails"),
            round_api.score_cell(row["worst"]),
            worst_by_text(row),
            round_api.score_cell(row["u_ml"]),
            round_api.score_cell(row["u_1"]),
        ]
        for row in results.releases
    ]
    attacks = [
        [row["rank"], row["team"].name, round_api.score_cell(row["mean"]), row["attacked"]]
        for row in results.attacks
    ]
    order = _(
        "Releases failing the gates are listed last; the others by the highest %(headline)s "
        "any attacker reached on them, lower first."
    ) % {"headline": name}
    half = (
        _("On the final half of the challenge sets.")
        if synthetic.results_published
        else _(
            "Provisional, on the dev half of the challenge sets: the final half decides the "
            "rankings and is shown to nobody until the results are published."
        )
    )
    return {
        "note": f"{half} {order}",
        "tables": round_api.two_sided_tables(
            [
                _("Gates"),
                _("Worst attack (%(headline)s)") % {"headline": name},
                _("Reached by"),
                "U_ML",
                "U_1",
            ],
            releases,
            _("Mean %(headline)s") % {"headline": name},
            attacks,
        ),
    }
