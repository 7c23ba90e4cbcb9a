"""The results a round kind answers for the core (``RoundKind`` inherits them): where its
leaderboard is, what the competition page links to, and its rankings, named scores and
attack matrix for the competition's standings, totals and top-N attack score. Each is read
from the kind's module (``RoundKind.standings_module``: its ``standings.py``, found by name)
or its pages (the leaderboard named ``leaderboard``); a kind that has no such thing writes
nothing."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.layout import KindModule
from pwscup.kinds.rankings import ATTACK


class ResultsHooks:
    """The results' hooks of ``RoundKind`` (see its ``standings_module``; its pages and
    namespace are ``FaceHooks``' and ``RoundKind``'s)."""

    standings_module = KindModule()

    @staticmethod
    def _declared(module, name: str, default, round):
        """``module.name(round)`` when the kind declares the module and it has the function,
        else ``default``: a kind writes nothing for what it does not have."""
        function = getattr(module, name, None) if module is not None else None
        return default if function is None else function(round)

    def leaderboard_url(self, round) -> str | None:
        """The round's main leaderboard page. Default: the kind's page named ``leaderboard``
        among its pages (``url_patterns()``, in its ``namespace``), else the round's Results
        tab (which shows the kind's standings when the core draws its tabs:
        ``pwscup.pages.declared``)."""
        if not any(getattr(page, "name", "") == "leaderboard" for page in self.url_patterns()):
            return reverse("round_tab", args=[round.competition.slug, round.slug, "results"])
        name = f"{self.namespace}:leaderboard" if self.namespace else "leaderboard"
        return reverse(name, args=[round.competition.slug, round.slug])

    def results_url(self, round) -> str | None:
        """Where the participants' "results are published" notification points (default:
        the leaderboard)."""
        return self.leaderboard_url(round)

    def results_summary(self, round) -> list[dict]:
        """Links for the competition page: ``[{"label": str, "url": str}, ...]``. Default: the
        leaderboard (``leaderboard_url``) once the results are published; before, only the
        round's teams and organizers may open it (they reach it from the round's page)."""
        url = self.leaderboard_url(round)
        if url is None or not self.results_published(round):
            return []
        return [{"label": _("Leaderboard"), "url": url}]

    def ranking_keys(self, round) -> list:
        """The rankings the round has, as ``pwscup.kinds.rankings.RankingKey`` s (its key, label
        and the direction of its score), whether published or not: what an organizer may pick
        for the competition's standings (``pwscup.competitions.standings``). ``[]``: none."""
        return self._declared(self.standings_module, "ranking_keys", [], round)

    def published_rankings(self, round) -> list:
        """The round's rankings once its results are published, as
        ``pwscup.kinds.rankings.RoundRanking`` s (one per ``ranking_keys`` entry it has), from
        the same selectors as its final ranking pages: a disqualified team has no row, an
        unranked team (failed gate, no attack) a row with rank ``None``. ``[]`` before the
        publication: the standings then show the round as pending."""
        return self._declared(self.standings_module, "published_rankings", [], round)

    def named_scores(self, round) -> dict:
        """The scores a round total's formula may name (``scoring.formula``;
        ``pwscup.competitions.totals``), per team, from the same selectors as the round's
        results: ``{"names": [{"key": str, "label": str}], "teams": {team_id: {key: float |
        None}}}``. A key is a name the formula writes (``U``, ``utility``, ``protection``);
        ``None``: the team has no such score. A disqualified team is left out, as from the
        rankings (``DisqualificationRule.ranks``). The names do not depend on the uploads (a
        formula is set, and a bundle imported, before any). Read whether or not the results
        are published (the console checks a formula on the current scores). Default: no
        names."""
        empty = {"names": [], "teams": {}}
        return self._declared(self.standings_module, "named_scores", empty, round)

    def score_names(self, round) -> list[dict]:
        """``named_scores(round)["names"]`` without the teams' scores: what the console's
        formula help and the Rules tab read, so they do not rank every team to label a
        formula. From the standings module's ``score_names(round)`` when it has one, else
        from ``named_scores``."""
        module = self.standings_module
        if module is not None and hasattr(module, "score_names"):
            return module.score_names(round)
        return self.named_scores(round)["names"]

    def scores_awaited(self, round) -> dict[str, str]:
        """The named scores (``score_names``' keys) that no team has yet because the round
        waits for a step of the organizers (a program still to run), each with why, in the
        reader's language: the Results tab's Total table says it where a formula names one
        (``pwscup.competitions.totals.total_awaited``). Default: none."""
        return self._declared(self.standings_module, "scores_awaited", {}, round)

    def attack_cells(self, round):
        """The round's attack matrix for the core's "attack against the top N releases"
        score (``Round.attack_top_n``; ``pwscup.competitions.attack_top``), as a
        ``pwscup.kinds.rankings.AttackCells`` from the same selectors as the round's
        rankings, read whether or not the results are published. ``None`` (the default): the
        kind has no attack matrix, and the round offers no such score."""
        return self._declared(self.standings_module, "attack_cells", None, round)

    def has_attack_matrix(self, round) -> bool:
        """Whether ``attack_cells`` has a matrix to give, without reading it: the kind
        declares ``attack_cells`` and the round has an attack ranking (``ranking_keys``; a
        sequential round without an attack phase has none)."""
        module = self.standings_module
        if module is None or not hasattr(module, "attack_cells"):
            return False
        return any(key.key == ATTACK.key for key in self.ranking_keys(round))
