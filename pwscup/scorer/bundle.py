"""The scorer round in a competition bundle (``RoundKind.bundle_export`` / ``bundle_import``;
``pwscup.kinds.bundles``).

What a bundle holds of a scorer round: its settings (``Round.config`` with every default
filled in: score columns, primaries, attack mode, protection and power rules, release
ranking, visibility and bands, gates, the sandbox's limits), its two phases (the release
phase and the attack phase, as offsets from the bundle's anchor, each with its upload
limits), the organizer's scoring program (``program.zip``: the version every run uses, else
the newest uploaded) and the round's data packs as uploaded (``public.zip``, ``slots.zip``;
the hidden ``reference.zip`` and ``truth.zip`` only when the export's ``include_hidden`` is
ticked (``ExportOptions``)). Without it the settings name the hidden packs left out
(``hidden_left_out``: their file names); the imported round then awaits them
(``ScorerRound.hidden_awaited``): its console says so, its uploads are refused and nothing is
scored until the organizer uploads each one.

Never a release, an attack, a score, a target, a team's slot, a program's build log nor how
far the round has run (freeze, publication): the imported round is a new game, its
program's environment built again by a worker as after a console upload.
"""

import re

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.translation import gettext as _

from pwscup.core.stored import stored_bytes
from pwscup.kinds.bundle_files import file_kept, unknown_files_refused
from pwscup.kinds.bundles import (
    BundleChecks,
    ExportOptions,
    RoundBundle,
    RoundCreation,
    setting_required,
    settings_object,
)
from pwscup.scorer import selectors, services
from pwscup.scorer.models import DataPack, pack_file_name
from pwscup.submissions.two_sided_bundle import (
    WINDOW_ERROR_PATHS,
    two_sided_phases_export,
    two_sided_windows,
)

PROGRAM = "program.zip"
# A data pack's file in the bundle, by its role (``DataPack.Role``), in the order imported.
PACK_FILES = {role: f"{role}.zip" for role in DataPack.Role.values}
FILES = (PROGRAM, *PACK_FILES.values())
# A pack of one data choice (``DataPack.choice``): ``<choice>.<role>.zip``.
CHOICE_PACK = re.compile(r"(?P<choice>[-a-zA-Z0-9_]{1,32})\.(?P<role>[a-z]+)\.zip")


def _choice_pack(name: str) -> tuple[str, str] | None:
    """``(role, choice)`` of a file named ``<choice>.<role>.zip``, else ``None``."""
    found = CHOICE_PACK.fullmatch(name)
    if found is None or found["role"] not in PACK_FILES:
        return None
    return found["role"], found["choice"]


SETTINGS_KEYS = ("config", "phases", "hidden_left_out")
LEFT_OUT = "hidden_left_out"
# Where the creation service's own errors point in the settings.
# The console's service, and where its own errors point in the settings.
CREATION = RoundCreation(
    services.scorer_round_create, fields={"config": "config", **WINDOW_ERROR_PATHS}
)


# --- export ----------------------------------------------------------------------------------


def round_bundle(round_, *, anchor, options: ExportOptions | None = None) -> RoundBundle:
    """The round's settings (configuration, both phases as offsets from ``anchor`` with
    their limits), its program and its data packs as the organizer uploaded them, the
    hidden ones only with ``options.include_hidden`` (else named in ``hidden_left_out``,
    with those the round itself still awaits)."""
    files, left_out = _files_of(round_, include_hidden=(options or ExportOptions()).include_hidden)
    settings = {
        "config": selectors.round_config(round_).as_dict(),
        "phases": two_sided_phases_export(round_, anchor),
    }
    if left_out:
        settings[LEFT_OUT] = left_out
    return RoundBundle(settings=settings, files=files)


def _files_of(round_, *, include_hidden: bool) -> tuple[dict[str, bytes], list[str]]:
    """The round's files by name, and the names of the hidden packs left out (sorted)."""
    scorer = selectors.scorer_of(round_)
    if scorer is None:
        return {}, []
    files = {}
    left_out = {pack_file_name(*pack) for pack in selectors.hidden_packs_missing(scorer=scorer)}
    program = (
        selectors.current_program(scorer=scorer)
        or selectors.program_versions(scorer=scorer).first()
    )
    if program is not None:
        files[PROGRAM] = stored_bytes(program.file)
    for (role, choice), pack in selectors.packs_by_choice(scorer=scorer).items():
        if role in DataPack.HIDDEN and not include_hidden:
            left_out.add(pack_file_name(role, choice))
        else:
            files[pack_file_name(role, choice)] = stored_bytes(pack.file)
    return files, sorted(left_out)


