"""The organizer's side of a scorer round: the page creating one (mounted at
``console/<comp>/scorer/new/``), the round's console panel (the program's versions and their
builds, the data packs, the teams' slots and their committed salt, the scores' versions, the
uploads' counts) and the panel's forms, each a page of its own that the panel posts to (an
error is shown next to its field there). The lifecycle actions (close, freeze, open the attack phase, publish, hide) are
``actions.py``'s, listed by the core's round page. Organizers of the competition only
(``console_competition`` / ``console_round``: 404 for anyone else)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from pwscup.accounts.models import Team
from pwscup.competitions.choice_selectors import round_choices
from pwscup.competitions.console_posts import console_post_answer
from pwscup.competitions.round_create import round_create_page, round_identity
from pwscup.competitions.selectors import console_competition, console_round
from pwscup.core.errors import Refused
from pwscup.core.form_fields import form_page
from pwscup.scorer import KEY, selectors, services
from pwscup.scorer.forms import ScorerRoundForm, round_initial
from pwscup.scorer.models import Attack, DataPack, Release, SlotSalt
from pwscup.scorer.panel_forms import PackForm, ProgramForm, SaltForm, SlotForm
from pwscup.scorer.rules_form import ScorerRulesForm
from pwscup.scorer.slot_folders import slot_folders
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import upload_counts
from pwscup.submissions.services.auto_freeze_state import auto_freeze_panel
from pwscup.submissions.two_sided_forms import two_sided_form
from pwscup.submissions.two_sided_phases import (
    named_phases,
    panel_state,
)


@login_required
def round_create(request, competition_slug):
    """The round's name, settings and windows; creates it through the service."""
    competition = console_competition(user=request.user, slug=competition_slug)
    form = two_sided_form(request, ScorerRoundForm, round_initial)

    def create(data):
        return services.scorer_round_create(
            **round_identity(data, competition=competition, user=request.user),
            config=form.config(),
            **form.windows(),
        )

    done = _("The round is created. Upload its scoring program and data packs below.")
    return round_create_page(
        request, competition, form, create, "scorer/console_create.html", created_message=done
    )


# --- the panel's forms -----------------------------------------------------------------------


def _scorer_of(request, competition_slug, round_slug):
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug, kind=KEY
    )
    scorer = selectors.scorer_of(round_)
    if scorer is None:
        raise Http404
    return scorer


def _panel_form(request, scorer, form, perform, *, title, action, multipart=True):
    """A panel's form on a page of its own: on a valid POST, ``perform(cleaned_data)`` (one
    service call) returns the message shown back on the round's console page; its refusal
    is shown on the form."""
    round_ = scorer.round
    return form_page(
        request,
        form,
        perform,
        template="scorer/console_form.html",
        context={
            "competition": round_.competition,
            "round": round_,
            "title": title,
            "action": action,
            "multipart": multipart,
        },
        back=reverse("console:round", args=[round_.competition.slug, round_.slug]),
        done=lambda message: message,  # what ``perform`` says it did
        refusals=True,
    )


@login_required
def program_upload(request, competition_slug, round_slug):
    """A new version of the round's program, queued for its build."""
    scorer = _scorer_of(request, competition_slug, round_slug)

    def upload(data) -> str:
        version = services.program_upload(
            scorer=scorer, uploaded_file=data["program"], user=request.user
        )
        return _("Program %(version)s kept; its environment is being built.") % {
            "version": version.label
        }

    return _panel_form(
        request,
        scorer,
        ProgramForm(request.POST or None, request.FILES or None),
        upload,
        title=_("Upload a scoring program"),
        action=reverse("scorer_console:program", args=[competition_slug, round_slug]),
    )


@login_required
def pack_upload(request, competition_slug, round_slug, role):
    """The round's data pack of ``role``; the newest of each role counts."""
    scorer = _scorer_of(request, competition_slug, round_slug)
    if role not in DataPack.Role.values:
        raise Http404

    def upload(data) -> str:
        services.pack_upload(
            scorer=scorer,
            role=role,
            uploaded_file=data["file"],
            user=request.user,
            choice=data["choice"],
        )
        return _("Data pack kept: %(role)s.") % {"role": DataPack.Role(role).label}

    return _panel_form(
        request,
        scorer,
        PackForm(
            request.POST or None, request.FILES or None, choices=round_choices(round=scorer.round)
        ),
        upload,
        title=DataPack.Role(role).label,
        action=reverse("scorer_console:pack", args=[competition_slug, round_slug, role]),
    )


