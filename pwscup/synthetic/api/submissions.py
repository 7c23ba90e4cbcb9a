"""The synthetic round's two kinds of upload, declared (``SyntheticKind.submission_types``):
the core serves their REST endpoints under the round (``syn/releases/``: list, upload,
retrieve, ``<pk>/select/``; once the releases are frozen ``syn/attacks/``: list, upload on a
``target`` by its team's slug, retrieve), with the access rules of the round's pages, and
their place in the round status. An upload is **202**: a worker checks and scores it.

An attack's scores are those of the half ``selectors.visible_half`` allows. A release's
``final`` is the team's final release (``selectors.final_release``); an attack's, that it is
the one that counts on its target (its team's last scored one). The organizers may void
either (``pwscup.submissions.voids``: the core serves ``void/`` and ``<pk>/restore/``, and
each upload's ``voided``); a voided upload counts nowhere. Messages follow Accept-Language.
"""

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.submissions.round_api import present_scores, scores_answer
from pwscup.submissions.submission_types import SubmissionType
from pwscup.submissions.two_sided_types import FinalReleases, TargetAttacks
from pwscup.submissions.voids import VoidableUploads
from pwscup.synthetic import selectors
from pwscup.synthetic.api.views import RELEASE_METRICS, attack_metrics, attackable, synthetic_part
from pwscup.synthetic.models import SynAttack, SynRelease, SynTarget


def half_note(half: str) -> str:
    if half == "final":
        return gettext("final half of the challenge set")
    return gettext(
        "dev half of the challenge set (the final half is shown once results are published)"
    )


class SyntheticUploads(VoidableUploads, SubmissionType):
    """What both of the round's uploads share: the round's synthetic part (404 without),
    the kind's selectors and services; the organizers may void either (never their team)."""

    prefix = "syn"
    part = staticmethod(synthetic_part)
    part_keyword = "synthetic"


class Releases(SyntheticUploads, FinalReleases):
    """``teamX_synthetic.csv``, the team's synthetic release, in the release phase."""

    key = "release"
    published_as = (SynTarget, "release")  # a published release is never voided
    label = _("A synthetic release (teamX_synthetic.csv)")
    summaries = {
        "create": _("Upload teamX_synthetic.csv (checked and scored by a worker)"),
    }
    received_text = _("Release #%(n)s is received: a worker checks and scores it.")

    def round_uploads(self, part):
        return SynRelease.objects.filter(synthetic=part)

    def as_json(self, upload, part, access, context) -> dict:
        """The release with its scores once it is scored (its team's own: utility,
        fidelity, copies, distances; no attack's score)."""
        scored = upload.status == SynRelease.Status.FINISHED
        scores = present_scores(upload.scores, RELEASE_METRICS) if scored else {}
        remark = ""
        if scored:
            passes = upload.scores.get("passes")
            remark = gettext("passes the gates") if passes else gettext("fails the gates")
        return {
            "about": gettext("%(rows)s rows") % {"rows": upload.rows} if scored else "",
            "message": upload.message_text,
            "note": upload.note,
            "remark": remark,
            **scores_answer(scores),
            # Only a scored release is final: a new one is not, whatever a worker did since.
            "final": scored and upload.pk == context["final_pk"],
            "selected": upload.selected,
        }


class Attacks(SyntheticUploads, TargetAttacks):
    """A membership-inference attack on another team's target, once the releases are
    frozen: open while the attack phase is, the results are not published and there are
    targets."""

    key = "attack"
    label = _("A membership-inference attack on a target (id,score)")
    summaries = {
        "list": _("My team's attacks, newest first (dev-half scores until publication)"),
        "create": _("Upload teamX_mia_teamY.csv (id,score) on another team's target"),
        "retrieve": _("One of my team's attacks: status, message, scores on the visible half"),
    }
    received_text = _("Your attack on %(team)s (#%(n)s) is received: a worker scores it.")
    target_model = SynTarget

    def round_uploads(self, part):
        return SynAttack.objects.filter(target__synthetic=part)

    def context(self, part, access) -> dict:
        return {
            "half": selectors.visible_half(synthetic=part),
            "metrics": attack_metrics(part),
            "counting": {a.pk for a in selectors.latest_attacks(synthetic=part).values()},
        }

    def as_json(self, upload, part, access, context) -> dict:
        """The attack with its scores on the half the reader may see once scored."""
        half = context["half"]
        scored = upload.status == SynAttack.Status.FINISHED
        scores = present_scores(getattr(upload, half), context["metrics"]) if scored else {}
        return {
            "about": upload.target.team.name,
            "message": upload.message_text,
            "note": upload.note,
            "remark": half_note(half) if scored else "",
            "half": half,
            **scores_answer(scores),
            "final": scored and upload.pk in context["counting"],
        }

    def target_slugs(self, part, access) -> list[str]:
        return [target.team.slug for target in attackable(access, part)]

    def page_anchor(self, data, *, refused: bool) -> str:
        # The target's card (the slug as posted, only its slug characters in the address).
        return "#attack-" + re.sub(r"[^-\w]", "", str(data.get("target", "")))


SUBMISSION_TYPES = [Releases(), Attacks()]
