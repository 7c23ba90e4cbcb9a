"""The bundle's manifest (``manifest.json``): its bytes, its published JSON Schema and the
check of a manifest read from a ZIP, whose messages name ``manifest.json`` and the JSON path
at fault (``rounds[2].slug``)."""

import hashlib
import json
from functools import cache
from itertools import islice
from pathlib import Path

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator

from scoring.bounded_json import loads_bounded
from scoring.errors import ConfigError

FORMAT = "pwscup-competition-bundle"
VERSION = 1
MANIFEST_NAME = "manifest.json"
SCHEMA_PATH = Path(__file__).parent / "schema" / "bundle-v1.schema.json"
# How many schema errors one refusal lists (the first ones, in the manifest's order), among
# how many found.
MAX_MESSAGES = 5
ERRORS_READ = 1000


def manifest_bytes(manifest: dict) -> bytes:
    """The one way a manifest is written: sorted keys, two-space indent, UTF-8 text kept as
    is, one trailing newline; equal manifests are equal bytes."""
    text = json.dumps(manifest, sort_keys=True, indent=2, ensure_ascii=False)
    return (text + "\n").encode("utf-8")


def round_path(slug: str, role: str) -> str:
    """Where a round's file lies in the ZIP."""
    return f"rounds/{slug}/{role}"


@cache
def schema_text() -> str:
    return SCHEMA_PATH.read_text(encoding="utf-8")


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_text()))


