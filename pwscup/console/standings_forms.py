"""The console's standings form: the division's key and names, the combination rule, then
one row per round of the competition (count it or not, its weight, which of its rankings)
and one per other division it may count (count it or not, its weight). Plain fields, no
JSON; the service (``pwscup.competitions.standings_services``) checks the values."""

from decimal import Decimal

from django import forms
from django.forms.formsets import TOTAL_FORM_COUNT
from django.utils.html import escape
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.standings import default_weights
from pwscup.competitions.standings_models import DIVISION_NAME_MAX_LENGTH, Standings
from pwscup.competitions.standings_services import (
    FIRST_KEY,
    CountedInput,
    DivisionInput,
    EntryInput,
)
from pwscup.competitions.totals import round_ranking_keys


class DivisionForm(forms.Form):
    """A division's address and names (the service checks the key is free)."""

    key = forms.SlugField(
        label=_("Key"),
        max_length=50,
        # Django writes help text as HTML: escaped, "<competition>" is not read as a tag.
        help_text=escape(
            _(
                "Its address: /c/<competition>/standings/<key>/ (lower-case letters, digits, "
                "hyphens, underscores)."
            )
        ),
    )
    name_en = forms.CharField(
        label=_("Name (English)"), max_length=DIVISION_NAME_MAX_LENGTH, required=False
    )
    name_ja = forms.CharField(
        label=_("Name (Japanese)"),
        max_length=DIVISION_NAME_MAX_LENGTH,
        required=False,
        help_text=_("Both empty: the division reads “Standings”."),
    )
    order = forms.IntegerField(
        label=_("Order"),
        min_value=0,
        max_value=32767,
        required=False,
        help_text=escape(
            _(
                "Lowest first; the first division is the one /c/<competition>/standings.csv and "
                "the API give without a key. Empty: after the others."
            )
        ),
    )

    def division(self) -> DivisionInput:
        data = self.cleaned_data
        return DivisionInput(
            key=data["key"], name_en=data["name_en"], name_ja=data["name_ja"], order=data["order"]
        )


def division_initial(standings) -> dict:
    """The saved division's key, names and order; a new one's key is ``overall``."""
    if standings is None:
        return {"key": FIRST_KEY}
    return {
        "key": standings.key,
        "name_en": standings.name_en,
        "name_ja": standings.name_ja,
        "order": standings.order,
    }


class StandingsRuleForm(forms.Form):
    rule = forms.ChoiceField(
        label=_("How the rankings combine"),
        choices=Standings.Rule.choices,
        widget=forms.RadioSelect,
        help_text=_(
            "Sum of ranks: Σ weight × rank, lower is better (PWSCup 2023). Inverse of the rank "
            "sums: Σ weight ÷ (the round's ranks added up), higher is better (PWSCup 2020). Sum "
            "of scores: Σ weight × score as each round gives it (PWSCup 2024, 2025)."
        ),
    )


class WeightField(forms.DecimalField):
    """A round's weight, shown as a person writes it: a saved ``1.0000`` (the column keeps
    four places) shows as ``1``, ``0.1000`` as ``0.1``."""

    def prepare_value(self, value):
        if isinstance(value, Decimal) and value.is_finite():
            return f"{value.normalize():f}"
        return value


class CountedRowForm(forms.Form):
    """A row of a counted item (a round, a division): whether it counts, and its weight."""

    counts = forms.BooleanField(label=_("Counts"), required=False)
    weight = WeightField(
        label=_("Weight"),
        max_digits=9,
        decimal_places=4,
        min_value=0,
        required=False,
        widget=forms.NumberInput(attrs={"class": "standings-weight"}),
    )


class StandingsRoundForm(CountedRowForm):
    rankings = forms.MultipleChoiceField(
        label=_("Rankings"), required=False, widget=forms.CheckboxSelectMultiple
    )
    # The round the row was rendered for: a page from before the rounds changed is refused
    # (``BaseStandingsFormSet.clean``), not read by position.
    round_id = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, round, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round
        self.fields["round_id"].initial = round.pk
        self.fields["rankings"].choices = [
            (ranking.key, ranking.label) for ranking in round_ranking_keys(round)
        ]


