"""The committed JSON Schemas are what the pydantic classes generate; the shipped files obey them.

``models/schema/NAME.schema.json`` is written by ``cfalloc schema NAME`` for every file format
of :func:`allocator.games.formats`; when a class changes, regenerate it. Its ``$comment`` names
the pydantic version that wrote it: under that version the committed file must be what the
classes generate byte for byte; under any other allowed version (which writes the same rules a
little differently) it must have the same :func:`shape`. Validation uses the ``jsonschema``
package of the test extra.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field, create_model

from allocator.games import formats, json_schema
from allocator.games.crossfire.schema import Organisation, Scenario

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "models" / "schema" / "scenario.schema.json"
SCENARIOS = sorted((ROOT / "models" / "scenarios").glob("*.y*ml")) + sorted(
    (ROOT / "bench").glob("*.y*ml")
)
ORGS = sorted((ROOT / "models" / "orgs").glob("*.yaml"))
PROFILES = {
    "crossfire-profile": ["crossfire"],
    "infinity-profile": ["infinity", "infinity-n5"],
    "matched-dice-profile": ["matched-dice"],
    "battlesystem-profile": ["battlesystem"],
    "percentile-tables": ["percentile-example-tables"],
}

#: What a place of a schema allows, kept by :func:`shape` as written.
RULES = (
    "type", "$ref", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "minLength", "maxLength", "pattern", "minItems", "maxItems", "minProperties", "maxProperties",
)  # fmt: skip
#: Keywords holding one schema, a list of schemas, and schemas by name.
ONE = ("items", "additionalProperties")
LISTED = ("anyOf", "oneOf", "prefixItems")
NAMED = ("properties", "patternProperties", "$defs")


def committed(name: str) -> Path:
    return ROOT / "models" / "schema" / f"{name}.schema.json"


def shape(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each place of a schema (``$defs.Stand.properties.type``) with what it allows there: its
    types, values, required and known keys, bounds and references. Left out is what the
    pydantic versions write differently for the same class: titles, descriptions, defaults, the
    order of keys, ``propertyNames`` (written since 2.10), a ``$ref`` with siblings wrapped in
    a one-schema ``allOf`` (before 2.9), and a ``const`` beside its own ``enum`` (before 2.10).
    """
    places: dict[str, dict[str, Any]] = {}

    def visit(node: Any, place: str) -> None:
        if not isinstance(node, dict):  # additionalProperties: false
            places[place] = {"is": node}
            return
        if len(node.get("allOf", ())) == 1:
            node = {key: value for key, value in node.items() if key != "allOf"} | node["allOf"][0]
        facts = {key: node[key] for key in RULES if key in node}
        values = [*node.get("enum", ()), *([node["const"]] if "const" in node else [])]
        if values:
            facts["enum"] = sorted({json.dumps(value, sort_keys=True) for value in values})
        if "required" in node:
            facts["required"] = sorted(node["required"])
        for key in NAMED:
            if key in node:
                facts[key] = sorted(node[key])
                for name, sub in node[key].items():
                    visit(sub, f"{place}.{key}.{name}".lstrip("."))
        for key in ONE:
            if key in node:
                visit(node[key], f"{place}.{key}".lstrip("."))
        for key in LISTED:
            for index, sub in enumerate(node.get(key, ())):
                visit(sub, f"{place}.{key}[{index}]".lstrip("."))
        places[place] = facts

    visit(schema, "")
    return places


@pytest.mark.parametrize("name", sorted(formats()))
def test_committed_schema_is_current(name: str) -> None:
    """What ``cfalloc schema NAME`` writes (byte for byte under the pydantic that wrote it)."""
    path = committed(name)
    assert path.is_file(), f"missing: run `cfalloc schema {name} > {path.relative_to(ROOT)}`"
    stale = f"stale: run `cfalloc schema {name} > {path.relative_to(ROOT)}`"
    text, generated = path.read_text(encoding="utf-8"), json_schema(name)
    written = json.loads(text)
    if written.get("$comment") == generated["$comment"]:
        assert text == json.dumps(generated, indent=2, ensure_ascii=False) + "\n", stale
    else:
        assert shape(written) == shape(generated), stale


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (  # pydantic < 2.9 wraps a reference that has a default
            {"allOf": [{"$ref": "#/$defs/Quality"}], "default": "regular"},
            {"$ref": "#/$defs/Quality", "default": "regular"},
        ),
        (  # pydantic < 2.10 writes a one-value Literal's enum beside its const
            {"const": "infinity", "enum": ["infinity"], "type": "string"},
            {"const": "infinity", "type": "string"},
        ),
        (  # pydantic >= 2.10 writes the constraints of a dict's keys
            {"additionalProperties": {"type": "integer"}, "type": "object"},
            {
                "additionalProperties": {"type": "integer"},
                "propertyNames": {"maxLength": 64, "minLength": 1},
                "type": "object",
            },
        ),
        (  # pydantic 2.10 writes a float's integral bounds as floats
            {"maximum": 1000.0, "minimum": 0.0, "type": "number"},
            {"maximum": 1000, "minimum": 0, "type": "number"},
        ),
        (  # titles, descriptions and defaults annotate a schema: they do not validate
            {"title": "Round", "description": "Round 1", "default": 1, "type": "integer"},
            {"title": "The round", "type": "integer"},
        ),
    ],
)
def test_shape_leaves_out_what_pydantic_versions_write_differently(
    older: dict[str, Any], newer: dict[str, Any]
) -> None:
    assert shape(older) == shape(newer)


