"""What a round requires of an upload's files (``release_files``, ``attack_files``), checked
by the platform before any program runs: as the team uploads (``releases``: kept FAILED at
once, no job) and again in the job (``scoring_runs``: a rescore of an upload the check refused
runs the program only if the round's rule now passes it)."""

from django.utils.text import get_valid_filename

from pwscup.scorer.models import ScorerRound
from pwscup.scorer.selectors import round_config
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.services.uploads import check_size
from scoring.errors import ScoringError
from scoring.scorer.unzip import ZIP_MAGIC, UnzipLimits, member_names
from scoring.scorer.upload_files import files_check, not_a_zip_check


def res_name(original_filename: str) -> str:
    """The name a file uploaded as ``original_filename`` has in the program's ``res/``."""
    return get_valid_filename(original_filename or "") or "submission"


def files_refusal(*, scorer: ScorerRound, kind: str, uploaded_file, name: str):
    """Why the upload lacks a file the round requires of a ``kind`` upload (``release`` or
    ``attack``: ``release_files``, ``attack_files``) or holds one it refuses; ``None`` when
    it passes or the round requires nothing. Only names are read (a ZIP's member list, or
    the file's own name as the program would see it in ``res/``): nothing is unpacked."""
    rule = round_config(scorer.round).files_rule(kind)
    return None if rule.empty else _refusal(rule, uploaded_file, name)


def kept_files_refusal(*, upload, kind: str):
    """``files_refusal`` of a kept upload (its stored file, its name as uploaded), read only
    when the round requires something."""
    rule = round_config(upload.scorer.round).files_rule(kind)
    if rule.empty:
        return None
    with upload.file.open("rb") as kept:
        return _refusal(rule, kept, upload.original_filename)


def _refusal(rule, uploaded_file, name: str) -> JobMessage | None:
    check_size(uploaded_file)  # a ZIP's member list is read only within the upload cap
    try:
        uploaded_file.seek(0)
        zipped = uploaded_file.read(4) in ZIP_MAGIC
        if zipped:
            uploaded_file.seek(0)
            names = member_names(uploaded_file, what="submission ZIP", limits=UnzipLimits())
        else:
            names = [res_name(name)]
            not_a_zip_check(names[0], rule)
        files_check(names, rule, zipped=zipped)
    except ScoringError as error:
        return JobMessage.from_scoring_error(error)
    finally:
        uploaded_file.seek(0)
    return None
