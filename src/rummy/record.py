"""Game records (``rummy-record/1``): load, validate, dump, replay, and the STATE/RESULTS JSON.

>>> rec = loads('{"format": "rummy-record/1", "variant": "basic", "players": ["A", "B"], "rounds": []}')
>>> dumps(rec) == '{"format": "rummy-record/1", "variant": "basic", "players": ["A", "B"], "rounds": []}'
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummy.engine import (
    Action,
    Card,
    DealError,
    Game,
    IllegalActionError,
    Phase,
    RecordError,
    RecordSyntaxError,
    RummyError,
    ShuffleSecret,
    Variant,
    apply_options,
    card_name,
    card_names,
    get_variant,
    meld_json,
    parse_action,
    parse_card,
)
from rummy.shuffle_check import ROUND_KEY, ShuffleClaim, check_round, claim_data, read_claim

FORMAT = "rummy-record/1"
TOP_KEYS = ("format", "variant", "options", "players", "start", "rounds", "seed")
ROUND_KEYS = ("dealer", "hands", "upcard", "stock", "purchase_cards", "actions")


@dataclass
class RoundRecord:
    """One round of a record: the deal as written and the action lines."""

    dealer: int
    hands: list[list[Card]]
    upcard: Card | None
    actions: list[str]
    stock: list[Card] | None = None
    purchase_cards: list[Card] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    has_upcard_key: bool = True


@dataclass
class Record:
    """A whole record; optional fields are None when absent, so a dump writes what was read."""

    variant: str
    players: list[str]
    rounds: list[RoundRecord]
    options: dict[str, Any] | None = None
    start: dict[str, Any] | None = None
    seed: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    key_order: list[str] = field(default_factory=list)


# -- loading --------------------------------------------------------------------------------


def _cards(value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list of cards")
    try:
        return [parse_card(_text(item, where)) for item in value]
    except RecordSyntaxError as error:
        raise RecordError(f"{where}: {error}") from None


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: {value!r} is not a string")
    return value


def _int(value: Any, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise RecordError(f"{where} must be an integer ≥ {low}, not {value!r}")
    return value


def _check_keys(data: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> dict[str, Any]:
    extra = {}
    for key in data:
        if key.startswith("x-"):
            extra[key] = data[key]
        elif key not in allowed:
            raise RecordError(f"unknown key {key!r} in {where}")
    return extra


def from_data(data: Any) -> Record:
    """Build a :class:`Record` from parsed JSON, checking its shape (not yet the rules)."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    extra = _check_keys(data, TOP_KEYS, "the record")
    for key in ("format", "variant", "players", "rounds"):
        if key not in data:
            raise RecordError(f"missing key {key!r}")
    if data["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data['format']!r}")
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    options = data.get("options")
    if options is not None and not isinstance(options, dict):
        raise RecordError("options must be an object")
    start = data.get("start")
    if start is not None:
        if not isinstance(start, dict):
            raise RecordError("start must be an object")
        _check_keys(start, ("round", "totals", "kitty"), "start")
        _int(start.get("round", 1), "start.round", 1)
        _int(start.get("kitty", 0), "start.kitty")
        totals = start.get("totals")
        if totals is not None and (
            not isinstance(totals, list) or len(totals) != len(players)
            or any(isinstance(t, bool) or not isinstance(t, int) for t in totals)
        ):
            raise RecordError("start.totals must list one integer per player")
    seed = data.get("seed")
    if seed is not None:
        _int(seed, "seed")
    if not isinstance(data["rounds"], list):
        raise RecordError("rounds must be a list")
    rounds = [_round_from_data(r, i + 1) for i, r in enumerate(data["rounds"])]
    return Record(
        variant=_text(data["variant"], "variant"),
        players=list(players),
        rounds=rounds,
        options=options,
        start=start,
        seed=seed,
        extra=extra,
        key_order=[k for k in data],
    )


