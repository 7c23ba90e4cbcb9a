"""The page *Edit the round's rules* of a scorer round: the creation form's scores, gates,
rules, files of an upload and sandbox limits (``ScorerSettingsForm``: the same fields, the
same checks by the service), filled with the round's stored settings."""

from pwscup.scorer.forms import COLUMN_ROWS, GATE_ROWS, ScorerSettingsForm
from pwscup.scorer.rule_choices import RULE_CHOICES
from pwscup.submissions.two_sided_forms import SIDES

LIMITS = ("timeout_seconds", "memory_mb", "processes")


class ScorerRulesForm(ScorerSettingsForm):
    """The creation form's settings as ``config`` (the round's checked settings) holds them;
    a table has a blank row more than the stored ones fill, at least as many rows as on the
    creation page."""

    def __init__(self, *args, config: dict, **kwargs):
        columns = max(len(config["release_columns"]), len(config["attack_columns"]))
        self.column_count = max(COLUMN_ROWS, columns + 1)
        self.gate_count = max(GATE_ROWS, len(config["gates"]) + 1)
        initial = rules_initial(config)
        for side in SIDES:  # a blank row's direction as on the creation page
            for i in range(self.column_count):
                initial.setdefault(f"{side}_col_{i}_higher", True)
        super().__init__(*args, initial=initial, **kwargs)

    def rules(self) -> dict:
        """The page's settings (``scorer_rules_edit``'s ``RULE_SETTINGS``), an empty field
        at its default."""
        return self.config()


def rules_initial(config: dict) -> dict:
    """The fields' values for the stored settings ``config`` (every key filled in)."""
    initial = {key: config[key] for key in (*RULE_CHOICES, "top_n", "bands", "unattacked")}
    initial["public_columns"] = ", ".join(config["public_columns"])
    for side in SIDES:
        initial[f"{side}_primary"] = config[f"{side}_primary"]
        for i, column in enumerate(config[f"{side}_columns"]):
            prefix = f"{side}_col_{i}"
            initial[f"{prefix}_key"] = column["key"]
            initial[f"{prefix}_label"] = column.get("label", "")
            initial[f"{prefix}_label_ja"] = column.get("label_ja", "")
            initial[f"{prefix}_higher"] = column["higher_is_better"]
    for side in SIDES:
        files = config[f"{side}_files"]
        initial[f"{side}_files_required"] = "\n".join(files["required"])
        initial[f"{side}_files_only"] = files["only_required"]
    initial.update({key: config["limits"][key] for key in LIMITS})
    for i, gate in enumerate(config["gates"]):
        bound = "min" if "min" in gate else "max"
        initial.update({f"gate_{i}_key": gate["key"], f"gate_{i}_bound": bound})
        initial[f"gate_{i}_value"] = gate[bound]
    return initial
