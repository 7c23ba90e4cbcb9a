"""A kind's own ``GET`` endpoints under the round besides its uploads (a file, a list of
targets), declared once beside their answers: the core serves them with the round's access
and their OpenAPI schema (``pwscup/api/views/files.py``)."""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class RoundEndpoint:
    """One of a kind's own ``GET`` endpoints under the round besides its uploads (a file, a
    list of targets), declared in its ``api_module``'s ``ROUND_ENDPOINTS``: the core serves
    it (``pwscup/api/views/files.py``) for an authenticated caller, with the round's access
    (404 for a round of another kind) and the kind's part of the round (``part(access)``,
    404 without), and its OpenAPI schema.

    * ``route``: its path under the round (``"syn/aux.csv"``, converters allowed);
      ``name``: its URL name in the ``api`` namespace;
    * ``answer(request, access, part, **kwargs)``: the response (the route's values as
      ``kwargs``), refusing with ``Http404`` what the caller may not have;
    * ``responses``, ``summary``, ``operation_id``, ``description``: its schema
      (``named_operation``: the operation id is the name's, ``syn-targets`` a list
      ``syn_targets_list`` for a route ending in ``/``, ``syn-aux`` ``syn_aux_retrieve``);
    * ``page_name``: also served among the round's pages, at the same route in the kind's
      URL namespace under this name, for a logged-in browser (``kind_view``'s access): the
      Data tab's link and the API's endpoint are then one answer, not two copies of a rule.
      ``answer`` reads only what both requests have (``request.GET``, not DRF's
      ``query_params``)."""

    route: str
    name: str
    answer: Callable
    part: Callable
    responses: dict
    summary: str
    operation_id: str | None = None
    description: str | None = None
    page_name: str | None = None
    named_operation: bool = False

    def schema_operation_id(self) -> str | None:
        """The operation id of its schema (``None``: the schema generator's own)."""
        if self.operation_id is not None or not self.named_operation:
            return self.operation_id
        action = "list" if self.route.endswith("/") else "retrieve"
        return f"{self.name.replace('-', '_')}_{action}"


class RoundEndpoints(list):
    """A kind's ``ROUND_ENDPOINTS``, each declared beside its answer::

        ROUND_ENDPOINTS = RoundEndpoints(part=synthetic_part, named_operation=True)

        @ROUND_ENDPOINTS.declare("syn/aux.csv", "syn-aux", responses=CSV_ANSWER, summary=...)
        def aux(request, access, synthetic): ...

    ``common``: what every one of them declares alike (its ``part``, its ``responses``...),
    a declaration's own keywords win. ``declare`` with an ``answer`` adds one whose answer is
    written elsewhere. The order is the declarations'."""

    def __init__(self, **common):
        super().__init__()
        self.common = common

    def declare(self, route: str, name: str, answer: Callable | None = None, **declared):
        def add(answer: Callable) -> Callable:
            self.append(RoundEndpoint(route, name, answer, **{**self.common, **declared}))
            return answer

        return add if answer is None else add(answer)

    def declare_targets(self, prefix: str, targets, **declared) -> None:
        """The list of a two-sided round's targets (``round_api.AttackTargets``) at
        ``<prefix>/targets/``, named ``<prefix>-targets``."""
        self.declare(f"{prefix}/targets/", f"{prefix}-targets", targets.answer, **declared)
