"""Who may open what of a synthetic round: role × state × URL as data, every answer scanned
for the secrets (another team's members, the holdout, the seed, the final half's scores,
the ROC curves before publication, a membership label column)."""

import pytest
from django.urls import reverse

from pwscup.synthetic import engine, services
from pwscup.synthetic.models import SynAttack, SynTarget, TeamDraw
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    dcr_answer_bytes,
    freeze,
    open_attack_phase,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db

SEED = 918273645
ROLES = ("a", "b", "organizer", "visitor")
TABS = ("overview", "data", "rules", "submit", "results")
# A final-half score no page may show before publication: negative, so no real score (all
# of them ≥ 0) can be mistaken for it.
SENTINEL = {"auc": -0.4321, "tpr@0.1": -0.4321, "adv": -0.4321}
SENTINEL_TEXT = (b"-0.432", b"-0.4321", "−0.432".encode())

# key → expected status per role (a, b, organizer, visitor), by state
BEFORE_FREEZE = {
    **{f"tab_{t}": (200, 200, 200, 200) for t in TABS},
    "train": (200, 200, 404, 404),
    "aux": (404, 404, 404, 404),
    "release_A": (404, 404, 404, 404),
    "challenge_A": (404, 404, 404, 404),
    "file_A": (200, 404, 200, 404),
}
AFTER_FREEZE = {
    **BEFORE_FREEZE,
    "aux": (200, 200, 200, 404),
    "release_A": (404, 200, 200, 404),  # a team gets the others' targets, not its own
    "challenge_A": (404, 200, 200, 404),
}


def urls(world) -> dict:
    comp, rnd = world.competition.slug, world.round.slug
    first = world.synthetic.releases.filter(team=world.teams["a"]).order_by("pk").first()
    return {
        **{
            f"tab_{t}": reverse("round_detail", args=[comp, rnd])
            if t == "overview"
            else reverse("round_tab", args=[comp, rnd, t])
            for t in TABS
        },
        "train": reverse("synthetic:train", args=[comp, rnd]),
        "aux": reverse("synthetic:aux", args=[comp, rnd]),
        "release_A": reverse("synthetic:target_release", args=[comp, rnd, "teamA"]),
        "challenge_A": reverse("synthetic:target_challenge", args=[comp, rnd, "teamA"]),
        "file_A": reverse("synthetic:release_file", args=[comp, rnd, first.pk]),
    }


def body_of(response) -> bytes:
    return b"".join(response) if response.streaming else response.content


def lines_of(text: str, *, drop_first: bool = False) -> set[str]:
    rows = text.strip().splitlines()[1:]
    if drop_first:
        rows = [row.split(",", 1)[1] for row in rows]
    return set(rows)


def team_text(world, letter: str, what: str) -> str:
    population = engine.round_population(world.round)
    draw = TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams[letter])
    if what == "challenge":
        return engine.challenge_text(engine.rows_of(population, draw.challenge))
    return engine.table_text(engine.rows_of(population, getattr(draw, what)))


def secret_rows(world) -> list[bytes]:
    """Rows of team A's members (not in its published challenge set) and of the holdout that
    are in none of the files team B may hold: none of them may reach B."""
    population = engine.round_population(world.round)
    public = lines_of(team_text(world, "b", "members"))
    public |= lines_of(engine.table_text(engine.rows_of(population, world.synthetic.aux)))
    for letter in "abc":
        public |= lines_of(team_text(world, letter, "challenge"), drop_first=True)
    for target in SynTarget.objects.filter(synthetic=world.synthetic):
        target.release.file.open("rb")
        public |= lines_of(target.release.file.read().decode())
        target.release.file.close()
    a_members = lines_of(team_text(world, "a", "members")) - public
    holdout = lines_of(engine.table_text(engine.rows_of(population, world.synthetic.holdout)))
    holdout -= public | lines_of(team_text(world, "a", "members"))
    assert len(a_members) > 50 and len(holdout) > 50, "the scan needs rows to look for"
    return [("\n" + row + "\n").encode() for row in sorted(a_members)[:60] + sorted(holdout)[:60]]


