"""The REST endpoints of every declared submission type (``pwscup.submissions.submission_types``),
served by the core for every kind: list, upload (**202**; not for a type declaring
``has_create = False``), one upload, its file, select. A
kind writes none of these views; it declares the type, and ``submission_urlpatterns`` mounts
them under the round with their OpenAPI schema (summaries and operation ids from the
declaration, one view class per type so that the schema tells the types apart)."""

from django.urls import path
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.api.views.voids import restore_post, void_post, void_schemas, withdraw_post
from pwscup.core.rest import ROUND_PREFIX, errors
from pwscup.core.rest_schemas import JSON_LIST, JSON_OBJECT
from pwscup.core.single_parts import SinglePartsMultiPartParser, parts_once
from pwscup.submissions.submission_types import upload_serializer

BINARY_FILE = OpenApiResponse(
    OpenApiTypes.BINARY, description=gettext_lazy("The file as uploaded.")
)


class DeclaredView(APIView):
    # What every view of a declared type shares: the type, the kind's key (a round of another
    # kind is 404), the caller's access and the kind's part of the round. (A comment, not a
    # docstring: the schema would give it as every operation's description.)

    permission_classes = [IsAuthenticated]
    submission_type = None
    kind_key = ""

    def where(self, request, competition_slug, round_slug):
        access = round_access(request, competition_slug, round_slug, kind=self.kind_key)
        return access, self.submission_type.part(access)

    def own_upload(self, request, competition_slug, round_slug, pk, *, team_only: bool):
        """The caller's access, the kind's part and the upload ``pk`` of the declared type:
        the team's own, for its members (``team_only``: a change, such as a selection) or
        for whoever may read the type's uploads."""
        declared = self.submission_type
        access, part = self.where(request, competition_slug, round_slug)
        (declared.team if team_only else declared.reader)(access)
        return access, part, declared.own(part, access, pk)

    def answer(self, upload, part, access) -> dict:
        """The upload as the declared type answers it, with the type's context."""
        declared = self.submission_type
        return declared.answer(upload, part, access, declared.context(part, access))


class ListView(DeclaredView):
    parser_classes = [SinglePartsMultiPartParser]
    upload_serializer = None

    def get(self, request, competition_slug, round_slug):
        access, part = self.where(request, competition_slug, round_slug)
        self.submission_type.team(access)
        return Response(self.submission_type.answers(part, access))

    def post(self, request, competition_slug, round_slug):
        declared = self.submission_type
        access, part = self.where(request, competition_slug, round_slug)
        declared.uploader(part, access)
        form = self.upload_serializer(data=request.data)
        parts_once(request.data, form.fields)  # a field read twice: which one would count?
        form.is_valid(raise_exception=True)
        data = dict(form.validated_data)
        uploaded_file = data.pop("file")
        upload = declared.upload(
            part, access, user=request.user, uploaded_file=uploaded_file, data=data
        )
        body = self.answer(upload, part, access)
        body["message"] = declared.received_message(upload)
        return Response(body, status=202)


class DetailView(DeclaredView):
    def get(self, request, competition_slug, round_slug, pk):
        access, part, upload = self.own_upload(
            request, competition_slug, round_slug, pk, team_only=False
        )
        return Response(self.answer(upload, part, access))


class FileView(DeclaredView):
    def get(self, request, competition_slug, round_slug, pk):
        _access, _part, upload = self.own_upload(
            request, competition_slug, round_slug, pk, team_only=False
        )
        return self.submission_type.file_response(upload)


class SelectView(DeclaredView):
    def post(self, request, competition_slug, round_slug, pk):
        access, part, upload = self.own_upload(
            request, competition_slug, round_slug, pk, team_only=True
        )
        message = self.submission_type.select(upload, part, access)
        upload.refresh_from_db()
        body = self.answer(upload, part, access)
        body["message"] = message
        return Response(body)


class WithdrawView(DeclaredView):
    def post(self, request, competition_slug, round_slug, pk):
        return withdraw_post(self, request, competition_slug, round_slug, pk)


class VoidView(DeclaredView):
    def post(self, request, competition_slug, round_slug):
        return void_post(self, request, competition_slug, round_slug)


class RestoreView(DeclaredView):
    def post(self, request, competition_slug, round_slug, pk):
        return restore_post(self, request, competition_slug, round_slug, pk)


