"""Where in a DP configuration an error of its check lies: ``levels[2].epsilon``,
``attributes[0].values``, ``workload[1].attributes``, ``feedback``.

One helper for every place that shows a configuration written as JSON: the bundle import
keys its errors by the settings' path (``config.levels[2].epsilon``, root ``config``); the
console's JSON view puts the path in front of each message (no root)."""

from scoring.dp.errors import DPError
from scoring.dp.exact import parse_epsilon


def config_path(error, config, *, root: str = "config") -> str:
    """Where ``error`` (a ``DPError``, or a Django ``ValidationError`` carrying its ``code``
    and ``params``) lies in ``config``, under ``root``; ``root`` itself when it is a rule
    between keys or about the whole configuration (``""`` with no root)."""
    params, code = error.params or {}, error.code or ""
    config = config if isinstance(config, dict) else {}
    if code in ("dp.config.unknown_key", "dp.config.missing_key", "dp.config.bad_value"):
        key = str(params.get("key", ""))
        head, _dot, rest = key.partition(".")
        if head == "attributes" and rest:
            return _joined(root, _indexed("attributes", config, rest, "name", "values"))
        return _joined(root, key)
    return _joined(root, _place(code, params, config))


def _place(code: str, params: dict, config: dict) -> str:
    if code.startswith("dp.attr."):
        return _indexed("attributes", config, params.get("attribute"), "name", "values")
    if code == "dp.numeric.range":
        return f"numeric.{params.get('column')}"
    if code.startswith("dp.target."):
        field = "id" if code in ("dp.target.duplicate", "dp.target.id_form") else "attributes"
        return _indexed("workload", config, params.get("target"), "id", field)
    if code.startswith("dp.level."):
        field = "id" if code in ("dp.level.duplicate", "dp.level.id_form") else "epsilon"
        return _indexed("levels", config, params.get("level"), "id", field)
    if code.startswith("dp.epsilon.") and params.get("level") is not None:
        return _indexed("levels", config, params["level"], "id", "epsilon")
    if code.startswith("dp.epsilon."):
        return _failing_epsilon(config)
    if code == "dp.config.live_feedback":
        return "feedback"
    if code == "dp.config.batch_needs_replace":
        return "adjacency"
    return ""


def _joined(root: str, place: str) -> str:
    return f"{root}.{place}" if root and place else root or place


def _indexed(key: str, config: dict, name, name_field: str, field: str) -> str:
    """``<key>[i].<field>`` for the entry named ``name`` (the last one: a repeated id is
    reported at its second place)."""
    entries = config.get(key)
    if key == "attributes" and isinstance(entries, dict):
        names = list(entries)
    elif isinstance(entries, list):
        names = [e.get(name_field) if isinstance(e, dict) else None for e in entries]
    else:
        return key
    places = [index for index, value in enumerate(names) if value == name]
    return f"{key}[{places[-1]}].{field}" if places else key


def _failing_epsilon(config: dict) -> str:
    levels = config.get("levels")
    for index, level in enumerate(levels if isinstance(levels, list) else []):
        try:
            parse_epsilon(level.get("epsilon") if isinstance(level, dict) else None, positive=False)
        except DPError:
            return f"levels[{index}].epsilon"
    return "levels"
