"""The DP round's estimates as a declared submission type: the core serves, under the round,

* ``GET dp/estimates/``        my team's estimates at every level, newest first;
* ``GET dp/estimates/<pk>/``   one of them: its status (scores after the close), the upload's
  address a client polls;
* ``POST dp/estimates/void/``, ``dp/estimates/<pk>/restore/``  the organizers' void and
  restore (and the console's *Voided uploads*), with the answers' ``voided``;

and the team's estimates among the round status's ``uploads``. An estimate is uploaded or
built at its level's address (``views.py``: ``POST dp/levels/<level>/estimates/``), so the
type takes none itself (``has_create``); the status lists one upload entry per level
(``round_status.py``).

A voided estimate counts nowhere: its level's estimate that counts is the team's previous
valid one (the pages, the ranking), and it frees its place under the level's limits. Once
the round is scored neither a void nor a restore is taken: either would change its
published results."""

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.dp import services
from pwscup.dp.models import DPRound, Estimate
from pwscup.dp.selectors import dp_round_of, team_levels
from pwscup.submissions import round_api
from pwscup.submissions.models import Status
from pwscup.submissions.submission_types import SubmissionType
from pwscup.submissions.voids import VoidableUploads

SCORES = ("mean_l2", "mean_spearman")


def estimate_type_key(level: str) -> str:
    """The status's key of a level's estimates (``pwscup submit --type estimate-<level>``)."""
    return f"estimate-{level}"


def dp_part(access) -> DPRound:
    """The round's DP part (404 when it has none)."""
    try:
        return dp_round_of(access.round)
    except DPRound.DoesNotExist:
        raise Http404 from None


class DPEstimates(VoidableUploads, SubmissionType):
    key = "estimate"
    prefix = "dp"
    label = gettext_lazy("Estimate")
    has_create = False  # at its level's address (``views.EstimateView``)
    part = staticmethod(dp_part)
    summaries = {
        "list": gettext_lazy("My team's estimates at every level, newest first"),
        "retrieve": gettext_lazy("One of my team's estimates: its status (scores after the close)"),
    }

    def uploads(self, part, access):
        return Estimate.objects.filter(dp_round=part, team=self.team(access)).order_by(
            "-created_at", "-id"
        )

    def round_uploads(self, part):
        return Estimate.objects.filter(dp_round=part)

    def void_refusal(self, upload) -> str:
        """Read under the round's row lock (``void_lock``), which the scoring holds too."""
        if DPRound.objects.filter(pk=upload.dp_round_id, scored_at__isnull=False).exists():
            return _(
                "the round is scored and its results are out: voiding or restoring an estimate "
                "would change them."
            )
        return super().void_refusal(upload)

    def context(self, part, access) -> dict:
        """Whether scores may be shown, and the estimate that counts at each level."""
        levels = team_levels(dp_round=part, team=self.team(access))
        return {
            "scored": services.dp_round_results_ready(dp_round=part),
            "counting": {level.current_estimate for level in levels} - {None},
        }

    def as_json(self, upload, part, access, context) -> dict:
        """Its level's type (``type``), its method (``note``), its scores once the round is
        scored, never before (``remark`` says so meanwhile); ``final``: it is its level's
        estimate that counts."""
        scores = upload.scores if context["scored"] else {}
        scores = {m: scores[m] for m in SCORES if m in scores}
        return {
            "type": estimate_type_key(upload.level),
            "about": _("level %(level)s") % {"level": upload.level},
            "message": upload.message_text,
            "note": upload.method,
            "scores": {m: v for m, v in scores.items() if not isinstance(v, str)},
            "scores_text": {
                m: round_api.score_text(v) if not isinstance(v, str) else v
                for m, v in scores.items()
            },
            "final": upload in context["counting"],
            # A checked estimate waits for the close (spec §7.4): say so, not "no score".
            "remark": _("Format checked; scored when the release phase closes.")
            if upload.status == Status.FINISHED and not context["scored"]
            else "",
        }


SUBMISSION_TYPES = [DPEstimates()]
