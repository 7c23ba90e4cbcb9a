"""A kind of upload a round kind takes, declared once: the core serves the rest.

A round kind lists its submission types (``RoundKind.submission_types()``), each an instance
of a subclass of ``SubmissionType``. From that declaration the API serves, under the round
(``pwscup/api/views/submissions.py``), with their OpenAPI schema:

* ``GET  <path>/``                 the team's uploads of that type, newest first;
* ``POST <path>/``                 an upload (multipart ``file`` and the declared fields),
  **202**: a worker checks and scores it (poll its ``url``);
* ``GET  <path>/<pk>/``            one of the team's uploads;
* ``GET  <path>/<pk>/<file_name>`` the upload as the team sent it (when ``has_file``);
* ``POST <path>/<pk>/select/``     make it the team's final one (when ``has_select``);

and the round status's ``submission_types`` entry and ``uploads`` (``pwscup status``,
``submit --type <key>``). A kind writes only what differs: where its part of the round is,
which uploads are the team's, how one reads, and the service that keeps an upload. The
access rules are the core's: 404 for a round of another kind, for a caller outside the
round's teams, for another team's upload; the services keep their own refusals (window,
limits, size), answered by the API's error handler in the caller's language.
"""

import copy

from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from pwscup.core.rest import UploadField
from pwscup.kinds.layout import KindModule, api_package
from pwscup.submissions.messages import upload_received_message
from pwscup.submissions.round_api import upload_files
from pwscup.submissions.voids import void_answer


