"""The bases of a two-sided round's declared uploads (``submission_types.SubmissionType``):
a team's release (``TeamReleases``), one the team may make its final one
(``FinalReleases``), and an attack on another team's target (``TargetAttacks``). A kind's
types read and keep uploads through the modules it declares (``selectors_module``,
``services_module``, which take its part by ``part_keyword``) and the functions every
two-sided kind names alike (``team_releases``, ``release_upload``, ``final_release``,
``release_select``, ``team_attacks``, ``attack_upload``); they write what differs: how an
upload reads, when it is open, which target an attack names."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from pwscup.competitions.selectors import phase_state_held
from pwscup.submissions.round_api import no_target, require_targets
from pwscup.submissions.submission_types import SubmissionType, choice_field
from pwscup.submissions.two_sided_phases import attack_phase, release_phase


class TeamReleases(SubmissionType):
    """A two-sided round's release, read and kept through the kind's modules: the team's,
    newest first, are ``selectors_module.team_releases(<part_keyword>=part, team=team)``,
    one is kept by ``services_module.release_upload(<part_keyword>=part, team=, user=,
    uploaded_file=, **data)`` (the declared fields are the service's keywords)."""

    uploads_noun = gettext_lazy("releases")
    noun = gettext_lazy("Release")

    def uploads(self, part, access):
        return self.selectors_module.team_releases(
            **{self.part_keyword: part}, team=self.team(access)
        )

    def upload(self, part, access, *, user, uploaded_file, data):
        part_given = {self.part_keyword: part}
        return self.services_module.release_upload(
            **part_given, team=self.team(access), user=user, uploaded_file=uploaded_file, **data
        )


class FinalReleases(TeamReleases):
    """A two-sided round's release: the team makes a scored one its final one (the freeze
    publishes it), through the kind's modules: which release is final
    (``selectors_module.final_release(<part_keyword>=part, team=team)``, ``None``: none)
    and how one is selected (``services_module.release_select(release=upload)``, which
    keeps its refusals: frozen, phase closed, the kind's own rule)."""

    description = gettext_lazy(
        "The round page's service: the release phase must be open and the round not frozen; "
        "the limits and the deadline are enforced, with the page's messages."
    )

    def page_anchor(self, data, *, refused: bool) -> str:
        return "#releases"  # the Submit tab's table of the team's releases

    has_select = True

    def summary(self, action: str) -> str:
        if action == "select":
            default = gettext_lazy(
                "Make one of my team's scored releases its final one (until the freeze)"
            )
            return self.summaries.get(action, default)
        return super().summary(action)

    def final_release(self, part, team):
        """The team's final release now (``None``: none)."""
        return self.selectors_module.final_release(**{self.part_keyword: part}, team=team)

    def release_select(self, upload) -> None:
        self.services_module.release_select(release=upload)

    def context(self, part, access) -> dict:
        final = self.final_release(part, self.team(access))
        return {"final_pk": final.pk if final is not None else None}

    def select(self, upload, part, access) -> str:
        self.release_select(upload)
        return _("Release #%(n)s is now your final release.") % {"n": upload.number}

    def is_open(self, part, access) -> bool:
        """While the round's release phase is open (the freeze closes it: the core's
        ``phase_closes_at``) and its kind does not hold it (``phase_state_held``)."""
        return phase_state_held(phase=release_phase(part.round)) == "open"


class TargetAttacks(SubmissionType):
    """An attack on another team's frozen release (a target), named by its team's slug:
    listed once the releases are frozen (``part.frozen_at``); ``target_slugs`` are the
    targets the team may attack now. The team's, newest first, are
    ``selectors_module.team_attacks(<part_keyword>=part, team=team)``; an upload names its
    target (``target``, 404 for none) and is kept by ``services_module.attack_upload(
    target=, team=, user=, uploaded_file=)``."""

    uploads_noun = gettext_lazy("attacks")
    noun = gettext_lazy("Attack")
    target_team_path = "target__team"
    upload_fields = {
        "target": serializers.CharField(
            max_length=100, help_text=gettext_lazy("The target team's slug.")
        ),
    }
    target_model = None  # the kind's targets, one per team (``team``, ``release``, its part)

    def target_slugs(self, part, access) -> list[str]:
        raise NotImplementedError

    def target(self, part, access, slug: str):
        """The target of the team ``slug`` the caller may attack now: by default, once the
        releases are frozen, the part's ``target_model`` row of that team (404 naming the
        team otherwise)."""
        require_targets(part)
        keyword = self.part_keyword
        found = (
            self.target_model.objects.select_related("team", "release", f"{keyword}__round")
            .filter(**{keyword: part}, team__slug=slug)
            .first()
        )
        if found is None:
            raise no_target(slug, self.target_slugs(part, access))
        return found

    def uploads(self, part, access):
        return self.selectors_module.team_attacks(
            **{self.part_keyword: part}, team=self.team(access)
        )

    def upload(self, part, access, *, user, uploaded_file, data):
        target = self.target(part, access, data["target"])
        return self.services_module.attack_upload(
            target=target, team=self.team(access), user=user, uploaded_file=uploaded_file
        )

    def received_values(self, upload) -> dict:
        """An attack's notice names its target's team too (``%(team)s``)."""
        return {**super().received_values(upload), "team": upload.target.team.name}

    def listed(self, part, access) -> bool:
        return part.frozen_at is not None

    def fields(self, part, access) -> list[dict]:
        return [choice_field("target", _("Target"), self.target_slugs(part, access))]

    def is_open(self, part, access) -> bool:
        """While the round's attack phase is open and its results are not published, with a
        target the team may attack."""
        return (
            phase_state_held(phase=attack_phase(part.round)) == "open"
            and not part.results_published
            and bool(self.target_slugs(part, access))
        )