class Unchanged(Scenario):
    pass


class OpenToUnknownKeys(Scenario):
    model_config = ConfigDict(extra="allow")


def changed(**fields: Any) -> type[BaseModel]:
    model: type[BaseModel] = create_model("Changed", __base__=Scenario, **fields)
    return model


def committed_shape() -> dict[str, dict[str, Any]]:
    return shape(json.loads(COMMITTED.read_text(encoding="utf-8")))


def test_an_unchanged_class_has_the_committed_shape() -> None:
    assert shape(Unchanged.model_json_schema()) == committed_shape()


@pytest.mark.parametrize(
    "model",
    [
        changed(turn=(int, 0)),
        changed(allocation=(Scenario.model_fields["allocation"].annotation, ...)),
        changed(round=(str, "1")),
        changed(round=(int, Field(default=1, ge=1, le=100))),
        changed(building=(Literal["farmhouse", "church"], "farmhouse")),
        OpenToUnknownKeys,
    ],
    ids=["new field", "now required", "new type", "new bound", "new values", "unknown keys"],
)
def test_a_changed_class_has_another_shape(model: type[BaseModel]) -> None:
    assert shape(model.model_json_schema()) != committed_shape()


def test_no_committed_schema_without_a_format() -> None:
    names = {p.name.removesuffix(".schema.json") for p in (ROOT / "models" / "schema").iterdir()}
    assert names == set(formats())


@pytest.mark.parametrize(("name", "profile"), [(n, p) for n, ps in PROFILES.items() for p in ps])
def test_shipped_profile_validates(name: str, profile: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    data = yaml.safe_load((ROOT / "models" / "rulesets" / f"{profile}.yaml").read_text("utf-8"))
    jsonschema.validate(data, json_schema(name))


def test_schema_names_every_stand_type_and_forbids_unknown_keys() -> None:
    schema = json_schema("scenario")
    types = set(schema["$defs"]["StandType"]["enum"])
    assert types == {
        "rifle", "smg", "engineer", "jhmg", "hmg", "mortar", "gun",
        "pc", "cc", "bc", "commissar", "fo", "sniper",
    }  # fmt: skip
    assert schema["additionalProperties"] is False
    for name in ("Stand", "Unit", "Force", "Allocation", "Building"):
        assert schema["$defs"][name]["additionalProperties"] is False, name


def test_there_are_files_to_validate() -> None:
    assert len(SCENARIOS) > 40
    assert len(ORGS) >= 4


@pytest.fixture(scope="module")
def validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(COMMITTED.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _errors(validator: Any, data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in validator.iter_errors(data)
    ]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenario_validates(validator: Any, path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert _errors(validator, data) == []


@pytest.mark.parametrize("path", ORGS, ids=lambda p: p.stem)
def test_shipped_organisation_validates(validator: Any, path: Path) -> None:
    """An organisation's units and stands are a force as a scenario writes it."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(data) <= set(Organisation.model_fields)
    as_force = {"units": data["units"], "stands": data["stands"]}
    force = {"$ref": "#/$defs/Force", "$defs": validator.schema["$defs"]}
    force_validator = type(validator)(force)
    assert _errors(force_validator, as_force) == []
    # and a scenario that takes the whole organisation by name is valid too
    scenario = {"defender": {"organisation": path.stem}, "attacker": as_force}
    assert _errors(validator, scenario) == []


def test_validator_rejects_what_pydantic_rejects(validator: Any) -> None:
    bad = {
        "defender": {"stands": [{"id": "d1", "type": "tank", "unit": "p"}]},
        "attacker": {"stands": [], "colour": "red"},
    }
    errors = _errors(validator, bad)
    assert any("tank" in e for e in errors)
    assert any("colour" in e for e in errors)
