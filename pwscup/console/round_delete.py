"""Deleting a round made by mistake (the console's *Delete the round*), for every kind.

A round goes only while nothing of a team or of the results hangs on it: no team has
uploaded anything to it (any kind's kept uploads: releases, estimates, attacks, slides),
its results were never published and no award names it. Then the round goes with what the
organizers gave it (its kind's settings and data, its phases, its place in the standings);
the audit log keeps the deletion, and the round's earlier entries, without the round. Once
the deletion has committed, the files its rows named leave the storage (originals, masters,
pools, packs, generated samples), except a file another row still names."""

from collections import deque

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pwscup.accounts.models import Award
from pwscup.competitions.models import AuditEntry, Round
from pwscup.competitions.services import audit_record
from pwscup.core.errors import Refused
from pwscup.core.stored_files import file_fields, files_named, unnamed_files_delete
from pwscup.kinds import kind_of
from pwscup.submissions.selectors import upload_models

# How many foreign keys a kept upload may sit away from its round (an attack → its target →
# the kind's part of the round → the round: three).
LOOKUP_DEPTH = 4


def round_lookup(model) -> str | None:
    """The lookup from ``model``'s rows to their round (``"target__sequential__round"``),
    found through the models' foreign keys (Django's public ``_meta`` API), the shortest
    first; ``None`` when its rows belong to no round. Written here because each kind keeps
    its uploads under its own part of the round and no kind declares the path."""
    queue = deque([(model, "")])
    while queue:
        current, path = queue.popleft()
        if path.count("__") >= LOOKUP_DEPTH:
            continue
        for field in current._meta.get_fields():
            if not (field.concrete and (field.many_to_one or field.one_to_one)):
                continue
            lookup = f"{path}__{field.name}" if path else field.name
            if field.related_model is Round:
                return lookup
            if field.related_model is not None:
                queue.append((field.related_model, lookup))
    return None


def round_uploads(round: Round) -> int:
    """How many files teams have uploaded to ``round``, over every kind's upload models."""
    total = 0
    for model in upload_models():
        lookup = round_lookup(model)
        if lookup is not None:
            total += model.objects.filter(**{lookup: round}).count()
    return total


def round_files(round: Round) -> dict:
    """The storage names of the files the rows of ``round`` hold (the round's own, its kind's
    part and everything reached from the round as ``round_lookup`` finds it), each with its
    storage: what the round's deletion takes with it."""
    files = files_named(Round.objects.filter(pk=round.pk))
    for model in dict.fromkeys(model for model, _field in file_fields()):
        lookup = round_lookup(model) if model is not Round else None
        if lookup is not None:
            files.update(files_named(model._default_manager.filter(**{lookup: round})))
    return files


def round_delete_refusal(round: Round) -> str:
    """Why ``round`` cannot be deleted (a sentence saying what to do), ``""`` when it can."""
    uploads = round_uploads(round)
    if uploads:
        return ngettext(
            "Teams have uploaded %(n)s file to this round: it cannot be deleted. Close its "
            "phases and leave it out of the standings instead.",
            "Teams have uploaded %(n)s files to this round: it cannot be deleted. Close its "
            "phases and leave it out of the standings instead.",
            uploads,
        ) % {"n": uploads}
    if kind_of(round).results_published(round):
        return _("The round's results were published: it cannot be deleted.")
    if Award.objects.filter(round=round).exists():
        return _("An award names this round: remove the award first, then delete the round.")
    return ""


def round_delete(*, user, round: Round) -> str:
    """Delete ``round`` (refused, ``Refused``, as ``round_delete_refusal`` says) and record
    it in its competition's log with the round's name and address; returns the name."""
    with transaction.atomic():
        round = Round.objects.select_for_update().select_related("competition").get(pk=round.pk)
        if refusal := round_delete_refusal(round):
            raise Refused(refusal)
        name, slug, competition = round.name, round.slug, round.competition
        files = round_files(round)
        round.delete()
        # The files go once the rows are gone for good (a rollback keeps both).
        transaction.on_commit(lambda: unnamed_files_delete(files), robust=True)
        audit_record(
            user=user,
            competition=competition,
            action=AuditEntry.Action.ROUND_DELETED,
            name=name,
            address=slug,
        )
    return name
