"""The organizers' group: the core's permissions and each kind's, and granting them."""

from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.db import transaction

from pwscup.competitions.admin_scope import CompetitionScopedAdmin
from pwscup.competitions.models import Competition
from pwscup.kinds import all_kinds
from pwscup.kinds.layout import kind_package

ORGANIZER_GROUP = "Organizers"
# What an organizer does in the admin with the core's models, on the competitions that list
# them as organizers: run rounds and teams. Competitions and their organizers are created by
# a superuser. Each kind's models are read there (``kind_admin_models``), and a kind may
# grant more on some of them (``RoundKind.organizer_permissions``).
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


def kind_admin_models(kind, *, site=admin.site) -> list:
    """The models of the kind's app (its package, ``kind_package``) that ``site`` shows on a
    page scoped to the user's competitions (a ``CompetitionScopedAdmin``: every kind's own
    pages, its kept uploads' included), or in an inline of such a page. A model whose page
    is not scoped is left out: an organizer must never read another competition's rows.
    ``[]`` for a kind outside an app (a test's throwaway kind)."""
    package = kind_package(kind)
    config = apps.get_containing_app_config(package) if package else None
    if config is None:
        return []
    pages = [
        site.get_model_admin(model) for model in config.get_models() if site.is_registered(model)
    ]
    scoped = [page for page in pages if isinstance(page, CompetitionScopedAdmin)]
    # An inline's rows are those of the scoped page's object it is shown on.
    shown = [page.model for page in scoped] + [
        inline.model for page in scoped for inline in page.inlines
    ]
    return [model for model in dict.fromkeys(shown) if model._meta.app_config is config]


def organizer_permissions() -> dict[str, dict[str, tuple[str, ...]]]:
    """``{app label: {model name: actions}}``: the core's ``ORGANIZER_PERMISSIONS``; for
    every registered kind, "view" on each of its ``kind_admin_models`` (organizers read the
    kind's rows of their competitions; its console and actions change them), then what the
    kind's ``organizer_permissions()`` declares, which replaces that for its models."""
    wanted = {app: dict(models) for app, models in ORGANIZER_PERMISSIONS.items()}
    for kind in all_kinds():
        granted = {model: ("view",) for model in kind_admin_models(kind)}
        granted.update(kind.organizer_permissions())
        for model, actions in granted.items():
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