class SubmissionType:
    """One kind of upload of a round kind. Class attributes declare it; the methods below
    ``part`` are what the kind answers (the defaults fit a kind that has nothing special).

    * ``key``: the upload's type in the API (``"release"``, ``"attack"``) and the client's
      ``--type``;
    * ``label``: what the Submit tab and ``pwscup status`` call it (lazy, both languages);
      ``noun``: what a page's table calls one upload of it, short ("Release", "Attack";
      empty: its ``label``, ``page_noun()``);
    * ``target_team_path``: for an attack type, the relation from an upload to the team
      whose target it attacks (``"target__team"``; empty: none), read with the uploads
      (``select_related``) where a page lists them;
    * ``path``: where it lives under the round (``"syn/releases"``); ``url_name``: the base
      of its URL names in the ``api`` namespace (``"syn-release"``: ``syn-releases`` the
      list, ``syn-release`` one upload, ``syn-release-file``, ``syn-release-select``);
    * ``operation``: the base of its OpenAPI operation ids (``"syn_release"``);
    * ``summaries``: the endpoints' summaries in the schema, by ``list``, ``create``,
      ``retrieve``, ``file``, ``select`` (``summary``: the defaults of those left out, which
      call the uploads ``uploads_noun``: "uploads", the two-sided bases' "releases" and
      "attacks");
    * ``prefix``: instead of the three above, the kind's short name (``"syn"``): then
      ``path`` is ``"syn/<key>s"``, ``url_name`` ``"syn-<key>"``, ``operation``
      ``"syn_<key>"``;
    * ``upload_fields``: the upload's fields besides ``file`` (DRF fields by name);
      ``upload_form``: instead, the upload's serializer class (``file`` and its fields),
      when the schema names it already;
    * ``answer_serializer`` / ``accepted_serializer``: what the schema says one upload's
      answer (list, retrieve, select) and the 202's are, when a serializer describes them
      (``None``: a JSON object);
    * ``has_file`` / ``file_name`` and ``has_select``: which endpoints it has;
      ``has_create``: whether the core takes its uploads (``POST <path>/``, the Submit tab's
      ``<path>/send/``, an entry in the status's ``submission_types``); a type the kind
      takes by hand elsewhere (at one address per window) declares ``False`` and is
      served the rest (list, detail, its uploads in the status, voids);
    * ``organizers_read``: an organizer of the round reads any team's upload and its file,
      as on the kind's pages (its ``own`` finds the upload without a team);
    * ``received_text``: the notice of an upload received, naming it by ``%(n)s`` (the
      team's number) and what ``received_values`` adds (an attack's target team
      ``%(team)s``); empty: the core's (``upload_received_message``);
    * ``selectors_module``, ``services_module`` and ``part_keyword``: the kind's selectors
      and services, and the keyword they take its part by (``synthetic=part``), for the
      two-sided bases (``pwscup.submissions.two_sided_types``), which read and keep uploads
      through them. A type declared in the kind's ``api`` module or package finds the two
      modules by their names in the kind's package (``pwscup.kinds.layout``).
    """

    key = ""
    label = ""
    noun = ""
    target_team_path = ""
    path = ""
    url_name = ""
    operation = ""
    prefix = ""
    summaries: dict = {}
    # What the default summaries call this type's uploads ("My team's releases ...").
    uploads_noun = gettext_lazy("uploads")
    description = ""
    upload_fields: dict = {}
    upload_form = None
    answer_serializer = None
    accepted_serializer = None
    has_file = False
    file_name = "file"
    file_media_type = "application/octet-stream"
    has_select = False
    has_create = True
    organizers_read = False
    # Whether its uploads may be voided, and withdrawn by their team
    # (``pwscup.submissions.voids.VoidableUploads``).
    voidable = False
    withdrawable = False
    # What the 202 answer and the Submit tab's notice say, when the kind says it its own
    # way (``received_message``; empty: the core's words).
    received_text = ""
    selectors_module = KindModule(api_package)
    services_module = KindModule(api_package)
    part_keyword = ""

    def __init_subclass__(cls, **kwargs):
        # A type declaring its ``prefix`` and ``key`` is given the three names it does not
        # declare itself.
        super().__init_subclass__(**kwargs)
        if cls.prefix and cls.key:
            names = {
                "path": f"{cls.prefix}/{cls.key}s",
                "url_name": f"{cls.prefix}-{cls.key}",
                "operation": f"{cls.prefix}_{cls.key}",
            }
            for name, value in names.items():
                if name not in cls.__dict__:
                    setattr(cls, name, value)

    def page_noun(self) -> str:
        return self.noun or self.label

    def summary(self, action: str) -> str:
        """The schema's summary of the endpoint ``action`` (``list``, ``file``...): the
        declared one, else what every kind's says (the round named by ``part_keyword``)."""
        uploads = self.uploads_noun
        defaults = {
            "file": format_lazy(
                gettext_lazy("One of my team's {uploads}, as uploaded"), uploads=uploads
            ),
            "retrieve": format_lazy(
                gettext_lazy("One of my team's {uploads}: status, message and scores"),
                uploads=uploads,
            ),
        }
        if self.part_keyword:
            defaults["list"] = format_lazy(
                gettext_lazy("My team's {uploads} in a {kind} round, newest first"),
                uploads=uploads,
                kind=self.part_keyword,
            )
        return self.summaries.get(action, defaults.get(action, ""))

    # --- where the uploads are ------------------------------------------------------------

    def part(self, access):
        """The kind's part of the round the caller may see (404 when the round has none)."""
        return access.round

    def team(self, access):
        """The caller's team (404 for a caller outside the round's teams)."""
        if access.team is None:
            raise Http404(_("Not in a team of this competition."))
        return access.team

    def reader(self, access):
        """Who may read one upload and its file: the caller's team (404 outside the round's
        teams), and, for a type declaring ``organizers_read``, an organizer of the round."""
        if self.organizers_read and access.is_organizer:
            return access.team
        return self.team(access)

    def uploader(self, part, access):
        """Who may upload to ``part``: the caller's team (``team``, the default), or the
        kind's own refusal of a caller its pages refuse (a 403 for one outside the teams)."""
        return self.team(access)

    def uploads(self, part, access):
        """The team's uploads of this type, newest first (a query set of kept uploads)."""
        raise NotImplementedError

    def own(self, part, access, pk: int):
        """One of the team's uploads of this type (404 otherwise)."""
        upload = self.uploads(part, access).filter(pk=pk).first()
        if upload is None:
            raise Http404
        return upload

    # --- how one reads ----------------------------------------------------------------------

    def context(self, part, access) -> dict:
        """What every upload's answer of one request shares (read once per request)."""
        return {}

    def as_json(self, upload, part, access, context: dict) -> dict:
        """What the kind says of an upload in the API: ``about``, ``message``, ``note`` (the
        team's own note on it), ``remark`` (the platform's: a gate passed, the half the scores
        are on), ``scores``, ``scores_text``, ``final`` and its own keys. ``about``, ``note``
        and ``remark`` are ``""`` and ``final`` is ``False`` when the kind says none; ``type``,
        ``id``, ``number``, ``status``, ``created_at`` and the addresses are the core's."""
        raise NotImplementedError

    # --- uploads and selection ----------------------------------------------------------------

    def upload(self, part, access, *, user, uploaded_file, data: dict):
        """Keep an upload through the kind's service (its refusals are the answer)."""
        raise NotImplementedError

    def received_values(self, upload) -> dict:
        """What ``received_text`` names: the team's number of the upload (``%(n)s``)."""
        return {"n": upload.number}

    def received_message(self, upload) -> str:
        """What the 202 answer says: the declared ``received_text`` of the upload
        (``received_values``), else the core's ``upload_received_message``."""
        if self.received_text:
            return self.received_text % self.received_values(upload)
        return upload_received_message(upload)

    def page_anchor(self, data: dict, *, refused: bool) -> str:
        """Where on the Submit tab its browser form (``<path>/send/``) comes back to, after
        the upload (``refused``: after a refusal); ``data``: the form's fields as posted."""
        return f"#type-{self.key}"

    def select(self, upload, part, access) -> str:
        """Make ``upload`` the team's final one; returns the answer's message."""
        raise NotImplementedError

    def file_response(self, upload):
        """The upload as the team sent it (when ``has_file``)."""
        raise NotImplementedError

    # --- the round status ----------------------------------------------------------------------

    def listed(self, part, access) -> bool:
        """Whether the round status lists this type for the caller's team now."""
        return True

    def is_open(self, part, access) -> bool:
        """Whether the team may upload this type now (the status's ``open``)."""
        return True

    def fields(self, part, access) -> list[dict]:
        """The upload's fields in the status (``name``, ``label``, ``required``,
        ``choices``), for a client to ask for them."""
        return []

    def files(self, part, access) -> dict:
        """The files an upload must hold, in the status (``round_api.upload_files``)."""
        return upload_files()

    def counts(self, part, access) -> str:
        """Which of the team's uploads of this type counts, in a sentence (the status's
        ``counts``; ``""``: the kind says nothing)."""
        return ""

    # --- addresses, served by the core ------------------------------------------------------------

    def address(self, upload, access, name: str = "") -> str:
        suffix = f"-{name}" if name else ""
        args = [access.competition.slug, access.round.slug, upload.pk]
        return reverse(f"api:{self.url_name}{suffix}", args=args)

    def list_address(self, access) -> str:
        return reverse(f"api:{self.url_name}s", args=[access.competition.slug, access.round.slug])

    def answer(self, upload, part, access, context: dict) -> dict:
        """The upload's answer: what every upload says (its type, id, the team's number,
        status and time), the kind's ``as_json``, the upload's addresses."""
        body = {
            "type": self.key,
            "id": upload.pk,
            "number": upload.number,
            "status": upload.status,
            # In the server's time zone, as the serializers write every other time (not UTC).
            "created_at": timezone.localtime(upload.created_at),
            # What the kind may leave out: no subject, no note, no remark, not final.
            "about": "",
            "note": "",
            "remark": "",
            "final": False,
            **self.as_json(upload, part, access, context),
        }
        body["url"] = self.address(upload, access)
        if self.has_file:
            body["file_url"] = self.address(upload, access, "file")
        if self.has_select:
            body["select_url"] = self.address(upload, access, "select")
        if self.voidable:
            body.update(void_answer(self, upload, access))
        return body

    def answers(self, part, access) -> list[dict]:
        context = self.context(part, access)
        return [self.answer(u, part, access, context) for u in self.uploads(part, access)]

    def status_entry(self, part, access) -> dict:
        return {
            "key": self.key,
            "label": str(self.label),
            "url": self.list_address(access),
            "open": self.is_open(part, access),
            "fields": self.fields(part, access),
            "files": self.files(part, access),
            "selectable": self.has_select,
            "counts": self.counts(part, access),
        }


