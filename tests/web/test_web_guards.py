"""Hostile requests: the Host and cross-site checks, content types, time limits, and odd bodies
that must each get a 4xx in the one error form, never a 5xx."""

from __future__ import annotations

import inspect
import json
from ipaddress import ip_address
from pathlib import Path
from typing import Any

import pytest
from contract import assert_error

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install .[web])")

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allocator.core.errors import TimeLimitError
from allocator.core.library import folder
from allocator.core.limits import Limits
from allocator.core.reader import read_file
from allocator.games.crossfire import service
from allocator.web import guards
from allocator.web.app import create_app
from allocator.web.settings import WebSettings
from web.endpoints import scenario_paths

SEED = read_file(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml")
BASE_URL = "http://127.0.0.1:8000"
JSON = {"content-type": "application/json"}
#: Every endpoint that takes a body, with a body it answers 200 to.
POSTS: dict[str, Any] = {
    "/api/check": SEED,
    "/api/explain": SEED,
    "/api/board": SEED,
    "/api/scenario-yaml": SEED,
    "/api/solve": {"scenario": SEED, "side": "defender"},
    "/api/simulate": {"scenario": SEED, "seed": 3},
    "/api/play": {"scenario": SEED, "seed": 3},
}


def make_client(**given: Any) -> TestClient:
    """A client of an app with ``given`` settings; a defect raises in the test (no 500)."""
    options = {"limits": Limits(max_stands_per_side=12), "solve_time_limit": 2.0} | given
    return TestClient(create_app(WebSettings(**options)), base_url=BASE_URL)


@pytest.fixture(scope="module")
def client() -> TestClient:
    return make_client()


# ------------------------------------------------------------------ Host header (DNS rebinding)


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "127.0.0.1"]
)
def test_loopback_names_are_answered(client: TestClient, host: str) -> None:
    assert client.get("/", headers={"host": host}).status_code == 200
    assert client.post("/api/check", json=SEED, headers={"host": host}).status_code == 200


@pytest.mark.parametrize(
    "host", ["attacker.example", "attacker.example:8000", "127.0.0.1.nip.io", "[::2]", "", "a b"]
)
def test_other_names_are_refused_with_400(client: TestClient, host: str) -> None:
    for response in (
        client.get("/", headers={"host": host}),
        client.get("/static/app.js", headers={"host": host}),
        client.post("/api/check", json=SEED, headers={"host": host}),
    ):
        error = assert_error(response, 400, "Host header")
        assert "--allow-host" in error["problem"]


def test_names_given_by_the_settings_are_answered() -> None:
    client = make_client(allowed_hosts=("club-laptop.lan", "*.example.org"))
    for host in ("club-laptop.lan:8000", "table.example.org", "CLUB-LAPTOP.LAN"):
        assert client.get("/", headers={"host": host}).status_code == 200
    assert_error(client.get("/", headers={"host": "example.org.attacker"}), 400)


def test_the_bound_address_is_answered() -> None:
    client = make_client(host="192.0.2.7")
    assert client.get("/", headers={"host": "192.0.2.7:8000"}).status_code == 200
    assert_error(client.get("/", headers={"host": "192.0.2.8:8000"}), 400)


def test_bound_to_every_address_the_machines_names_are_answered(monkeypatch: Any) -> None:
    monkeypatch.setattr(guards, "machine_addresses", lambda: ["192.0.2.10", "2001:db8::10"])
    monkeypatch.setattr(guards.socket, "gethostname", lambda: "Club-Laptop")
    client = make_client(host="0.0.0.0")
    for host in ("192.0.2.10:8000", "[2001:db8::10]:8000", "club-laptop:8000", "127.0.0.1"):
        assert client.get("/", headers={"host": host}).status_code == 200, host
    assert_error(client.get("/", headers={"host": "attacker.example"}), 400)


def test_machine_addresses_leave_out_loopback(monkeypatch: Any) -> None:
    found = [
        (2, 1, 6, "", ("127.0.1.1", 0)),
        (2, 1, 6, "", ("192.0.2.10", 0)),
        (10, 1, 6, "", ("fe80::1", 0, 0, 2)),
        (10, 1, 6, "", ("::1", 0, 0, 0)),
        (2, 1, 6, "", ("192.0.2.10", 0)),
    ]
    monkeypatch.setattr(guards.socket, "getaddrinfo", lambda *args, **kwargs: found)
    monkeypatch.setattr(guards, "route_address", lambda: None)
    assert guards.machine_addresses() == ["192.0.2.10"]


