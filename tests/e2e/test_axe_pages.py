"""axe-core (through axe-playwright-python, which bundles it) over every page a team, a
visitor and an organizer reach, in both languages: each kind's five tabs, its leaderboards,
the competition and team pages, the notifications and the organizer's console. No page may
have a serious or a critical violation.

The synthetic round is played to its published results (releases, the freeze, an attack),
so its Results tab shows the matrix, both rankings and its charts.

Slow (over 20 s on its own, so its module is scheduled first): axe-core checks every page of
every kind for each role and language in Chromium, after the synthetic round is played to its
results.
"""

import re
from urllib.parse import urlsplit

import pytest

from pwscup.kinds.registry import kind_of
from tests.e2e.helpers import PASSWORD, session_cookie, switch_language

axe_playwright_python = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BLOCKING = ("serious", "critical")
# axe-core as axe-playwright-python bundles it, given to each browser context as a script
# every page evaluates when it is created (Playwright's init script): Chromium compiles it
# once and keeps it, where evaluating the 570 kB again on each page, as ``Axe.run`` does, took
# a tenth of a second of CPU per page (234 pages).
AXE_SCRIPT = axe_playwright_python.Axe().axe_script
# Each axe-core rule declares its impact, and every violation of a rule carries the rule's
# impact (axe 4.x), so a rule declared "minor" or "moderate" can never find a blocking one:
# those 32 of the bundle's 105 rules are not run. Over the 234 pages that is a fifth of
# axe-core's CPU in Chromium (32.6 → 26.2 s), and each page gave the same blocking
# violations either way (none; so did a page made to break rules of all four impacts).
# A rule whose declared impact is not found in the bundle (the pattern below) is run.
NEVER_BLOCKING = sorted(
    rule
    for rule, impact in re.findall(r'\{id:"([a-z0-9-]+)",impact:"([a-z]+)"', AXE_SCRIPT)
    if impact not in BLOCKING
)
# axe-playwright-python's options: only the violations are collected (not every passing node).
AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "rules": {rule: {"enabled": False} for rule in NEVER_BLOCKING},
}


