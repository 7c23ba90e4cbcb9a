"""The files of a synthetic round a participant downloads: the team's own members table
``teamX_train.csv`` (its draw's members only: never the holdout, another team's rows or a
label of membership), its own releases as uploaded, and after the freeze each other team's
published release ``teamY_synthetic.csv``, its challenge set ``teamY_challenge.csv`` (ids
1 … n, no membership label) and the auxiliary table ``aux.csv``. Visitors get no data."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect

from pwscup.accounts.access import kind_view
from pwscup.core.errors import Refused
from pwscup.core.exports import csv_bytes_response
from pwscup.core.files import private_file_response
from pwscup.core.kits import kit_response
from pwscup.kinds.tabs import DATA, tab_url
from pwscup.submissions.round_pages import require_frozen, require_team
from pwscup.synthetic import KEY, engine, kit, selectors, services
from pwscup.synthetic.api import files
from pwscup.synthetic.views.common import own_release, published_target, synthetic_of


@kind_view(KEY)
def train_download(request, access):
    """``teamX_train.csv``: the members ``T_X`` of the caller's own team (drawn now if the
    team has no draw yet). An organizer outside the teams has none: the members of a team
    would tell its challenge set's labels."""
    synthetic = synthetic_of(access)
    team = require_team(access)
    try:
        draw = services.team_draw(synthetic=synthetic, team=team)
    except Refused as refusal:
        return _refused(request, access, refusal)
    population = engine.draw_population(synthetic, draw).population
    text = engine.table_text(engine.rows_of(population, draw.members))
    return csv_bytes_response(text, f"{team.slug}_train.csv")


@kind_view(KEY)
def kit_download(request, access):
    """The team's starter kit (``pwscup.synthetic.kit``): its members table, the sample
    release, ``population.json`` and ``config.json``, a README of the commands, the toolkit
    wheel; after the freeze the auxiliary table too."""
    synthetic = synthetic_of(access)
    team = require_team(access)
    try:
        services.team_draw(synthetic=synthetic, team=team)
    except Refused as refusal:
        return _refused(request, access, refusal)
    return kit_response(
        kit.kit_files(synthetic=synthetic, team=team),
        kit.kit_filename(synthetic=synthetic, team=team),
    )


@kind_view(KEY)
def aux_download(request, access):
    """``aux.csv``: the auxiliary table ``A``, public to the participants from the freeze; in
    a round offering a data choice, the one of the pack ``?pack=`` (by default the caller's
    team's), ``<pack>.aux.csv``."""
    synthetic = synthetic_of(access)
    require_frozen(access, synthetic)
    key = selectors.aux_pack_key(
        synthetic=synthetic, team=access.team, requested=str(request.GET.get("pack", ""))[:40]
    )
    if key is None:
        raise Http404("No such data pack.")
    return csv_bytes_response(files.aux_csv(synthetic=synthetic, key=key), files.aux_name(key))


def _refused(request, access, refusal: Refused):
    """A download refused (the team's pack has no population yet): back to the Data tab
    with the reason."""
    messages.error(request, refusal.message)
    return redirect(tab_url(access.round, DATA))


@kind_view(KEY)
def target_release(request, access, team_slug: str):
    """``teamY_synthetic.csv``: another team's frozen release, as uploaded."""
    target = published_target(access, team_slug)
    return private_file_response(target.release.file, f"{target.team.slug}_synthetic.csv")


@kind_view(KEY)
def target_challenge(request, access, team_slug: str):
    """``teamY_challenge.csv``: the target's challenge set (ids 1 … n, the columns of ``P``;
    which rows are members stays secret)."""
    target = published_target(access, team_slug)
    draw = selectors.team_draw_of(synthetic=target.synthetic, team=target.team)
    if draw is None:
        raise Http404("No challenge set.")
    population = engine.draw_population(target.synthetic, draw).population
    text = engine.challenge_text(engine.rows_of(population, draw.challenge))
    return csv_bytes_response(text, f"{target.team.slug}_challenge.csv")


@kind_view(KEY)
def release_file(request, access, pk: int):
    """One of the team's releases as uploaded."""
    release = own_release(access, pk)
    return private_file_response(
        release.file, f"{release.team.slug}_synthetic_{release.number}.csv"
    )