@login_required
def slot_set(request, competition_slug, round_slug):
    """Give a team the slot of its folder in the slots pack (a team holding it swaps)."""
    scorer = _scorer_of(request, competition_slug, round_slug)
    teams = Team.objects.filter(competition_id=scorer.round.competition_id).order_by("name")

    def give(data) -> str:
        mine = services.slot_set(
            scorer=scorer, team=data["team"], slot=data["slot"], user=request.user
        )
        return _("%(team)s plays in slot %(folder)s.") % {
            "team": data["team"].name,
            "folder": mine.folder,
        }

    return _panel_form(
        request,
        scorer,
        SlotForm(request.POST or None, teams=teams),
        give,
        title=_("Set a team's slot"),
        action=reverse("scorer_console:slot", args=[competition_slug, round_slug]),
        multipart=False,
    )


@login_required
def salt_commit(request, competition_slug, round_slug):
    """Commit a salt for the teams' slots (drawn here unless the organizer types one)."""
    scorer = _scorer_of(request, competition_slug, round_slug)

    def commit(data) -> str:
        kept = services.slot_salt_commit(scorer=scorer, salt=data["salt"], user=request.user)
        return _("Salt committed; its SHA-256 is on the Rules tab: %(commitment)s.") % {
            "commitment": kept.commitment
        }

    return _panel_form(
        request,
        scorer,
        SaltForm(request.POST or None),
        commit,
        title=_("Commit a salt"),
        action=reverse("scorer_console:salt_commit", args=[competition_slug, round_slug]),
        multipart=False,
    )


@login_required
@require_POST
def salt_assign(request, competition_slug, round_slug):
    """Every team's slot from the committed salt."""
    scorer = _scorer_of(request, competition_slug, round_slug)

    def assign() -> str:
        slots = services.slots_from_salt(scorer=scorer, user=request.user)
        return ngettext(
            "%(n)d team's slot assigned from the committed salt.",
            "%(n)d teams' slots assigned from the committed salt.",
            len(slots),
        ) % {"n": len(slots)}

    return console_post_answer(request, scorer.round, assign)


@login_required
@require_POST
def salt_reveal(request, competition_slug, round_slug):
    """Show the salt to everyone who sees the round."""
    scorer = _scorer_of(request, competition_slug, round_slug)

    def reveal() -> str:
        services.slot_salt_reveal(scorer=scorer, user=request.user)
        return _("The salt is revealed on the round's Rules tab.")

    return console_post_answer(request, scorer.round, reveal)


@login_required
def rules_edit(request, competition_slug, round_slug):
    """The page *Edit the round's rules*: the creation form's scores, gates and rules as
    stored, saved by ``scorer_rules_edit`` (a refusal next to its setting)."""
    scorer = _scorer_of(request, competition_slug, round_slug)
    round_ = scorer.round
    form = ScorerRulesForm(request.POST or None, config=selectors.round_config(round_).as_dict())
    return form_page(
        request,
        form,
        lambda data: services.scorer_rules_edit(
            scorer=scorer, rules=form.rules(), user=request.user
        ),
        template="scorer/console_rules.html",
        context={"competition": round_.competition, "round": round_, "scorer": scorer},
        back=reverse("console:round", args=[round_.competition.slug, round_.slug]),
        done=_("The round's rules are saved; its rankings are recomputed."),
        unchanged=_("Nothing changed: the rules are as they were."),
    )


@login_required
@require_POST
def rescore(request, competition_slug, round_slug):
    """Every upload an older program version scored runs again with the current one."""
    scorer = _scorer_of(request, competition_slug, round_slug)

    def queue() -> str:
        if selectors.current_program(scorer=scorer) is None:
            raise Refused(_("No program version is built yet: nothing can be rescored."))
        count = services.rescore_outdated(scorer=scorer, user=request.user)
        return ngettext(
            "%(n)d upload queued for rescoring.", "%(n)d uploads queued for rescoring.", count
        ) % {"n": count}

    return console_post_answer(request, scorer.round, queue)


