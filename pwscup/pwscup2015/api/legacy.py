"""The addresses a 2015 upload had before its endpoints were declared under its round
(``v1/submissions/{id}/``, ``…/file``, ``…/select/``, ``v1/attacks/{id}/``, ``…/file``): each
answers **308** to the same endpoint under the upload's round, for a caller who may read the
upload (its team's members and the competition's organizers; 404 for anyone else, as
before), so that a script written against them keeps working. A 308 keeps the method and
the body: a select stays a ``POST``. They are left out of the schema: the answers' ``url``,
``file_url`` and ``select_url`` give the addresses to use."""

from django.http import HttpResponsePermanentRedirect
from django.urls import path, reverse
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.views import APIView

from pwscup.pwscup2015.access import upload_for
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission


@extend_schema(exclude=True)
class MovedUploadView(APIView):
    # The upload of ``model`` by its id, sent on to the URL ``url_name`` under its round.
    # (A comment, not a docstring: DRF would show it on the browsable API's page.)
    permission_classes = [IsAuthenticated]
    model = None
    url_name = ""

    def moved(self, request, pk):
        upload = upload_for(user=request.user, model=self.model, pk=pk)
        round_ = upload.phase.round
        to = reverse(self.url_name, args=[round_.competition.slug, round_.slug, upload.pk])
        return HttpResponsePermanentRedirect(to, preserve_request=True)

    def get(self, request, pk):
        return self.moved(request, pk)

    def post(self, request, pk):
        return self.moved(request, pk)


def _moved(route: str, model, url_name: str):
    view = MovedUploadView.as_view(model=model, url_name=f"api:{url_name}")
    return path(route, view, name=f"moved-{url_name}")


urlpatterns = [
    _moved("v1/submissions/<int:pk>/", AnonymizationSubmission, "submission"),
    _moved("v1/submissions/<int:pk>/file", AnonymizationSubmission, "submission-file"),
    _moved("v1/submissions/<int:pk>/select/", AnonymizationSubmission, "submission-select"),
    _moved("v1/attacks/<int:pk>/", AttackSubmission, "attack"),
    _moved("v1/attacks/<int:pk>/file", AttackSubmission, "attack-file"),
]
