"""The DP round's browser forms for teams: queries and releases (they turn fields into the
JSON the services take) and the estimate uploads. The console's round form is
``round_form.py``."""

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.bounded_json import MAX_BYTES


class QueryForm(forms.Form):
    type = forms.ChoiceField(label=_("Query"), choices=())
    attributes = forms.MultipleChoiceField(
        label=_("Attributes (histogram)"),
        choices=(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    epsilon = forms.CharField(
        label=_("ε to spend"),
        max_length=60,
        help_text=_("An exact fraction such as 1/14 or a decimal such as 0.25."),
    )
    request_id = forms.CharField(widget=forms.HiddenInput, max_length=100, required=False)

    def __init__(self, *args, config: dict, **kwargs):
        super().__init__(*args, **kwargs)
        labels = {"histogram": _("Histogram"), "count": _("Count (one cell)")}
        self.fields["type"].choices = [
            (t, labels.get(t, t)) for t in config.get("query_types", []) if t in labels
        ]
        names = list(config["attributes"])
        self.fields["attributes"].choices = [(name, name) for name in names]
        self.where_fields = []
        for name, domain in config["attributes"].items():
            field_name = f"where_{name}"
            self.fields[field_name] = forms.ChoiceField(
                label=name,
                choices=[("", _("(any)"))] + [(v, v) for v in domain],
                required=False,
            )
            self.where_fields.append(field_name)
        if not self.is_bound:
            self.initial.setdefault("request_id", uuid.uuid4().hex)

    def where_rows(self):
        return [self[name] for name in self.where_fields]

    def payload(self) -> dict:
        data = self.cleaned_data
        payload = {
            "type": data["type"],
            "epsilon": data["epsilon"],
            "request_id": data.get("request_id") or "",
        }
        if data["type"] == "count":
            payload["where"] = {
                name.removeprefix("where_"): data[name]
                for name in self.where_fields
                if data.get(name)
            }
        else:
            payload["attributes"] = list(data.get("attributes") or [])
        return payload


class ReleaseForm(forms.Form):
    """One group number per workload attribute, and ε or ρ per group."""

    request_id = forms.CharField(widget=forms.HiddenInput, max_length=100, required=False)

    def __init__(self, *args, config: dict, attributes: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.attribute_names = attributes
        count = len(attributes)
        self.group_choices = [(str(g), str(g)) for g in range(1, count + 1)]
        self.attribute_fields, self.group_fields = [], []
        for k, name in enumerate(attributes, start=1):
            field_name = f"group_of_{name}"
            self.fields[field_name] = forms.ChoiceField(
                label=name, choices=self.group_choices, initial=str(k)
            )
            self.attribute_fields.append(field_name)
        for g in range(1, count + 1):
            self.fields[f"g{g}_amount"] = forms.CharField(
                label=_("Group %(g)s") % {"g": g}, max_length=60, required=False
            )
            self.fields[f"g{g}_as"] = forms.ChoiceField(
                label=_("given as"),
                choices=[("epsilon", "ε"), ("rho", "ρ")],
                initial="epsilon",
            )
            self.group_fields.append((f"g{g}_amount", f"g{g}_as"))
        if not self.is_bound:
            self.initial.setdefault("request_id", uuid.uuid4().hex)

    def groups_rows(self):
        return [(self[amount], self[kind]) for amount, kind in self.group_fields]

    def attribute_rows(self):
        return [self[name] for name in self.attribute_fields]

    def payload(self) -> dict:
        data = self.cleaned_data
        members: dict[int, list[str]] = {}
        for name in self.attribute_names:
            members.setdefault(int(data[f"group_of_{name}"]), []).append(name)
        groups = []
        for g in sorted(members):
            amount = (data.get(f"g{g}_amount") or "").strip() or "0"
            groups.append({"attributes": members[g], data[f"g{g}_as"]: amount})
        return {
            "mechanism": "pk_anonymization",
            "groups": groups,
            "request_id": data.get("request_id") or "",
        }


class EstimateUploadForm(forms.Form):
    file = forms.FileField(label=_("estimate.csv"))


class EstimateFromForm(forms.Form):
    source = forms.CharField(max_length=40)
    estimator = forms.ChoiceField(
        label=_("Estimator"),
        choices=[("BT", "BT"), ("BR", "BR"), ("BI", "BI")],
        required=False,
    )


class DeclaredUploadForm(forms.Form):
    file = forms.FileField(label=_("release.csv or counts.csv"))
    declaration = forms.CharField(
        label=_("declaration.json"),
        # The one JSON reader's bound (the job reads it with scoring.bounded_json).
        max_length=MAX_BYTES,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            'As for a platform release, e.g. {"mechanism": "pk_anonymization", "groups": '
            '[...], "estimator": "BR"}, or {"mechanism": "laplace", "targets": {...}, '
            '"postprocessing": "raw"}.'
        ),
    )
