"""Request bodies: strict JSON of at most :data:`MAX_BODY_BYTES`, sent as ``application/json``, then
checked by the domain and validated into a :mod:`~rummy.server.http.models` model.

FastAPI does not parse these bodies itself: its parser takes what strict JSON refuses (a key twice, a
number past ±2**53, a lone surrogate) and answers 422 in its own shape.  A route takes a body as a
dependency, ``body: Annotated[NewTable, Depends(json_body(NewTable))]``, and names its model with
``openapi_extra=body_schema(NewTable)`` so the OpenAPI document shows it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import Request
from pydantic import ValidationError
from starlette.requests import ClientDisconnect

from rummy.server.http.models import Body
from rummy.server.strict_json import StrictJSONError, loads
from rummy.server.tables.catalog import RequestError

MAX_BODY_BYTES = 65_536

B = TypeVar("B", bound=Body)


async def read_limited(request: Request, limit: int, refuse: Callable[[str, str], Exception],
                       what: str = "the body", went_away: str = "bad-request") -> bytes:
    """The request's body, sent as ``Content-Type: application/json`` (no HTML form can send it across
    sites) and at most ``limit`` bytes, or ``refuse(code, sentence)`` raised: ``unsupported-media-type``,
    ``too-large`` (at once when the declared length says so: never wait for, or hold, a body that will be
    refused), or ``went_away`` when the client left before sending it all."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise refuse("unsupported-media-type",
                     f"send {what} as Content-Type: application/json, not {media_type or 'none'!r}")
    too_large = refuse("too-large", f"{what} is larger than {limit} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > limit:
        raise too_large
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise too_large
    except ClientDisconnect:
        raise refuse(went_away, f"the client went away before sending {what}") from None
    return bytes(body)


async def read_json(request: Request) -> Any:
    """The request's JSON body (:func:`read_limited`, at most :data:`MAX_BODY_BYTES`), strict JSON; an
    empty body is ``{}``."""
    body = await read_limited(request, MAX_BODY_BYTES, RequestError)
    try:
        return loads(body or b"{}")
    except StrictJSONError as error:
        raise RequestError("bad-request", f"the body is not accepted: {error}") from None


def json_body(model: type[B]) -> Callable[[Request], Awaitable[B]]:
    """A dependency giving the request's body as ``model``: read, checked by the domain, validated."""

    async def body(request: Request) -> B:
        data = await read_json(request)
        model.check(data)
        try:
            return model.model_validate(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "the body"
            raise RequestError(model.refusal, f"{where}: {first['msg']}") from None

    return body


def body_schema(model: type[Any], description: str | None = None) -> dict[str, Any]:
    """The ``openapi_extra`` naming ``model`` as the route's JSON body (listed by the app's OpenAPI)."""
    content = {"application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}
    request_body: dict[str, Any] = {"required": True, "content": content}
    if description:
        request_body["description"] = description
    return {"requestBody": request_body}
