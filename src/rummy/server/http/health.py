"""``GET /healthz``: the process answers (for load balancers and ``rummy serve`` scripts)."""

from __future__ import annotations

from fastapi import APIRouter

from rummy.server.http.models import Health

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health)
async def health() -> dict[str, bool]:
    return {"ok": True}
