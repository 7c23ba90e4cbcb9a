"""Filters of the log (the settings' ``LOGGING`` names them)."""

import logging


class ClientErrorWithoutTraceback(logging.Filter):
    """A 4xx answer logged with its exception (Django's ``django.request`` logs a 403's
    ``PermissionDenied`` so, and a 400's ``BadRequest``) keeps its one warning line and loses
    the traceback: a team opening the console is expected, not a fault of the code. A 5xx
    keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
