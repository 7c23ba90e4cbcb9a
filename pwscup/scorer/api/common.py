"""What the scorer round's API shares: the caller's access to the round, a release and an
attack as every kind's upload reads in the API (the declared types of ``submissions.py``),
the targets a team may download or attack (``files.py``), and the round's score columns in
the reader's language.

A release's scores are its team's own, exactly as the program wrote them (a JSON number stays
the same number). An attack's scores go through the one owner of the visibility rule
(``selectors.attack_visibility`` and ``selectors.attack_scores_for``): exact, a band or
hidden until the results are published, as the round's settings say."""

from types import SimpleNamespace

from django.urls import reverse
from django.utils.translation import gettext as _

from pwscup.core.languages import in_reader_language
from pwscup.scorer import score_text, selectors
from pwscup.scorer.models import Attack, Release, ScorerRound, Target
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.round_api import (
    AttackTargets,
    part_or_404,
    scores_answer,
    team_ref,
)
from pwscup.submissions.round_api import round_args as _round_args

RELEASE, ATTACK = "release", "attack"  # the keys of the round's submission types


def scorer_part(access):
    """The round's scorer part (404 for a round without one)."""
    return part_or_404(selectors.scorer_of(access.round))


def round_args(scorer: ScorerRound) -> list:
    return _round_args(scorer.round)


def column_label(column) -> str:
    """A score column's label in the reader's language (``in_reader_language``)."""
    return in_reader_language(column.label, column.label_ja)


def program_label(upload) -> str:
    """The program version that scored the upload ("v3"; ``""``: not scored yet)."""
    return upload.program.label if upload.program_id and upload.program else ""


def gates_remark(scores: dict, *, config) -> str:
    """What the platform says of a scored release in a round with gates, as the Submit tab
    does: each gate it fails, by its score's label and bound (*fails the gate Information
    loss ≤ 6*), else that it passes them; ``""`` in a round without gates."""
    if not config.gates:
        return ""
    failed = selectors.gate_failures(scores, config=config)
    if not failed:
        return _("passes the gates")
    return "; ".join(
        _("fails the gate %(gate)s") % {"gate": score_text.gate_text(gate, config=config)}
        for gate in failed
    )


def release_json(release: Release, *, final_pk: int | None, config) -> dict:
    """A release as every kind's upload reads in the API (its addresses are the core's):
    its scores as stored, and their texts (an integer stays one); its ``remark``, once
    scored, the round's gates it fails or that it passes them (``gates_remark``)."""
    scored = release.status == Release.Status.FINISHED
    scores = dict(release.scores) if scored else {}
    return {
        "about": "",
        "message": job_message_text(release),
        "note": release.note,
        "remark": gates_remark(scores, config=config) if scored else "",
        "program": program_label(release),
        **scores_answer(scores, text=score_text.format_score),
        "final": release.pk == final_pk,
        "selected": release.selected,
    }


def shown_scores(values: dict, *, visibility: str, config) -> dict:
    """Scores of an attack (or of one of its targets) as the reader may see them, and their
    texts: ``{"scores", "scores_text"}``."""
    shown = selectors.attack_scores_for(
        SimpleNamespace(scores=values or {}), visibility=visibility, config=config
    )
    return {
        "scores": {key: item["value"] for key, item in shown.items()},
        "scores_text": {key: item["text"] for key, item in shown.items()},
    }


def visibility_note(visibility: str) -> str:
    if visibility == "band":
        return _("Your attack scores are shown as bands until the results are published.")
    if visibility == "hidden":
        return _("Your attack scores are hidden until the results are published.")
    return ""


def attack_json(attack: Attack, *, visibility: str, config) -> dict:
    """An attack as every kind's upload reads in the API: its scores (and, for an upload
    covering every target, its per-target scores) under the visibility rule (its addresses
    are the core's)."""
    scored = attack.status == Attack.Status.FINISHED
    targets = {}
    if scored and attack.target_id is None:
        for slug, values in sorted((attack.targets or {}).items()):
            targets[slug] = shown_scores(values, visibility=visibility, config=config)
    return {
        "about": attack.target.team.name if attack.target_id else _("every target"),
        "target": attack.target.team.slug if attack.target_id else None,
        "message": job_message_text(attack),
        "note": attack.note,
        "remark": visibility_note(visibility) if scored else "",
        "visibility": visibility,
        "program": program_label(attack),
        **shown_scores(attack.scores if scored else {}, visibility=visibility, config=config),
        "targets": targets,
        "final": False,
    }


def target_json(target: Target, *, scorer: ScorerRound) -> dict:
    return {
        "team": team_ref(target.team),
        # The team number an answer laid out by team number uses (``target_slots`` of the
        # program's context; ``None``: no slot), as the Data tab's *Team number* column.
        "slot": target.slot_number,
        "files": list(target.release.public_names),
        "public_url": reverse(
            "api:scorer-target-public", args=[*round_args(scorer), target.team.slug]
        ),
    }


# The targets whose public files the caller may download: after the freeze, every other
# team's (all of them for an organizer); 404 before the freeze and for a visitor.
TARGETS = AttackTargets(read=selectors.round_targets, as_json=target_json, part_keyword="scorer")
downloadable_targets = TARGETS.of
