"""The import-linter contracts (``.importlinter``, run by ``scripts/test``) cover every package
of ``pwscup/`` by construction: a package outside them, a new kind missing from the kinds'
layer or from the contract that keeps the other packages off the kinds, fails here, so a
new game cannot escape the layers (docs/architecture.md, "Import layers")."""

import configparser
from pathlib import Path

from pwscup.kinds import all_kinds

ROOT = Path(__file__).resolve().parents[2]
LAYERS = "importlinter:contract:layers"
KINDS_THROUGH_REGISTRY = "importlinter:contract:kinds-through-registry"
CLIENT = "importlinter:contract:client-standalone"


def contracts() -> configparser.ConfigParser:
    parser = configparser.ConfigParser()
    assert parser.read(ROOT / ".importlinter", encoding="utf-8")
    return parser


def names(value: str) -> list[str]:
    return [line.strip() for line in value.splitlines() if line.strip()]


def layers(parser) -> list[set[str]]:
    """The layers contract's layers, top first, each the set of its modules."""
    return [
        {module.strip() for module in line.replace(":", "|").split("|")}
        for line in names(parser[LAYERS]["layers"])
    ]


def pwscup_packages() -> set[str]:
    """Every package directly under ``pwscup/`` (a folder with an ``__init__.py``)."""
    return {f"pwscup.{init.parent.name}" for init in (ROOT / "pwscup").glob("*/__init__.py")}


def kind_packages() -> set[str]:
    """The package of each registered kind of the platform (toy kinds of the tests aside)."""
    packages = {".".join(type(kind).__module__.split(".")[:2]) for kind in all_kinds()}
    return {package for package in packages if package.startswith("pwscup.")}


def test_the_listing_sees_the_packages_and_the_kinds():
    packages = pwscup_packages()
    assert {"pwscup.core", "pwscup.console", "pwscup.client", "pwscup.settings"} <= packages
    # A sanity check of the listing, not a list of the kinds: a new kind adds itself.
    assert {"pwscup.pwscup2015", "pwscup.dp", "pwscup.sequential"} < kind_packages()


def test_every_package_is_in_the_layers_or_standalone():
    """In the layers, or the source of a forbidden contract that forbids it every other
    package of ``pwscup`` (the client: standard library only)."""
    parser = contracts()
    layered = set().union(*layers(parser))
    standalone = set()
    for section in parser.sections():
        contract = parser[section]
        if contract.get("type") != "forbidden":
            continue
        forbidden = set(names(contract["forbidden_modules"]))
        for source in names(contract["source_modules"]):
            if pwscup_packages() - {source} <= forbidden:
                standalone.add(source)
    assert standalone == {"pwscup.client"}
    outside = pwscup_packages() - layered - standalone
    assert not outside, f"add {sorted(outside)} to the layers of .importlinter"
    assert not layered & standalone


def test_the_kinds_are_one_layer_that_only_kinds_import():
    """The kinds' layer is every registered kind's package and nothing else; the forbidden
    contract keeps every other package of the layers off them, the site's URLconf too (it
    mounts the kinds' pages through the registry)."""
    parser = contracts()
    kinds = kind_packages()
    kinds_layer = [layer for layer in layers(parser) if layer & kinds]
    assert kinds_layer == [kinds], "every kind's package, and only those, form one layer"
    contract = parser[KINDS_THROUGH_REGISTRY]
    assert contract["type"] == "forbidden"
    assert set(names(contract["forbidden_modules"])) == kinds
    others = set().union(*layers(parser)) - kinds
    assert set(names(contract["source_modules"])) == others


def test_the_client_may_import_no_other_package():
    forbidden = set(names(contracts()[CLIENT]["forbidden_modules"]))
    assert pwscup_packages() - {"pwscup.client"} <= forbidden
