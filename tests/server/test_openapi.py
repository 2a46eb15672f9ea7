"""The HTTP API describes itself: ``/openapi.json`` lists every API route with its body and answer schemas.

The document is built from the routers of :mod:`rummy.server.http`; the bodies, which strict JSON reads
rather than FastAPI, are listed by the app (:func:`rummy.server.http.app.create_app`).  ``/docs`` is
served only when asked for (``api_docs``), with a policy of its own for Swagger UI's CDN.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from fastapi.routing import APIRoute, iter_route_contexts

from rummy.server.http.app import create_app
from tests.server.conftest import LiveServer
from tests.server.test_security import check_security_headers

#: (method, path) → (the body's schema or None, the status and schema of the answer).
API: dict[tuple[str, str], tuple[str | None, int, str]] = {
    ("get", "/healthz"): (None, 200, "Health"),
    ("get", "/api/session"): (None, 200, "SessionAnswer"),
    ("post", "/api/session"): ("NewSession", 200, "SessionAnswer"),
    ("get", "/api/variants"): (None, 200, "VariantEntry[]"),
    ("get", "/api/bots"): (None, 200, "BotLevel[]"),
    ("post", "/api/tables"): ("NewTable", 201, "NewTableAnswer"),
    ("get", "/api/tables"): (None, 200, "MyTable[]"),
    ("get", "/api/tables/{table_id}"): (None, 200, "TableSummary"),
    ("get", "/api/tables/{table_id}/help"): (None, 200, "RulesHelp"),
    ("get", "/api/tables/{table_id}/arrange"): (None, 200, "ArrangedMeld | Refusal"),
    ("get", "/api/tables/{table_id}/layoffs"): (None, 200, "Layoffs | Refusal"),
    ("get", "/api/tables/{table_id}/shuffles/{round_text}"): (None, 200, "ShuffleCheck"),
    ("get", "/api/history"): (None, 200, "HistoryPage"),
    ("get", "/api/history/stats"): (None, 200, "HistoryStats"),
    ("post", "/api/identity/code"): ("object", 201, "IdentityCodeAnswer"),
    ("post", "/api/identity/redeem"): ("RedeemCode", 200, "SessionAnswer"),
    ("get", "/api/tables/{table_id}/record"): (None, 200, "object"),
    ("get", "/api/tables/{table_id}/replay"): (None, 200, "object"),
    ("post", "/api/replays"): ("RecordFile", 200, "object"),
}


def schema_name(schema: dict[str, Any]) -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[1]
    if "anyOf" in schema:
        return " | ".join(schema_name(option) for option in schema["anyOf"])
    if schema.get("type") == "array":
        return schema_name(schema["items"]) + "[]"
    return str(schema["type"])


def test_every_api_route_is_listed_with_its_body_and_answer() -> None:
    app = create_app("sqlite:///unused.db")
    document = app.openapi()
    listed = {(method, path) for path, operations in document["paths"].items() for method in operations}
    routes = {(method.lower(), route.path) for route in iter_route_contexts(app.routes)
              if isinstance(route.original_route, APIRoute) and route.include_in_schema for method in route.methods}
    assert listed == routes == set(API)  # a new route is added to API above, with its schemas
    schemas = document["components"]["schemas"]
    for (method, path), (body, status, answer) in API.items():
        operation = document["paths"][path][method]
        if body is None:
            assert "requestBody" not in operation, path
        else:
            assert schema_name(operation["requestBody"]["content"]["application/json"]["schema"]) == body, path
        assert schema_name(operation["responses"][str(status)]["content"]["application/json"]["schema"]) == answer
        for named in (body, *answer.split(" | ")):
            if named is not None and named != "object":
                assert named.removesuffix("[]") in schemas, named
        assert "422" not in operation["responses"], path  # no parameter is parsed by FastAPI
    assert schemas["NewTable"]["properties"]["variant"]["type"] == "string"
    assert schemas["NewSession"]["required"] == ["name"]
    assert schemas["ErrorAnswer"]["properties"]["error"]["$ref"].endswith("/ErrorDetail")
    assert document["paths"]["/api/tables"]["get"]["responses"]["401"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorAnswer"}


def test_the_document_is_served_and_the_docs_page_only_when_asked_for(
        live_server: LiveServer, server_factory: Callable[..., LiveServer]) -> None:
    answer = httpx.get(live_server.base_url + "/openapi.json")
    assert answer.status_code == 200 and "/api/tables" in answer.json()["paths"]
    check_security_headers(answer)
    absent = httpx.get(live_server.base_url + "/docs")
    assert absent.status_code == 404 and absent.json()["error"]["code"] == "not-found"

    page = httpx.get(server_factory(api_docs=True).base_url + "/docs")
    assert page.status_code == 200 and "/openapi.json" in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self' https://cdn.jsdelivr.net 'sha256-" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["x-content-type-options"] == "nosniff"