@pytest.fixture
def worlds(e2e_world):
    """The 2015 round (``e2e_world``, public leaderboard, one scored upload per team), a DP
    round closed and scored, a sequential round with release 1 frozen, and a synthetic round
    with its results published."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from pwscup.dp.kit import sample_estimate
    from pwscup.dp.models import Estimate
    from pwscup.dp.services import dp_estimate_check, dp_estimate_upload, dp_round_score
    from pwscup.notifications.services import notify_upload_outcome
    from pwscup.synthetic.services import results_publish
    from tests.pwscup.dp_world import build_dp_world, close_now
    from tests.pwscup.factories import scored
    from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world
    from tests.pwscup.syn_world import (
        attack,
        baseline_release,
        dcr_answer_bytes,
        open_attack_phase,
        release,
        syn_world,
    )
    from tests.pwscup.syn_world import freeze as syn_freeze
    from tests.support import settled

    for letter, seed in (("a", 1), ("b", 2)):
        latest = scored(e2e_world, letter, seed=seed)
    dp = build_dp_world(slug="axdp", password=PASSWORD)
    for letter in "ab":
        kept = dp_estimate_upload(
            dp_round=dp.dp_round, team=dp.teams[letter], user=dp.users[letter], level="eps-1",
            uploaded_file=SimpleUploadedFile("e.csv", sample_estimate(dp_round=dp.dp_round)),
        )  # fmt: skip
        dp_estimate_check(estimate_id=kept.pk)
        settled(Estimate, kept.pk)  # or the suite's worker that took the job first
    close_now(dp)
    dp_round_score(dp_round=dp.dp_round)
    seq = seq_world(slug="axseq", password=PASSWORD)
    for letter in "ab":
        publish(seq, letter, 1, fixture("zhang_release_1.csv"))
    freeze(seq)
    syn = syn_world(slug="axsyn", letters="ab", password=PASSWORD)
    for letter in "ab":
        release(syn, letter, baseline_release(syn, letter))
    targets = syn_freeze(syn)
    open_attack_phase(syn)
    attack(syn, "a", targets["teamB"], dcr_answer_bytes(syn, targets["teamB"]))
    results_publish(synthetic=syn.synthetic, user=syn.organizer)
    # An unread notification for the bell (scoring told the team already: told once).
    notify_upload_outcome(upload=latest, round=latest.phase.round, status="finished")
    return {"2015": e2e_world, "dp": dp, "sequential": seq, "synthetic": syn}


def kind_pages(worlds, role: str) -> list[str]:
    """Every page ``role`` reaches in each world (its competition's, its round's, its own)."""
    pages = ["/"]
    extra = {
        "2015": ["leaderboard/"],
        "dp": ["dp/leaderboard/"],
        "sequential": ["seq/leaderboard/"],
        "synthetic": [],  # its results are the Results tab
    }
    for key, world in worlds.items():
        competition, round_ = world.competition.slug, world.round.slug
        base = f"/c/{competition}/{round_}/"
        pages.append(f"/c/{competition}/")
        pages += [base + tab for tab in ("", "data/", "rules/", "submit/", "results/")]
        if role != "visitor" or key == "2015":  # DP and sequential boards: players only
            pages += [base + page for page in extra[key]]
        if role == "team":
            pages.append(f"/c/{competition}/team/")
            if key == "dp":
                pages.append(base + "dp/levels/eps-1/")  # a level: its team's page only
        if role == "organizer":
            create = kind_of(world.round).console_create_url(world.competition)
            pages += [
                create,  # the kind's round creation (the 2015 wizard's first step)
                f"/console/{competition}/",
                f"/console/{competition}/teams/",
                f"/console/{competition}/r/{round_}/",
            ]
    if role == "team":
        pages.append("/notifications/")
    if role == "organizer":
        pages.append("/console/")
    return pages


def accounts(worlds, role: str) -> dict[str, str]:
    """The account ``role`` logs in with in each world (``{}``: a visitor)."""
    if role == "visitor":
        return {}
    names = {
        "2015": "team-a" if role == "team" else "organizer",
        "dp": f"axdp-{'team-a' if role == 'team' else 'organizer'}",
        "sequential": f"axseq-{'team-a' if role == 'team' else 'organizer'}",
        "synthetic": f"axsyn-{'team-a' if role == 'team' else 'organizer'}",
    }
    return {key: names[key] for key in worlds}


# What comes back from the page: each violation's rule, impact and first four nodes' targets,
# not axe-core's whole results object. That object still lists every rule that passed or did
# not apply (about 70 entries with their descriptions, tags and a node each) beside the
# violations, and Playwright serializes it in the page, sends it through its driver and checks
# every value of it in this process: 18.8 of this module's 144 s in cProfile (its protocol
# validator, 600,000 calls), for pages whose violations are nearly always none.
AXE_RUN = """options => axe.run(document, options).then(results => results.violations.map(
    violation => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.slice(0, 4).map(node => ({target: node.target})),
    })
))"""


def blocking_violations(page) -> list[str]:
    """axe-core over the whole page (its context: the document), already loaded in it."""
    violations = page.evaluate(AXE_RUN, AXE_OPTIONS)
    found = []
    for violation in violations:
        if violation["impact"] in BLOCKING:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"]]
            found.append(f"{violation['impact']} {violation['id']}: {targets}")
    return found


ROLES = ("visitor", "team", "organizer")
LANGUAGES = ("en", "ja")


def test_no_serious_or_critical_violation_on_any_page(chromium, live_server, worlds):
    """Every role in both languages over one set of worlds: the module runs in one process
    anyway (the suite sends whole files to a process), and building the four played worlds
    once instead of once per role and language saves five of six builds."""
    report = {}
    for role in ROLES:
        for language in LANGUAGES:
            report.update(_violations(chromium, live_server, worlds, role, language))
    assert report == {}, "\n".join(f"{a}: {v}" for a, vs in report.items() for v in vs)


def _violations(chromium, live_server, worlds, role: str, language: str) -> dict:
    """``{"role language address": [violation, ...]}`` for every page ``role`` reaches."""
    report = {}
    logins = accounts(worlds, role) or {"all": None}
    for key, username in logins.items():
        context = chromium.new_context(base_url=live_server.url, locale="en-US")
        context.set_default_timeout(30_000)
        context.add_init_script(script=AXE_SCRIPT)
        page = context.new_page()
        try:
            if username:
                # The pages, not the log-in form, are what is checked here: the sixteen
                # log-ins through the form cost a page load and a post each.
                context.add_cookies([session_cookie(live_server.url, username)])
            home = page.goto("/")
            assert home.status < 400, (role, language, "/", home.status)
            if username:
                assert page.get_by_test_id("who").inner_text() == username
            if language != "en":
                switch_language(page, language)  # the home page again, in ``language``
            chosen = {key: worlds[key]} if username else worlds
            for address in kind_pages(chosen, role):
                # The home page, every list's first, is the one already shown: checked as
                # it is, not loaded a second time (eighteen page loads fewer).
                if address == "/":
                    assert urlsplit(page.url).path == "/", page.url
                else:
                    response = page.goto(address)
                    assert response.status < 400, (role, language, address, response.status)
                found = blocking_violations(page)
                if found:
                    report[f"{role} {language} {address}"] = found
        finally:
            context.close()
    return report