def test_the_address_the_machine_reaches_the_network_from_counts_first(monkeypatch: Any) -> None:
    loopback_only = [(2, 1, 6, "", ("127.0.1.1", 0))]  # Debian's /etc/hosts line for the name
    monkeypatch.setattr(guards.socket, "getaddrinfo", lambda *args, **kwargs: loopback_only)
    monkeypatch.setattr(guards, "route_address", lambda: "192.0.2.2")
    assert guards.machine_addresses() == ["192.0.2.2"]


def test_the_route_address_is_an_address_or_none() -> None:
    found = guards.route_address()
    assert found is None or ip_address(found).version == 4


# ------------------------------------------------------------------ cross-site requests


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://attacker.example"},
        {"origin": "null"},
        {"origin": "http://127.0.0.1:9999"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
        {"sec-fetch-site": "cross-site", "origin": BASE_URL},
    ],
    ids=["foreign", "null", "other-port", "cross-site", "same-site", "fetch-site-wins"],
)
def test_state_changing_requests_of_other_sites_are_refused(
    client: TestClient, headers: dict[str, str]
) -> None:
    for path, body in POSTS.items():
        assert_error(client.post(path, json=body, headers=headers), 403, "Origin header")
    text = {"content-type": "text/plain"} | headers
    assert_error(client.post("/api/parse", content="title: x", headers=text), 403)


@pytest.mark.parametrize(
    "headers",
    [{}, {"origin": BASE_URL}, {"sec-fetch-site": "same-origin"}, {"sec-fetch-site": "none"}],
    ids=["no-origin", "same-origin", "fetch-same-origin", "typed-by-the-user"],
)
def test_requests_of_the_page_itself_are_answered(
    client: TestClient, headers: dict[str, str]
) -> None:
    assert client.post("/api/check", json=SEED, headers=headers).status_code == 200


def test_other_sites_may_still_link_to_the_page(client: TestClient) -> None:
    cross = {"sec-fetch-site": "cross-site", "origin": "https://attacker.example"}
    assert client.get("/", headers=cross).status_code == 200
    assert client.get("/static/style.css", headers=cross).status_code == 200


# ------------------------------------------------------------------ content types


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "json"],
)
def test_json_endpoints_refuse_other_content_types_with_415(
    client: TestClient, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    for path, body in POSTS.items():
        response = client.post(path, content=json.dumps(body), headers=headers)
        assert_error(response, 415, "Content-Type header")


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-8", "Application/JSON", "application/ld+json"]
)
def test_json_endpoints_take_json_by_any_of_its_names(
    client: TestClient, content_type: str
) -> None:
    response = client.post(
        "/api/check", content=json.dumps(SEED), headers={"content-type": content_type}
    )
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/yaml"])
def test_parse_takes_text_of_any_content_type(client: TestClient, content_type: str | None) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    response = client.post("/api/parse", content="title: Barn\n", headers=headers)
    assert response.json() == {"title": "Barn"}


# ------------------------------------------------------------------ time limit, defects


def test_no_answer_within_the_time_limit_is_422_naming_it(
    client: TestClient, monkeypatch: Any
) -> None:
    def too_slow(*args: Any, **kwargs: Any) -> Any:
        raise TimeLimitError(2.0)

    monkeypatch.setattr(service, "solve_answer", too_slow)
    response = client.post("/api/solve", json=POSTS["/api/solve"])
    error = assert_error(response, 422, "time limit")
    assert "no answer within the time limit" in error["problem"]
    assert "cfalloc serve --time-limit" in error["problem"]


@pytest.mark.parametrize(
    ("path", "function"),
    [
        ("/api/check", "check_answer"),
        ("/api/explain", "explain_answer"),
        ("/api/solve", "solve_answer"),
        ("/api/simulate", "simulate_answer"),
    ],
)
def test_every_endpoint_that_computes_passes_the_servers_time_limit(
    monkeypatch: Any, path: str, function: str
) -> None:
    given: list[float] = []
    real = getattr(service, function)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        given.append(inspect.signature(real).bind(*args, **kwargs).arguments["time_limit"])
        return real(*args, **kwargs)

    monkeypatch.setattr(service, function, recorded)
    response = make_client(solve_time_limit=3.5).post(path, json=POSTS[path])
    assert response.status_code == 200, response.text
    assert given == [3.5]


