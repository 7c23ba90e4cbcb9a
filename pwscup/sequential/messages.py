"""A rejected release or guess file, shown in the reader's language (codes of
``scoring.sequential.messages`` rendered by the scoring catalogue)."""

from pwscup.submissions.messages import message_render


def release_message(upload) -> str:
    """The failure message of a ``Release`` or ``SeqAttack`` in the active language."""
    if not (upload.message or upload.message_code):
        return ""
    return message_render(
        code=upload.message_code, params=upload.message_params, text=upload.message
    )
