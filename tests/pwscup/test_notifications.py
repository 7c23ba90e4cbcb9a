"""Notifications: in the header's bell and on their page, and by e-mail to who asked —
when an upload is scored or fails, when a round freezes, when results are published."""

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from pwscup.accounts.services import team_join, user_create
from pwscup.notifications.kinds import notification_text
from pwscup.notifications.models import Notification
from pwscup.notifications.services import notification_preference_set
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import RoundOperation
from pwscup.pwscup2015.services.anonymization import anonymizations_rescore
from tests.pwscup.factories import run_operations, score, scored, upload

pytestmark = pytest.mark.django_db


def texts(user, language="en") -> list[str]:
    with translation.override(language):
        return [notification_text(n) for n in Notification.objects.filter(user=user)]


def test_a_scored_upload_notifies_every_member_of_the_team_once(world):
    mate = user_create(username="mate", password="pw")
    team_join(code=world.teams["a"].invitation_code, user=mate)
    submission = scored(world, "a", seed=1)
    expected = ["Your upload anonymized.csv in Round was scored."]
    assert texts(world.users["a"]) == expected and texts(mate) == expected
    assert texts(world.users["b"]) == []
    # A second delivery of the job and a rescore with the same outcome stay silent.
    services.anonymization_submission_score(submission_id=submission.pk)
    anonymizations_rescore(queryset=type(submission).objects.filter(pk=submission.pk))
    score(submission)
    assert Notification.objects.filter(user=mate).count() == 1
    notification = Notification.objects.get(user=mate)
    assert notification.url == world.round_url()


def test_a_failed_upload_notifies_in_each_readers_language(world):
    failed = score(upload(world, "a", b"not,a\ncsv,file\n"))
    assert failed.status == "failed"
    assert texts(world.users["a"]) == [
        "Your upload anonymized.csv in Round failed: the round page says why."
    ]
    assert texts(world.users["a"], "ja") == [
        "Round へのアップロード anonymized.csv は失敗しました。理由はラウンドのページにあります。"
    ]


def test_freeze_and_publish_notify_every_participant_once(world):
    for letter in "ab":
        scored(world, letter, seed=2)
    Notification.objects.all().delete()
    services.round_freeze_request(round=world.round)
    run_operations()
    for user in world.users.values():
        assert texts(user) == ["Round is frozen: the attack targets are published."]
    assert not Notification.objects.filter(user=world.organizer).exists()
    # The same freeze run again (a requeued job) does not notify again.
    operation = RoundOperation.objects.get(kind="freeze")
    from pwscup.pwscup2015.services.operations import freeze_run

    class Progress:
        def start(self, total):
            pass

        def advance(self, steps=1):
            pass

    freeze_run(operation=operation, progress=Progress())
    assert Notification.objects.filter(kind="round_frozen").count() == 3

    services.round_publish_request(round=world.round)
    run_operations()
    assert texts(world.users["c"])[0] == "The results of Round are published."
    notification = Notification.objects.filter(kind="results_published").first()
    assert notification.url == reverse("final_ranking", args=["cup", "r1"])


def test_a_direct_freeze_notifies_too(world):
    services.round_freeze(round=world.round)
    assert texts(world.users["b"]) == ["Round is frozen: the attack targets are published."]


def test_emails_go_only_to_who_asked_in_their_language(
    world, django_capture_on_commit_callbacks, settings
):
    settings.PWSCUP_SITE_URL = "https://cup.example.org"
    a, b = world.users["a"], world.users["b"]
    for user in (a, b):
        user.email = f"{user.username}@ex.org"
        user.save()
    notification_preference_set(user=a, email_enabled=True, language="ja")
    notification_preference_set(user=b, email_enabled=False, language="en")
    with django_capture_on_commit_callbacks(execute=True):
        services.round_freeze(round=world.round)
    assert [m.to for m in mail.outbox] == [["cup-team-a@ex.org"]]
    message = mail.outbox[0]
    assert message.subject == "[PWSCup] Round は凍結されました。攻撃対象が公開されています。"
    assert "https://cup.example.org/c/cup/r1/" in message.body
    assert "https://cup.example.org/accounts/profile/" in message.body


def test_a_mail_server_down_does_not_fail_the_job(
    world, django_capture_on_commit_callbacks, settings
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", 9  # nothing listens there
    settings.EMAIL_TIMEOUT = 2
    user = world.users["a"]
    user.email = "a@ex.org"
    user.save()
    notification_preference_set(user=user, email_enabled=True, language="en")
    with django_capture_on_commit_callbacks(execute=True):
        submission = scored(world, "a", seed=3)
    assert submission.status == "finished"
    assert Notification.objects.filter(user=user).count() == 1


def test_the_bell_counts_unread_and_the_list_marks_them_read(client, world):
    user = world.users["a"]
    scored(world, "a", seed=1)
    score(upload(world, "a", b"x\n1\n"))
    client.force_login(user)
    client.cookies["django_language"] = "en"
    home = client.get(reverse("home")).content.decode()
    assert '<span class="badge" data-testid="unread">2</span>' in home
    page = client.get(reverse("notification_list")).content.decode()
    assert "Your upload anonymized.csv in Round was scored." in page
    newest = Notification.objects.filter(user=user).first()
    response = client.post(reverse("notification_open", args=[newest.pk]))
    assert response["Location"] == world.round_url()
    assert (
        '<span class="badge" data-testid="unread">1</span>'
        in client.get(reverse("home")).content.decode()
    )
    client.post(reverse("notifications_read_all"))
    assert 'data-testid="unread"' not in client.get(reverse("home")).content.decode()


def test_nobody_opens_or_sees_anothers_notifications(client, world):
    scored(world, "a", seed=1)
    theirs = Notification.objects.get(user=world.users["a"])
    client.force_login(world.users["b"])
    assert client.post(reverse("notification_open", args=[theirs.pk])).status_code == 404
    page = client.get(reverse("notification_list")).content.decode()
    assert "anonymized.csv" not in page
    theirs.refresh_from_db()
    assert theirs.read_at is None
    client.logout()
    assert client.get(reverse("notification_list")).status_code == 302


@pytest.mark.parametrize(
    "language, heading", [("en", "<h1>Notifications</h1>"), ("ja", "<h1>お知らせ</h1>")]
)
def test_the_notification_page_in_both_languages(client, world, language, heading):
    client.force_login(world.users["a"])
    client.cookies["django_language"] = language
    assert heading in client.get(reverse("notification_list")).content.decode()