def upload_serializer(declared):
    """The upload's form, the API's and the Submit tab's (``pwscup.pages.declared``): the
    declared ``upload_form``, else ``file`` and the declared fields, in that order (copies
    made after ``file``: a serializer orders its fields by when each was made)."""
    if declared.upload_form is not None:
        return declared.upload_form
    fields = {
        "file": UploadField(),
        **{k: copy.deepcopy(v) for k, v in declared.upload_fields.items()},
    }
    name = "".join(part.title() for part in declared.operation.split("_")) + "UploadSerializer"
    return type(name, (serializers.Serializer,), fields)


def choice_field(name: str, label, choices: list[str]) -> dict:
    """An upload's required field in the status (``SubmissionType.fields``): its ``name``,
    its ``label`` and the values it takes now."""
    return {"name": name, "label": str(label), "required": True, "choices": choices}


def _status_upload(answer: dict) -> dict:
    """An upload's answer in the round status, whose ``scores`` and ``scores_text`` are
    always objects: an answer saying ``null`` (nothing scored yet) lists none."""
    for key in ("scores", "scores_text"):
        if answer.get(key) is None:
            answer = {**answer, key: {}}
    return answer


def listed_types(types, access):
    """Each of a kind's declared ``types`` listed now for the caller's team, with the kind's
    part of the round (``(declared, part)``): none for a caller outside the round's teams,
    none of a type whose part the round lacks."""
    if access.team is None:
        return
    for declared in types:
        try:
            part = declared.part(access)
        except Http404:
            continue
        if declared.listed(part, access):
            yield declared, part


def declared_status(types, access) -> dict:
    """The round status's ``submission_types`` and ``uploads`` of a kind's declared types for
    the caller: the types listed now that the core takes (``has_create``), the team's uploads
    of every one of them, newest first (nothing for a caller outside the round's teams)."""
    entries, uploads = [], []
    for declared, part in listed_types(types, access):
        if declared.has_create:
            entries.append(declared.status_entry(part, access))
        uploads.extend(_status_upload(answer) for answer in declared.answers(part, access))
    uploads.sort(key=lambda u: (u["created_at"], u["id"]), reverse=True)
    return {"submission_types": entries, "uploads": uploads}
