"""The synthetic round's REST endpoints (mounted by the API under the round, like the other
kinds'), with the access rules of its pages: 404 for a round of another kind, for a caller
outside the round's teams, for another team's release or attack.

* ``GET  syn/releases/``                my team's releases, newest first;
* ``POST syn/releases/``                upload ``teamX_synthetic.csv`` (multipart ``file``)
  through ``release_upload`` (release phase open, not frozen, limits), **202**: a worker
  checks and scores it (poll its ``url``);
* ``GET  syn/releases/<pk>/``           one release: status, message, scores;
* ``POST syn/releases/<pk>/select/``    make a scored release my final one (``release_select``);
* ``GET  syn/members.csv``              my team's members ``T_X`` (never another team's);
* once the releases are frozen: ``GET syn/targets/`` the other teams' targets with the
  addresses of their files, ``GET syn/targets/<team>/release.csv`` and ``…/challenge.csv``
  (ids and columns, no label), ``GET syn/aux.csv`` the auxiliary table;
  ``POST syn/attacks/`` an attack on a target (multipart ``file``, ``target``: the team's
  slug; **202**, a worker scores it), ``GET syn/attacks/`` and ``syn/attacks/<pk>/`` my
  team's attacks.

An attack's scores are those of the half ``selectors.visible_half`` allows: the dev half
until the results are published, the final half after. The final half's scores, ROC curves
and the membership labels are never in an answer before. Messages follow Accept-Language.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import gettext as _
from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.core.exports import csv_bytes_response
from pwscup.core.rest import CSV_FILE, ROUND_PREFIX, UploadField, errors
from pwscup.synthetic import KEY, engine, selectors, services
from pwscup.synthetic.api import files
from pwscup.synthetic.models import SynAttack, SynRelease, SynTarget
from scoring.display import format_number
from scoring.synthetic.attack import BUILTIN_ATTACKS
from scoring.synthetic.utility import SHOWN_RELEASE_SCORES

JSON_OBJECT = OpenApiResponse(OpenApiTypes.OBJECT)
JSON_LIST = OpenApiResponse(build_array_type(build_basic_type(OpenApiTypes.OBJECT)))
RELEASE, ATTACK = "release", "attack"  # the keys of the round's submission types
RELEASE_METRICS = SHOWN_RELEASE_SCORES
UNDEFINED = "–"


def score_text(value) -> str:
    return UNDEFINED if value is None else format_number(value)


def syn_access(request, competition_slug, round_slug):
    """The caller's access to a synthetic round and the round's synthetic part (404 for a
    round of another kind)."""
    access = round_access(request, competition_slug, round_slug, kind=KEY)
    synthetic = selectors.synthetic_of(access.round)
    if synthetic is None:
        raise Http404
    return access, synthetic


def require_team(access):
    if access.team is None:
        raise Http404(_("Not in a team of this competition."))
    return access.team


def attack_metrics(synthetic) -> tuple[str, ...]:
    """The attack scores' keys in the order a client prints them: AUC, TPR at each of the
    round's FPR levels (the first is the headline), the advantage."""
    config = engine.round_config(synthetic.round)
    return ("auc", *(f"tpr@{level:g}" for level in config.fpr_levels), "adv")


def half_note(half: str) -> str:
    if half == "final":
        return _("final half of the challenge set")
    return _("dev half of the challenge set (the final half is shown once results are published)")


def visible_scores(scores: dict | None, keys) -> dict:
    """The scores of ``keys`` present in ``scores`` (one half's)."""
    return {key: scores[key] for key in keys if scores and scores.get(key) is not None}


def _args(synthetic) -> list:
    return [synthetic.round.competition.slug, synthetic.round.slug]