def _with_schema(base, method: str, schema: dict, attrs: dict) -> None:
    """``base.method`` under ``extend_schema(**schema)`` in the new class only (the base's
    own method stays as it is for every other type)."""
    inherited = getattr(base, method)

    def handler(self, request, *args, **kwargs):
        return inherited(self, request, *args, **kwargs)

    handler.__name__ = method
    attrs[method] = extend_schema(**schema)(handler)


def _view(base, declared, kind_key: str, schemas: dict, **extra):
    # The view is the declaring kind's (its module, as ``resolve()`` tells it), and the
    # schema's descriptions are the declaration's only (not this module's docstrings).
    attrs = {
        "__module__": type(declared).__module__,
        "__doc__": "",
        "submission_type": declared,
        "kind_key": kind_key,
        **extra,
    }
    for method, schema in schemas.items():
        _with_schema(base, method, schema, attrs)
    name = "".join(part.title() for part in declared.operation.split("_")) + base.__name__
    return type(name, (base,), attrs).as_view()


def _schema(declared, action: str, operation: str, responses: dict, **extra) -> dict:
    """An endpoint's schema: the declaration's summary of ``action`` (``list``, ``create``...)
    and its operation id (``operation`` after the declaration's base)."""
    return {
        "responses": responses,
        "summary": declared.summary(action),
        "operation_id": declared.operation + operation,
        **extra,
    }


def submission_urlpatterns(kind) -> list:
    """The endpoints of every submission type ``kind`` declares, under the round."""
    patterns = []
    for declared in kind.submission_types():
        name = declared.url_name
        prefix = ROUND_PREFIX + declared.path.strip("/") + "/"
        form = upload_serializer(declared)
        one, accepted = declared.answer_serializer, declared.accepted_serializer
        listed = JSON_LIST if one is None else one(many=True)
        one = JSON_OBJECT if one is None else one
        created = {202: accepted or JSON_OBJECT, **errors(400, 401, 403, 404, 413, 429)}
        schemas = {
            "get": _schema(declared, "list", "s_list", {200: listed, **errors(401, 404)}),
            "post": _schema(
                declared,
                "create",
                "s_create",
                created,
                request=form,
                description=declared.description,
            ),
        }
        extra = {"upload_serializer": form}
        if not declared.has_create:  # its uploads are taken elsewhere: the list only
            del schemas["post"]
            extra["http_method_names"] = ["get", "head", "options"]
        list_view = _view(ListView, declared, kind.key, schemas, **extra)
        patterns.append(path(prefix, list_view, name=f"{name}s"))
        responses = {200: one, **errors(401, 404)}
        schemas = {"get": _schema(declared, "retrieve", "_retrieve", responses)}
        detail = _view(DetailView, declared, kind.key, schemas)
        patterns.append(path(prefix + "<int:pk>/", detail, name=name))
        if declared.has_file:
            responses = {(200, declared.file_media_type): BINARY_FILE, **errors(401, 404)}
            schemas = {"get": _schema(declared, "file", "_file_retrieve", responses)}
            file_view = _view(FileView, declared, kind.key, schemas)
            patterns.append(
                path(f"{prefix}<int:pk>/{declared.file_name}", file_view, name=f"{name}-file")
            )
        if declared.has_select:
            responses = {200: one, **errors(400, 401, 403, 404)}
            schemas = {"post": _schema(declared, "select", "_select", responses, request=None)}
            select = _view(SelectView, declared, kind.key, schemas)
            patterns.append(path(prefix + "<int:pk>/select/", select, name=f"{name}-select"))
        if declared.voidable:
            patterns.extend(_void_patterns(declared, kind, prefix))
    return patterns


def _void_patterns(declared, kind, prefix: str) -> list:
    """The organizers' void and restore of a voidable type, and the team's withdrawal of a
    withdrawable one (``voids.py``)."""
    name, schemas = declared.url_name, void_schemas(declared)
    views = [
        ("void/", VoidView, "void", f"{name}s-void"),
        ("<int:pk>/restore/", RestoreView, "restore", f"{name}-restore"),
    ]
    if declared.withdrawable:
        views.append(("<int:pk>/withdraw/", WithdrawView, "withdraw", f"{name}-withdraw"))
    return [
        path(
            prefix + route,
            _view(base, declared, kind.key, {"post": schemas[action]}),
            name=url_name,
        )
        for route, base, action, url_name in views
    ]
