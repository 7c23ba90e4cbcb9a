"""The organizers' group: the core's permissions and each kind's, and granting them."""

from django.contrib.auth.models import Group, Permission
from django.db import transaction

from pwscup.competitions.models import Competition
from pwscup.kinds import all_kinds

ORGANIZER_GROUP = "Organizers"
# What an organizer does in the admin with the core's models, on the competitions that list
# them as organizers: run rounds and teams. Competitions and their organizers are created by
# a superuser. Each kind adds its own models (``RoundKind.organizer_permissions``).
ORGANIZER_PERMISSIONS = {
    "competitions": {
        "competition": ("view", "change"),
        "round": ("view", "add", "change", "delete"),
        "phase": ("view", "add", "change", "delete"),
    },
    "accounts": {
        "team": ("view", "add", "change", "delete"),
        "membership": ("view", "add", "change", "delete"),
    },
}


def organizer_permissions() -> dict[str, dict[str, tuple[str, ...]]]:
    """``{app label: {model name: actions}}``: the core's ``ORGANIZER_PERMISSIONS`` and
    every registered kind's ``organizer_permissions()``."""
    wanted = {app: dict(models) for app, models in ORGANIZER_PERMISSIONS.items()}
    for kind in all_kinds():
        for model, actions in kind.organizer_permissions().items():
            meta = model._meta
            wanted.setdefault(meta.app_label, {})[meta.model_name] = tuple(actions)
    return wanted


@transaction.atomic
def organizer_group_ensure() -> Group:
    """The group holding ``organizer_permissions()`` (created, or brought up to date)."""
    group, _ = Group.objects.get_or_create(name=ORGANIZER_GROUP)
    by_app = organizer_permissions()
    wanted = [
        (app, f"{action}_{model}")
        for app, models in by_app.items()
        for model, actions in models.items()
        for action in actions
    ]
    permissions = list(
        Permission.objects.filter(
            content_type__app_label__in=by_app,
            codename__in=[codename for _app, codename in wanted],
        ).select_related("content_type")
    )
    found = {(p.content_type.app_label, p.codename) for p in permissions}
    missing = sorted(set(wanted) - found)
    if missing:
        raise LookupError(f"Permissions missing (run migrate first): {missing}")
    group.permissions.set(permissions)
    return group


@transaction.atomic
def organizer_grant(*, user, competition: Competition) -> None:
    """Make ``user`` an organizer of ``competition``: staff, in the organizers' group."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.groups.add(organizer_group_ensure())
    competition.organizers.add(user)
