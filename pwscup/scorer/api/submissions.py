"""The scorer round's uploads as declared submission types: the core serves their REST
endpoints under the round (``pwscup/api/views/submissions.py``), with the access rules of
the round's pages (404 for a round of another kind or one without its scorer part, for a
caller outside the round's teams, for another team's release or attack), and their place in
the round status (``submission_types`` and ``uploads``).

* ``scorer/releases/``: my team's releases, newest first; ``POST`` a release (multipart
  ``file``) through ``release_upload`` (release phase open, not frozen, limits), **202**: a
  worker runs the organizer's program on it; ``<pk>/`` one release (scores as written),
  ``<pk>/file`` as uploaded, ``<pk>/select/`` make a scored one my final one (until the
  freeze). Listed in the status always, open in the release phase before the freeze.
* ``scorer/attacks/``: my team's attacks, their scores under the round's visibility rule;
  ``POST`` an attack (multipart ``file`` and, in a round of one upload per target,
  ``target``: the target team's slug), **202**; ``<pk>/`` and ``<pk>/file``. Listed in the
  status once the releases are frozen, open while the attack phase is and the results are
  not published, when the team has a target; ``<pk>/select/`` registers a scored attack as
  the one that counts (a round whose ``attack_counts`` is ``chosen``; refused, 409, in
  another). An attack's ``final`` says whether it is an upload that counts now (``last`` or
  ``chosen``), the status's ``counts`` which upload counts."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from pwscup.core.errors import Refused
from pwscup.scorer import score_text, selectors, services
from pwscup.scorer.api import files
from pwscup.scorer.api.common import ATTACK, RELEASE, attack_json, release_json, scorer_part
from pwscup.scorer.models import Attack, Release, Target
from pwscup.submissions.round_api import upload_files
from pwscup.submissions.submission_types import SubmissionType
from pwscup.submissions.two_sided_types import FinalReleases, TargetAttacks
from pwscup.submissions.voids import VoidableUploads


class ScorerUploads(VoidableUploads, SubmissionType):
    """What the round's two uploads share: the round's scorer part, one upload as the team
    sent it, the 404 of an upload that is not the team's; the organizers may void either
    (``pwscup.submissions.voids``)."""

    has_file = True
    prefix = "scorer"
    part = staticmethod(scorer_part)
    part_keyword = "scorer"

    def own(self, part, access, pk: int):
        return get_object_or_404(self.uploads(part, access), pk=pk)

    def files(self, part, access):
        """The round's ``release_files`` or ``attack_files``, as the Submit tab shows them."""
        return upload_files(selectors.round_config(part.round).files_rule(self.key))

    def file_response(self, upload):
        return files.upload_file_response(upload)


class ScorerReleases(ScorerUploads, FinalReleases):
    key = RELEASE
    published_as = (Target, "release")  # a published release is never voided
    label = gettext_lazy("A release (scored by the organizer's program)")
    summaries = {
        "create": gettext_lazy("Upload a release (scored by the organizer's program on a worker)"),
        "retrieve": gettext_lazy(
            "One of my team's releases: status, message and scores as written"
        ),
    }

    def round_uploads(self, part):
        return Release.objects.filter(scorer=part)

    def uploads(self, part, access):
        return selectors.team_releases(scorer=part, team=self.team(access)).select_related(
            "program", "scorer__round__competition"
        )

    def context(self, part, access) -> dict:
        """The final release's pk and the round's rules (its gates), read once per request."""
        return {**super().context(part, access), "config": selectors.round_config(part.round)}

    def as_json(self, upload, part, access, context):
        return release_json(upload, final_pk=context["final_pk"], config=context["config"])


def refuse_attack_shape(scorer, slug: str, *, per_target: bool) -> None:
    """Refuse, with the service's messages, an attack upload whose target does not fit the
    round (a target named where one upload covers every target, none where one is needed),
    and (403) one before the freeze."""
    if not per_target and slug:
        raise Refused(_("An attack in this round covers every target at once."), status=400)
    if per_target and not slug:
        raise Refused(_("Choose the target team of your attack."), status=400)
    if scorer.frozen_at is None:
        raise Refused(_("The releases are not frozen yet: there is nothing to attack."), status=403)