def test_a_scenarios_file_text_keeps_to_the_servers_time_limit() -> None:
    """A deep tree of thousands of units, within every size limit, is written out in time or
    refused in the one error form; its collections are not each written out again."""
    units: dict[str, Any] = {
        "id": "bottom",
        "kind": "company",
        "units": [{"id": f"p{i}", "kind": "platoon"} for i in range(20_000)],
    }
    for depth in range(12):
        units = {"id": f"c{depth}", "kind": "company", "units": [units]}
    scenario = {
        "defender": {"units": [units], "stands": [{"id": "d1", "type": "rifle", "unit": "p0"}]},
        "attacker": {
            "units": [{"id": "q", "kind": "platoon"}],
            "stands": [{"id": "a1", "type": "rifle", "unit": "q"}],
        },
    }
    response = make_client(solve_time_limit=0.2).post("/api/scenario-yaml", json=scenario)
    error = assert_error(response, 422, "time limit")
    assert "the scenario's file text was not found in 0.2 s" in error["problem"]


def test_a_defect_is_a_500_in_the_error_form(monkeypatch: Any) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("a defect")

    monkeypatch.setattr(service, "check_answer", broken)
    client = TestClient(create_app(WebSettings()), base_url=BASE_URL, raise_server_exceptions=False)
    response = client.post("/api/check", json=SEED)
    assert response.status_code == 500
    problem = response.json()["error"]["problem"]
    assert "internal error (ZeroDivisionError)" in problem and "a defect in cfalloc" in problem


# ------------------------------------------------------------------ odd bodies: 4xx, never 5xx


def seed_with(**fields: str) -> bytes:
    """The guide's example, valid but for ``fields``, written with JSON escapes as given."""
    text = json.dumps({"title": "TITLE"} | {k: v for k, v in SEED.items() if k != "title"})
    return text.replace('"TITLE"', fields["title"]).encode("utf-8")


#: Bodies, and what the shared reader answers for each (status, place, problem) before any
#: endpoint runs.
HOSTILE_JSON = [
    (b'{"defender": 1e400}', 400, "body", "not a finite number"),
    (b'{"defender": -1e400}', 400, "body", "not a finite number"),
    (b'{"defender": NaN}', 400, "body", "not a number JSON allows"),
    (b'{"defender": Infinity}', 400, "body", "not a number JSON allows"),
    (seed_with(title='"\\ud800"'), 400, "body", "unpaired surrogate"),
    (b'{"\\udfff": 1}', 400, "body", "unpaired surrogate"),
    (b'{"a": 1, "a": 2}', 400, "line 1", "duplicate key"),
    (b'{"defender": ' + b"9" * 5000 + b"}", 413, "body", "CFALLOC_MAX_NUMBER_DIGITS"),
    (b'{"defender": 1' + b"0" * 400 + b".5}", 413, "body", "CFALLOC_MAX_NUMBER_DIGITS"),
    (b"[" * 100_000, 413, "body", "CFALLOC_MAX_DEPTH"),
    (b'{"a":' * 20_000, 413, "body", "CFALLOC_MAX_DEPTH"),
    (b"[" + b"0," * 210_000 + b"0]", 413, "body", "CFALLOC_MAX_VALUES"),
    (b"\xff\xfe{\x00}\x00", 400, "body", "not UTF-8"),
    (b" ", 400, "line 1, column 2", "not valid JSON"),
    (b'{"seed": 1e400, "scenario": {}}', 400, "body", "not a finite number"),
    (b'{"scenario": {}, "side": "\\ud800"}', 400, "body", "unpaired surrogate"),
]


@pytest.mark.parametrize(
    ("body", "status", "place", "problem"), HOSTILE_JSON, ids=range(len(HOSTILE_JSON))
)
def test_hostile_json_bodies_are_refused_by_the_reader(
    client: TestClient, body: bytes, status: int, place: str, problem: str
) -> None:
    for path in POSTS:
        error = assert_error(client.post(path, content=body, headers=JSON), status, place)
        assert problem in error["problem"], path


