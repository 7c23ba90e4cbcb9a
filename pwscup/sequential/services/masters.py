"""The master tables: an organizer's upload checked (in UTF-8, converted from a recognised
encoding) and kept, per-team masters drawn from the round's pool, and what a team or an
organizer reads of them (the master as a frame, ``T(j).csv``, ``master.csv`` with the future
hidden in online mode). Releases, freezes and attacks are all checked against these."""

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.models import Round
from pwscup.competitions.organizer_files import organizer_csv_keep
from pwscup.core.errors import Refused, scoring_form_error
from pwscup.core.files import OrganizerCsv, organizer_csv
from pwscup.core.process_cache import ProcessCache
from pwscup.core.stored import stored_bytes
from pwscup.sequential import engine, selectors
from pwscup.sequential.models import Master, SequentialRound


def organizer_upload_csv(uploaded_file, *, field: str) -> OrganizerCsv:
    """A master or a pool as the organizer uploaded it, in UTF-8 (converted from an encoding
    recognised for sure), or a ``ValidationError`` on ``field`` naming the likely encoding."""
    try:
        return organizer_csv(stored_bytes(uploaded_file), name=uploaded_file.name)
    except scoring.ScoringError as error:
        raise scoring_form_error(field, error) from None


def master_check(*, config: dict, data: bytes) -> int:
    """Validate a master table (UTF-8) against the configuration; its person count."""
    try:
        return len(engine.master_read(data, config).frame)
    except scoring.ScoringError as error:
        raise scoring_form_error("master", error) from None


def master_create(
    *, sequential: SequentialRound, team: Team | None, csv: OrganizerCsv, persons: int
) -> Master:
    """A master from an organizer's upload: the UTF-8 copy in ``file`` (hashed), the upload
    as it was in ``source`` when it was in another encoding."""
    master = Master(sequential=sequential, team=team, source_encoding=csv.encoding, persons=persons)
    master.sha256 = organizer_csv_keep(master, csv=csv, filename="master.csv")
    master.save()
    return master


def master_upload(*, sequential: SequentialRound, uploaded_file, team: Team | None) -> Master:
    """Replace the shared master (``team=None``) or a team's master; before the first freeze."""
    if sequential.frozen_steps:
        raise Refused(_("Step 1 is frozen: the master tables can no longer change."))
    csv = organizer_upload_csv(uploaded_file, field="master")
    persons = master_check(config=sequential.config, data=csv.utf8)
    Master.objects.filter(sequential=sequential, team=team).delete()
    return master_create(sequential=sequential, team=team, csv=csv, persons=persons)


def _pids(data: bytes) -> set[str]:
    return set(engine.pool_read(data, {})["pid"])


@transaction.atomic
def masters_draw(*, sequential: SequentialRound, redraw: bool = False) -> list[Master]:
    """Draw a master for each team of the competition without one (spec §3, per-team
    masters from the pool, seeded per round) from what the pool has left: persons already
    in a team's master are never drawn again, so a team that joins after the draw gets its
    own part. Teams with a master keep it; with ``redraw``, the drawn masters of the teams
    that have uploaded nothing are drawn again (``selectors.masters_redraw_plan``).

    The round's row is locked first: teams joining at the same moment each draw every
    missing master, and without the lock two of them would draw the same team's."""
    Round.objects.select_for_update().get(pk=sequential.round_id)
    if not sequential.pool_file:
        raise Refused(_("This round has no pool to draw masters from."))
    if sequential.frozen_steps:
        raise Refused(_("Step 1 is frozen: the master tables can no longer change."))
    if redraw:
        plan = selectors.masters_redraw_plan(sequential=sequential)
        Master.objects.filter(sequential=sequential, drawn=True, team__in=plan["redrawn"]).delete()
    teams = list(Team.objects.filter(competition=sequential.round.competition).order_by("pk"))
    kept = set(Master.objects.filter(sequential=sequential).values_list("team_id", flat=True))
    wanted = [team for team in teams if team.pk not in kept]
    if not wanted:
        return []
    pool = engine.pool_read(stored_bytes(sequential.pool_file), sequential.config)
    used = set()
    for master in Master.objects.filter(sequential=sequential, drawn=True):
        used |= _pids(stored_bytes(master.file))
    left = pool[~pool["pid"].isin(used)].reset_index(drop=True)
    per_team = sequential.config.get("per_team") or {}
    try:
        # Disjoint parts of what is left, for the teams without a master, in a fixed order
        # (seeded per round).
        drawn = engine.masters_draw(
            left,
            sequential.config,
            teams=[str(team.pk) for team in wanted],
            seed=int(per_team.get("seed", 0)) ^ sequential.secret_seed,
        )
    except scoring.ScoringError as error:
        raise Refused(error.render(get_language())) from None
    created = []
    for team in wanted:
        frame = drawn[str(team.pk)]
        created.append(
            Master.objects.create(
                sequential=sequential,
                team=team,
                file=ContentFile(engine.table_bytes(frame), name="master.csv"),
                persons=len(frame),
                drawn=True,
            )
        )
    return created


def masters_draw_for_new_teams(*, round: Round) -> list[Master]:
    """The kind's team hook: once the organizers have drawn the per-team masters, a team
    that joins later gets its own from what the pool has left. Nothing happens before the
    first draw, without a pool, or after step 1 froze; when the pool has too few persons
    left the team stays without a master (its Data tab and the console say so)."""
    sequential = SequentialRound.objects.filter(round=round).first()
    if sequential is None or not sequential.pool_file or sequential.frozen_steps:
        return []
    if not Master.objects.filter(sequential=sequential, drawn=True).exists():
        return []
    try:
        return masters_draw(sequential=sequential)
    except Refused:
        return []


def master_frame(*, master: Master):
    return engine.master_read(stored_bytes(master.file), master.sequential.config)


# Each master's timeline, by its file and the round's configuration: a master is never
# changed in place (an upload or a draw makes a new row with a new file).
_TIMELINES = ProcessCache(256)


def master_timeline(*, master: Master) -> list[dict]:
    """The master's timeline (``Master.timeline``), to read only, parsed once per process:
    the console panel shows every team's master on each view (8 ms of CPU a master here)."""
    key = (master.file.name, master.sequential.config_text)
    return _TIMELINES.get(key, lambda: master_frame(master=master).timeline())


def step_table_bytes(*, sequential: SequentialRound, team: Team, step: int) -> bytes:
    """``T(step).csv`` of a team's master (``pid,QI…,sa,lsf``; the future is hidden)."""
    master = selectors.team_master_required(sequential=sequential, team=team)
    return engine.table_bytes(engine.step_table(master_frame(master=master), step))


def team_master_bytes(*, sequential: SequentialRound, team: Team) -> bytes:
    """What a team may download of its master: all of it in batch mode; in online mode the
    persons seen so far, lifespans cut at the visible step (the future stays hidden)."""
    frame = master_frame(master=selectors.team_master_required(sequential=sequential, team=team))
    if not selectors.is_online(sequential):
        return engine.master_table_bytes(frame)
    upto = selectors.visible_steps(sequential=sequential)
    return engine.table_bytes(engine.master_so_far(frame, upto))
