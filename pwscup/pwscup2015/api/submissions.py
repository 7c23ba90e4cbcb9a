"""The 2015 game's two uploads as declared submission types (``Pwscup2015Kind.submission_types``):
the core serves their REST endpoints under the round (``pwscup/api/views/submissions.py``),
their OpenAPI schema and their place in the round status (``submission_types`` and
``uploads``), through the services and access rules of the round page.

* ``submissions/``: my team's anonymized tables, newest first; ``POST`` one (multipart
  ``file``, ``note``) through ``anonymization_submission_create`` (window, quota, size),
  **202**; ``<pk>/`` one (status, message, scores), ``<pk>/file`` as uploaded,
  ``<pk>/select/`` make it my team's final one. Listed in the status once the round has its
  anonymization phase, open while that phase is.
* ``attacks/``: my team's attacks, their rate only where the round shows it to the caller;
  ``POST`` one (``file``, ``target``: the published target's team slug, ``note``) through
  ``attack_submission_create``, **202**; ``<pk>/`` and ``<pk>/file``. Listed once the round
  has its attack phase, open while it is, with a target the team may attack.

An upload is refused as on the round page (``check_uploader``: 403 outside the teams, 404
without the phase); an organizer reads any team's upload of the round, only its team
selects it. The organizers may void either (``pwscup.submissions.voids``: ``void/`` and
``<pk>/restore/``, served by the core), but an anonymized table published as a target."""

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import phase_of, phase_state
from pwscup.core.files import private_file_response
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.access import check_uploader, phase_upload_for, targets_for_attacker
from pwscup.pwscup2015.api import serializers as s
from pwscup.pwscup2015.leaderboards.selectors import attack_rates_visible_to_team
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission, Target
from pwscup.pwscup2015.selectors import (
    representative_submissions,
    round_targets,
    team_attacks,
    team_submissions,
)
from pwscup.submissions.round_api import no_target
from pwscup.submissions.submission_types import SubmissionType, choice_field
from pwscup.submissions.voids import VoidableUploads

# What an upload's answer reads beside its row (its team, its round's slugs): one query for
# the team's uploads, however many.
UPLOAD_ROWS = ("team", "phase__round__competition")
# What the core's answer says itself (``SubmissionType.answer``).
CORE_KEYS = ("id", "number", "status", "created_at")


def _note_field() -> dict:
    return {"name": "note", "label": _("Note"), "required": False, "choices": None}


def _kind_json(serializer) -> dict:
    """The upload as the 2015 game's serializer writes it, less what the core says."""
    return {key: value for key, value in serializer.data.items() if key not in CORE_KEYS}


class PhaseUploads(VoidableUploads, SubmissionType):
    """What the two uploads share: the round's phase of ``phase_kind`` is their part
    (``None`` until it is set up: then nothing is listed and an upload is refused with the
    page's message), the page's refusals of an upload, an organizer reading any team's
    upload, the file as uploaded, the organizers' void and restore (never a withdrawal). Each lives straight under the round at its ``url_name``'s
    plural (``submissions/``), its operation ids those its endpoints had before they were
    declared (``competitions_rounds_submissions_list``)."""

    phase_kind = ""
    model = None
    uploads_of = None  # the selector of the team's uploads in a phase (a staticmethod)
    has_file = True
    file_media_type = "text/csv"
    accepted_serializer = s.UploadAcceptedSerializer
    organizers_read = True

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.path, cls.operation = f"{cls.url_name}s", f"competitions_rounds_{cls.url_name}"

    def part(self, access):
        return phase_of(round=access.round, kind=self.phase_kind)

    def void_lock(self, part) -> None:
        """The round's row, what the kind's freeze locks (``services.freeze.round_freeze``)."""
        Round.objects.select_for_update().only("pk").get(pk=part.round_id)

    def uploader(self, part, access):
        check_uploader(access, part)
        return access.team

    def uploads(self, part, access):
        if part is None:
            raise Http404
        team = self.team(access)
        return self.uploads_of(phase=part, team=team).select_related(*UPLOAD_ROWS)

    def round_uploads(self, part):
        """Every team's uploads of the phase (none before it is set up)."""
        if part is None:
            return self.model.objects.none()
        return self.model.objects.filter(phase=part)

    def own(self, part, access, pk: int):
        return phase_upload_for(access, model=self.model, phase=part, pk=pk)

    def file_response(self, upload):
        return private_file_response(upload.file, upload.original_filename)

    def listed(self, part, access) -> bool:
        return part is not None

    def is_open(self, part, access) -> bool:
        return phase_state(phase=part) == "open"


