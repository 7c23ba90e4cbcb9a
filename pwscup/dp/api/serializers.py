"""The request bodies of the DP round's endpoints, as the OpenAPI schema documents them.

The services check a body themselves (``pwscup.dp.services``: ``engine.query_check``,
``estimation.release_declaration``), with the pages' messages; these serializers only say
what a client must send, so that the schema names the required fields.
"""

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from pwscup.core.form_fields import POSITIVE_INT_MAX
from pwscup.core.rest import UploadField

EPSILON_HELP = gettext_lazy(
    'ε as exact text: a decimal ("0.25") or a fraction ("1/14"); a JSON number too.'
)
REQUEST_ID_HELP = gettext_lazy(
    "Optional, at most 100 printable characters: the same request_id sent again is answered "
    "with the stored answer, charged once."
)


@extend_schema_field({"type": "string", "maxLength": 100, "pattern": "^[ -~]*$"})
class RequestIdField(serializers.Field):
    """``scoring.dp.check_request_id``'s rule, for the schema: printable ASCII, at most 100
    characters; ``""`` or ``null`` is none. (The service checks it.)"""

    def __init__(self, **kwargs):
        kwargs.update(required=False, allow_null=True)
        super().__init__(help_text=REQUEST_ID_HELP, **kwargs)


class _QuerySerializer(serializers.Serializer):
    epsilon = serializers.CharField(help_text=EPSILON_HELP)
    request_id = RequestIdField()


class HistogramQuerySerializer(_QuerySerializer):
    type = serializers.ChoiceField(
        choices=["histogram"], required=False, help_text=gettext_lazy("histogram (the default).")
    )
    attributes = serializers.ListField(
        child=serializers.CharField(),
        min_length=1,
        help_text=gettext_lazy(
            "The histogram's attributes (the round's names): at least one. A name the "
            "round does not have is answered 404."
        ),
    )


@extend_schema_field(
    {"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 1}
)
class ConditionField(serializers.DictField):
    """A count's condition: at least one attribute (the service refuses an empty one)."""


class CountQuerySerializer(_QuerySerializer):
    type = serializers.ChoiceField(choices=["count"])
    where = ConditionField(
        help_text=gettext_lazy(
            "The condition: attribute → value of its domain (an unknown one: 404)."
        )
    )


class MeanQuerySerializer(_QuerySerializer):
    type = serializers.ChoiceField(
        choices=["mean"], help_text=gettext_lazy("Where the round offers it.")
    )
    column = serializers.CharField(
        help_text=gettext_lazy("A numeric column (an unknown one: 404).")
    )


# One of three shapes, told apart by ``type`` (absent: a histogram), each with what the
# service requires of it (``scoring.dp.laplace.parse_query``).
QUERY_REQUEST = PolymorphicProxySerializer(
    component_name="QueryRequest",
    serializers=[HistogramQuerySerializer, CountQuerySerializer, MeanQuerySerializer],
    resource_type_field_name=None,
)


class ReleaseGroupSerializer(serializers.Serializer):
    attributes = serializers.ListField(
        child=serializers.CharField(),
        min_length=1,
        help_text=gettext_lazy(
            "The group's workload attributes: at least one (an unknown name: 404)."
        ),
    )
    rho = serializers.FloatField(
        required=False,
        help_text=gettext_lazy("The group's retention probability ρ: give ρ or ε, not both."),
    )
    epsilon = serializers.CharField(
        required=False,
        help_text=format_lazy(gettext_lazy("The group's ε: {epsilon}"), epsilon=EPSILON_HELP),
    )


class ReleaseRequestSerializer(serializers.Serializer):
    groups = serializers.ListField(
        child=ReleaseGroupSerializer(),
        min_length=1,
        help_text=gettext_lazy("The attribute groups; every workload attribute in one group."),
    )
    mechanism = serializers.ChoiceField(choices=["pk_anonymization"], required=False)
    request_id = RequestIdField()


class EstimateUploadSerializer(serializers.Serializer):
    file = UploadField(help_text=gettext_lazy("estimate.csv (the sample estimate's format)."))


class EstimateFromReleaseSerializer(serializers.Serializer):
    from_release = serializers.IntegerField(
        min_value=1,
        max_value=POSITIVE_INT_MAX,
        help_text=gettext_lazy("The number of one of my releases."),
    )
    estimator = serializers.ChoiceField(choices=["BT", "BR", "BI"], required=False)


class EstimateFromAnswerSerializer(serializers.Serializer):
    from_answer = serializers.IntegerField(
        min_value=1,
        max_value=POSITIVE_INT_MAX,
        help_text=gettext_lazy("The number of one of my answers."),
    )


ESTIMATE_REQUEST = {
    "multipart/form-data": EstimateUploadSerializer,
    "application/json": PolymorphicProxySerializer(
        component_name="EstimateBuildRequest",
        serializers=[EstimateFromReleaseSerializer, EstimateFromAnswerSerializer],
        resource_type_field_name=None,
    ),
}