def release_json(release: SynRelease, *, final_pk: int | None) -> dict:
    """A release as every kind's upload reads in the API, with its scores once it is scored
    (its team's own: utility, fidelity, copies, distances; no attack's score)."""
    synthetic = release.synthetic
    scored = release.status == SynRelease.Status.FINISHED
    scores = visible_scores(release.scores, RELEASE_METRICS) if scored else {}
    note = ""
    if scored:
        note = _("passes the gates") if release.scores.get("passes") else _("fails the gates")
    return {
        "type": RELEASE,
        "id": release.pk,
        "number": release.number,
        "status": release.status,
        "created_at": release.created_at,
        "about": _("%(rows)s rows") % {"rows": release.rows} if scored else "",
        "message": release.message_text,
        "note": note,
        "scores": scores,
        "scores_text": {key: score_text(value) for key, value in scores.items()},
        "final": release.pk == final_pk,
        "selected": release.selected,
        "url": reverse("api:syn-release", args=[*_args(synthetic), release.pk]),
        "select_url": reverse("api:syn-release-select", args=[*_args(synthetic), release.pk]),
    }


def attack_json(attack: SynAttack, *, synthetic, counts: bool) -> dict:
    """An attack as every kind's upload reads in the API: its scores on the half the reader
    may see (``selectors.visible_half``) once scored; ``counts``: it is the team's attack
    that counts on its target (its last scored one)."""
    half = selectors.visible_half(synthetic=synthetic)
    scored = attack.status == SynAttack.Status.FINISHED
    scores = visible_scores(getattr(attack, half), attack_metrics(synthetic)) if scored else {}
    return {
        "type": ATTACK,
        "id": attack.pk,
        "number": attack.number,
        "status": attack.status,
        "created_at": attack.created_at,
        "about": attack.target.team.name,
        "message": attack.message_text,
        "note": half_note(half) if scored else "",
        "half": half,
        "scores": scores,
        "scores_text": {key: score_text(value) for key, value in scores.items()},
        "final": counts,
        "url": reverse("api:syn-attack", args=[*_args(synthetic), attack.pk]),
    }


def releases_json(synthetic, team) -> list[dict]:
    final = selectors.final_release(synthetic=synthetic, team=team)
    final_pk = final.pk if final is not None else None
    return [
        release_json(release, final_pk=final_pk)
        for release in selectors.team_releases(synthetic=synthetic, team=team)
    ]


def attacks_json(synthetic, team) -> list[dict]:
    counting = {a.pk for a in selectors.latest_attacks(synthetic=synthetic).values()}
    return [
        attack_json(attack, synthetic=synthetic, counts=attack.pk in counting)
        for attack in selectors.team_attacks(synthetic=synthetic, team=team)
    ]


def frozen(synthetic) -> None:
    if synthetic.frozen_at is None:
        raise Http404(_("The releases are not frozen yet: there are no targets."))


def attackable(access, synthetic) -> list[SynTarget]:
    """The targets the caller may download: after the freeze, every other team's (all of
    them for an organizer)."""
    frozen(synthetic)
    if access.team is None and not access.is_organizer:
        raise Http404(_("Not a participant."))
    own = access.team.pk if access.team is not None else None
    return [t for t in selectors.targets(synthetic=synthetic) if t.team_id != own]


def target_of(access, synthetic, team_slug: str) -> SynTarget:
    for target in attackable(access, synthetic):
        if target.team.slug == team_slug:
            return target
    raise Http404(_("No such target."))


def _aux_url(synthetic, target: SynTarget) -> str:
    """The auxiliary table of the target's population (its data pack's, if any)."""
    url = reverse("api:syn-aux", args=_args(synthetic))
    pack = engine.draw_pack_key(synthetic=synthetic, team=target.team)
    return f"{url}?pack={pack}" if pack else url


def target_json(target: SynTarget, *, synthetic) -> dict:
    """A target as an attacker sees it: its team, the addresses of its files, and the
    built-in attacks' scores on the visible half (dev until publication)."""
    half = selectors.visible_half(synthetic=synthetic)
    args = [*_args(synthetic), target.team.slug]
    keys = attack_metrics(synthetic)
    builtin = {}
    if target.status == SynTarget.Status.FINISHED:
        builtin = {
            name: visible_scores((target.builtin.get(name) or {}).get(half), keys)
            for name in BUILTIN_ATTACKS
        }
    return {
        "team": {"name": target.team.name, "slug": target.team.slug},
        "status": target.status,
        "rows": target.release.rows,
        "release_url": reverse("api:syn-target-release", args=args),
        "challenge_url": reverse("api:syn-target-challenge", args=args),
        "aux_url": _aux_url(synthetic, target),
        "half": half,
        "builtin": builtin,
    }


