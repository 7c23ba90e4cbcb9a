"""The interface every round kind implements (one game of the platform: its configuration,
phases, pages, console panel and leaderboards).

A kind lives in its own Django app (``pwscup/pwscup2015/``, ``pwscup/dp/``,
``pwscup/sequential/``, ``pwscup/synthetic/``, ``pwscup/scorer/``), keeps its settings and
state in its own model one-to-one with ``Round``, and registers one instance through its
``AppConfig``, a ``pwscup.kinds.registry.KindApp`` that names its class (``KindApp.ready()``
registers it)::

    from pwscup.kinds.registry import KindApp

    class DPConfig(KindApp, AppConfig):
        name = "pwscup.dp"
        kind = "pwscup.dp.kind.DPKind"

The core (pages, console, admin) asks the round's kind (``kind_of(round)``) and never branches
on the key.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from pwscup.kinds.choice_wording import UPLOAD_LOCK
from pwscup.kinds.face_hooks import FaceHooks
from pwscup.kinds.layout import KindModule
from pwscup.kinds.results_hooks import ResultsHooks


class RoundKind(FaceHooks, ResultsHooks):
    """One game a round can play. Subclass, set the attributes, override what you need.

    A kind laid out as every kind is (its class in ``<package>/kind.py``) declares none of
    the ``*_module`` attributes: each is the module of its name in the package
    (``standings_module`` is ``<package>/standings.py``, ``views_module`` the ``views``
    package; ``pwscup.kinds.layout``), ``None`` where there is none. A kind declares one
    only where it sits elsewhere (``api_module = round_status``).

    Attributes
    ----------
    key : str
        Stored in ``Round.kind`` (at most 32 characters, a slug); also the URL namespace of
        the kind's pages (``reverse("dp:query", kwargs={...})``).
    label : str
        Lazy-translated name shown to organizers and teams ("Differential privacy round").
    description : str
        Lazy-translated, one sentence, shown where an organizer picks a kind.
    local_check : str
        The toolkit's command a team runs on its own computer to check an upload as the
        server does (``"python -m scoring seq check"``), named where the platform refuses
        more failed uploads (``check_upload_bounds``); ``""``: none (the organizer's own
        program).
    namespaced : bool
        ``True`` (the rule): ``url_patterns()`` are mounted in the namespace ``key``. Only the
        first kind sets it to ``False``: its URL names predate kinds ("leaderboard", ...).
    standings_module : module
        Where the kind's rankings are read, by the names of the methods it answers:
        ``ranking_keys(round)``, ``published_rankings(round)``, ``named_scores(round)``
        (``score_names(round)``, ``scores_awaited(round)``) and, for a kind with an attack
        matrix, ``attack_cells(round)``. ``None``: no ranking.
    archive_module : module
        Where the kind's archive is made: ``archive_members(round, secrets=...)`` and
        ``data_card(round)``. ``None``: nothing archived.
    views_module, api_module, console_module : module
        The kind's pages, API and console (``pwscup.kinds.face_hooks.FaceHooks``).
    bundle_module : module
        The round in a competition bundle: ``round_bundle(round, anchor=, options=)`` and
        ``round_from_bundle(competition=, entry=, start=, user=)`` (``bundle_export``,
        ``bundle_import``), and ``bundle_schedule(settings)``.
    demo_module : module
        The kind's demo rounds: ``demo_load(competition, organizer=)`` (``demo_load``).
    counted_row : str
        The related name of the kind's own row (one-to-one with ``Round``) when its table
        counts toward the page generation (``accounts.PageGeneration``: the kind's migration
        adds the trigger, as ``pwscup2015/migrations/0007_page_generation_trigger.py``). Then
        the row is read with the round and cached with the round's access
        (``round_access``), and the kind's pages that answer 304 from versions
        (``pwscup.accounts.conditional.round_page_etag``) are kept: answered 304 from one
        read, before their view runs. Declare it only once the trigger is there, and pass
        ``round_page_etag`` no other row. ``""`` (the default): neither.
    counted_row_defer : tuple[str, ...]
        Fields of the counted row the pages do not read and that may be large (a kept list
        of ids): left out of the round's cached access, read from the database if asked
        for.
    """

    key: str = ""
    label = ""
    description = ""
    local_check: str = ""
    namespaced: bool = True
    archive_module = KindModule()
    bundle_module = KindModule()
    demo_module = KindModule()
    counted_row: str = ""
    counted_row_defer: tuple[str, ...] = ()
    # The names of the kind's phases (the core's ``Phase`` rows of its rounds) by their key:
    # its schedule, its refusals ("%(window)s closed at ...") and the admin say them.
    phase_labels: dict = {}
    # The console's page *Dates and limits* of the kind's phases, served by the core
    # (``pwscup.kinds.phases_edit.PhasesEdit``: what the kind's game refuses); ``None``: none
    # (a kind without ``Phase`` rows, or with an edit page of its own).
    phases_edit = None
    # The freeze at the release phase's close the core runs for the kind's rounds that ask for
    # it (``pwscup.kinds.auto_freeze.AutoFreeze``); ``None``: only the organizer freezes.
    auto_freeze = None
    # When a team's data pack is locked and who changes it after, as the data choice's
    # pages say it (``pwscup.kinds.choice_wording``): by default, its first upload.
    choice_wording = UPLOAD_LOCK

    @property
    def namespace(self) -> str | None:
        """The URL namespace the core mounts ``url_patterns()`` under (``None``: none)."""
        return self.key if self.namespaced else None

    # --- configuration ------------------------------------------------------------------

    def validate_config(self, config: dict, *, round=None) -> dict:
        """Return the normalised configuration, or raise ``ValidationError`` with the
        spec's messages (keyed by field when it helps). ``round_of_kind_create`` (the
        creation service every entry point calls: console, admin, API, commands) calls it
        without ``round``; an edit of an existing round passes ``round`` (a kind whose
        configuration is checked against the round's data needs it). The result is stored
        in ``Round.config``."""
        if not isinstance(config, dict):
            raise ValidationError({"config": _("The round configuration must be a JSON object.")})
        return config

    def phase_ended_at(self, phase):
        """When the kind's own lifecycle ended ``phase`` before its scheduled close (the 2015
        game's freeze ends its anonymization phase), else ``None``. The core's
        ``phase_closes_at`` takes the earlier of the two for every deadline it enforces.
        Read the state through ``phase.round`` (a caller that needs the latest value
        refreshes the round, which drops the relations cached on it)."""
        return None

    def phase_held(self, phase) -> str:
        """Why the kind takes no upload in ``phase`` whatever its dates say (its round waits
        for something of the organizers': a scorer round for the hidden data a bundle left
        out), in a sentence a team reads; ``""``: nothing holds it. The core's
        ``phase_state_held`` then says such a phase is ``held``, not ``open``, wherever a
        phase's state is told (the schedule, the API, the tabs)."""
        return ""

    def results_published(self, round) -> bool | None:
        """Whether the round's results are published to every participant (the console's
        list of rounds shows it); ``None``: the kind has no publication step."""
        return None

    def missing_phases(self, round) -> list[str]:
        """Labels of the phases the round still lacks before teams can play it (the
        competition page then shows the round as incomplete)."""
        return []

    def round_note(self, round) -> str:
        """One short line about the round shown under its name on the competition page and
        in the console's list of rounds (``""``: none)."""
        return ""

    # --- uploads and jobs ------------------------------------------------------------------

    def organizer_permissions(self) -> dict:
        """What an organizer may do in the admin with some of the kind's own models beyond
        reading them (on the competitions they organize: the admin pages are scoped), as
        ``{Model: ("view", "change"), ...}`` (Django's permission actions). The core already
        lets organizers read ("view") every model of the kind's app that the admin shows on
        a scoped page (``pwscup.accounts.services.organizers.kind_admin_models``); what a
        kind declares here replaces that for the models it names. ``{}`` (the default):
        organizers read the kind's rows and change them only through its console and
        actions."""
        return {}

    def jobs(self) -> list:
        """The kind's background jobs as ``pwscup.submissions.services.jobs.JobKind``
        (model, job fields, task name): the reaper requeues a run lost with its worker and
        resends a job whose message was lost, for every kind alike.

        A job whose model is a kept upload (``pwscup.submissions.models.KeptUpload``: one
        team's file per row, with ``team``, ``file``, ``sha256``, ``size``, ``number``,
        ``status``, ``created_at``) is one of the files teams upload in the kind's rounds:
        the core's upload pipeline (``upload_keep``) counts every such model for the
        team-wide bounds (failed uploads per round-local day, bytes kept per team;
        ``pwscup.submissions.selectors.upload_models``)."""
        return []

    def choice_change_refusal(self, round, team) -> str:
        """Why an organizer cannot change ``team``'s data pack in ``round`` now (the reason,
        shown as the refusal), ``""`` when it can (default). A kind that draws a team's rows
        from its pack once and keeps them refuses a change after the draw."""
        return ""

    def choice_kept(self, round) -> dict[int, str]:
        """The teams of ``round`` whose data does not follow the round's data choice, by team
        id, each with what its data is instead (a sentence the team's Data tab, the API and
        the organizer's data choice card show; its pick is then refused, and changes nothing).
        ``{}`` (default): every team's data follows its pack."""
        return {}

    def teams_changed(self, round) -> None:
        """The competition's teams changed (a team was created, someone joined, an admin
        edited a team): a kind that gives each team its own data draws it for new teams."""

    # --- lifecycle ---------------------------------------------------------------------------

    def teams_standing_changed(self, round) -> None:
        """A team of the round's competition was disqualified, reinstated or renamed by the
        organizers. The console's services call it for every round of the competition,
        whatever its kind, after the change (inside its transaction).

        The rule is the core's, ``pwscup.accounts.selectors.DisqualificationRule`` (read
        with ``disqualification_rule`` when a ranking is computed): every ranking a kind
        shows (leaderboards, final rankings, rank sums, attack rankings; its pages, CSV
        downloads, API answers and archive members) leaves the disqualified teams' rows out
        (``ranked``) after computing every team's numbers, while every attack counts
        (``attack_counts``: the safety of the targets it hit, the attack matrix) and the
        matrix keeps a disqualified team's target and row, ``marked``; a reinstated team is
        back on the next computation. A kind that keeps computed rankings (a cache) forgets them
        here; one that computes them on every read has nothing to do (the default)."""

    def console_actions(self, round) -> dict:
        """The round's lifecycle actions the console offers now, by URL name:
        ``{"close": pwscup.kinds.actions.RoundAction(...), ...}`` (close a phase now, freeze,
        score, publish, unpublish, rescore...). The core shows each behind the same
        confirmation page (its title, what it does, one button) and runs it only on POST;
        the action calls the kind's lifecycle services."""
        return {}

    # --- the admin ----------------------------------------------------------------------------

    def admin_actions(self) -> dict:
        """The actions the admin's list of rounds offers for rounds of this kind, by action
        name: ``{"freeze": pwscup.kinds.actions.AdminAction(description, perform), ...}``.
        ``perform(user=, round=)`` calls the same lifecycle services as the console's action
        and returns the message shown. The core's round admin (``pwscup.competitions``)
        runs an action only on the ticked rounds whose kind declares that name, and skips the
        others with a message; two kinds declaring the same name share one entry in the list
        (each round runs its own kind's). ``{}``: the console is the only place (default)."""
        return {}

    def admin_round_page(self):
        """The admin's page of this kind's rounds, or ``None`` (the default): the core's page,
        which edits what every round has (name, address, order, time zone) through
        ``round_core_update`` and shows the kind's settings read-only (the console edits them).

        A kind whose settings the admin edits returns a subclass of
        ``pwscup.competitions.admin_rounds.RoundPageAdmin`` (a ``ModelAdmin`` of ``Round``,
        scoped to the user's competitions); the core's round admin shows that page for the
        kind's rounds only, so that no kind's form ever checks another kind's round. Its
        ``adds_rounds = True`` also makes it the admin's *Add round* page (the first
        registered kind that sets it)."""
        return None

    # --- competition bundles and the results archive ---------------------------------------

    def bundle_export(self, round, *, anchor, options=None):
        """The round as a competition bundle holds it: a ``pwscup.kinds.bundles.RoundBundle``
        of its settings (configuration, schedule as ``schedule_offsets(windows, anchor)``,
        limits) and its organizer files (original, samples). ``bundle_import`` of the result, then
        ``bundle_export`` again with the same anchor, gives equal settings and files.
        ``options``: the export's ``pwscup.kinds.bundles.ExportOptions`` (``None``: the
        defaults); a kind without hidden data ignores them. Default: the declared
        ``bundle_module``'s ``round_bundle``."""
        if self.bundle_module is None:
            raise NotImplementedError
        return self.bundle_module.round_bundle(round, anchor=anchor, options=options)

    def bundle_import(self, *, competition, entry, start, user):
        """Create the round ``entry`` (a ``pwscup.kinds.bundles.RoundEntry``) in
        ``competition``, its schedule ``window_at_offsets`` (or ``at_offset``), through the same
        services as the kind's console (every check they make). Raises ``ValidationError``
        keyed by the settings' field (``"levels[2].epsilon"``) or the file's role, with a
        message naming the value. Returns the ``Round``. Runs inside the import's
        transaction; every file it saves is removed again if the import fails. Default: the declared ``bundle_module``'s ``round_from_bundle``."""
        if self.bundle_module is None:
            raise NotImplementedError
        return self.bundle_module.round_from_bundle(
            competition=competition, entry=entry, start=start, user=user
        )

    def bundle_schedule(self, settings) -> list[tuple]:
        """The round's windows as a bundle's ``settings`` hold them (``bundle_export`` wrote
        them), ``(opens_at, closes_at)`` each a ``datetime.timedelta`` after the bundle's
        anchor (``None``: no such time, or no duration: ``bundle_import`` refuses it), as
        ``bundle_import`` would place them at an anchor: an import of some of a bundle's
        rounds puts the earliest of them on its start (``schedule_anchor``). Nothing is
        checked. Default: the declared ``bundle_module``'s ``bundle_schedule``; ``[]``
        without one (the rounds keep their distance from the bundle's anchor)."""
        if not isinstance(settings, dict):
            return []
        return self._declared(self.bundle_module, "bundle_schedule", [], settings)

    def archive_members(self, round, *, secrets: frozenset[str]):
        """The round's published outcome for the results archive, as
        ``pwscup.kinds.archives.ArchiveMember`` s: its leaderboards and scores as CSV,
        published targets, attack matrix, final ranking (whatever the kind has). A member
        holding an original, a sample, a permutation or ground truth carries that key of
        ``SECRETS`` and is returned only when the key is in ``secrets``. Called only for a
        round whose ``results_published`` is not ``False``."""
        if self.archive_module is None:
            return []
        return self.archive_module.archive_members(round, secrets=secrets)

    def data_card(self, round) -> dict:
        """What the round was played on, for the archive's data card (JSON): ``{"original":
        {"rows": int, "sha256": str, "description": str}, or ``"rows": None`` and ``"files":
        [str]`` for a ZIP of files), "columns": [{"name": str, "role":
        str}, ...], "rules": str}`` (``role``: quasi-identifier, sensitive, ...; ``rules``:
        the ranking rule and gates in plain words)."""
        return self._declared(self.archive_module, "data_card", {}, round)

    # --- demo ---------------------------------------------------------------------------------

    def demo_load(self, competition, *, organizer) -> None:
        """Add the kind's demo rounds to ``competition`` (those it lacks), in the kind's
        module (``pwscup/<kind>/demo.py``). ``manage.py load_demo`` creates the competition,
        the organizer (``organizer``), the accounts and the teams, then calls every
        registered kind's ``demo_load`` in the registry's order (the first kind first): the
        command knows no game. Default: the declared ``demo_module``'s ``demo_load``."""
        if self.demo_module is not None:
            self.demo_module.demo_load(competition, organizer=organizer)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r}>"

    # --- schedule -----------------------------------------------------------------------------

    def schedule_lines(self, round) -> list[dict]:
        """The round's schedule as the competition page shows it, one line per window:
        ``{"label": str, "opens_at": datetime | None, "closes_at": datetime | None,
        "state": "upcoming" | "open" | "held" | "closed" | "frozen", "held": str}`` (the
        page shows the dates in the round's time zone, ``None`` as "—"; ``held``: why a
        window open by its dates takes no upload, ``phase_held``, else ``""``), and
        ``"planned_closes_at"`` when a window closed before its plan
        (``pwscup.competitions.windows.schedule_line``: ``closes_at`` is then when it really
        closed). ``[]``: nothing is scheduled yet."""
        return []

    def schedule_plan(self, round) -> list[tuple]:
        """The round's windows as the organizer planned them, ``(opens_at, closes_at)`` each
        (``None``: no such time): what a bundle exports, so its start is the earliest planned
        opening. A window an action moved (*Close now*, a publication) gives its plan
        (``UploadDates.planned_window``). Default: the times of ``schedule_lines``, for a
        kind whose windows no action moves."""
        return [(line["opens_at"], line["closes_at"]) for line in self.schedule_lines(round)]
