"""The round page's five tabs, the same for every kind, in the order a newcomer reads them:
*Overview* (the game in plain words, its flow, what to do now), *Data* (downloads, the kit,
a sample submission), *Rules and scoring*, *Submit* (the open phase's form first) and
*Results*.

The core owns the tabs (their keys, labels, addresses and the bar drawn above every tab);
a kind draws each tab's content with ``render_tab`` and a template extending
``rounds/base.html``. The overview is the round's address itself (``round_detail``); the
others are ``round_tab`` with the tab's key (``c/<comp>/<round>/data/``...).
"""

from dataclasses import dataclass

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import kind_of

OVERVIEW = "overview"
DATA = "data"
RULES = "rules"
SUBMIT = "submit"
RESULTS = "results"

TABS = (
    (OVERVIEW, _("Overview")),
    (DATA, _("Data")),
    (RULES, _("Rules and scoring")),
    (SUBMIT, _("Submit")),
    (RESULTS, _("Results")),
)


class TabConverter:
    """The URL converter of a tab's key (every tab but the overview, which has none)."""

    regex = "|".join(key for key, _label in TABS if key != OVERVIEW)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def tab_url(round, tab: str) -> str:
    """The address of ``tab`` of ``round``."""
    args = [round.competition.slug, round.slug]
    if tab == OVERVIEW:
        return reverse("round_detail", args=args)
    return reverse("round_tab", args=[*args, tab])


def tab_links(round, current: str | None) -> list[dict]:
    """The tab bar: ``{"key", "label", "url", "current"}`` per tab, in order."""
    return [
        {"key": key, "label": label, "url": tab_url(round, key), "current": key == current}
        for key, label in TABS
    ]


@dataclass(frozen=True)
class FlowStep:
    """One box of an overview's flow picture. ``state``: ``"done"``, ``"now"`` (the step the
    round is at: highlighted, "you are here") or ``"later"``."""

    title: str
    text: str
    state: str = "later"


def flow_steps(boxes, now: int) -> list[FlowStep]:
    """The flow picture of ``boxes`` (``(title, text)`` pairs), box ``now`` the one the round
    is at: the boxes before it done, those after it later."""
    return [
        FlowStep(title, text, "done" if k < now else "now" if k == now else "later")
        for k, (title, text) in enumerate(boxes)
    ]


@dataclass(frozen=True)
class NextStep:
    """One line of "What to do now" on the overview: a sentence and, optionally, a link."""

    text: str
    url: str = ""
    action: str = ""


def tab_step(round, tab: str, text: str, anchor: str = "", action=None) -> NextStep:
    """A "What to do now" line linking to ``tab`` of ``round`` (at ``anchor``, ``#upload``),
    its button the tab's label unless ``action`` names the step."""
    return NextStep(text, tab_url(round, tab) + anchor, str(action or dict(TABS)[tab]))


@dataclass(frozen=True)
class UploadGates:
    """One scored upload and the round's gates, for the Submit and Results tabs
    (``rounds/_gates.html``): ``label`` names the upload ("#3", "Release 2"), ``checks`` are
    ``(gate's name, passed)`` pairs in the rules' order (empty: the round has no gates)."""

    label: str
    checks: tuple[tuple[str, bool], ...]

    @property
    def passed(self) -> bool:
        return all(passed for _name, passed in self.checks)


def render_tab(request, access, tab: str, template: str, context=None, *, status=200):
    """Render one tab of a round page: ``template`` extends ``rounds/base.html``, which draws
    the round's title, the tab bar (``tab`` marked current) and the kind's content.

    A kind's page that belongs to a tab without being it (a leaderboard under *Results*, a
    DP level under *Submit*) passes that tab: the bar then shows where the page sits."""
    round_ = access.round
    base = {
        "access": access,
        "round": round_,
        "team": access.team,
        "kind": kind_of(round_),
        "round_tz": round_.timezone,
        "tab": tab,
        "round_tabs": tab_links(round_, tab),
    }
    return render(request, template, {**base, **(context or {})}, status=status)
