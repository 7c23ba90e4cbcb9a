"""The admin of synthetic rounds: read-only (the platform makes every row; the console's
actions change the state; the uploads' pages are the core's, ``kept_upload_admin``). The
secret seed, the draws' rows and labels, and the final half's scores (hidden from everyone
until publication) are not shown."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.admin_scope import ReadOnlyScopedAdmin, RoundRowAdmin
from pwscup.submissions.admin_fields import TWO_SIDED_ROW_FIELDS, JobFailureAdmin
from pwscup.submissions.upload_admin import kept_upload_admin
from pwscup.synthetic.models import (
    SynAttack,
    SynPopulation,
    SynRelease,
    SynTarget,
    SyntheticRound,
)


class SyntheticRowAdmin(ReadOnlyScopedAdmin):
    """A row of a synthetic round's (its ``synthetic``)."""

    competition_lookup = "synthetic__round__competition"


class DrawSizes:
    """The sizes of a population's shared draws (the holdout H and the auxiliary table A),
    never their rows."""

    @admin.display(description=_("holdout rows"))
    def holdout_rows(self, obj) -> int:
        return len(obj.holdout)

    @admin.display(description=_("auxiliary rows"))
    def aux_rows(self, obj) -> int:
        return len(obj.aux)


@admin.register(SyntheticRound)
class SyntheticRoundAdmin(RoundRowAdmin, DrawSizes, ReadOnlyScopedAdmin):
    competition_lookup = "round__competition"
    list_display = ("round", "frozen_at", "results_published")
    fields = (*TWO_SIDED_ROW_FIELDS, "holdout_rows", "aux_rows")


@admin.register(SynPopulation)
class SynPopulationAdmin(DrawSizes, SyntheticRowAdmin):
    """A data pack's population: its file's name, digest and size, never its rows."""

    list_display = ("synthetic", "choice_key", "filename", "rows", "uploaded_at")
    fields = (
        "synthetic",
        "choice_key",
        "filename",
        "encoding",
        "sha256",
        "rows",
        "holdout_rows",
        "aux_rows",
        "uploaded_at",
    )


kept_upload_admin(
    SynRelease,
    competition_lookup="synthetic__round__competition",
    columns=("number", "selected"),
    where=("synthetic", "team", "number"),
    results=("rows", "scores", "selected", "elapsed_ms"),
)


@admin.register(SynTarget)
class SynTargetAdmin(JobFailureAdmin, SyntheticRowAdmin):
    list_display = ("synthetic", "team", "release", "status")
    fields = ("synthetic", "team", "release", "status", "failure")


kept_upload_admin(
    SynAttack,
    columns=("target", "number"),
    where=("target", "team", "number"),
    results=("dev",),
)
