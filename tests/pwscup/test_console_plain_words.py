"""Words a lecturer needs in the console: what each column role of the 2015 wizard means (in
both languages), who grants the right to create competitions (the console's 403 for a fresh
account), and slide limits typed in megabytes."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from pwscup.presentations.models import PresentationWindow
from tests.support import adult_head, csv_upload

pytestmark = pytest.mark.django_db


def _roles_page(client, world, language):
    client.force_login(world.organizer)
    url = reverse("pwscup2015_console:wizard_upload", args=[world.competition.slug])
    upload = csv_upload(adult_head(30), "adult.csv")
    assert client.post(url, {"original": upload}).status_code == 302
    roles = reverse("pwscup2015_console:wizard_roles", args=[world.competition.slug])
    return client.get(roles, headers={"accept-language": language}).content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            [
                "Quasi-identifiers: what an attacker may already know about a person",
                "Columns of the cross tables: U2 and U3 group the rows",
                "The QI columns an attacker matches on",
                "The SA columns the Euclidean attack (EUC1, EUC2) compares",
                "The one SA column attacks E2 and E4 compare",
            ],
        ),
        (
            "ja",
            [
                "準識別子（QI）",
                "クロス集計の列",
                "攻撃者が行を突き合わせるときに使う QI 列",
                "ユークリッド距離攻撃（EUC1、EUC2）",
                "攻撃 E2 と E4 が比べる SA 列",
            ],
        ),
    ],
)
def test_the_roles_grid_says_what_each_role_means(client, world, language, words):
    page = _roles_page(client, world, language)
    assert 'data-testid="role-notes"' in page
    for word in words:
        assert word in page, word


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            [
                "granted by a site administrator",
                "Who may create competitions",
                "docs/organizers.md",
            ],
        ),
        ("ja", ["サイト管理者", "コンペティションを作成できるアカウント", "docs/organizers.md"]),
    ],
)
def test_a_fresh_account_is_told_who_grants_the_console(client, language, words):
    fresh = get_user_model().objects.create_user("newcomer", password="pw")
    client.force_login(fresh)
    response = client.get(reverse("console:home"), headers={"accept-language": language})
    assert response.status_code == 403
    page = response.content.decode()
    for word in words:
        assert word in page, word


def test_a_slide_limit_typed_in_megabytes_is_kept_in_bytes(client, world):
    staff = world.organizer
    client.force_login(staff)
    slug = world.competition.slug
    new_url = reverse("presentations:window_new", args=[slug])
    page = client.get(new_url).content.decode()
    assert "Largest PDF (MB)" in page and 'name="max_megabytes"' in page
    assert "bytes)" not in page.replace("1,048,576 bytes)", "")
    response = client.post(
        new_url,
        {
            "title": "Talks",
            "opens_at": "2030-01-01T10:00",
            "closes_at": "2030-01-02T10:00",
            "time_zone": "Asia/Tokyo",
            "max_megabytes": "2.5",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    window = PresentationWindow.objects.get(title="Talks")
    assert window.max_bytes == 2_621_440  # 2.5 × 1,048,576
    edit = client.get(reverse("presentations:window_edit", args=[slug, window.pk]))
    assert edit.context["form"]["max_megabytes"].value() == pytest.approx(2.5)


def test_a_slide_limit_above_the_platform_s_is_refused_in_megabytes(client, world, settings):
    settings.PWSCUP_SLIDES_MAX_BYTES = 20 * 1024 * 1024
    client.force_login(world.organizer)
    response = client.post(
        reverse("presentations:window_new", args=[world.competition.slug]),
        {
            "opens_at": "2030-01-01T10:00",
            "closes_at": "2030-01-02T10:00",
            "time_zone": "Asia/Tokyo",
            "max_megabytes": "25",
        },
    )
    assert response.context["form"].errors["max_megabytes"] == [
        "The largest PDF must be between 1 byte and 20.0\xa0MB, the platform's limit; "
        "25.0\xa0MB is not."
    ]