class AnonymizedTables(PhaseUploads):
    key = "anonymized"
    published_as = (Target, "submission")  # a published table is never voided
    label = gettext_lazy("An anonymized table")
    noun = gettext_lazy("Anonymized table")
    url_name = "submission"
    phase_kind = Phase.Kind.ANONYMIZATION
    model = AnonymizationSubmission
    uploads_of = staticmethod(team_submissions)
    has_select = True
    upload_form = s.SubmissionUploadSerializer
    answer_serializer = s.SubmissionSerializer
    summaries = {
        "list": gettext_lazy("My team's anonymized uploads in the round, newest first"),
        "create": gettext_lazy("Upload an anonymized CSV (scored in the background)"),
        "retrieve": gettext_lazy("One anonymized upload: status and scores"),
        "file": gettext_lazy("Download the uploaded file, as uploaded"),
        "select": gettext_lazy("Make this submission your team's final one"),
    }
    description = gettext_lazy(
        "Same window, size and quota checks as the round page, with the same messages. An "
        "invalid file is kept and its submission FAILED with the reason."
    )

    def context(self, part, access):
        """The uploads that count (the round's selection rule: the chosen one, else the
        latest or best scored one; once frozen, the target), read once per request: the
        caller's team's, or every team's for an organizer."""
        if part is None:
            return {"counting": set()}
        team_ids = None if access.team is None else [access.team.pk]
        counting = representative_submissions(phase=part, team_ids=team_ids)
        return {"counting": {upload.pk for upload in counting.values()}}

    def as_json(self, upload, part, access, context):
        return {
            "about": "",
            **_kind_json(s.SubmissionSerializer(upload)),
            "final": upload.pk in context["counting"],
        }

    def upload(self, part, access, *, user, uploaded_file, data):
        return services.anonymization_submission_create(
            phase=part,
            team=access.team,
            user=user,
            uploaded_file=uploaded_file,
            note=data.get("note", ""),
        )

    def select(self, upload, part, access) -> str:
        """Only its team chooses it (an organizer reads it but does not choose it)."""
        phase_upload_for(access, model=self.model, phase=part, pk=upload.pk, owner_only=True)
        services.anonymization_submission_select(submission=upload, team=upload.team)
        return _("Submission %(upload)s is now your final one.") % {"upload": upload.label}

    def fields(self, part, access):
        return [_note_field()]


class Attacks(PhaseUploads):
    key = "attack"
    label = gettext_lazy("An attack on a published target")
    noun = gettext_lazy("Attack")
    target_team_path = "target__team"
    url_name = "attack"
    phase_kind = Phase.Kind.ATTACK
    model = AttackSubmission
    uploads_of = staticmethod(team_attacks)
    upload_form = s.AttackUploadSerializer
    answer_serializer = s.AttackSerializer
    summaries = {
        "list": gettext_lazy("My team's attacks in the round, newest first"),
        "create": gettext_lazy("Upload a correspondence table against a target"),
        "retrieve": gettext_lazy("One attack: status and (when visible) its rate"),
        "file": gettext_lazy("Download the uploaded correspondence table"),
    }

    def context(self, part, access):
        """Whether the round shows the rates to the caller, read once per request."""
        shown = access.is_organizer or attack_rates_visible_to_team(round=access.round)
        return {"show_rates": shown}

    def as_json(self, upload, part, access, context):
        data = _kind_json(s.AttackSerializer(upload, context=context))
        rate, text = data["rate"], data["rate_text"]
        return {
            "about": upload.target.team.name,
            **data,
            "scores": {} if rate is None else {"rate": rate},
            "scores_text": {} if text is None else {"rate": text},
            "final": False,
        }

    def upload(self, part, access, *, user, uploaded_file, data):
        slug = data["target"]
        target = next((t for t in round_targets(round=access.round) if t.team.slug == slug), None)
        if target is None:  # named, as every kind's attack upload answers
            raise no_target(slug, self._targets(access))
        return services.attack_submission_create(
            phase=part,
            team=access.team,
            target=target,
            user=user,
            uploaded_file=uploaded_file,
            note=data.get("note", ""),
        )

    def _targets(self, access) -> list[str]:
        return [t.team.slug for t in targets_for_attacker(access)]

    def is_open(self, part, access) -> bool:
        return super().is_open(part, access) and bool(self._targets(access))

    def fields(self, part, access):
        return [choice_field("target", _("Target"), self._targets(access)), _note_field()]


SUBMISSION_TYPES = [AnonymizedTables(), Attacks()]
