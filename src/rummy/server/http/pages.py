"""The front end's pages: every one is ``static/index.html`` (the script draws the page the path names),
but the deal-check page, ``static/verify.html``.  None of them is part of the API (nor of ``/docs``)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response

STATIC_DIR = Path(__file__).parent.parent / "static"
VERIFY_PAGE = STATIC_DIR / "verify.html"

router = APIRouter(include_in_schema=False)


def front_end() -> Response:
    index = STATIC_DIR / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html")
    return HTMLResponse("<!doctype html><title>Rummy</title><p>The front end is not installed.", status_code=503)


@router.get("/")
async def lobby_page() -> Response:
    return front_end()


@router.get("/table/{table_id}")
async def table_page(table_id: str) -> Response:
    return front_end()


@router.get("/history")
async def history_page() -> Response:
    return front_end()


@router.get("/transfer")
async def transfer_page() -> Response:
    return front_end()


@router.get("/replay")
async def upload_page() -> Response:
    return front_end()


@router.get("/replay/{table_id}")
async def table_replay_page(table_id: str) -> Response:
    return front_end()


@router.get("/table/{table_id}/verify/{round_text}")
async def verify_page(table_id: str, round_text: str) -> Response:
    return FileResponse(VERIFY_PAGE, media_type="text/html")
