"""A kind's modules found by their names in its package (the way Django's admin finds each
app's ``admin`` module): a kind whose class is in ``<package>/kind.py`` and whose
rankings are in ``<package>/standings.py``, its pages in ``<package>/views``, its API in
``<package>/api``, ... declares none of them. A kind whose module sits elsewhere (or that
wants none despite a module of that name) declares it: ``api_module = round_status``,
``demo_module = None``."""

from importlib import import_module

from django.utils.module_loading import module_has_submodule

#: The kind's modules the core reads, by the name of the attribute that holds each.
KIND_MODULES = (
    "standings_module",
    "archive_module",
    "bundle_module",
    "demo_module",
    "views_module",
    "api_module",
    "console_module",
)


def kind_package(kind) -> str | None:
    """The package of a kind laid out as every kind is (its class in ``<package>.kind``);
    ``None`` for a class defined anywhere else (a test's throwaway kind): nothing is found."""
    package, _, module = type(kind).__module__.rpartition(".")
    return package if module == "kind" and package else None


def api_package(declared) -> str | None:
    """The kind's package of what its API declares (a submission type) in its ``api`` module
    or package (``pwscup.<kind>.api.submissions``: ``pwscup.<kind>``); ``None`` elsewhere."""
    parts = type(declared).__module__.split(".")
    if "api" not in parts[1:]:
        return None
    return ".".join(parts[: len(parts) - 1 - parts[::-1].index("api")])


class KindModule:
    """A ``RoundKind`` attribute (``standings_module = KindModule()``) whose default is the
    module of the same name (``standings``) in the kind's package (``package(obj)``: by
    default ``kind_package``), imported on first read, or ``None`` if the package has no
    such module. Setting the attribute on a kind's class (or instance) declares it
    instead."""

    def __init__(self, package=kind_package):
        self.package = package

    def __set_name__(self, owner, name: str) -> None:
        self.attribute = name
        self.module_name = name.removesuffix("_module")

    def __get__(self, kind, owner=None):
        if kind is None:
            return self
        package = self.package(kind)
        found = None
        if package is not None and module_has_submodule(import_module(package), self.module_name):
            found = import_module(f"{package}.{self.module_name}")
        # Kept on the instance: the next read finds it there, before this descriptor.
        kind.__dict__[self.attribute] = found
        return found


def kind_modules_load(kind) -> None:
    """Import every module the kind reads (what it declares and what it has by name) now, at
    registration (``AppConfig.ready()``), as importing ``kind.py`` did when each was
    declared: a broken module stops the start, not a request."""
    for attribute in KIND_MODULES:
        getattr(kind, attribute)