@pytest.mark.parametrize(
    "body",
    [
        seed_with(title='"a\\u0000b\\u001b[31m"'),
        seed_with(title='"\\ud83d\\ude00 \\u202e"'),
        b"\xef\xbb\xbf" + seed_with(title='"BOM"'),
        b'"text"',
        b"null",
        b"[]",
        b"",
    ],
    ids=["control-characters", "emoji-and-override", "bom", "string", "null", "list", "empty"],
)
def test_odd_but_readable_json_bodies_get_an_answer_or_a_4xx(
    client: TestClient, body: bytes
) -> None:
    for path in POSTS:
        response = client.post(path, content=body, headers=JSON)
        assert response.status_code == 200 or 400 <= response.status_code < 500, path
        assert response.json()


def long_names(length: int) -> dict[str, Any]:
    scenario = json.loads(json.dumps(SEED))
    scenario["title"] = "T" * length
    scenario["defender"]["stands"][0]["id"] = "d" * length
    scenario["allocation"]["combats"]["A"][0] = "d" * length
    return scenario


@pytest.mark.parametrize("length", [65, 5_000, 60_000])
def test_long_names_get_a_4xx(client: TestClient, length: int) -> None:
    body = long_names(length)
    for path in scenario_paths(client.app):
        response = client.post(path, json=body)
        assert 400 <= response.status_code < 500, (path, response.text)


@pytest.mark.parametrize(
    "text",
    [
        "a: \x00",
        "a: !!binary aGVsbG8=",
        "a: !!python/name:os.system",
        "a: !!timestamp 2001-12-14",
        "a: 2001-12-14",
        "? [a, b]\n: c",
        "a: &x {b: *x}",
        "- " * 20_000,
        "{" * 50_000,
        "a: " + "9" * 5000,
        "a: .inf",
        "a: <<",
        "<<: {a: 1}\n<<: {b: 2}",
        "%YAML 9.9\n---\na: 1",
        "a: 1\n---\nb: 2",
        "\ud800",
        "a: \x1b[31mred",
    ],
)
def test_hostile_yaml_gets_a_4xx(client: TestClient, text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    response = client.post("/api/parse", content=data)
    assert 200 <= response.status_code < 500, response.text
    if response.status_code != 200:
        assert response.json()["error"]["problem"]


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(st.characters(codec="utf-8"), max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(st.characters(codec="utf-8"), max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
SCENARIO_KEYS = st.sampled_from(
    ["title", "ruleset", "round", "building", "defender", "attacker", "allocation", "seed", "side"]
)


@st.composite
def odd_scenarios(draw: Any) -> Any:
    scenario: Any = json.loads(json.dumps(SEED))
    for _ in range(draw(st.integers(1, 3))):
        scenario[draw(SCENARIO_KEYS)] = draw(JSON_VALUES)
    return scenario


#: How each endpoint takes a scenario.
WRAPPERS: dict[str, Any] = {
    "/api/check": lambda scenario: scenario,
    "/api/explain": lambda scenario: scenario,
    "/api/board": lambda scenario: scenario,
    "/api/solve": lambda scenario: {"scenario": scenario, "side": "attacker"},
    "/api/simulate": lambda scenario: {"scenario": scenario, "seed": 1},
    "/api/play": lambda scenario: {"scenario": scenario, "seed": 1},
}


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(scenario=odd_scenarios(), path=st.sampled_from(sorted(WRAPPERS)))
def test_odd_scenarios_never_get_a_5xx(client: TestClient, scenario: Any, path: str) -> None:
    body = json.dumps(WRAPPERS[path](scenario), allow_nan=True)
    response = client.post(path, content=body.encode("utf-8", "surrogatepass"), headers=JSON)
    assert response.status_code < 500, response.text


# ------------------------------------------------------------------ the hostile corpus

CORPUS = sorted((Path(__file__).resolve().parent.parent / "data" / "hostile").glob("*.*[ln]"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_the_hostile_corpus_gets_an_answer_or_a_4xx_from_every_endpoint(
    client: TestClient, path: Path
) -> None:
    parsed = client.post("/api/parse", content=path.read_bytes())
    assert parsed.status_code in (200, 400, 413, 422), parsed.text
    if parsed.status_code != 200:
        assert_error(parsed, parsed.status_code)
        return
    for endpoint, body in POSTS.items():
        scenario = parsed.json()
        sent = {**body, "scenario": scenario} if "scenario" in body else scenario
        answer = client.post(endpoint, json=sent)
        assert answer.status_code in (200, 413, 422), (endpoint, answer.text)
        if answer.status_code != 200:
            assert_error(answer, answer.status_code)
