"""What the pages say of when a team's data pack is locked, and who can change it after: a
kind declares it (``RoundKind.choice_wording``) and the core's data choice (the team's Data
tab, the organizer's data choice card, the pick's refusal) shows it, whatever the kind.

The default is the core's rule (``choice_lock``): a team's first accepted upload in the round
locks its pick (one the kind refuses as it is kept does not), and an organizer can still change it. A kind that fixes a team's data earlier (the
synthetic round draws a team's rows at its first download) declares its own."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class ChoiceWording:
    """Lazy-translated sentences, each whole.

    ``rule``: the Data tab's card, after "This round offers several data packs: each team
    plays on one." ``form_note``: one line inside the team's pick form, next to its button.
    ``locked``: the Data tab once the team's pick is locked. ``refused``: a team's pick
    refused once locked. ``console``: the organizer's data choice card, after "Offer several
    data packs: each team picks one on the Data tab." ``kept``: the Data tab of a team whose
    data does not follow its pick (the kind's ``choice_kept``), said to the team; ``""``: the
    core's "Your team's data is fixed:" with the kind's reason."""

    rule: str
    form_note: str
    locked: str
    refused: str
    console: str
    kept: str = ""


UPLOAD_LOCK = ChoiceWording(
    rule=_(
        "The pick is locked at the team's first accepted upload (one refused at once locks "
        "nothing); after that only the organizers can change it."
    ),
    form_note=_("Your team's first accepted upload in this round locks its pick."),
    locked=_("Locked: your team has uploaded in this round. Ask the organizers if it must change."),
    refused=_(
        "Your team's data is locked since its first upload in this round: ask the organizers "
        "to change it."
    ),
    console=_("Its pick is locked at its first accepted upload; you can still change it below."),
)
