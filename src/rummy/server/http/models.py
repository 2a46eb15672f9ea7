"""The JSON the HTTP API takes and gives, as Pydantic models: what ``/openapi.json`` (and ``/docs``) show.

A request body is read as strict JSON first (:mod:`rummy.server.http.bodies`), then checked by the
domain's own check (:meth:`Body.check`: the stable error codes of docs/protocol.md, ``bad-name``,
``bad-variant`` …), and only then validated into its model.  An answer model names the fields a client
may rely on; a field the server adds later passes through (``extra="allow"``) until it is named here.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator

from rummy.server.sessions import NAME_MAX, clean_name
from rummy.server.tables.catalog import RequestError, TableConfig

# -- errors ---------------------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    code: str = Field(description="a stable code, e.g. no-session, not-found, bad-variant, rate-limited")
    message: str = Field(description="a sentence for people")


class ErrorAnswer(BaseModel):
    """Every HTTP error: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route that may answer these error statuses."""
    return {status: {"model": ErrorAnswer} for status in statuses}


# -- bodies ---------------------------------------------------------------------------------------


class Body(BaseModel):
    """A request body.  :meth:`check` runs the domain's check on the parsed JSON first, so a refusal
    names what the domain names (its code and sentence), whatever the model would have said."""

    model_config = ConfigDict(extra="forbid")
    #: What a body that is no JSON object, or fails the model after the domain's check, is refused as.
    refusal: ClassVar[str] = "bad-request"

    @classmethod
    def check(cls, data: Any) -> None:
        """Raise :class:`~rummy.server.tables.catalog.RequestError` for a body the domain refuses."""
        if not isinstance(data, dict):
            raise RequestError(cls.refusal, "the body must be a JSON object")


class NewSession(Body):
    """``POST /api/session``: the display name (any other field is ignored)."""

    model_config = ConfigDict(extra="ignore")
    refusal: ClassVar[str] = "bad-name"
    name: str = Field(description=f"1–{NAME_MAX} printable characters; runs of spaces become one")

    @classmethod
    def check(cls, data: Any) -> None:
        try:
            clean_name(data.get("name") if isinstance(data, dict) else None)
        except ValueError as error:
            raise RequestError("bad-name", str(error)) from None

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str) -> str:
        return clean_name(value)


class NewTable(Body):
    """``POST /api/tables``: the table to make (checked by :meth:`TableConfig.from_request`)."""

    variant: str = Field(description="a variant id of GET /api/variants")
    seats: int | None = Field(None, description="players, the host included (the variant's default when left out)")
    options: dict[str, Any] | None = Field(None, description="house rules by key (GET /api/variants lists them)")
    bots: dict[str, str] | None = Field(None, description='bot levels by seat, e.g. {"2": "easy"} (seat 0 is the host)')
    turn_seconds: float | None = Field(None, description="the turn timer (0: none)")
    claim_seconds: float | None = Field(None, description="how long a discard may be claimed")
    bot_takeover: bool | None = Field(None, description="a bot plays a seat whose player is gone (default true)")
    round_pause: float | None = Field(None, description="the pause between rounds unless everyone is ready")

    @classmethod
    def check(cls, data: Any) -> None:
        TableConfig.from_request(data)

    @field_validator("options", "bots", mode="before")
    @classmethod
    def _none_when_false(cls, value: Any) -> Any:
        return value or None  # as the domain's check: any false value ([], 0, "") is none given

    def config(self) -> TableConfig:
        return TableConfig.from_request(self.model_dump(exclude_unset=True))


class RedeemCode(Body):
    """``POST /api/identity/redeem``: a one-time code from another browser."""

    # Any JSON value is looked up (and counted as a wrong code when it is none): the schema says string.
    code: Annotated[Any, WithJsonSchema({"type": "string", "examples": ["ABCD-EFGH-JKLM-NPQR"]})]

    @classmethod
    def check(cls, data: Any) -> None:
        if not isinstance(data, dict) or set(data) != {"code"}:
            raise RequestError("bad-request", 'the body must be {"code": "XXXX-XXXX-XXXX-XXXX"}')


class RecordFile(BaseModel):
    """``POST /api/replays``: a ``rummy-record/1`` file (docs/replay-viewer.md), checked by the record format."""

    model_config = ConfigDict(extra="allow")
    format: str = Field(examples=["rummy-record/1"])
    variant: str
    players: list[str]
    rounds: list[dict[str, Any]]
    options: dict[str, Any] | None = None


#: Bodies whose schemas are listed in the OpenAPI document (they are not parsed by FastAPI).
BODIES: tuple[type[BaseModel], ...] = (NewSession, NewTable, RedeemCode, RecordFile)


# -- answers --------------------------------------------------------------------------------------


class Answer(BaseModel):
    model_config = ConfigDict(extra="allow")


class Health(Answer):
    ok: bool


class SessionAnswer(Answer):
    """Who the session cookie says the caller is (both null on a first visit)."""

    player_id: str | None
    name: str | None


class BotLevel(Answer):
    level: str
    bot: str = Field(description="the bot behind the level")
    available: bool = Field(description="false when the level falls back to another bot on this server")


class HelpSection(Answer):
    title: str
    lines: list[str]


class RulesHelp(Answer):
    """How to play a variant with its house rules, in words."""

    variant: str
    name: str
    sections: list[HelpSection]
    glossary: dict[str, str]


class OptionGroup(Answer):
    id: str
    title: str


class VariantEntry(Answer):
    id: str
    name: str
    players: list[int] = Field(description="[fewest, most]")
    rounds: int | None = Field(description="a fixed number of rounds, or null (played to a score)")
    blurb: str
    help: RulesHelp
    groups: list[OptionGroup]
    options: list[dict[str, Any]] = Field(description="the house rules a table may set: key, words, default, control")


class NewTableAnswer(Answer):
    table_id: str
    invite_url: str
    #: On a cluster: the route of the worker the table is placed on (open its socket with ?worker=).
    worker: str | None = None


class MyTable(Answer):
    table_id: str
    variant: str
    status: str
    seat: int
    players: list[str | None] = Field(description="the names at the table's seats, null for an open seat")
    last_move_at: str = Field(description="when the table last changed (ISO 8601, UTC)")
    turn: str | None = Field(description="your turn, Bob's turn, between rounds, waiting for players; "
                                         "null where no server holds the table in memory")
    worker: str | None = Field(default=None, description="on a cluster: the route of the worker running the "
                                                         "table (open its socket with ?worker=)")


class SeatSummary(Answer):
    seat: int
    name: str | None
    kind: str = Field(description="open, human or bot")
    level: str | None
    connected: bool
    bot_playing: bool
    ready: bool
    skip_claims: Any


class TableSummary(Answer):
    """A table's seats, status and settings, its score sheet, and the result once the game is over."""

    id: str
    variant: str
    variant_name: str
    options: dict[str, Any]
    status: str
    paused: bool
    host: int
    invite_url: str
    game: int
    seats: list[SeatSummary]
    claim_seconds: float
    turn_seconds: float
    bot_takeover: bool
    score_sheet: list[Any]
    totals: Any
    winners: Any
    ranking: Any
    settlement: Any
    shuffles: list[Any]


