"""How the conformance suite plays a round kind: one ``Player`` per kind.

The suite (``tests/kinds/test_*.py``) holds the promises every game makes, written once; a
player tells it how to set up a round of its kind and upload to it, through the kind's own
services (the ones its pages, API and console call). A kind's player lives in the kind's
folder of the tests (``tests/kinds/<folder>/player.py``, a module-level ``PLAYER``) and is
found by ``discover_players``: adding a kind adds a folder here, and no file of the suite
changes. ``test_every_registered_kind_has_a_player`` fails for a kind registered without one.
"""

import datetime as dt
import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.competitions.models import Phase
from pwscup.competitions.services import phase_set
from pwscup.kinds import kind_of

HERE = Path(__file__).resolve().parent


@dataclass
class Arena:
    """One round of a kind, open for uploads now, in a competition with teams A and B."""

    competition: object
    round: object
    organizer: object
    teams: dict = field(default_factory=dict)
    users: dict = field(default_factory=dict)
    state: object = None  # the kind's own objects (its round row, a level, a step)

    @classmethod
    def of(cls, world, *, state) -> "Arena":
        """The arena of a test world (``competition``, ``round``, ``organizer``, ``teams``,
        ``users``) built by the kind's own test helpers."""
        return cls(
            competition=world.competition,
            round=world.round,
            organizer=world.organizer,
            teams=world.teams,
            users=world.users,
            state=state,
        )


@dataclass(frozen=True)
class MatrixView:
    """What a round's results say of its attack matrix and its rankings, by team letter
    (``Player.matrix_view``). A team without a row in a ranking is absent from its dict."""

    target_ranks: dict  # letter -> the rank of its target (release / anonymization); None: unranked
    safety: dict  # letter -> the safety its ranked target is ranked by (every attack counted)
    attack_ranks: dict  # letter -> its rank in the attack ranking
    targets: dict  # letter -> whether its target is shown marked disqualified
    strongest: dict  # target letter -> the attacker (a letter, or a built-in's name) ahead on it


