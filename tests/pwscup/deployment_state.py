"""What a deployment holds, printed as JSON, so that the backup test compares an original
with its restored copy through the same code: ``python -m tests.pwscup.deployment_state``
run with a deployment's environment (database, folder or bucket). With ``--then-write``, in
the same process (a Django start is 2 s of CPU), after the state is read: the deployment's
schema is the code's (``migrate --check``, its system checks included: status 1 when a
migration is not applied) and it takes a new audit row, whose key is printed too.

It reads everything as a user or an organizer would get it: the rankings through the
leaderboard selectors, every file a row names through the storage API (its SHA-256), the
audit log's rows, and the number of rows of every table.
"""

import hashlib
import json


def sha256_in(storage, name: str) -> str:
    digest = hashlib.sha256()
    with storage.open(name, "rb") as handle:
        for chunk in handle.chunks():
            digest.update(chunk)
    return digest.hexdigest()


def files() -> dict:
    """Every (model, pk, field) that names a file, and each named file's SHA-256."""
    from django.apps import apps
    from django.core.files.storage import default_storage
    from django.db import models

    references, contents = [], {}
    for model in apps.get_models():
        if model._meta.proxy:
            continue
        for field in model._meta.get_fields():
            if not isinstance(field, models.FileField):
                continue
            for pk, name in model._meta.base_manager.values_list("pk", field.attname):
                if name:
                    references.append([model._meta.label_lower, pk, field.name, name])
                    contents[name] = sha256_in(default_storage, name)
    return {"references": sorted(references), "sha256": contents}


def leaderboards() -> list:
    from pwscup.competitions.models import Phase, Round
    from pwscup.pwscup2015.leaderboards.selectors import (
        anonymization_leaderboard,
        attack_matrix,
        final_ranking,
    )

    boards = []
    for round_ in Round.objects.filter(kind="pwscup2015").order_by("pk"):
        phase = round_.phases.get(kind=Phase.Kind.ANONYMIZATION)
        matrix = attack_matrix(round=round_)
        anonymization, attack = final_ranking(round=round_)
        boards.append(
            {
                "round": [round_.competition.slug, round_.slug],
                "leaderboard": [
                    [row.rank, row.team.slug, row.submission.pk, row.scores, row.safety]
                    for row in anonymization_leaderboard(phase=phase)
                ],
                "matrix": sorted(
                    [attacker, target, cell.best, cell.latest, cell.count]
                    for (attacker, target), cell in matrix.cells.items()
                ),
                "final_anonymization": [
                    [row.rank, row.team.slug, row.target.pk, row.safety] for row in anonymization
                ],
                "final_attack": [
                    [row.rank, row.team.slug, row.mean_rate, row.targets_attacked] for row in attack
                ],
            }
        )
    return boards


def audit_log() -> list:
    from pwscup.competitions.models import AuditEntry

    return [
        [
            entry.pk,
            entry.competition_id,
            entry.round_id,
            entry.user_id,
            entry.action,
            entry.detail,
            entry.created_at.isoformat(),
        ]
        for entry in AuditEntry.objects.order_by("pk")
    ]


def row_counts() -> dict:
    from django.apps import apps

    return {
        model._meta.label_lower: model._meta.base_manager.count()
        for model in apps.get_models(include_auto_created=True)
        if not model._meta.proxy
    }


def state() -> dict:
    return {
        "leaderboards": leaderboards(),
        "files": files(),
        "audit_log": audit_log(),
        "rows": row_counts(),
    }


def written() -> int:
    """The schema checked (``SystemExit`` when it is not the code's), then a new row's key."""
    from django.core.management import call_command

    from pwscup.competitions.models import Competition
    from pwscup.competitions.services import audit_record

    call_command("migrate", check_unapplied=True, skip_checks=False, verbosity=0)
    return audit_record(
        user=None, competition=Competition.objects.get(), action="competition_edited"
    ).pk


if __name__ == "__main__":
    import sys

    import django

    django.setup()
    read = state()
    if "--then-write" in sys.argv[1:]:
        print(json.dumps({"state": read, "written": written()}, sort_keys=True))
    else:
        print(json.dumps(read, sort_keys=True))
