"""The answers the API's endpoints declare most often in their OpenAPI schema, declared once
for the core's and every kind's endpoints: a JSON object, a list of them, and a CSV download
(401 without a token, 404 for what the caller may not see)."""

from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

from pwscup.core.rest import CSV_FILE, errors

JSON_OBJECT = OpenApiResponse(OpenApiTypes.OBJECT)
JSON_LIST = OpenApiResponse(build_array_type(build_basic_type(OpenApiTypes.OBJECT)))
CSV_ANSWER = {(200, "text/csv"): CSV_FILE, **errors(401, 404)}
