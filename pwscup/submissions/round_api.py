"""What every kind's REST answers share, so that a kind's ``api/`` only declares what differs:
the round's part or 404, who may ask (a team, a participant), the targets of a two-sided
round's attack phase as a team may see them, and the pieces of the round status every kind
answers in the same shape (a download, a metric, an upload's scores with their texts).

The refusals are 404s with the pages' messages, in the caller's language.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from rest_framework.response import Response

from scoring.display import UNDEFINED, format_number


def score_text(value) -> str:
    """A score as the API's ``scores_text`` prints it (``scoring.display.format_number``);
    "–" for none."""
    return UNDEFINED if value is None else format_number(value)


def score_cell(value) -> float | None:
    """A score's cell of a standings table (``ranking_table``): its exact value, a number the
    API's ``rows_text`` writes as the pages do (``scoring.display.format_cell``: 4 decimals,
    a whole one too); ``None`` for none."""
    return None if value is None else float(value)


def scores_answer(scores: dict, *, text=score_text) -> dict:
    """An upload's ``scores`` and their ``scores_text`` (``text`` of each value)."""
    return {"scores": scores, "scores_text": {key: text(value) for key, value in scores.items()}}


def present_scores(scores: dict | None, keys) -> dict:
    """The scores of ``keys`` that ``scores`` holds a value for, in the order of ``keys``."""
    return {key: scores[key] for key in keys if scores and scores.get(key) is not None}


def round_args(round_) -> list:
    """The round's place in the API's addresses: its competition's slug and its own."""
    return [round_.competition.slug, round_.slug]


def download(name: str, label: str, url: str, *, target=None) -> dict:
    """One entry of the round status's ``downloads``, the same shape for every kind:
    ``target``, the team whose target (frozen release) the file is of (``None``: a file of
    no target), is marked by its slug, which ``pwscup targets --download`` saves by."""
    slug = target.slug if target is not None else None
    return {"name": name, "label": label, "url": url, "target": slug}


def api_download(access, url_name: str, name: str, label: str, *args, query: str = "") -> dict:
    """One entry of the round status's ``downloads``: the file ``name`` at the API's
    endpoint ``url_name`` under the caller's round (``args``: the route's values after the
    round's, ``query``: its query string); a file of no target (a target's:
    ``target_download``)."""
    url = reverse(f"api:{url_name}", args=[*round_args(access.round), *args])
    return download(name, label, f"{url}?{query}" if query else url)


def target_download(access, url_name: str, name: str, label: str, team, *args) -> dict:
    """One entry of the round status's ``downloads`` that is a published file of the target
    of ``team``: at the kind's endpoint ``url_name`` routed by the team's slug (then
    ``args``) and marked ``target`` by the same slug, so that no kind lists a target's file
    unmarked (the API says ``null`` for a file of no target)."""
    url = reverse(f"api:{url_name}", args=[*round_args(access.round), team.slug, *args])
    return download(name, label, url, target=team)


def target_downloads(access, targets, files: Callable) -> list[dict]:
    """The round status's ``downloads`` of the published files of ``targets`` (rows with a
    ``team``), each a ``target_download``: ``files(target)`` lists them as ``(url_name,
    name, label, *args)``, the ``label`` naming the target's team as ``%(team)s``."""
    return [
        target_download(access, url_name, name, label % {"team": target.team.name}, target.team, *a)
        for target in targets
        for url_name, name, label, *a in files(target)
    ]


def metric(key: str, name: str, *, headline: bool, note: str = "") -> dict:
    """One entry of the round status's ``metrics``."""
    return {"key": key, "name": name, "note": note, "headline": headline}


def upload_files(rule=None) -> dict:
    """An upload type's ``files`` in the round status, the same shape for every kind: the
    file names or patterns an upload must hold (``required``; empty: one file, of any name),
    whether it may hold no other (``only_required``) and whether they go in one ZIP
    (``zip``). ``rule``: what a kind requires (``required``, ``only_required``,
    ``needs_zip``: ``scoring.scorer.upload_files.FileRule``); ``None``: nothing."""
    if rule is None:
        return {"required": [], "only_required": False, "zip": False}
    return {
        "required": list(rule.required),
        "only_required": rule.only_required,
        "zip": rule.needs_zip,
    }


def part_or_404(part):
    """The kind's part of the round, 404 for a round without one."""
    if part is None:
        raise Http404
    return part


def require_team(access):
    """The caller's team; 404 for a caller in no team of the competition."""
    if access.team is None:
        raise Http404(_("Not in a team of this competition."))
    return access.team


def is_participant(access) -> bool:
    """Whether the caller is in a team of the competition or organizes it."""
    return access.team is not None or access.is_organizer


def require_participant(access) -> None:
    """404 unless the caller is a participant (``is_participant``)."""
    if not is_participant(access):
        raise Http404(_("Not a participant."))


