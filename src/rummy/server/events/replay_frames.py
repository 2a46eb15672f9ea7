"""A game record replayed for the browser's replay viewer: one frame per step, worked out by the engine.

:func:`build_replay` replays a ``rummy-record/1`` record with :func:`rummy.record.replay` and keeps,
after each deal and after each action, what the viewer shows: either every hand face up (``seat``
None) or one seat's view (:func:`rummy.engine.view.player_view`: its own hand, hand sizes for the others,
every hand only once a round is over), the public table, the scores so far and the move-log
sentences (:mod:`rummy.server.events.describe`).  The browser only draws these frames; no rule is worked
out in JavaScript.

Frames are sent as differences: the first frame whole, then for each step only the fields whose value
changed (a field is never removed), so a game of a thousand actions stays small.

Step ids are ``r{round}.a{move}``: ``r3.a0`` is round 3 as dealt, ``r3.a17`` the state after the
17th action of round 3 (moves count from 1, as the viewer numbers them).

>>> from rummy.engine import new_game
>>> from rummy.record import record_of
>>> game = new_game("basic", ["Ann", "Bob"], seed=5)
>>> _ = game.apply(game.legal_actions()[0])
>>> replay = build_replay(record_of(game), seat=1)
>>> [step["id"] for step in replay["steps"]], replay["stopped"]
(['r1.a0', 'r1.a1'], None)
>>> "hands" in replay["frames"][0], len(replay["frames"][0]["hand"]) == len(game.hand(1))
(False, True)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from rummy.engine import Action, Game, Verb, card_names, player_view
from rummy.record import Record, replay, results_json
from rummy.server.events.describe import Before, card_text, describe_action, describe_deal

FORMAT = "rummy-replay/1"
#: Fields of a seat's view the viewer has no use for (it plays nothing) or that the replay states once.
DROPPED = ("seat", "variant", "players", "legal_actions")
NAME_MAX = 64
#: Embeddings, overrides and isolates (Unicode's bidirectional algorithm): a name may not reorder the words
#: around it. Marks (LRM, RLM) and joiners (the emoji ZWJ) are harmless and allowed.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class ReplayRefused(Exception):
    """A record the viewer will not replay: ``code`` (``bad-record``, ``too-large``) and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class ReplayLimits:
    """How much of a record one replay may work through (an uploaded record is anybody's)."""

    max_actions: int = 10_000
    max_rounds: int = 200


def check_size(record: Record, limits: ReplayLimits) -> None:
    """Refuse a record too long to replay, or whose player names cannot be shown as they are."""
    if len(record.rounds) > limits.max_rounds:
        raise ReplayRefused("too-large", f"the record has {len(record.rounds)} rounds; "
                                         f"the viewer replays at most {limits.max_rounds}")
    actions = sum(len(rnd.actions) for rnd in record.rounds)
    if actions > limits.max_actions:
        raise ReplayRefused("too-large", f"the record has {actions} actions; "
                                         f"the viewer replays at most {limits.max_actions}")
    for seat, name in enumerate(record.players):
        if not name.strip() or len(name) > NAME_MAX:
            raise ReplayRefused("bad-record", f"player {seat}'s name must be 1–{NAME_MAX} characters")
        if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name):
            raise ReplayRefused("bad-record", f"player {seat}'s name holds a control character")
        if any(ch in BIDI_CONTROLS for ch in name):  # it would turn the text after it around in every sentence
            raise ReplayRefused("bad-record", f"player {seat}'s name holds a bidirectional control character")


class _Collector:
    """Follows a replay (:data:`rummy.record.StepObserver`) and keeps each step's frame as a difference."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.steps: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self._last: dict[str, Any] = {}
        self._move = 0
        self._before: Before | None = None
        self._sheet: list[dict[str, Any]] = []
        self._results_seen = -1
        self._hands: dict[int, tuple[tuple[int, ...], list[str]]] = {}

    def __call__(self, game: Game, action: Action | None) -> None:
        if action is None:
            self._move = 0
            events = describe_deal(game)
            if not self.steps:
                events = [f"{', '.join(game.players)} play {game.variant.name}", *events]
        else:
            self._move += 1
            assert self._before is not None
            events = describe_action(self._before, game, action) or [_silent(self._before, game, action)]
        self._before = Before.of(game)
        self.steps.append({
            "id": f"r{game.round_number}.a{self._move}",
            "round": game.round_number,
            "move": self._move,
            "action": str(action) if action is not None else None,
            "events": events,
        })
        frame = self._frame(game)
        self.frames.append({key: value for key, value in frame.items() if self._last.get(key, ...) != value})
        self._last = frame

    def _hand(self, game: Game, seat: int) -> list[str]:
        """A hand's card names, worked out again only when its counts changed (most steps change one)."""
        counts = tuple(game.hands[seat])
        known = self._hands.get(seat)
        if known is None or known[0] != counts:
            known = (counts, card_names(game.hand(seat)))
            self._hands[seat] = known
        return known[1]

    def _frame(self, game: Game) -> dict[str, Any]:
        view = player_view(game, self.seat, with_actions=False).to_json()
        for key in DROPPED:
            view.pop(key)
        if self.seat is None:
            view.pop("hand")
            view["hands"] = [self._hand(game, seat) for seat in range(game.n)]
        if len(game.results) != self._results_seen:
            self._results_seen = len(game.results)
            self._sheet = results_json(game)["rounds"]
        view["score_sheet"] = self._sheet
        return view


def _silent(before: Before, game: Game, action: Action) -> str:
    """Words for an action the table's move log keeps quiet about: a pass on a claim, naming the card
    let go (``Ann passed on the 7♥``)."""
    name = game.players[action.seat]
    if action.verb is not Verb.PASS:
        return f"{name}: {action}"
    card = before.window_card if before.window_card is not None else before.top_discard
    return f"{name} passed on the {card_text(card)}" if card is not None else f"{name} passed"


def build_replay(record: Record, seat: int | None = None, limits: ReplayLimits | None = None) -> dict[str, Any]:
    """The viewer's replay of ``record``: every hand face up (``seat`` None) or ``seat``'s view.

    Raises :class:`ReplayRefused` when the record is malformed (what ``rummy replay`` exits 2 for) or
    too large; an illegal action ends the steps there and is described under ``stopped`` (the
    engine's message, as ``rummy replay --json`` gives it), the last frame being the state before it.
    """
    check_size(record, limits or ReplayLimits())
    if seat is not None and not 0 <= seat < len(record.players):
        raise ReplayRefused("bad-seat", f"there is no seat {seat} in this record "
                                        f"(seats 0–{len(record.players) - 1})")
    collector = _Collector(seat)
    result = replay(record, on_step=collector)
    if result.exit_code == 2:
        assert result.error is not None
        raise ReplayRefused("bad-record", str(result.error["message"]))
    assert result.game is not None
    game = result.game
    stopped = None
    if result.error is not None:
        stopped = {**result.error, "step": len(collector.steps) - 1}
    return {
        "format": FORMAT,
        "variant": game.variant.id,
        "variant_name": game.variant.name,
        "options": record.options or {},
        "players": list(game.players),
        "seat": seat,
        "steps": collector.steps,
        "frames": collector.frames,
        "results": results_json(game),
        "stopped": stopped,
    }
