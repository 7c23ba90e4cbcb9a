"""A team's own uploads as its round page lists them (reads only)."""

from dataclasses import dataclass, field

from pwscup.submissions.models import Status


@dataclass(frozen=True)
class History:
    """The final submission first, then the others newest first; failed uploads apart."""

    final: object | None
    others: list = field(default_factory=list)
    failed: list = field(default_factory=list)

    @property
    def failed_open(self) -> bool:
        """Show the failures unfolded when the team's newest upload is one of them."""
        return bool(self.failed) and not any(
            upload.created_at > self.failed[0].created_at
            or (upload.created_at == self.failed[0].created_at and upload.pk > self.failed[0].pk)
            for upload in self.others + ([self.final] if self.final else [])
        )

    def __len__(self) -> int:
        return len(self.others) + len(self.failed) + (self.final is not None)


def upload_history(uploads, *, final=None) -> History:
    """``uploads`` newest first (as ``team_submissions`` / ``team_attacks`` give them);
    ``final`` is the team's representative submission, if any."""
    final_pk = final.pk if final is not None else None
    chosen = next((upload for upload in uploads if upload.pk == final_pk), None)
    return History(
        final=chosen,
        others=[u for u in uploads if u.pk != final_pk and u.status != Status.FAILED],
        failed=[u for u in uploads if u.status == Status.FAILED],
    )