class SynReleaseUploadSerializer(serializers.Serializer):
    file = UploadField()


class SynAttackUploadSerializer(serializers.Serializer):
    file = UploadField()
    target = serializers.CharField(max_length=100, help_text="The target team's slug.")


class ReleaseListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        responses={200: JSON_LIST, **errors(401, 404)},
        summary="My team's releases in a synthetic round, newest first",
        operation_id="syn_releases_list",
    )
    def get(self, request, competition_slug, round_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        return Response(releases_json(synthetic, require_team(access)))

    @extend_schema(
        request=SynReleaseUploadSerializer,
        responses={202: JSON_OBJECT, **errors(400, 401, 403, 404, 413, 429)},
        summary="Upload teamX_synthetic.csv (checked and scored by a worker)",
        description="The round page's service: the release phase must be open and the round "
        "not frozen; the limits and the deadline are enforced, with the page's messages.",
        operation_id="syn_releases_create",
    )
    def post(self, request, competition_slug, round_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        team = require_team(access)
        form = SynReleaseUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        release = services.release_upload(
            synthetic=synthetic,
            team=team,
            user=request.user,
            uploaded_file=form.validated_data["file"],
        )
        body = release_json(release, final_pk=None)
        body["message"] = _("Release #%(n)s is received: a worker checks and scores it.") % {
            "n": release.number
        }
        return Response(body, status=202)


def own_release(access, synthetic, pk: int) -> SynRelease:
    return get_object_or_404(
        SynRelease.objects.select_related("synthetic__round__competition"),
        pk=pk,
        synthetic=synthetic,
        team=require_team(access),
    )


class ReleaseDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="One of my team's releases: status, message and scores",
        operation_id="syn_release_retrieve",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        release = own_release(access, synthetic, pk)
        final = selectors.final_release(synthetic=synthetic, team=release.team)
        return Response(release_json(release, final_pk=final.pk if final else None))


class ReleaseSelectView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: JSON_OBJECT, **errors(400, 401, 403, 404)},
        summary="Make one of my team's scored releases its final one (until the freeze)",
        operation_id="syn_release_select",
    )
    def post(self, request, competition_slug, round_slug, pk):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        release = own_release(access, synthetic, pk)
        services.release_select(release=release)
        body = release_json(release, final_pk=release.pk)
        body["message"] = _("Release #%(n)s is now your final release.") % {"n": release.number}
        return Response(body)