class ScorerAttacks(ScorerUploads, TargetAttacks):
    key = ATTACK
    label = gettext_lazy("An attack on one target (scored by the organizer's program)")
    summaries = {
        "list": gettext_lazy(
            "My team's attacks, newest first (scores under the round's visibility rule)"
        ),
        "create": gettext_lazy(
            "Upload an attack: on one target (target: its team's slug) or on every target"
        ),
        "retrieve": gettext_lazy(
            "One of my team's attacks: status, message, scores under the visibility rule"
        ),
    }
    upload_fields = {
        "target": serializers.CharField(
            max_length=100,
            required=False,
            allow_blank=True,
            help_text=gettext_lazy(
                "The target team's slug (a round of one upload per target; none when "
                "one upload covers every target)."
            ),
        )
    }
    target_model = Target
    has_select = True
    withdrawable = True

    def summary(self, action: str) -> str:
        if action == "select":
            return gettext_lazy(
                "Register one of my team's scored attacks as the one that counts (a round "
                "where the team chooses it)"
            )
        return super().summary(action)

    def round_uploads(self, part):
        return Attack.objects.filter(scorer=part)

    def withdrawal_open(self, part) -> bool:
        """The round's setting ``attack_withdrawal``: until its results are published."""
        return selectors.attack_withdrawal_open(scorer=part)

    def uploads(self, part, access):
        return selectors.team_attacks(scorer=part, team=self.team(access)).select_related("program")

    def context(self, part, access):
        """The round's visibility rule for the caller and the team's uploads that count,
        read once per request."""
        config = selectors.round_config(part.round)
        return {
            "visibility": selectors.attack_visibility(
                scorer=part, is_organizer=access.is_organizer
            ),
            "config": config,
            "counted": selectors.team_counted_attacks(scorer=part, team=self.team(access)),
        }

    def as_json(self, upload, part, access, context):
        answer = attack_json(upload, visibility=context["visibility"], config=context["config"])
        return {**answer, "final": upload.pk in context["counted"]}

    def select(self, upload, part, access) -> str:
        services.attack_select(attack=upload)
        return _("Attack #%(n)s is now the one that counts.") % {"n": upload.number}

    def counts(self, part, access) -> str:
        return str(score_text.attack_counts_text(selectors.round_config(part.round)))

    def page_anchor(self, data, *, refused: bool) -> str:
        return "#attacks"

    def upload(self, part, access, *, user, uploaded_file, data):
        """The target is ``None`` in a round where one upload covers every target."""
        slug = data.get("target", "").strip()
        per_target = self._per_target(part)
        refuse_attack_shape(part, slug, per_target=per_target)
        target = self.target(part, access, slug) if per_target else None
        return services.attack_upload(
            scorer=part, team=access.team, user=user, uploaded_file=uploaded_file, target=target
        )

    # --- the round status: after the freeze, on one target or on every target at once ------

    def _per_target(self, part) -> bool:
        return selectors.round_config(part.round).attack_mode == "per_target"

    def target_slugs(self, part, access) -> list[str]:
        targets = selectors.attack_target_choices(scorer=part, team=access.team)
        return [t.team.slug for t in targets]

    def fields(self, part, access):
        """In a round of one upload per target, ``target`` lists the other teams' targets."""
        return super().fields(part, access) if self._per_target(part) else []

    def status_entry(self, part, access):
        entry = super().status_entry(part, access)
        entry["selectable"] = selectors.round_config(part.round).attack_counts == "chosen"
        if not self._per_target(part):
            entry["label"] = _(
                "An attack on every target at once (scored by the organizer's program)"
            )
        return entry


SUBMISSION_TYPES = [ScorerReleases(), ScorerAttacks()]
