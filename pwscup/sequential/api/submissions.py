"""The sequential round's uploads as declared submission types
(``pwscup.submissions.submission_types``): the core serves their REST endpoints under the
round (``seq/releases/``, ``seq/attacks/``: list, upload **202**, one upload, a release's
file; docs/api.md lists them), their OpenAPI schema and their place in the round status,
with the access rules of the kind's pages (``access.py``: 404 for a round of another kind,
for a caller outside the round's teams, for another team's upload; an organizer reads any
team's release). A release uploads through the page's service (``release_upload``: steps
open, limits, deadlines); guesses, in the attack phase (every release frozen, the round
has one), name another team's target by its slug. Messages follow Accept-Language.
The organizers may void either (``pwscup.submissions.voids``; ``seq/releases/void/``,
``<pk>/restore/``, the console's *Void or restore uploads*), a release until it is frozen.
"""

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from pwscup.core.exports import csv_bytes_response
from pwscup.core.stored import stored_bytes
from pwscup.sequential import selectors
from pwscup.sequential.access import attack_target, own_release
from pwscup.sequential.api.views import sequential_part
from pwscup.sequential.models import Release, SeqAttack
from pwscup.submissions import round_api
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.submission_types import SubmissionType, choice_field
from pwscup.submissions.two_sided_types import TargetAttacks, TeamReleases
from pwscup.submissions.voids import VoidableUploads
from scoring.display import format_cell

RELEASE, ATTACK = "release", "attack"  # the keys of the round's submission types


def other_targets(sequential, team) -> list:
    """The targets of the attack phase a team may attack (every one but its own), by name."""
    return [
        target
        for target in sequential.targets.select_related("team").order_by("team__name")
        if target.team_id != team.pk
    ]


class SeqUploads(VoidableUploads, SubmissionType):
    """What both uploads share: the round's ``SequentialRound``, the kind's services; the
    organizers may void either (``pwscup.submissions.voids``), the teams withdraw none."""

    prefix = "seq"
    part = staticmethod(sequential_part)
    part_keyword = "sequential"


class SeqReleases(SeqUploads, TeamReleases):
    key = RELEASE
    label = gettext_lazy("A release (release_<j>.csv)")
    summaries = {"create": gettext_lazy("Upload release_<j>.csv (checked by a worker)")}
    received_text = gettext_lazy("Release %(j)s (#%(n)s) is received: a worker checks it.")
    description = gettext_lazy(
        "The round page's service: the step must be open, the limits and the deadline are "
        "enforced, with the page's messages."
    )
    upload_fields = {"step": serializers.IntegerField(min_value=1, max_value=10_000)}
    has_file = True
    file_name = "release.csv"
    file_media_type = "text/csv"
    organizers_read = True  # any team's release (``own_release``, the pages' rule)

    def own(self, part, access, pk: int):
        return own_release(access, pk)

    def round_uploads(self, part):
        return Release.objects.filter(sequential=part)

    def void_refusal(self, upload) -> str:
        """A frozen release stays: its sequence was scored with it, the team's later releases
        were checked after it, and the last ones are published as its target. Read under the
        round's lock (``VoidableUploads.void_lock``: the one a freeze holds)."""
        if upload.is_frozen:
            return _("it is frozen: its team's sequence is scored with it; it cannot be voided.")
        return ""

    def page_anchor(self, data, *, refused: bool) -> str:
        # Back at the form after a refusal, at the uploads' table after an upload.
        return "#upload" if refused else "#uploads"

    def as_json(self, upload, part, access, context):
        """A release with its step and its results (the leaderboard's columns) once it is
        valid; ``final``: the release of its step that counts (frozen)."""
        results = upload.results if upload.status == Release.Status.FINISHED else {}
        shown = [m for m in selectors.BOARD_METRICS if m in results]
        return {
            "step": upload.step,
            "message": job_message_text(upload),
            "about": _("release %(j)s") % {"j": upload.step},
            **round_api.scores_answer({m: results[m] for m in shown}, text=format_cell),
            "final": upload.is_frozen,
        }

    def received_values(self, upload) -> dict:
        return {**super().received_values(upload), "j": upload.step}

    def file_response(self, upload):
        return csv_bytes_response(stored_bytes(upload.file), f"release_{upload.step}.csv")

    def is_open(self, part, access):
        return bool(selectors.open_steps(sequential=part, now=timezone.now()))

    def fields(self, part, access):
        steps = selectors.open_steps(sequential=part, now=timezone.now())
        return [choice_field("step", _("Release"), [str(step) for step in steps])]


class SeqAttacks(SeqUploads, TargetAttacks):
    key = ATTACK
    label = gettext_lazy("Guesses on another team's target (pid,guess)")
    summaries = {"create": gettext_lazy("Upload guesses (pid,guess) on another team's target")}
    received_text = gettext_lazy(
        "Your guesses on %(team)s (#%(n)s) are received: a worker scores them."
    )

    def as_json(self, upload, part, access, context):
        """Guesses on a target, with their accuracy once scored (the Submit tab shows it)."""
        scored = upload.status == SeqAttack.Status.FINISHED and upload.accuracy is not None
        return {
            "about": upload.target.team.name,
            "message": job_message_text(upload),
            **round_api.scores_answer(
                {"accuracy": upload.accuracy} if scored else {}, text=format_cell
            ),
        }

    def round_uploads(self, part):
        return SeqAttack.objects.filter(target__sequential=part)

    def page_anchor(self, data, *, refused: bool) -> str:
        return "#attack"

    def target(self, part, access, slug: str):
        # 404 outside the attack phase or for no such target, as the page.
        return attack_target(access, slug)

    def listed(self, part, access):
        return part.attack_phase_begun

    def is_open(self, part, access):
        # Until the results are published and the phase's planned close (if any).
        return part.attack_open() and bool(other_targets(part, access.team))

    def target_slugs(self, part, access):
        return [target.team.slug for target in other_targets(part, access.team)]


SUBMISSION_TYPES = [SeqReleases(), SeqAttacks()]