class MembersView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404, 409)},
        summary="My team's members table T_X (teamX_train.csv)",
        description="In a round offering a data choice, the first call draws the team from "
        "its pack and locks its pick; 409 population_missing while the pack has no "
        "population.",
        operation_id="syn_members_retrieve",
    )
    def get(self, request, competition_slug, round_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        team = require_team(access)
        # Drawn now if the team has none yet (a round offering a data choice draws a team
        # when it first needs its data; the draw locks its pick).
        draw = services.team_draw(synthetic=synthetic, team=team)
        return csv_bytes_response(
            files.members_csv(synthetic=synthetic, draw=draw), files.members_name(team)
        )


class TargetListView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_LIST, **errors(401, 404)},
        summary="The other teams' frozen releases to attack, with their files' addresses",
        operation_id="syn_targets_list",
    )
    def get(self, request, competition_slug, round_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        return Response(
            [target_json(t, synthetic=synthetic) for t in attackable(access, synthetic)]
        )


class TargetReleaseView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
        summary="A target's frozen release, as its team uploaded it",
        operation_id="syn_target_release_retrieve",
    )
    def get(self, request, competition_slug, round_slug, team_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        target = target_of(access, synthetic, team_slug)
        return csv_bytes_response(files.release_bytes(target=target), files.release_name(target))


class TargetChallengeView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
        summary="A target's challenge set: id and the original's columns (no label)",
        operation_id="syn_target_challenge_retrieve",
    )
    def get(self, request, competition_slug, round_slug, team_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        target = target_of(access, synthetic, team_slug)
        return csv_bytes_response(files.challenge_csv(target=target), files.challenge_name(target))


class AuxView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
        summary="The auxiliary table A (the attack phase's reference population)",
        operation_id="syn_aux_retrieve",
    )
    def get(self, request, competition_slug, round_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        attackable(access, synthetic)
        key = selectors.aux_pack_key(
            synthetic=synthetic,
            team=access.team,
            requested=str(request.query_params.get("pack", ""))[:40],
        )
        if key is None:
            raise Http404(_("This round has no such data pack."))
        return csv_bytes_response(files.aux_csv(synthetic=synthetic, key=key), files.aux_name(key))


class AttackListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        responses={200: JSON_LIST, **errors(401, 404)},
        summary="My team's attacks, newest first (dev-half scores until publication)",
        operation_id="syn_attacks_list",
    )
    def get(self, request, competition_slug, round_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        return Response(attacks_json(synthetic, require_team(access)))

    @extend_schema(
        request=SynAttackUploadSerializer,
        responses={202: JSON_OBJECT, **errors(400, 401, 403, 404, 413, 429)},
        summary="Upload teamX_mia_teamY.csv (id,score) on another team's target",
        operation_id="syn_attacks_create",
    )
    def post(self, request, competition_slug, round_slug):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        team = require_team(access)
        form = SynAttackUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        frozen(synthetic)
        target = get_object_or_404(
            SynTarget.objects.select_related("team", "release", "synthetic__round"),
            synthetic=synthetic,
            team__slug=form.validated_data["target"],
        )
        attack = services.attack_upload(
            target=target, team=team, user=request.user, uploaded_file=form.validated_data["file"]
        )
        body = attack_json(attack, synthetic=synthetic, counts=False)
        body["message"] = _("Your attack on %(team)s (#%(n)s) is received: a worker scores it.") % {
            "team": target.team.name,
            "n": attack.number,
        }
        return Response(body, status=202)


class AttackDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="One of my team's attacks: status, message, scores on the visible half",
        operation_id="syn_attack_retrieve",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, synthetic = syn_access(request, competition_slug, round_slug)
        attack = (
            selectors.team_attacks(synthetic=synthetic, team=require_team(access))
            .filter(pk=pk)
            .first()
        )
        if attack is None:
            raise Http404
        counting = selectors.latest_attacks(synthetic=synthetic).get(
            (attack.team_id, attack.target_id)
        )
        return Response(
            attack_json(
                attack, synthetic=synthetic, counts=counting is not None and counting.pk == pk
            )
        )


# Mounted under /api/ by the API (``SyntheticKind.api_url_patterns``).
urlpatterns = [
    path(ROUND_PREFIX + "syn/releases/", ReleaseListView.as_view(), name="syn-releases"),
    path(ROUND_PREFIX + "syn/releases/<int:pk>/", ReleaseDetailView.as_view(), name="syn-release"),
    path(
        ROUND_PREFIX + "syn/releases/<int:pk>/select/",
        ReleaseSelectView.as_view(),
        name="syn-release-select",
    ),
    path(ROUND_PREFIX + "syn/members.csv", MembersView.as_view(), name="syn-members"),
    path(ROUND_PREFIX + "syn/targets/", TargetListView.as_view(), name="syn-targets"),
    path(
        ROUND_PREFIX + "syn/targets/<str:team_slug>/release.csv",
        TargetReleaseView.as_view(),
        name="syn-target-release",
    ),
    path(
        ROUND_PREFIX + "syn/targets/<str:team_slug>/challenge.csv",
        TargetChallengeView.as_view(),
        name="syn-target-challenge",
    ),
    path(ROUND_PREFIX + "syn/aux.csv", AuxView.as_view(), name="syn-aux"),
    path(ROUND_PREFIX + "syn/attacks/", AttackListView.as_view(), name="syn-attacks"),
    path(ROUND_PREFIX + "syn/attacks/<int:pk>/", AttackDetailView.as_view(), name="syn-attack"),
]
