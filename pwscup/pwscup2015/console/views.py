"""The 2015 game's console: its panel, the round's settings page and its ZIP archive (its
lifecycle actions are in ``pwscup2015/actions.py``)."""

import json
import zipfile

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.competitions.selectors import (
    console_round,
    round_metrics,
)
from pwscup.core.form_fields import add_errors
from pwscup.core.json_input import json_input
from pwscup.core.selectors import system_health
from pwscup.kinds import kind_of
from pwscup.pwscup2015 import KEY
from pwscup.pwscup2015.console import selectors, services
from pwscup.pwscup2015.console.forms import RoundEditForm
from pwscup.pwscup2015.console.phase_forms import phases_initial, phases_of, windows_of
from pwscup.pwscup2015.ranking import rule_text
from pwscup.pwscup2015.selectors import round_stale_scores
from pwscup.pwscup2015.services.rounds import RULE_FIELDS, round_settings_check
from pwscup.submissions.selectors import live_etag


def pwscup2015_panel_context(request, round_) -> dict:
    """What the first kind's console panel shows (``Pwscup2015Kind.console_panel``)."""
    return {
        # Read first, before what it follows: a job or operation of the round that changes
        # after it makes the page's next poll a 200 (``static/live.js`` then reloads).
        "live_etag": live_etag(round_id=round_.pk),
        "competition": round_.competition,
        "round": round_,
        "phases": selectors.round_phases(round=round_),
        "counts": selectors.round_counts(round=round_),
        "health": system_health(),
        "overview": selectors.round_team_overview(round=round_),
        "targets": round_.targets.select_related("team", "builtin").order_by("team__name"),
        "stale": round_stale_scores(round=round_),
        "rule": rule_text(round_),
        "metrics": round_metrics(round=round_),
        "now": timezone.now(),
        "offer_rescore": request.GET.get("rescore") == "offer",
        "operations_active": selectors.round_busy(round=round_),
    }


def _game_round(request, competition_slug, round_slug):
    """The organizer's round of this game these console pages serve (else a 404)."""
    return console_round(
        user=request.user,
        competition_slug=competition_slug,
        round_slug=round_slug,
        kind=KEY,  # the first kind's console pages
    )


@login_required
def round_edit(request, competition_slug, round_slug):
    """Only what is safe once submissions exist: no new original or data mode here."""
    round_ = _game_round(request, competition_slug, round_slug)
    initial = {
        **phases_initial(round_),
        **{key: getattr(round_.pwscup2015, key) for key in RULE_FIELDS},
        "config": json.dumps(round_.config, indent=2, ensure_ascii=False),
    }
    form = RoundEditForm(
        request.POST or None, initial=initial, columns=round_.config.get("columns") or []
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        phases = phases_of(data)
        try:
            round_settings_check(
                timezone=data["timezone"],
                utility_gates=data["utility_gates"],
                value_ranges=data["value_ranges"],
                published_rows=data["published_rows"],
                tie_break_metric=data["tie_break_metric"],
                data_mode=round_.pwscup2015.data_mode,
                sample_size=round_.pwscup2015.sample_size,
                phases=windows_of(phases),
                allow_attack_before_close=data["allow_attack_before_close"],
                config=_config_dict(data["config"], fallback=round_.config),
            )
            config = _checked_config(round_, data["config"])
        except ValidationError as error:
            add_errors(form, error)
        else:
            values = {key: data[key] for key in ("name", "timezone", *RULE_FIELDS)}
            changed = services.console_round_update(
                user=request.user,
                round=round_,
                values=values,
                phases=phases,
                config=config,
                allow_attack_before_close=data["allow_attack_before_close"],
            )
            messages.success(request, _("Round saved."))
            # A new configuration or range rule can change which uploads are valid.
            rescore = {"config", "value_ranges"} & set(changed)
            if rescore and selectors.round_has_submissions(round=round_):
                url = reverse("console:round", args=[competition_slug, round_slug])
                return redirect(f"{url}?rescore=offer")
            return redirect("console:round", competition_slug, round_slug)
    return render(
        request,
        "pwscup2015/round_edit.html",
        {
            "competition": round_.competition,
            "round": round_,
            "form": form,
            "has_submissions": selectors.round_has_submissions(round=round_),
        },
    )


def _config_dict(text: str, *, fallback: dict) -> dict:
    """The edited configuration as a dict for the gate check (its own check reports errors)."""
    try:
        value = json_input(text)
    except ValidationError:
        return fallback
    return value if isinstance(value, dict) else fallback


def _checked_config(round_, text: str) -> dict:
    """The edited configuration, checked against the round's original."""
    raw = json_input(text, field="config")
    return kind_of(round_).validate_config(raw, round=round_)


class _Sink:
    """A write-only file for ``zipfile`` whose bytes are handed out as they come."""

    def __init__(self):
        self.chunks: list[bytes] = []
        self.position = 0

    def write(self, data: bytes) -> int:
        self.chunks.append(bytes(data))
        self.position += len(data)
        return len(data)

    def tell(self) -> int:
        return self.position

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data, self.chunks = b"".join(self.chunks), []
        return data


def _zip_stream(members):
    sink = _Sink()
    with zipfile.ZipFile(sink, mode="w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, field in members:
            if not field:
                continue
            with field.open("rb") as source, archive.open(name, mode="w", force_zip64=True) as out:
                while chunk := source.read(1 << 20):
                    out.write(chunk)
                    yield sink.take()
            yield sink.take()
    yield sink.take()


@login_required
def round_archive(request, competition_slug, round_slug):
    """Every upload, attack and target of the round as one ZIP, streamed as it is written."""
    round_ = _game_round(request, competition_slug, round_slug)
    services.archive_downloaded_record(user=request.user, round=round_)
    response = StreamingHttpResponse(
        _zip_stream(selectors.round_archive_members(round=round_)),
        content_type="application/zip",
    )
    stamp = timezone.now().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = (
        f'attachment; filename="{round_.competition.slug}-{round_.slug}-{stamp}.zip"'
    )
    return response
