"""Accounts and teams: sign-up, registering and joining a team, the captain's actions.

One module per thing written: ``teams`` (names, registering, joining, the captain's actions,
members), ``users`` (sign-up, passwords, the accounts scripts make), ``organizers`` (the
organizers' group and its permissions) and ``awards`` (the judged awards). Callers import
from here.
"""

from pwscup.accounts.services.awards import award_create, award_delete, award_update
from pwscup.accounts.services.organizers import (
    ORGANIZER_GROUP,
    ORGANIZER_PERMISSIONS,
    organizer_grant,
    organizer_group_ensure,
    organizer_permissions,
)
from pwscup.accounts.services.teams import (
    SLUG_MAX_LENGTH,
    TEAM_NAME_MAX_LENGTH,
    membership_add,
    team_create,
    team_invitation_renew,
    team_join,
    team_member_remove,
    team_name_check,
    team_slug_generate,
)
from pwscup.accounts.services.users import (
    user_create,
    user_email_set,
    user_get_or_create,
    user_name_validate,
    user_password_set,
    user_sign_up,
)

__all__ = [
    "ORGANIZER_GROUP",
    "ORGANIZER_PERMISSIONS",
    "SLUG_MAX_LENGTH",
    "TEAM_NAME_MAX_LENGTH",
    "award_create",
    "award_delete",
    "award_update",
    "membership_add",
    "organizer_grant",
    "organizer_group_ensure",
    "organizer_permissions",
    "team_create",
    "team_invitation_renew",
    "team_join",
    "team_member_remove",
    "team_name_check",
    "team_slug_generate",
    "user_create",
    "user_email_set",
    "user_get_or_create",
    "user_name_validate",
    "user_password_set",
    "user_sign_up",
]
