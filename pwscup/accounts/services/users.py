"""Accounts: signing up, user names, passwords, and the accounts that scripts and demos make."""

import logging

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)


def user_name_validate(*, username: str) -> None:
    """A new user name's rules beyond the user model's, raising ``ValidationError``.

    ASCII letters, digits and ``@.+-_`` only: a look-alike (``оrganizer`` with a Cyrillic
    ``о``) cannot pass for another account. User names are log-in identifiers typed in forms and
    commands; what others see of a participant is the team name, which may be in any script.
    And unique whatever the case: ``Organizer`` is taken when ``organizer`` is.
    """
    ASCIIUsernameValidator()(username)
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise ValidationError(_("A user with that username already exists."), code="unique")


def user_sign_up(*, username: str, email: str, password: str, password_reset_url: str):
    """A participant's own account (no staff rights).

    The answer never tells whether the e-mail address is registered: an address already in use
    gets the account all the same (the user name is the identity, not the address), and its
    owner an e-mail saying so, with ``password_reset_url`` in case they forgot they had one.
    """
    user_name_validate(username=username)
    user_model = get_user_model()
    password_validation.validate_password(password, user_model(username=username, email=email))
    owners = list(
        user_model.objects.filter(email__iexact=email, is_active=True).values_list(
            "username", flat=True
        )
    )
    user = user_model.objects.create_user(username=username, email=email, password=password)
    if owners:
        _sign_up_notice_send(
            email=email, new_username=username, owners=owners, password_reset_url=password_reset_url
        )
    return user


def _sign_up_notice_send(
    *, email: str, new_username: str, owners: list[str], password_reset_url: str
) -> None:
    context = {
        "new_username": new_username,
        "owners": ", ".join(owners),
        "password_reset_url": password_reset_url,
    }
    subject = " ".join(
        render_to_string("registration/signup_email_in_use_subject.txt", context).split()
    )
    body = render_to_string("registration/signup_email_in_use.txt", context)
    try:
        send_mail(subject, body, None, [email])
    except Exception:  # noqa: BLE001 - a mail server down must not fail the sign-up
        log.exception("sending the e-mail-in-use notice failed")


@transaction.atomic
def user_password_set(*, user, password: str):
    """Give ``user`` a new password (reset by e-mail or changed on the site): whoever held the
    old password, or a token made with it, is out.

    Nothing to do here for that, as for a password set in the admin or by
    ``changepassword``: Django checks each session against a hash of the password on every
    request (the page that made the change keeps its session by
    ``update_session_auth_hash``), and an API token carries such a hash too
    (``pwscup.api.models.password_binding``)."""
    user.set_password(password)
    user.save(update_fields=["password"])
    return user


def user_email_set(*, user, email: str, password: str):
    """Give ``user`` a new e-mail address, where notifications and password resets go.
    The account's password is asked for (``ValidationError`` keyed ``password``): whoever
    finds a session left open cannot send the next reset link to an address of theirs."""
    if not user.check_password(password or ""):
        raise ValidationError(
            {"password": _("This is not your password: the address is not changed.")},
            code="password_incorrect",
        )
    user.email = get_user_model().objects.normalize_email(email.strip())
    user.save(update_fields=["email"])
    return user


def user_create(*, username: str, password: str, email: str = "", is_staff: bool = False):
    user_model = get_user_model()
    user, _ = user_model.objects.get_or_create(username=username, defaults={"email": email})
    user.set_password(password)
    user.is_staff = is_staff
    user.save()
    return user


def user_get_or_create(
    *, username: str, password: str, is_staff: bool = False, is_superuser: bool = False
):
    """``(user, created)``: an existing account is returned untouched (password, flags). A
    superuser is made staff too (the admin lets in staff only)."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is not None:
        return user, False
    return user_model.objects.create_user(
        username=username,
        password=password,
        is_staff=is_staff or is_superuser,
        is_superuser=is_superuser,
    ), True