def visit_all(client, world, expected: dict, *, secrets: list[bytes], published: bool):
    users = {"a": world.users["a"], "b": world.users["b"], "organizer": world.organizer}
    table = urls(world)
    pages = {}
    for index, role in enumerate(ROLES):
        client.logout()
        if role != "visitor":
            client.force_login(users[role])
        for key, url in table.items():
            response = client.get(url)
            assert response.status_code == expected[key][index], (role, key)
            body = body_of(response)
            pages[(role, key)] = body
            assert str(SEED).encode() not in body, (role, key)
            if not published:
                for text in SENTINEL_TEXT:
                    assert text not in body, (role, key, text)
                assert b'data-testid="roc-' not in body, (role, key)
            if role != "a" and not key.startswith("file_"):
                for row in secrets:
                    assert row not in body, (role, key, row)
    return pages


def hide_final_behind_sentinels(world) -> None:
    """Replace every final-half score by the sentinel (the scan then looks for it)."""
    for attack_row in SynAttack.objects.filter(target__synthetic=world.synthetic):
        SynAttack.objects.filter(pk=attack_row.pk).update(final=SENTINEL)
    for target in SynTarget.objects.filter(synthetic=world.synthetic):
        builtin = {name: {**scores, "final": SENTINEL} for name, scores in target.builtin.items()}
        SynTarget.objects.filter(pk=target.pk).update(builtin=builtin)


def test_syn_access_matrix_and_secret_scan_through_the_round(client):
    world = syn_world(slug="synacc", seed=SEED)
    for letter in "abc":
        release(world, letter, baseline_release(world, letter))
    # Before the freeze: only the team's own members table; no target, no aux.
    visit_all(client, world, BEFORE_FREEZE, secrets=[], published=False)
    targets = freeze(world)
    open_attack_phase(world)
    world.synthetic.refresh_from_db()
    hit = attack(world, "b", targets["teamA"], dcr_answer_bytes(world, targets["teamA"]))
    assert hit.status == "finished", hit.message
    hide_final_behind_sentinels(world)
    secrets = secret_rows(world)
    pages = visit_all(client, world, AFTER_FREEZE, secrets=secrets, published=False)
    # The team's own members table is its own draw's members, nothing else.
    assert pages[("a", "train")].decode() == team_text(world, "a", "members")
    assert pages[("b", "train")].decode() == team_text(world, "b", "members")
    # The challenge set: id and the columns of P, no membership label.
    challenge = pages[("b", "challenge_A")].decode().splitlines()
    columns = list(engine.round_config(world.round).columns)
    assert challenge[0] == ",".join(["id", *columns])
    assert len(challenge) == 1 + 80
    assert all(len(line.split(",")) == 1 + len(columns) for line in challenge[1:])
    assert [line.split(",")[0] for line in challenge[1:]] == [str(i) for i in range(1, 81)]
    # The live matrix shows the dev half (team B's hit on A), labelled as such.
    results = pages[("b", "tab_results")].decode()
    assert 'data-testid="live-view"' in results and "Team B" in results

    services.results_publish(synthetic=world.synthetic, user=world.organizer)
    world.synthetic.refresh_from_db()
    published = visit_all(client, world, AFTER_FREEZE, secrets=secrets, published=True)
    for role in ROLES:
        body = published[(role, "tab_results")]
        # The scan's sentinel is found once it may be shown: the scan can fail.
        assert b"-0.432" in body, role
        assert b'data-testid="roc-teamA"' in body and b'data-testid="scatter"' in body


def test_syn_posting_needs_a_team_and_a_login(client):
    world = syn_world(slug="synpost", letters="ab", seed=SEED)
    comp, rnd = world.competition.slug, world.round.slug
    kept = release(world, "a", baseline_release(world, "a"))
    upload = reverse("synthetic:syn-release-send", args=[comp, rnd])
    select = reverse("synthetic:select", args=[comp, rnd, kept.pk])
    # A visitor is sent to the login page; nothing is kept.
    assert client.post(upload).status_code == 302
    assert client.post(select).status_code == 302
    # The organizer (in no team) and team B cannot choose A's final release.
    for user in (world.organizer, world.users["b"]):
        client.force_login(user)
        assert client.post(select).status_code == 404
    kept.refresh_from_db()
    assert not kept.selected
    assert world.synthetic.releases.count() == 1
