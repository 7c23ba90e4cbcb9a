"""Exceptions the services raise for the views to show."""


class Refused(Exception):
    """The server refuses an action (deadline, quota, permission, size); nothing is stored."""

    def __init__(self, message: str, *, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status
