"""Creating and revoking personal API tokens from the profile page (thin over services)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.api.services import api_token_create, api_token_revoke
from pwscup.core.errors import Refused


@login_required
@require_POST
def token_create(request):
    try:
        new = api_token_create(user=request.user, name=request.POST.get("name", ""))
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect("profile")
    # The secret is shown on this answer only: it is stored hashed and never shown again.
    response = render(
        request,
        "api/token_created.html",
        {"token": new.token, "secret": new.secret, "api_url": request.build_absolute_uri("/")},
    )
    add_never_cache_headers(response)
    return response


@login_required
@require_POST
def token_revoke(request, token_id: int):
    try:
        token = api_token_revoke(user=request.user, token_id=token_id)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("profile")
