"""The user's notifications: the list, opening one, marking them read."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from pwscup.notifications.kinds import notification_text
from pwscup.notifications.models import Notification
from pwscup.notifications.selectors import notifications_for_user
from pwscup.notifications.services import notifications_mark_read


@login_required
def notification_list(request):
    items = [(n, notification_text(n)) for n in notifications_for_user(user=request.user)]
    return render(request, "notifications/list.html", {"items": items})


@login_required
@require_POST
def notification_open(request, pk):
    """Mark one read and go where it points."""
    notification = get_object_or_404(Notification, pk=pk, user=request.user)
    notifications_mark_read(user=request.user, ids=[notification.pk])
    if notification.url and url_has_allowed_host_and_scheme(notification.url, allowed_hosts=None):
        return redirect(notification.url)
    return redirect("notification_list")


@login_required
@require_POST
def notifications_read_all(request):
    notifications_mark_read(user=request.user)
    return redirect("notification_list")
