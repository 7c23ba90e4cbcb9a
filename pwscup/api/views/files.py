"""The kinds' own ``GET`` endpoints under the round (their files, their lists of targets),
served by the core: a kind declares each one (``pwscup.submissions.submission_types
.RoundEndpoint`` in its ``api_module``'s ``ROUND_ENDPOINTS``) and writes only its answer;
``endpoint_urlpatterns`` mounts them with the round's access rule and their OpenAPI schema
(one view class per endpoint, so that the schema tells them apart)."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.core.rest import ROUND_PREFIX


def _endpoint_view(endpoint, kind_key: str):
    schema = {"responses": endpoint.responses, "summary": endpoint.summary}
    if endpoint.schema_operation_id() is not None:
        schema["operation_id"] = endpoint.schema_operation_id()
    if endpoint.description is not None:
        schema["description"] = endpoint.description

    def get(self, request, competition_slug, round_slug, **kwargs):
        access = round_access(request, competition_slug, round_slug, kind=kind_key)
        return endpoint.answer(request, access, endpoint.part(access), **kwargs)

    # The view is the declaring kind's (the module of its part, as ``resolve()`` tells it:
    # an answer may be the core's, a kind's ``AttackTargets``), and the schema's description
    # is the declaration's only (no docstring of this module's).
    attrs = {
        "__module__": endpoint.part.__module__,
        "__doc__": "",
        "permission_classes": [IsAuthenticated],
        "get": extend_schema(**schema)(get),
    }
    name = "".join(part.title() for part in endpoint.name.split("-")) + "View"
    return type(name, (APIView,), attrs).as_view()


def endpoint_urlpatterns(kind) -> list:
    """The round endpoints ``kind`` declares (``RoundKind.api_round_endpoints``)."""
    return [
        path(ROUND_PREFIX + endpoint.route, _endpoint_view(endpoint, kind.key), name=endpoint.name)
        for endpoint in kind.api_round_endpoints()
    ]