def _round_from_data(data: Any, number: int) -> RoundRecord:
    where = f"rounds[{number - 1}]"
    if not isinstance(data, dict):
        raise RecordError(f"{where} must be an object")
    extra = _check_keys(data, ROUND_KEYS, where)
    for key in ("dealer", "hands", "actions"):
        if key not in data:
            raise RecordError(f"{where}: missing key {key!r}")
    if not isinstance(data["hands"], list):
        raise RecordError(f"{where}.hands must be a list of hands")
    hands = [_cards(h, f"{where}.hands[{i}]") for i, h in enumerate(data["hands"])]
    upcard = data.get("upcard")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError(f"{where}.actions must be a list of strings")
    return RoundRecord(
        dealer=_int(data["dealer"], f"{where}.dealer"),
        hands=hands,
        upcard=None if upcard is None else _cards([upcard], f"{where}.upcard")[0],
        actions=[_text(a, f"{where}.actions") for a in actions],
        stock=None if data.get("stock") is None else _cards(data["stock"], f"{where}.stock"),
        purchase_cards=None if data.get("purchase_cards") is None
        else _cards(data["purchase_cards"], f"{where}.purchase_cards"),
        extra=extra,
        has_upcard_key="upcard" in data,
    )


def loads(text: str) -> Record:
    """Parse a record from JSON text; raises :class:`RecordError` when malformed."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RecordError(f"not valid JSON: {error}") from None
    return from_data(data)


def load(path: str | Path) -> Record:
    """Read a record file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read {str(path)!r}: {error}") from None
    return loads(text)


# -- dumping --------------------------------------------------------------------------------


def to_data(record: Record) -> dict[str, Any]:
    """The JSON object of ``record`` (canonical card spelling, optional keys as read)."""
    data: dict[str, Any] = {"format": FORMAT, "variant": record.variant}
    if record.options is not None:
        data["options"] = record.options
    data["players"] = record.players
    if record.start is not None:
        data["start"] = record.start
    if record.seed is not None:
        data["seed"] = record.seed
    data["rounds"] = [_round_to_data(r) for r in record.rounds]
    data.update(record.extra)
    if record.key_order:
        order = {key: i for i, key in enumerate(record.key_order)}
        data = dict(sorted(data.items(), key=lambda item: order.get(item[0], len(order))))
    return data


def _round_to_data(rnd: RoundRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"dealer": rnd.dealer, "hands": [card_names(h) for h in rnd.hands]}
    if rnd.upcard is not None or rnd.has_upcard_key:
        data["upcard"] = None if rnd.upcard is None else card_name(rnd.upcard)
    if rnd.stock is not None:
        data["stock"] = card_names(rnd.stock)
    if rnd.purchase_cards is not None:
        data["purchase_cards"] = card_names(rnd.purchase_cards)
    data["actions"] = list(rnd.actions)
    data.update(rnd.extra)
    return data


def dumps(record: Record, *, indent: int | None = None) -> str:
    """JSON text of ``record``."""
    return json.dumps(to_data(record), indent=indent, ensure_ascii=False)


def record_of(game: Game) -> Record:
    """The record of everything ``game`` has dealt and played so far."""
    rounds = []
    for index, deal in enumerate(game.deals):
        first = game.round_starts[index]
        last = game.round_starts[index + 1] if index + 1 < len(game.deals) else len(game.log)
        rounds.append(RoundRecord(
            dealer=deal["dealer"],
            hands=deal["hands"],
            upcard=deal["upcard"],
            stock=deal["stock"],
            purchase_cards=deal["purchase_cards"],
            actions=[str(a) for a in game.log[first:last]],
            # The seed and salt of a round are written only once it is over (docs/fair-shuffle.md).
            extra={} if deal.get("shuffle") is None
            else {ROUND_KEY: claim_data(deal["shuffle"], revealed=index < len(game.results))},
        ))
    options = {k: v for k, v in game.variant.options if not k.startswith("__")}
    start: dict[str, Any] | None = None
    if game.start_round != 1 or any(game.start_totals) or game.start_kitty:
        start = {"round": game.start_round, "totals": game.start_totals, "kitty": game.start_kitty}
    return Record(
        variant=game.variant.id,
        players=list(game.players),
        rounds=rounds,
        options=options or None,
        start=start,
        seed=game.seed,
    )


