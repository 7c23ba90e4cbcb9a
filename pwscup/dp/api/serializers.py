"""The request bodies of the DP round's endpoints, as the OpenAPI schema documents them.

The services check a body themselves (``pwscup.dp.services``: ``engine.query_check``,
``estimation.release_declaration``), with the pages' messages; these serializers only say
what a client must send, so that the schema names the required fields.
"""

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from pwscup.core.form_fields import POSITIVE_INT_MAX

EPSILON_HELP = 'ε as exact text: a decimal ("0.25") or a fraction ("1/14"); a JSON number too.'
REQUEST_ID_HELP = (
    "Optional, at most 100 printable characters: the same request_id sent again is answered "
    "with the stored answer, charged once."
)


class QueryRequestSerializer(serializers.Serializer):
    type = serializers.ChoiceField(
        choices=["histogram", "count", "mean"],
        required=False,
        help_text="histogram (the default), count, or mean where the round offers it.",
    )
    epsilon = serializers.CharField(help_text=EPSILON_HELP)
    attributes = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="A histogram's attributes (the round's names).",
    )
    where = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="A count's condition: attribute → value of its domain.",
    )
    column = serializers.CharField(required=False, help_text="A mean's numeric column.")
    request_id = serializers.CharField(required=False, help_text=REQUEST_ID_HELP)


class ReleaseGroupSerializer(serializers.Serializer):
    attributes = serializers.ListField(child=serializers.CharField())
    rho = serializers.FloatField(
        required=False, help_text="The group's retention probability ρ: give ρ or ε, not both."
    )
    epsilon = serializers.CharField(required=False, help_text="The group's ε: " + EPSILON_HELP)


class ReleaseRequestSerializer(serializers.Serializer):
    groups = ReleaseGroupSerializer(
        many=True, help_text="The attribute groups; every workload attribute in one group."
    )
    mechanism = serializers.ChoiceField(choices=["pk_anonymization"], required=False)
    request_id = serializers.CharField(required=False, help_text=REQUEST_ID_HELP)


class EstimateUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="estimate.csv (the sample estimate's format).")


class EstimateFromReleaseSerializer(serializers.Serializer):
    from_release = serializers.IntegerField(
        min_value=1, max_value=POSITIVE_INT_MAX, help_text="The number of one of my releases."
    )
    estimator = serializers.ChoiceField(choices=["BT", "BR", "BI"], required=False)


class EstimateFromAnswerSerializer(serializers.Serializer):
    from_answer = serializers.IntegerField(
        min_value=1, max_value=POSITIVE_INT_MAX, help_text="The number of one of my answers."
    )


ESTIMATE_REQUEST = {
    "multipart/form-data": EstimateUploadSerializer,
    "application/json": PolymorphicProxySerializer(
        component_name="EstimateBuildRequest",
        serializers=[EstimateFromReleaseSerializer, EstimateFromAnswerSerializer],
        resource_type_field_name=None,
    ),
}