class HistoryPage(Answer):
    games: list[dict[str, Any]] = Field(description="finished games, newest first (docs/history.md)")
    total: int
    pending: int = Field(description="tables not counted yet")


class HistoryStats(Answer):
    variants: list[dict[str, Any]] = Field(description="per variant: games, won, average score, best game …")
    pending: int


class IdentityCodeAnswer(Answer):
    code: str
    link: str
    expires_at: str
    expires_in: int = Field(description="seconds")


class ShuffleCheck(Answer):
    """A round's fair-deal check: ``pending`` (the commitment only) while it is played, then the reveal."""

    table: str
    game: int
    round: int
    status: str


class ArrangedMeld(Answer):
    """Picked cards as a meld in the engine's order (:func:`rummy.engine.arrange_json`)."""

    spec: str = Field(examples=["run:3D-JK-5D"])
    kind: str
    cards: list[str]
    stands_for: list[str] | None = Field(alias="as", description="the card each one stands for; null for a set "
                                         "of wilds whose rank the table leaves open (may-i)")
    wild: list[bool] = Field(description="which cards play as wilds")


class RefusalDetail(BaseModel):
    rule: str = Field(description="the engine's rule, e.g. run-not-consecutive")
    message: str


class Refusal(Answer):
    """Cards the rules refuse: a question answered (status 200), not an error."""

    refused: RefusalDetail


class Layoffs(Answer):
    layoffs: list[str] = Field(description="the lay-offs in an order that fits, to send as one batch")


#: The documented answer of a route that sends a JSON file or gzipped JSON itself.
def json_file(description: str) -> dict[int | str, dict[str, Any]]:
    return {200: {"description": description, "content": {"application/json": {"schema": {"type": "object"}}}}}