# -- replay ---------------------------------------------------------------------------------


@dataclass
class ReplayResult:
    """The outcome of :func:`replay`; ``to_json()`` is ``rummy replay --json``'s object."""

    ok: bool
    exit_code: int
    game: Game | None = None
    error: dict[str, Any] | None = None
    #: The verdict on each round's shuffle dealt so far (:func:`rummy.shuffle_check.check_round`).
    shuffles: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        if self.exit_code == 2:
            return {"ok": False, "error": self.error}
        assert self.game is not None
        if self.error is None:
            return {"ok": self.ok, "state": state_json(self.game), "results": results_json(self.game),
                    "shuffles": self.shuffles}
        data = {"ok": False, "error": self.error, "state": state_json(self.game), "shuffles": self.shuffles}
        if "index" not in self.error:  # a mismatched shuffle: every action was legal
            data["results"] = results_json(self.game)
        return data


def prepare(record: Record, variant: Variant | None = None) -> tuple[Game, list[list[Action]]]:
    """Check everything but the rules of the actions; return the game and parsed actions."""
    if variant is None:
        variant = get_variant(record.variant, record.options)
    elif record.variant != variant.id:
        raise RecordError(f"the record is for {record.variant!r}, the variant file defines {variant.id!r}")
    elif record.options:
        variant = apply_options(variant, record.options)
    start = record.start or {}
    try:
        game = Game(
            variant,
            record.players,
            seed=record.seed or 0,
            start_round=start.get("round", 1),
            totals=start.get("totals"),
            kitty=start.get("kitty", 0),
        )
    except DealError as error:
        raise RecordError(str(error)) from None
    n = len(record.players)
    if variant.round_count is not None and game.round_number + len(record.rounds) > variant.round_count:
        raise RecordError(f"{variant.id} has {variant.round_count} rounds; the record plays past them")
    parsed = []
    for index, rnd in enumerate(record.rounds):
        number = game.round_number + index + 1
        if index and rnd.dealer != (record.rounds[index - 1].dealer + 1) % n:
            raise RecordError(f"round {number}: dealer must be seat {(record.rounds[index - 1].dealer + 1) % n}")
        if not 0 <= rnd.dealer < n:
            raise RecordError(f"round {number}: dealer {rnd.dealer} out of range")
        try:
            parsed.append([parse_action(text, n) for text in rnd.actions])
        except RecordSyntaxError as error:
            raise RecordError(f"round {number}: {error}") from None
        probe = Game(variant, record.players, seed=record.seed or 0, start_round=number)
        try:
            probe.deal(dealer=rnd.dealer, hands=rnd.hands, upcard=rnd.upcard, stock=rnd.stock,
                       purchase_cards=rnd.purchase_cards)
        except DealError as error:
            raise RecordError(str(error)) from None
    return game, parsed


#: Called after each deal (with None) and after each applied action (with the action), for callers that
#: follow a replay step by step (the server's replay viewer).
StepObserver = Callable[[Game, Action | None], None]


