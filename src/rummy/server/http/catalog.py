"""What a table can be: ``GET /api/variants`` (every variant, how to play it, the house rules a table
may set) and ``GET /api/bots`` (the bot levels and whether this server runs each)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from rummy.bots import LEVELS
from rummy.server.http.models import BotLevel, VariantEntry
from rummy.server.tables.bot_runner import bot_name, playable_level
from rummy.server.tables.catalog import variant_catalog

router = APIRouter(prefix="/api", tags=["catalog"])


@router.get("/variants", response_model=list[VariantEntry])
async def variants() -> list[dict[str, Any]]:
    return variant_catalog()


@router.get("/bots", response_model=list[BotLevel])
async def bot_levels() -> list[dict[str, Any]]:
    return [{"level": level, "bot": bot_name(level), "available": playable_level(level) == level} for level in LEVELS]