def json_path(parts) -> str:
    """``["rounds", 2, "slug"]`` → ``rounds[2].slug`` (the root: ``""``)."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _schema_message(error) -> str:
    """A schema error in the site's words (jsonschema's own are English only)."""
    value = repr(error.instance)[:80]
    expected = error.validator_value
    messages = {
        "required": lambda: (
            _("%(name)s is missing.")
            % {"name": next((n for n in expected if n not in error.instance), "?")}
        ),
        "additionalProperties": lambda: (
            _("unexpected key(s) %(names)s.")
            % {
                "names": ", ".join(
                    sorted(
                        repr(k)[:40] for k in error.instance if k not in error.schema["properties"]
                    )
                )
            }
        ),
        "type": lambda: (
            _("%(value)s is not of the type %(type)s.") % {"value": value, "type": expected}
        ),
        "const": lambda: (
            _("%(value)s is not %(expected)s.") % {"value": value, "expected": json.dumps(expected)}
        ),
        "pattern": lambda: (
            _("%(value)s does not have the expected form %(pattern)s.")
            % {"value": value, "pattern": expected}
        ),
        "minLength": lambda: (
            _("%(value)s is too short (at least %(n)s characters).")
            % {"value": value, "n": expected}
        ),
        "maxLength": lambda: (
            _("%(value)s is too long (at most %(n)s characters).") % {"value": value, "n": expected}
        ),
        "maxItems": lambda: (
            _("%(count)s items; at most %(n)s are allowed.")
            % {"count": len(error.instance), "n": expected}
        ),
        "maxProperties": lambda: (
            _("%(count)s keys; at most %(n)s are allowed.")
            % {"count": len(error.instance), "n": expected}
        ),
        "minItems": lambda: (
            _("%(count)s items; at least %(n)s are needed.")
            % {"count": len(error.instance), "n": expected}
        ),
        "minimum": lambda: _("%(value)s is less than %(n)s.") % {"value": value, "n": expected},
        "maximum": lambda: _("%(value)s is more than %(n)s.") % {"value": value, "n": expected},
        "exclusiveMinimum": lambda: (
            _("%(value)s must be more than %(n)s.") % {"value": value, "n": expected}
        ),
        "exclusiveMaximum": lambda: (
            _("%(value)s must be less than %(n)s.") % {"value": value, "n": expected}
        ),
        "enum": lambda: (
            _("%(value)s is not one of %(choices)s.")
            % {"value": value, "choices": ", ".join(json.dumps(item) for item in expected)}
        ),
    }
    make = messages.get(error.validator)
    # Any other rule (``oneOf``: none of the forms allowed there) in the site's words too.
    return (
        make()
        if make
        else _("%(value)s is not allowed here (schema rule %(rule)s).")
        % {"value": value, "rule": error.validator}
    )


def _error_order(error) -> list[tuple]:
    """The manifest's order: ``rounds[2]`` before ``rounds[10]``."""
    return [(0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in error.path]


def manifest_parse(data: bytes) -> dict:
    """The manifest read from its bytes and checked against the schema.

    Raises ``ValidationError`` with messages naming ``manifest.json`` and the JSON path: a
    manifest that is not UTF-8 JSON (or beyond the bounded reader's size, depth and number
    limits: never a ``RecursionError``), of another format or version (said first: a newer
    bundle is refused as such, not as a list of unknown keys), or that breaks the schema
    (the first ``MAX_MESSAGES`` errors).
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValidationError(_("%(file)s is not UTF-8 text.") % {"file": MANIFEST_NAME}) from None
    try:
        # The one bounded reader (its size, depth and number limits): a hostile nesting is
        # a refusal, never a RecursionError.
        manifest = loads_bounded(text)
    except ConfigError as error:
        raise ValidationError(
            _("%(file)s: %(message)s")
            % {"file": MANIFEST_NAME, "message": error.render(get_language())}
        ) from None
    if not isinstance(manifest, dict):
        raise ValidationError(_("%(file)s must hold a JSON object.") % {"file": MANIFEST_NAME})
    if manifest.get("format") != FORMAT:
        raise ValidationError(
            _("%(file)s: format %(value)s is not a competition bundle (expected %(expected)s).")
            % {
                "file": MANIFEST_NAME,
                "value": repr(manifest.get("format"))[:80],
                "expected": json.dumps(FORMAT),
            }
        )
    if manifest.get("version") != VERSION:
        raise ValidationError(
            _(
                "%(file)s: version %(value)s is unknown: this site reads version %(version)s "
                "bundles."
            )
            % {
                "file": MANIFEST_NAME,
                "value": repr(manifest.get("version"))[:40],
                "version": VERSION,
            }
        )
    # The errors are found lazily and only the first ERRORS_READ are kept: a manifest of
    # 300,000 empty rounds has a million errors (minutes and gigabytes to list them all).
    errors = sorted(islice(_validator().iter_errors(manifest), ERRORS_READ), key=_error_order)
    if errors:
        # dict: each message once (an object missing three keys is said once), in order.
        messages = dict.fromkeys(
            _("%(file)s: %(path)s: %(message)s")
            % {
                "file": MANIFEST_NAME,
                "path": json_path(error.absolute_path) or _("(top level)"),
                "message": _schema_message(error),
            }
            for error in errors
        )
        raise ValidationError(list(messages)[:MAX_MESSAGES])
    return manifest


# A round's own fields in the manifest (any other key of a kind's error is a settings key).
ROUND_FIELDS = (
    "kind",
    "name",
    "slug",
    "order",
    "timezone",
    "quota_reset_hour",
    "total_formula",
    "attack_top_n",
    "attack_top_by",
    "attack_top_own",
    "attack_top_combine",
    "data_choices",
    "files",
)


def round_error_located(error: ValidationError, *, where: str, slug: str, roles) -> list[str]:
    """A round's error as messages naming the bundle's file and the field: a file's role →
    ``rounds/<slug>/<role>: …``; a round field → ``manifest.json: rounds[i] (slug).slug:
    …``; any other key → ``manifest.json: rounds[i] (slug).settings.<key>: …``."""
    located = []
    keyed = (
        error.message_dict if hasattr(error, "error_dict") else {NON_FIELD_ERRORS: error.messages}
    )
    for key, messages in keyed.items():
        for message in messages:
            if key in roles:
                located.append(
                    _("%(file)s: %(message)s") % {"file": round_path(slug, key), "message": message}
                )
                continue
            if key == NON_FIELD_ERRORS:
                path = where
            elif key in ROUND_FIELDS:
                path = f"{where}.{key}"
            else:
                path = f"{where}.settings.{key}"
            located.append(
                _("%(file)s: %(path)s: %(message)s")
                % {"file": MANIFEST_NAME, "path": path, "message": message}
            )
    return located


def round_files_listed(manifest: dict, members: dict[str, bytes]) -> list[dict[str, bytes]]:
    """Each round's files (role → bytes) as the manifest lists them, every one present with
    its listed size and SHA-256, and no member the manifest does not list."""
    listed, rounds = set(), []
    for index, entry in enumerate(manifest["rounds"]):
        files = {}
        for role, described in entry["files"].items():
            path = described["path"]
            expected = round_path(entry["slug"], role)
            if path != expected:
                raise ValidationError(
                    _(
                        "%(file)s: rounds[%(index)s].files.%(role)s.path: %(value)s should be "
                        "%(expected)s."
                    )
                    % {
                        "file": MANIFEST_NAME,
                        "index": index,
                        "role": role,
                        "value": repr(path)[:80],
                        "expected": expected,
                    }
                )
            content = members.get(path)
            if content is None:
                raise ValidationError(
                    _("%(path)s: listed in %(file)s but missing from the bundle.")
                    % {"path": path, "file": MANIFEST_NAME}
                )
            relisted = {
                "path": path,
                "file": MANIFEST_NAME,
                "where": f"rounds[{index}].files.{role}",
                "size": len(content),
                "sha256": hashlib.sha256(content).hexdigest(),
            }
            if len(content) != described["size"]:
                raise ValidationError(
                    _(
                        "%(path)s: %(size)s bytes, but %(file)s lists %(listed)s. If you changed "
                        "the file on purpose, list it as it is now in %(file)s (%(where)s: "
                        '"size": %(size)s, "sha256": "%(sha256)s"); otherwise export the bundle '
                        "again."
                    )
                    % {**relisted, "listed": described["size"]}
                )
            if relisted["sha256"] != described["sha256"]:
                raise ValidationError(
                    _(
                        "%(path)s: its SHA-256 differs from the one %(file)s lists (the file "
                        "was changed or damaged). If you changed the file on purpose, list it as "
                        'it is now in %(file)s (%(where)s: "size": %(size)s, "sha256": '
                        '"%(sha256)s"); otherwise export the bundle again.'
                    )
                    % relisted
                )
            files[role] = content
            listed.add(path)
        rounds.append(files)
    extra = sorted(set(members) - listed)
    if extra:
        raise ValidationError(
            _("The bundle's member %(name)s is not listed in %(file)s.")
            % {"name": repr(extra[0])[:80], "file": MANIFEST_NAME}
        )
    return rounds