def replay(record: Record, variant: Variant | None = None, *, on_step: StepObserver | None = None) -> ReplayResult:
    """Replay ``record`` action by action; stop at the first illegal action."""
    try:
        game, parsed = prepare(record, variant)
    except RummyError as error:
        return ReplayResult(False, 2, error={"message": str(error)})
    shuffles: list[dict[str, Any]] = []
    for index, rnd in enumerate(record.rounds):
        if game.phase is Phase.GAME_OVER:
            message = f"round {game.round_number + 1} follows the end of the game"
            return ReplayResult(False, 2, error={"message": message})
        if game.phase is not Phase.ROUND_OVER:
            return ReplayResult(
                False, 2, error={"message": f"round {game.round_number} is unfinished but another round follows"}
            )
        claim = _shuffle_claim(rnd)
        before = game.copy()
        game.deal(dealer=rnd.dealer, hands=rnd.hands, upcard=rnd.upcard, stock=rnd.stock,
                  purchase_cards=rnd.purchase_cards, shuffle=claim.secret if claim is not None else None)
        shuffles.append(check_round(before, game, claim, game.round_number))
        if on_step is not None:
            on_step(game, None)
        for position, action in enumerate(parsed[index]):
            try:
                game.apply(action)
            except IllegalActionError as error:
                return ReplayResult(False, 1, game, error={
                    "round": game.round_number,
                    "index": position,
                    "action": rnd.actions[position],
                    "rule": error.rule.value,
                    "message": str(error),
                }, shuffles=shuffles)
            if on_step is not None:
                on_step(game, action)
    mismatched = next((s for s in shuffles if s["status"] == "mismatched"), None)
    if mismatched is not None:
        return ReplayResult(False, 1, game, error={
            "round": mismatched["round"], "shuffle": "mismatched",
            "message": f"round {mismatched['round']}: the shuffle does not verify: {mismatched['reason']}",
        }, shuffles=shuffles)
    return ReplayResult(True, 0, game, shuffles=shuffles)


def _shuffle_claim(rnd: RoundRecord) -> ShuffleClaim | None:
    return read_claim(rnd.extra[ROUND_KEY]) if ROUND_KEY in rnd.extra else None


def revealed_shuffle(rnd: RoundRecord) -> ShuffleSecret | None:
    """The secret the round was dealt from, when the record reveals it (its reshuffles are seeded by it)."""
    claim = _shuffle_claim(rnd)
    return claim.secret if claim is not None else None


def replay_file(path: str | Path, variant: Variant | None = None) -> ReplayResult:
    """Load and replay a record file; a malformed file gives exit code 2."""
    try:
        record = load(path)
    except RecordError as error:
        return ReplayResult(False, 2, error={"message": str(error)})
    return replay(record, variant)


# -- STATE and RESULTS ----------------------------------------------------------------------


def state_json(game: Game) -> dict[str, Any]:
    """STATE of the record format, docs/game-record.md §5."""
    pcs = game.purchase_cards
    return {
        "round": max(game.round_number, 1),
        "phase": game.phase.value,
        "active": game.active if game.active >= 0 else None,
        "dealer": game.dealer if game.dealer >= 0 else None,
        "to_act": game.to_act,
        "hands": [card_names(game.hand(seat)) for seat in range(game.n)],
        "table": [meld_json(m, game.variant) for m in game.table],
        "discard": card_names(game.discard),
        "stock_count": len(game.stock),
        "down": list(game.down),
        "claims_used": list(game.claims_used),
        "purchase_cards": card_names(pcs) if pcs is not None else None,
        "totals": list(game.totals),
        "kitty": game.kitty,
    }


def results_json(game: Game) -> dict[str, Any]:
    """RESULTS of the record format, docs/game-record.md §5."""
    data: dict[str, Any] = {
        "rounds": [
            {"round": r.round, "went_out": r.went_out, "scores": list(r.scores), "end": r.end}
            for r in game.results
        ],
        "totals": list(game.totals),
        "game_over": game.game_over,
    }
    if game.game_over:
        data["winners"] = game.winners()
        data["ranking"] = game.ranking()
        if game.variant.settlement_payments(game.n) is not None:
            data["settlement"] = [
                {"seat": s.seat, "position": s.position, "payment": str(s.payment),
                 "kitty": str(s.kitty), "net": str(s.net)}
                for s in game.settlement()
            ]
    return data