def require_targets(part) -> None:
    """404 until the releases of the kind's part (``part.frozen_at``) are frozen: before,
    there are no targets."""
    if part.frozen_at is None:
        raise Http404(_("The releases are not frozen yet: there are no targets."))


def others_targets(access, part, read_targets) -> list:
    """Of the targets ``read_targets()`` reads (rows with a ``team``), those the caller may
    download in the attack phase: after the freeze, every other team's (all of them for an
    organizer); 404 before the freeze and for a caller who is not a participant (the targets
    are read only then)."""
    require_targets(part)
    require_participant(access)
    own = access.team.pk if access.team is not None else None
    return [target for target in read_targets() if target.team_id != own]


def no_target(team_slug: str, choices: Iterable[str] = ()) -> Http404:
    """The 404 of an attack upload or a target's file naming a team with no target the
    caller may reach: every kind answers it, the team named, and the slugs the caller may
    name (``choices``, the round status's choices of ``target``), so that a slug typed in the
    wrong case (``teamb`` for ``teamB``) is told what to type."""
    if choices := list(choices):
        return Http404(
            _("No published target of the team %(team)s. Name one of: %(choices)s.")
            % {"team": team_slug, "choices": ", ".join(choices)}
        )
    return Http404(_("No published target of the team %(team)s.") % {"team": team_slug})


def target_named(targets, team_slug: str):
    """The target of the team ``team_slug`` among ``targets``; 404 for none."""
    for target in targets:
        if target.team.slug == team_slug:
            return target
    raise no_target(team_slug, [target.team.slug for target in targets])


@dataclass(frozen=True)
class AttackTargets:
    """The targets of a two-sided round's attack phase as a caller may download them,
    declared by a kind: ``read`` reads the round's targets (rows with a ``team``) and
    ``as_json`` says one in the kind's list of targets, both taking the kind's part by the
    keyword ``part_keyword`` (``selectors.targets(synthetic=part)``)."""

    read: Callable
    as_json: Callable
    part_keyword: str

    def of(self, access, part) -> list:
        """The targets the caller may download (``others_targets``: 404 before the freeze
        and for a caller who is not a participant)."""
        return others_targets(access, part, partial(self.read, **{self.part_keyword: part}))

    def named(self, access, part, team_slug: str):
        """The target of the team ``team_slug`` the caller may download (404 otherwise)."""
        return target_named(self.of(access, part), team_slug)

    def file(self, respond: Callable) -> Callable:
        """A ``RoundEndpoint``'s answer serving a file of one target (its route names the
        team by ``<str:team_slug>``): ``respond(target)`` of the target the caller may
        download (``named``: 404 otherwise)."""

        def answer(request, access, part, team_slug):
            return respond(self.named(access, part, team_slug))

        return answer

    def answer(self, request, access, part) -> Response:
        """The kind's list of targets (a ``RoundEndpoint``'s answer)."""
        given = {self.part_keyword: part}
        return Response([self.as_json(target, **given) for target in self.of(access, part)])


def team_ref(team) -> dict:
    """A team as an answer names it."""
    return {"name": team.name, "slug": team.slug}


def ranking_table(title, columns: list, rows) -> dict:
    """One table of the round's standings (the API's ``…/standings/``): ``Rank`` and
    ``Team`` first, then ``columns``; each of ``rows`` is ``[rank, team's name, *cells]``."""
    return {"title": title, "columns": [_("Rank"), _("Team"), *columns], "rows": list(rows)}


def two_sided_tables(release_columns: list, releases, attack_column: str, attacks) -> list:
    """A two-sided round's standings: its release ranking (``release_columns`` after Rank
    and Team) and its attack ranking (``attack_column``, the attacker's score, then how
    many targets it attacked); rows as ``ranking_table``'s."""
    return [
        ranking_table(_("Release ranking"), release_columns, releases),
        ranking_table(_("Attack ranking"), [attack_column, _("Targets attacked")], attacks),
    ]


@dataclass(frozen=True)
class RoundStatus:
    """A kind's answer to the API's round status (its ``api_module``'s ``round_status``),
    declared: the core reads the kind's part of the round (``part(round)``, ``None``: the
    round has none, nothing to say), the scores' names (``metrics(part)``) and, for a
    participant only (a team's member or an organizer), the files the caller may download
    now (``downloads(access, part)``) and what the round's pages tell the caller's team now
    (``notes(access, part)``: ``[{"key", "text"}]``, none when the kind declares none)."""

    part: Callable
    metrics: Callable
    downloads: Callable
    notes: Callable | None = None

    def __call__(self, request, access) -> dict:
        answer = {"downloads": [], "metrics": [], "notes": []}
        part = self.part(access.round)
        if part is None:
            return answer
        answer["metrics"] = self.metrics(part)
        if is_participant(access):
            answer["downloads"] = self.downloads(access, part)
            if self.notes is not None:
                answer["notes"] = self.notes(access, part)
        return answer