class Player:
    """The conformance suite's handle on one kind. Subclass per kind; every method goes
    through the kind's services, never around them.

    Attributes
    ----------
    key : str
        The kind's key (``RoundKind.key``).
    test_only : bool
        The kind lives only in the tests (the toy): ``install`` registers it.
    publish_action : str
        The kind's console action (``RoundKind.console_actions``) that publishes its results.
    before_publish : tuple
        The kind's console actions ``publish`` does first, each when offered (a two-sided
        round's results are published once its releases are frozen: ``("freeze",)``).
    gaps : dict
        Promises the kind does not keep yet, by test name, with the reason: those tests are
        expected to fail (strictly: once the kind keeps the promise, the entry must go).
    page_queries : dict
        The SQL queries a team member's second reading of each round tab costs (overview,
        data, rules, submit, results), pinned (``test_page_queries_conform.py``). Every
        page's share is three: the session, the user, and one read of the page generation,
        the ranking version and the unread count (``round_access`` then finds the
        competition, the round, its phases and the team in the cache).
    attack_matrix : bool
        The kind's teams attack each other's published targets (an attacker × target matrix):
        ``matrix_arena``, ``matrix_view`` and ``matrix_page`` are played
        (``test_matrix_conform.py``).
    attack_targets : bool
        A team's attack names one target, under a limit per target (a core attack phase's
        ``Phase.target_limit``, or the kind's own: ``attack_target_limit_set``):
        ``target_arena`` and ``attack`` are played (``test_uploads_conform.py``).
    window_ends : tuple
        The kind's console actions that end its first upload window (a freeze, a close:
        ``RoundAction.ends``), offered once the round is ``postpone``-d: before the window
        opens, each is done only with the confirmation's box
        (``test_lifecycle_conform.py``).
    holds_files : bool
        An ``arena``'s round holds files in the storage (an original, a master, a pool, the
        organizer's packs): its deletion removes them (``test_round_delete_conform.py``).
    """

    key: str = ""
    test_only: bool = False
    publish_action: str = "publish"
    before_publish: tuple[str, ...] = ()
    gaps: dict[str, str] = {}
    page_queries: dict[str, int] = {}
    attack_matrix: bool = False
    attack_targets: bool = False
    window_ends: tuple[str, ...] = ()
    holds_files: bool = True

    def install(self) -> None:
        """Make the kind playable (a test-only kind registers itself here)."""

    def uninstall(self) -> None:
        """Undo ``install``."""

    def arena(self, *, slug: str, daily_limit=None, total_limit=None) -> Arena:
        """A round of the kind open now (closing in a day), with these upload limits per team."""
        raise NotImplementedError

    def close(self, arena: Arena) -> None:
        """Move the upload window's close to the past, through the kind's services."""
        raise NotImplementedError

    def postpone(self, arena: Arena) -> None:
        """Move every upload window of the round to open tomorrow or later, in the order they
        run, through the kind's services: publishing then closes windows that never opened."""
        raise NotImplementedError

    def publish(self, arena: Arena) -> None:
        """Publish the round's results through the kind's own console action (after those of
        ``before_publish`` offered)."""
        kind = kind_of(arena.round)
        for name in self.before_publish:
            action = kind.console_actions(arena.round).get(name)
            if action is not None:
                confirmed(action, arena)
        confirmed(kind.console_actions(arena.round)[self.publish_action], arena)

    def submit(self, arena: Arena, letter: str, content: bytes, *, name: str = "upload.csv"):
        """Team ``letter`` uploads ``content`` through the kind's upload service; returns the
        kept row (QUEUED) or raises ``pwscup.core.errors.Refused``."""
        raise NotImplementedError

    def valid(self, arena: Arena, n: int) -> bytes:
        """An upload the kind's check accepts (``n`` varies it)."""
        raise NotImplementedError

    def invalid(self, arena: Arena) -> bytes:
        """An upload the kind's check rejects (the row ends FAILED with a message)."""
        raise NotImplementedError

    def run_jobs(self) -> None:
        """Run every queued job of the kind in process, as the worker does."""
        raise NotImplementedError

    def kept(self, arena: Arena, letter: str):
        """Team ``letter``'s kept uploads in the arena's round, oldest first."""
        raise NotImplementedError

    def play_results(self, arena: Arena, letters: str = "ab") -> None:
        """Each team in ``letters`` uploads what puts it on the round's results once they are
        published (default: one valid upload, checked)."""
        for n, letter in enumerate(letters, start=1):
            self.submit(arena, letter, self.valid(arena, n))
        self.run_jobs()

    def target_arena(self, *, slug: str) -> Arena:
        """A round with teams A, B and C whose targets are published and open to attacks now,
        the attack phase without limits (``attack_target_limit_set`` sets one)."""
        raise NotImplementedError

    def attack_target_limit_set(self, arena: Arena, limit: int | None) -> None:
        """The arena round's attacks take at most ``limit`` uploads per target per team
        (default: the core attack phase's ``target_limit``)."""
        attack_target_limit_set(arena, limit)

    def attack(self, arena: Arena, letter: str, target: str, n: int):
        """Team ``letter`` uploads an attack the kind's check accepts (``n`` varies it) on team
        ``target``'s target through the kind's attack service; returns the kept row (QUEUED,
        not scored) or raises ``pwscup.core.errors.Refused``."""
        raise NotImplementedError

    def matrix_arena(self, *, slug: str) -> Arena:
        """A round with teams A, B and C whose targets are published and attacked, every
        upload scored: team A's attack on B's target is the strongest on it (above every
        other team's and every built-in attack's), and each team attacks some target."""
        raise NotImplementedError

    def matrix_view(self, arena: Arena) -> MatrixView:
        """The round's matrix and rankings now, as its results show them (the kind's
        selectors, the ones its pages, CSV files and archive read)."""
        raise NotImplementedError

    def matrix_page(self, arena: Arena) -> str:
        """The page that shows the round's attack matrix, as its organizer reads it."""
        raise NotImplementedError

    def bundle_faults(self, settings: dict) -> list[str]:
        """Spoil ``settings`` (the round's settings as its bundle export wrote them) in place
        with independent faults, one of each part the kind's settings have (an unknown key,
        a window or schedule, a limit, the configuration); return the path below
        ``settings`` each refusal names (``"config.levels[1].epsilon"``). At least three
        (``test_bundle_errors_conform.py``)."""
        raise NotImplementedError

    def secrets(self, arena: Arena, letter: str) -> list[bytes]:
        """What team ``letter`` (and a visitor) must not be served now: the other teams'
        uploads, and what the kind adds (a hidden table, a future release)."""
        others = [other for other in arena.teams if other != letter]
        found = []
        for other in others:
            for row in self.kept(arena, other):
                with row.file.open("rb") as handle:
                    found.append(handle.read())
        return found