# --- import ----------------------------------------------------------------------------------


def round_from_bundle(*, competition, entry, start, user):
    """Create the round through ``scorer_round_create`` (the console's service: the settings
    checked, both windows, the address, the time zone), each window ``start`` plus the
    bundle's offsets; then each data pack through ``pack_upload`` and the program through
    ``program_upload`` (its build queued as after a console upload). Raises
    ``ValidationError`` keyed by the settings' path (``config``, ``phases.attack.opens_at``,
    ``phases.anonymization.daily_limit``) or the file's role (``program.zip``): every error
    of the keys, the phases, the files and the configuration at once (``BundleChecks``; the
    configuration's check, the console's, names every independent error, each by its
    setting: ``config.top_n``); a pack's or the program's own checks once they all pass."""
    checks = BundleChecks()  # every independent check runs; one answer names every error
    settings = entry.settings_of(SETTINGS_KEYS, checks=checks)
    config = checks.run(_config_of, settings)
    windows = checks.run(two_sided_windows, settings, start, entry, otherwise={})
    checks.run(_files_known, entry.files)
    awaited = checks.run(_left_out, settings.get(LEFT_OUT, []), entry.files)
    scorer = CREATION.created(
        entry,
        checks,
        competition=competition,
        config=config,
        **windows,
        user=user,
    )
    for name in sorted(entry.files):
        role, choice = _choice_pack(name) or (_role_of(name), "")
        if role is not None:
            file_kept(
                name,
                services.pack_upload,
                scorer=scorer,
                role=role,
                uploaded_file=_uploaded(entry.files[name], name),
                user=user,
                choice=choice,
            )
    if PROGRAM in entry.files:
        file_kept(
            PROGRAM,
            services.program_upload,
            scorer=scorer,
            uploaded_file=_uploaded(entry.files[PROGRAM], PROGRAM),
            user=user,
        )
    if awaited:
        services.hidden_packs_await(scorer=scorer, packs=awaited)
    return scorer.round


def _config_of(settings: dict) -> dict:
    """The settings' ``config``, checked by the kind's own check (the console's): every
    error it finds, each keyed by the setting it names (``config.top_n``,
    ``config.limits.memory_mb``, ``config.release_columns`` for one of its entries)."""
    config = settings_object(setting_required(settings, "config", "settings"), "config")
    try:
        services.scorer_config_validate(config)
    except ValidationError as error:
        found: dict[str, list] = {}
        for item in error.error_dict["config"]:
            key = str((item.params or {}).get("key", "")).strip("'\"").split("[")[0]
            found.setdefault(f"config.{key}" if key else "config", []).append(item)
        raise ValidationError(found) from None
    return config


def _left_out(raw, files) -> list[tuple[str, str]]:
    """``hidden_left_out``: the names of hidden packs (``reference.zip``,
    ``c1.truth.zip``), each once and none in the bundle's files, as ``(role, choice)``."""
    if not isinstance(raw, list) or len(raw) > 100:
        raise ValidationError(
            {LEFT_OUT: _("hidden_left_out must be a list of the hidden packs' file names.")}
        )
    packs = []
    for name in raw:
        pack = (_choice_pack(name) or (_role_of(name), "")) if isinstance(name, str) else None
        if pack is None or pack[0] not in DataPack.HIDDEN or name in files or pack in packs:
            raise ValidationError(
                {
                    LEFT_OUT: _(
                        "%(name)s is not a hidden pack left out of the bundle (reference.zip, "
                        "truth.zip or <choice>.reference.zip, once each, and not in its files)."
                    )
                    % {"name": repr(name)[:80]}
                }
            )
        packs.append(pack)
    return packs


def _role_of(name: str) -> str | None:
    return next((role for role, file in PACK_FILES.items() if file == name), None)


def _files_known(files) -> None:
    unknown_files_refused(
        files,
        takes=lambda name: name in FILES or _choice_pack(name) is not None,
        message=_("%(role)s is not a file of a scorer round (it has only %(known)s)."),
        known=", ".join(FILES),
    )


def _uploaded(content: bytes, name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/zip")