class RowPerItemFormSet(forms.BaseFormSet):
    """One row per item (a round, a division), each form given its item as ``item_name``
    and naming it in its hidden ``<item_name>_id`` field; ``changed``: the refusal of a
    page whose rows are not the items'."""

    item_name = ""
    changed = ""

    def __init__(self, *args, items, **kwargs):
        self.items = items
        super().__init__(*args, **kwargs)

    def total_form_count(self):
        """One row per item, whatever count the page sent (its ``TOTAL_FORMS`` tampered
        with, or from before an item was added or deleted): no row without its item, and
        a refused page shows every item's row again."""
        return len(self.items)

    def get_form_kwargs(self, index):
        return {self.item_name: self.items[index]}

    def clean(self):
        """A page opened before an item was added or deleted is refused rather than read
        askew: its row count is not the items', or a row names another item."""
        count = self.management_form.cleaned_data.get(TOTAL_FORM_COUNT)
        named = [form.cleaned_data.get(f"{self.item_name}_id") for form in self.forms]
        if count != len(self.items) or named != [item.pk for item in self.items]:
            raise forms.ValidationError(self.changed, code=f"{self.item_name}s_changed")


class BaseStandingsFormSet(RowPerItemFormSet):
    item_name = "round"
    changed = _(
        "The competition's rounds changed since this page was opened: reload it and save again."
    )

    def entries(self) -> list[EntryInput]:
        return [
            EntryInput(
                round=form.round,
                weight=form.cleaned_data.get("weight"),
                rankings=tuple(form.cleaned_data.get("rankings") or ()),
            )
            for form in self.forms
            if form.cleaned_data.get("counts")
        ]


StandingsFormSet = forms.formset_factory(
    StandingsRoundForm, formset=BaseStandingsFormSet, extra=0, max_num=1000
)


def standings_initial(standings, rounds) -> tuple[dict, list[dict]]:
    """What the form shows: the saved settings, or for a competition without standings every
    round counted with all its rankings and the weights 0.1 / 0.9 (two rounds) or 1. A round
    the saved standings do not count (added since, or left out) shows unticked with the
    weight 1 and all its rankings, so that ticking *Counts* is enough to count it."""
    if standings is None:
        weights = default_weights(len(rounds))
        rows = [
            _row(round_, counts=True, weight=weight)
            for round_, weight in zip(rounds, weights, strict=True)
        ]
        return {"rule": Standings.Rule.WEIGHTED_RANK}, rows
    saved = {entry.round_id: entry for entry in standings.entries.all()}
    rows = []
    for round_ in rounds:
        entry = saved.get(round_.pk)
        rows.append(
            _row(round_, counts=False, weight=default_weights(1)[0])
            if entry is None
            else {"counts": True, "weight": entry.weight, "rankings": list(entry.rankings)}
        )
    return {"rule": standings.rule}, rows


def _row(round_, *, counts: bool, weight) -> dict:
    """A round's row with every one of its rankings ticked."""
    rankings = [r.key for r in round_ranking_keys(round_)]
    return {"counts": counts, "weight": weight, "rankings": rankings}


class CountedDivisionForm(CountedRowForm):
    """Another division of the competition: whether its rank counts here, and its weight."""

    # The division the row was rendered for (a page from before the divisions changed is
    # refused, as the rounds' rows are).
    division_id = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, division, **kwargs):
        super().__init__(*args, **kwargs)
        self.division = division
        self.fields["division_id"].initial = division.pk


class BaseCountedFormSet(RowPerItemFormSet):
    """One row per division that may be counted (``countable_divisions``)."""

    item_name = "division"
    changed = _(
        "The competition's divisions changed since this page was opened: reload it and save again."
    )

    def counted(self) -> list[CountedInput]:
        return [
            CountedInput(division=form.division, weight=form.cleaned_data.get("weight"))
            for form in self.forms
            if form.cleaned_data.get("counts")
        ]


CountedFormSet = forms.formset_factory(
    CountedDivisionForm, formset=BaseCountedFormSet, extra=0, max_num=1000
)


def countable_divisions(competition, current) -> list[Standings]:
    """The rows of the form's divisions: the competition's other divisions that count no
    division themselves, none for a division that is counted (one level: the service
    refuses the others)."""
    if current is not None and current.counted_by.exists():
        return []
    divisions = Standings.objects.filter(competition=competition, counted_divisions__isnull=True)
    if current is not None:
        divisions = divisions.exclude(pk=current.pk)
    return list(divisions.order_by("order", "pk"))


def counted_initial(standings, divisions) -> list[dict]:
    """Each division's row: ticked with its saved weight when counted, else unticked with
    the weight 1 (ticking *Counts* is enough to count it)."""
    saved = (
        {} if standings is None else {c.counted_id: c for c in standings.counted_divisions.all()}
    )
    return [
        {"counts": True, "weight": saved[d.pk].weight}
        if d.pk in saved
        else {"counts": False, "weight": default_weights(1)[0]}
        for d in divisions
    ]