def confirmed(action, arena: Arena) -> str:
    """``action`` (a ``RoundAction``) done as the arena's organizer confirms it: the box *end
    it before it opens* ticked, when the action ends a window (``RoundAction.ends``)."""
    early = {"early": True} if action.ends else {}
    return action.perform(user=arena.organizer, round=arena.round, **early)


def organizer_page(arena: Arena, url: str) -> str:
    """The page at ``url`` as the arena's organizer reads it."""
    client = Client()
    client.force_login(arena.organizer)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def strongest_of(cells) -> object:
    """Who holds the strongest of ``cells`` ``(value, who)`` (None values skipped): ``who`` of
    the one highest value, None if none or if two share it."""
    values = sorted((cell for cell in cells if cell[0] is not None), key=lambda c: c[0])
    if not values or (len(values) > 1 and values[-1][0] == values[-2][0]):
        return None
    return values[-1][1]


def letters_of(arena: Arena) -> dict:
    """Team id -> its letter in the arena."""
    return {team.pk: letter for letter, team in arena.teams.items()}


def teams_join(arena: Arena, *, slug: str, password: str = "pw") -> Arena:
    """Teams A and B, one member each, in the arena's competition."""
    for letter in "ab":
        team = team_create(
            competition=arena.competition, name=f"Team {letter.upper()}", slug=f"team{letter}"
        )
        user = user_create(username=f"{slug}-team-{letter}", password=password)
        membership_add(team=team, user=user)
        arena.teams[letter], arena.users[letter] = team, user
    return arena


def phase_close(arena: Arena) -> None:
    """Close the arena round's first core phase (the one its first upload goes to) a minute
    ago (``phase_set``)."""
    now = timezone.now()
    phase_set(
        round=arena.round,
        kind=arena.round.phases.order_by("opens_at", "pk").first().kind,
        opens_at=now - dt.timedelta(hours=2),
        closes_at=now - dt.timedelta(minutes=1),
    )


def attack_target_limit_set(arena: Arena, limit: int | None) -> None:
    """The arena round's attack phase takes at most ``limit`` uploads per target per team
    (``phase_set``, its window and other limits kept)."""
    phase = arena.round.phases.get(kind=Phase.Kind.ATTACK)
    phase_set(
        round=arena.round,
        kind=Phase.Kind.ATTACK,
        opens_at=phase.opens_at,
        closes_at=phase.closes_at,
        daily_limit=phase.daily_limit,
        total_limit=phase.total_limit,
        leaderboard_public=phase.leaderboard_public,
        target_limit=limit,
    )


def phases_postpone(arena: Arena) -> None:
    """Move the arena round's core phases (``phase_set``) to open tomorrow or later, one day
    each, in the order they run."""
    now = timezone.now()
    kinds = arena.round.phases.order_by("opens_at", "pk").values_list("kind", flat=True)
    for day, kind in enumerate(list(kinds), start=1):
        phase_set(
            round=arena.round,
            kind=kind,
            opens_at=now + dt.timedelta(days=day),
            closes_at=now + dt.timedelta(days=day + 1),
        )


def creator(user):
    """``user`` with the right to create competitions (to import a bundle)."""
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label="competitions", codename="add_competition")
    )
    return get_user_model().objects.get(pk=user.pk)


def uploaded(content: bytes, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/csv")


def discover_players() -> dict[str, Player]:
    """Every kind folder's ``PLAYER``, by kind key (``tests/kinds/<folder>/player.py``)."""
    players = {}
    for info in pkgutil.iter_modules([str(HERE)]):
        if not info.ispkg or not (HERE / info.name / "player.py").exists():
            continue
        player = importlib.import_module(f"tests.kinds.{info.name}.player").PLAYER
        assert player.key not in players, f"two players for {player.key}"
        players[player.key] = player
    return players
