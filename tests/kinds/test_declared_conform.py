"""Every kind's declared submission types (``RoundKind.submission_types()``) are served by the
core with one set of access rules: the list answers a team member and 404 for a caller
outside the teams; another kind's declared addresses answer 404 under this kind's round; an
upload's address answers its team and 404 for another team; the status points at the
declared list; the schema has each type's operations (a create only for a type the core
takes uploads of).

Run once per registered kind and per test-only kind (``tests/kinds/conftest.py``); a kind
that declares no type yet is checked for the rest."""

from django.test import Client
from django.urls import reverse

from pwscup.kinds import all_kinds, get_kind
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.pages.declared import send_url_name
from pwscup.submissions.two_sided_types import FinalReleases, TargetAttacks, TeamReleases
from tests.kinds.test_api_conform import api, status_of


def _get(arena, letter: str, url: str):
    client, headers = api(arena, letter)
    return client.get(url, **headers)


def test_declared_lists_answer_the_team_and_404_for_everyone_else(player, arena_of):
    arena = arena_of()
    args = [arena.competition.slug, arena.round.slug]
    declared = get_kind(player.key).submission_types()
    for submission_type in declared:
        url = reverse(f"api:{submission_type.url_name}s", args=args)
        assert _get(arena, "a", url).status_code == 200, url
        assert _get(arena, "organizer", url).status_code == 404, url  # in no team
    listed = {t["key"]: t["url"] for t in status_of(arena, "a")["submission_types"]}
    for submission_type in declared:
        if submission_type.key in listed:
            assert listed[submission_type.key] == reverse(
                f"api:{submission_type.url_name}s", args=args
            )
    others = [t for kind in all_kinds() if kind.key != player.key for t in kind.submission_types()]
    for submission_type in others:
        url = reverse(f"api:{submission_type.url_name}s", args=args)
        assert _get(arena, "a", url).status_code == 404, url


def test_an_upload_s_address_answers_its_team_only(player, arena_of):
    arena = arena_of()
    player.submit(arena, "a", player.valid(arena, 1))
    player.run_jobs()
    (upload,) = status_of(arena, "a")["uploads"]
    assert _get(arena, "a", upload["url"]).status_code == 200
    assert _get(arena, "b", upload["url"]).status_code == 404
    if upload.get("file_url"):
        assert _get(arena, "a", upload["file_url"]).status_code == 200
        assert _get(arena, "b", upload["file_url"]).status_code == 404


def test_the_schema_has_every_declared_operation(player, arena_of):
    arena = arena_of()
    schema = _get(arena, "a", reverse("api:schema") + "?format=json").json()
    operations = {
        op.get("operationId")
        for item in schema["paths"].values()
        for op in item.values()
        if isinstance(op, dict)
    }
    for submission_type in get_kind(player.key).submission_types():
        base = submission_type.operation
        assert {f"{base}s_list", f"{base}_retrieve"} <= operations, base
        # A type whose uploads the kind takes elsewhere (``has_create``) has no create.
        assert (f"{base}s_create" in operations) == submission_type.has_create, base
        if submission_type.has_file:
            assert f"{base}_file_retrieve" in operations
        if submission_type.has_select:
            assert f"{base}_select" in operations


ORGANIZER_REFUSED = {
    "en": "Only a team member can upload; organizers see the uploads on the Submit tab.",
    "ja": "アップロードできるのはチームのメンバーだけです。運営者は「提出」タブでアップロードを見られます。",
}
# The page's title, right for its 403 and its 404 alike (not the refusal pages' "Not allowed").
ORGANIZER_REFUSED_TITLE = {
    "en": "Only a team member can upload",
    "ja": "アップロードできるのはチームのメンバーだけです",
}


def test_an_organizer_posting_to_a_browser_target_is_told_why_with_the_api_s_status(
    player, arena_of
):
    """An organizer outside the teams who posts to a declared type's browser target
    (``<path>/send/``, e.g. from a bookmarked page) gets the status the API's
    ``POST <path>/`` gives them, and a page (or JSON) saying why, not a bare 404 page."""
    arena = arena_of()
    args = [arena.competition.slug, arena.round.slug]
    kind = get_kind(player.key)
    browser = Client()
    browser.force_login(arena.organizer)
    for declared in [t for t in kind.submission_types() if t.has_create]:
        client, headers = api(arena, "organizer")
        status = client.post(reverse(f"api:{declared.url_name}s", args=args), {}, **headers)
        assert status.status_code in (403, 404), status.content
        send = reverse(send_url_name(kind, declared), args=args)
        for language, message in ORGANIZER_REFUSED.items():
            page = browser.post(send, {}, HTTP_ACCEPT_LANGUAGE=language)
            assert page.status_code == status.status_code, (send, page.status_code)
            assert message in page.content.decode(), (send, language)
            title = ORGANIZER_REFUSED_TITLE[language]
            assert f"<title>{title} · " in page.content.decode(), (send, language)
            assert f"<h1>{title}</h1>" in page.content.decode(), (send, language)
            # A link back to the round's Submit tab, the tab the form was on.
            assert f'href="{tab_url(arena.round, SUBMIT)}"' in page.content.decode(), send
            answer = browser.post(
                send, {}, HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE=language
            )
            assert answer.status_code == status.status_code
            assert answer.json()["error"] == message
    assert player.kept(arena, "a") == [] and player.kept(arena, "b") == []


# The functions the two-sided bases call on a kind's declared modules (by base, then by module).
TWO_SIDED_CALLS = {
    FinalReleases: {"selectors_module": ["final_release"], "services_module": ["release_select"]},
    TeamReleases: {"selectors_module": ["team_releases"], "services_module": ["release_upload"]},
    TargetAttacks: {"selectors_module": ["team_attacks"], "services_module": ["attack_upload"]},
}


def test_a_two_sided_type_s_modules_have_what_its_bases_call():
    """A type started from a two-sided base declares its kind's modules and its part's
    keyword, and those modules have every function the base calls (one a type overrides
    included: a missing one would only show on the first request that reaches it)."""
    checked = 0
    for kind in all_kinds():
        for submission_type in kind.submission_types():
            for base, calls in TWO_SIDED_CALLS.items():
                if not isinstance(submission_type, base):
                    continue
                assert submission_type.part_keyword, submission_type
                for module, names in calls.items():
                    declared = getattr(submission_type, module)
                    for name in names:
                        assert callable(getattr(declared, name, None)), (submission_type, name)
                checked += 1
    assert checked >= 6  # sequential, synthetic and scorer: a release and an attack each