round_path = "r/<slug:round_slug>/"
urlpatterns = [
    path("new/", round_create, name="create"),
    path(round_path + "program/", program_upload, name="program"),
    path(round_path + "packs/<slug:role>/", pack_upload, name="pack"),
    path(round_path + "slot/", slot_set, name="slot"),
    path(round_path + "salt/", salt_commit, name="salt_commit"),
    path(round_path + "salt/assign/", salt_assign, name="salt_assign"),
    path(round_path + "salt/reveal/", salt_reveal, name="salt_reveal"),
    path(round_path + "rescore/", rescore, name="rescore"),
    path(round_path + "rules/", rules_edit, name="rules"),
]


# --- the round's panel -------------------------------------------------------------------------


def _versions(scorer) -> list[dict]:
    return [
        {
            "program": program,
            "commands": sorted((program.metadata or {}).get("commands", {}).items()),
            "requirements": (program.metadata or {}).get("requirements") or [],
            "failure": job_message_text(program) if program.status == Status.FAILED else "",
            "builds": list(program.builds.all()),
        }
        for program in selectors.program_versions(scorer=scorer)
        .select_related("uploaded_by")
        .prefetch_related("builds")
    ]


def _unwritten_columns(scorer, config) -> list[tuple[str, list[str]]]:
    """Per side (``release``, ``attack``) the declared score keys that no scored upload of
    that side holds (an attack covering every target: in none of its targets either): a key
    mistyped, or one the program never writes, is an empty column on every page."""
    found = []
    for side, model, columns in (
        ("release", Release, config.release_columns),
        ("attack", Attack, config.attack_columns),
    ):
        written, scored = set(), False
        fields = ("scores", "targets") if model is Attack else ("scores",)
        for row in model.objects.filter(scorer=scorer, status=Status.FINISHED).values(*fields):
            scored = True
            written.update(row["scores"] or {})
            for per_target in (row.get("targets") or {}).values():
                written.update(per_target or {})
        missing = [column.key for column in columns if column.key not in written]
        if scored and missing:
            found.append((side, missing))
    return found


# The round's panel on the console's round page: the core renders it with ``panel_context``.
PANEL_TEMPLATE = "scorer/console_panel.html"


def panel_context(round_) -> dict | None:
    """What the panel shows: the program's versions, the packs (names, sizes, counts: never
    their contents), the slots, the uploads the current version did not score, the counts."""
    scorer = selectors.scorer_of(round_)
    if scorer is None:
        return None
    packs = selectors.packs_by_choice(scorer=scorer)
    choices = round_choices(round=round_)
    outdated = services.outdated_uploads(scorer=scorer)
    return {
        "round": round_,
        "competition": round_.competition,
        "scorer": scorer,
        **panel_state(scorer),
        "auto_freeze": auto_freeze_panel(scorer),
        "config": selectors.round_config(round_),
        "phases": named_phases(round_),
        "current": selectors.current_program(scorer=scorer),
        "hidden_missing": selectors.hidden_missing_names(scorer=scorer),
        "versions": _versions(scorer),
        "program_form": ProgramForm(),
        "packs": [
            {
                "role": role,
                "label": label,
                "pack": packs.get((role, "")),
                "by_choice": [(c, packs.get((role, c.key))) for c in choices],
                "hidden": role in DataPack.HIDDEN,
                "form": PackForm(auto_id=f"id_{role}_%s", choices=choices),
            }
            for role, label in DataPack.Role.choices
        ],
        "slots": slot_folders(scorer=scorer),
        "slot_form": SlotForm(
            teams=Team.objects.filter(competition_id=round_.competition_id).order_by("name")
        ),
        "salt": SlotSalt.objects.filter(scorer=scorer).first(),
        "salt_form": SaltForm(),
        "outdated": {"releases": len(outdated[Release]), "attacks": len(outdated[Attack])},
        "outdated_total": len(outdated[Release]) + len(outdated[Attack]),
        "unwritten": _unwritten_columns(scorer, selectors.round_config(round_)),
        "releases": upload_counts(Release.objects.filter(scorer=scorer)),
        "attacks": upload_counts(Attack.objects.filter(scorer=scorer)),
    }
