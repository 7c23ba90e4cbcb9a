"""The one place that knows which round kinds exist (filled by the apps' ``ready()``)."""

from django.core.exceptions import ValidationError
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _

from pwscup.kinds.base import RoundKind
from pwscup.kinds.layout import kind_modules_load

_KINDS: dict[str, RoundKind] = {}


def register(kind: RoundKind) -> RoundKind:
    """Register ``kind`` under ``kind.key`` (again with the same class: replaced, so that a
    reloaded app does no harm; another class under a taken key: ``ValueError``), its modules
    imported (``kind_modules_load``)."""
    if not kind.key or len(kind.key) > 32:
        raise ValueError(f"A round kind needs a key of 1 to 32 characters, not {kind.key!r}.")
    known = _KINDS.get(kind.key)
    if known is not None and type(known) is not type(kind):
        raise ValueError(f"The round kind {kind.key!r} is already registered by {known!r}.")
    kind_modules_load(kind)
    _KINDS[kind.key] = kind
    return kind


class KindApp:
    """What a kind's ``AppConfig`` inherits (``class DPConfig(KindApp, AppConfig)``): it
    declares ``kind``, the dotted path of its ``RoundKind`` class, and ``ready()`` registers
    one. The class is imported only then: models may be imported only once the app registry
    is ready (Django's rule for ``ready()``)."""

    kind = ""

    def ready(self) -> None:
        register(import_string(self.kind)())


def unregister(key: str) -> None:
    """Forget a kind (tests register toy kinds and remove them afterwards)."""
    _KINDS.pop(key, None)


def all_kinds() -> list[RoundKind]:
    """Every registered kind, in registration order (the first kind first)."""
    return list(_KINDS.values())


def kind_choices() -> list[tuple[str, str]]:
    """``(key, label)`` pairs for forms and the admin."""
    return [(kind.key, kind.label) for kind in _KINDS.values()]


def get_kind(key: str) -> RoundKind:
    """The kind registered under ``key``; ``ValidationError`` (field ``kind``) if none is."""
    try:
        return _KINDS[key]
    except (KeyError, TypeError):
        raise ValidationError(
            {
                "kind": _("Unknown round kind %(value)s: choose one of %(kinds)s.")
                % {"value": repr(key)[:40], "kinds": ", ".join(_KINDS) or "-"}
            }
        ) from None


def kind_of(round) -> RoundKind:
    """The kind of a round (a ``Round``)."""
    return get_kind(round.kind)
