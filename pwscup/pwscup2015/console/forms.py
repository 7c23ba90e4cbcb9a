"""The 2015 game's console forms for a round's rules (the wizard's rules step) and for the
whole round (its edit page: phases, rules and configuration). They collect values; the
services and ``scoring`` check them."""

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring
from pwscup.core.form_fields import positive_int_field
from pwscup.pwscup2015.console.phase_forms import PhasesForm
from pwscup.pwscup2015.leaderboards.metric_words import better_arrow
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.ranking import GateError, parse_gates
from pwscup.pwscup2015.value_ranges import RangeError, parse_value_ranges


def metric_choices():
    return [
        (m, f"{m} {better_arrow(scoring.LOWER_IS_BETTER.get(m, True))}") for m in scoring.METRICS
    ]


GATE_BOUNDS = ("min", "max")


def _plain_number(value: float) -> float | int:
    """A typed bound as it is stored: ``100`` rather than ``100.0``."""
    return int(value) if float(value).is_integer() and abs(value) < 1e15 else value


def _shown(value: float | None) -> float | int | None:
    return None if value is None else _plain_number(value)


def gates_from_bounds(bounds: dict) -> dict:
    """The stored gates (``Pwscup2015Round.utility_gates``) of typed bounds
    ``{metric: (at_least, at_most)}``, in the JSON shape ``ranking.parse_gates`` reads: a bare
    number where it means the bound typed (U1–U6 at most, an indicator in its better
    direction), else ``{"min": …, "max": …}``.

    >>> gates_from_bounds({"U1": (None, 100.0), "S1": (5.0, None), "L1": (2.0, None)})
    {'U1': 100, 'S1': {'min': 5}, 'L1': 2}
    """
    gates = {}
    for metric in scoring.ALL_METRICS:
        low, high = bounds.get(metric, (None, None))
        if low is None and high is None:
            continue
        lower_better = scoring.LOWER_IS_BETTER.get(metric, True)
        bare = metric in scoring.UTILITY_METRICS or metric in scoring.INDICATOR_METRICS
        if bare and low is None and lower_better:
            gates[metric] = _plain_number(high)
        elif bare and high is None and not lower_better and metric in scoring.INDICATOR_METRICS:
            gates[metric] = _plain_number(low)
        else:
            gates[metric] = {
                key: _plain_number(value)
                for key, value in (("min", low), ("max", high))
                if value is not None
            }
    return gates


class RulesForm(forms.Form):
    """The rules of a round, every one typed in its own field: the utility gates (one row per
    metric, at least / at most), the range rule (one row per column, from / to) and the size
    of each target's published sample. ``clean`` gathers the rows into the stored values
    (``utility_gates``, ``value_ranges``); ``round_settings_check`` checks them."""

    template_name = "pwscup2015/_rules_form.html"

    tie_break_metric = forms.ChoiceField(
        label=_("Tie-break metric (↓ lower is better, ↑ higher is better)"),
        choices=metric_choices,
        initial="U1",
    )
    ranking_rule = forms.ChoiceField(
        label=_("Ranking rule"), choices=Pwscup2015Round.RankingRule.choices
    )
    selection_rule = forms.ChoiceField(
        label=_("Which submission represents a team"), choices=Pwscup2015Round.SelectionRule.choices
    )
    attack_visibility = forms.ChoiceField(
        label=_("Attack rates visible to the attacker"),
        choices=Pwscup2015Round.AttackVisibility.choices,
    )
    auto_freeze = forms.BooleanField(
        label=_("Freeze automatically when the anonymization phase closes"),
        required=False,
        initial=True,
    )
    published_rows = positive_int_field(
        label=_("Published rows per target"),
        required=False,
        help_text=_(
            "Empty: attackers get every kept row of each final anonymization, shuffled. A "
            "number N: a random sample of N of them (iPWS 2023: 300 of 3,985); the attacks "
            "are scored on the sample."
        ),
    )

    def __init__(self, *args, columns=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.gate_rows = []
        for metric in scoring.ALL_METRICS:
            arrow = better_arrow(scoring.LOWER_IS_BETTER.get(metric, True))
            names = []
            for bound, label in zip(GATE_BOUNDS, (_("at least"), _("at most")), strict=True):
                name = f"gate_{metric}_{bound}"
                self.fields[name] = forms.FloatField(label=f"{metric} {label}", required=False)
                names.append(name)
            self.gate_rows.append((metric, arrow, names))
        self.range_rows = []
        for k, column in enumerate(columns):
            names = []
            for bound, label in zip(GATE_BOUNDS, (_("lower bound"), _("upper bound")), strict=True):
                name = f"range_{k}_{bound}"
                self.fields[name] = forms.FloatField(label=f"{column} {label}", required=False)
                names.append(name)
            self.range_rows.append((column, names))
        self._initial_bounds()

    def _initial_bounds(self) -> None:
        """The typed fields' initial values from the stored ``utility_gates`` and
        ``value_ranges`` (given as ``initial``; the form has no field of either name)."""
        stored_gates = self.initial.pop("utility_gates", None)
        stored_ranges = self.initial.pop("value_ranges", None)
        try:
            gates = parse_gates(stored_gates)
        except GateError:
            gates = []
        for gate in gates:
            self.initial[f"gate_{gate.metric}_min"] = _shown(gate.minimum)
            self.initial[f"gate_{gate.metric}_max"] = _shown(gate.maximum)
        try:
            ranges = parse_value_ranges(stored_ranges)
        except RangeError:
            ranges = {}
        for column, names in self.range_rows:
            if column in ranges:
                for name, value in zip(names, ranges[column], strict=True):
                    self.initial[name] = _shown(value)

    def table_fields(self) -> set[str]:
        """The fields shown in the gates and ranges tables, not one by one."""
        return {name for _m, _a, names in self.gate_rows for name in names} | {
            name for _c, names in self.range_rows for name in names
        }

    def gate_table(self):
        return [
            (metric, arrow, [self[n] for n in names]) for metric, arrow, names in self.gate_rows
        ]

    def range_table(self):
        return [(column, [self[n] for n in names]) for column, names in self.range_rows]

    def clean(self):
        cleaned = super().clean()
        bounds = {
            metric: tuple(cleaned.pop(name, None) for name in names)
            for metric, _arrow, names in self.gate_rows
        }
        cleaned["utility_gates"] = gates_from_bounds(bounds)
        ranges = {}
        for column, names in self.range_rows:
            low, high = (cleaned.pop(name, None) for name in names)
            if low is None and high is None:
                continue
            if low is None or high is None:
                self.add_error(
                    names[0] if low is None else names[1],
                    _("Give both bounds of %(column)s (or neither).") % {"column": column},
                )
                continue
            ranges[column] = {"min": _plain_number(low), "max": _plain_number(high)}
        cleaned["value_ranges"] = ranges
        return cleaned


class RoundEditForm(PhasesForm, RulesForm):
    config = forms.CharField(
        label=_("Round configuration (JSON)"),
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text=_("Checked against the original table; after a change, rescore everything."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].disabled = True
