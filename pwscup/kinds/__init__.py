"""Round kinds: each game a round can play lives in one place (see docs/architecture.md, "Round kinds").

``from pwscup.kinds import RoundKind, register, kind_of, get_kind``.
"""

from pwscup.kinds.actions import AdminAction, RoundAction
from pwscup.kinds.base import RoundKind
from pwscup.kinds.registry import all_kinds, get_kind, kind_choices, kind_of, register, unregister

__all__ = [
    "AdminAction",
    "RoundAction",
    "RoundKind",
    "all_kinds",
    "get_kind",
    "kind_choices",
    "kind_of",
    "register",
    "unregister",
]
