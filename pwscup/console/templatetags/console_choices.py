"""The data choice card of a round's console page, for every kind
(``templates/console/round.html``): ``{% round_choices_card %}``."""

from django import template

from pwscup.competitions.choice_selectors import choice_kept, round_choices, round_team_picks
from pwscup.console.choice_forms import choice_rows_formset
from pwscup.console.selectors import competition_teams
from pwscup.kinds.registry import kind_of

register = template.Library()


@register.inclusion_tag("console/_data_choice_card.html", takes_context=True)
def round_choices_card(context) -> dict:
    round_ = context["round"]
    choices = round_choices(round=round_)
    picks = round_team_picks(round=round_)
    # The teams whose data does not follow their pack (the kind says why): warned of.
    kept = choice_kept(round=round_) if choices else {}
    kind = kind_of(round_)
    teams = [
        {
            "team": team,
            "pick": picks.get(team.pk),
            "kept": kept.get(team.pk, ""),
            # Why the kind no longer lets an organizer change the team's pack ("": it does);
            # then the row offers no Change form and reads locked.
            "fixed": kind.choice_change_refusal(round_, team) if choices else "",
        }
        for team in competition_teams(competition=round_.competition)
    ]
    return {
        "kept_names": ", ".join(row["team"].name for row in teams if row["kept"]),
        "kept_count": sum(1 for row in teams if row["kept"]),
        "round": round_,
        "competition": round_.competition,
        "choices": choices,
        "wording": kind.choice_wording,
        # The rows as posted when the card was refused (``round_page``), else as saved.
        "formset": context.get("choice_formset") or choice_rows_formset(choices=choices),
        "teams": teams if choices else [],
        "csrf_token": context.get("csrf_token"),
    }
