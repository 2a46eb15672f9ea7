"""The rules as pure checks and applies, per phase.

:func:`verify` judges an action against the state and raises :class:`~rummy.engine.errors.IllegalActionError`
without changing anything; what it worked out on the way (the table after a play, the book laid) comes
back as a plan that :func:`perform` then writes into the state.  Checking and applying share that one
path, so they cannot disagree.
"""

from __future__ import annotations

import rummy.engine.backends as backends
from rummy.engine.actions import Action, Verb
from rummy.engine.cards import card_name
from rummy.engine.deadlock import is_deadlocked, is_stalemate
from rummy.engine.errors import IllegalActionError
from rummy.engine.melds import TableMeld
from rummy.engine.modes import (
    AfterClaimActiveDraw,
    ClaimLimitScope,
    ClaimMode,
    ClaimPriority,
    ClaimsPerWindow,
    DepletionCheck,
    PcDiscardPosition,
    RoundEnd,
    StockRefill,
)
from rummy.engine.rules.discard import check_discard, discard
from rummy.engine.rules.draw import draw, draw_error, own_buy, take
from rummy.engine.rules.form import form_error
from rummy.engine.rules.purchase import book, check_book, check_purchase_step, purchase_step
from rummy.engine.rules.round_end import end_round
from rummy.engine.rules.stock import deplete, draw_from_stock
from rummy.engine.rules.table import TurnScratch, check_table_play, commit
from rummy.engine.rules.window import answer, check_answer, close_implied
from rummy.engine.state import ClaimWindow, GameState, Phase

#: What :func:`verify` worked out for :func:`perform`: the table after a play, the book laid, or nothing.
Plan = TurnScratch | TableMeld | None

_PURCHASE_VERBS = frozenset((Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE))

# Members compared on every action, read once here: in Python 3.11 reading a member off its Enum class goes
# through ``EnumType.__getattr__`` and costs several times a module global.
_CLAIM, _DRAW = Phase.CLAIM, Phase.DRAW
_OVER = frozenset((Phase.ROUND_OVER, Phase.GAME_OVER))
_BUY, _PASS, _DRAW_VERB, _TAKE, _DISCARD, _BOOK = Verb.BUY, Verb.PASS, Verb.DRAW, Verb.TAKE, Verb.DISCARD, Verb.BOOK
_CLAIM_ANSWERS = frozenset((Verb.BUY, Verb.PASS))
_DRAW_VERBS = frozenset((Verb.DRAW, Verb.TAKE, Verb.BUY))
#: What the compiled :func:`verify` of the simple actions (``simple_check``, ``_native_src/simple_check.c``) compares.
SIMPLE_KIT = (Phase.CLAIM, Phase.DRAW, Phase.PLAY, Verb.BUY, Verb.PASS, Verb.DRAW, Verb.TAKE, Verb.DISCARD,
              StockRefill.KEEP_TOP, AfterClaimActiveDraw.STOCK_ONLY, Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE)
#: What the compiled apply of the simple actions (``simple_apply``, ``_native_src/simple_steps.c``, and its listing of
#: the draw phase, ``draw_actions``) compares and calls back: the members it reads, then the steps it leaves to Python
#: (a round's end and the tests that end it after a discard, the stock's refill, making a claim window), then the
#: judgement's kit.
APPLY_KIT = (Phase.CLAIM, Phase.DRAW, Phase.PLAY, Verb.BUY, Verb.PASS, Verb.DRAW, Verb.TAKE, Verb.DISCARD,
             StockRefill.KEEP_TOP, StockRefill.WHOLE_PILE_ONCE, StockRefill.NONE, DepletionCheck.TURN_START,
             DepletionCheck.ON_LAST_CARD_DRAWN, ClaimMode.PRE_DRAW, ClaimMode.AFTER_DECLINE,
             ClaimMode.ACTIVE_FIRST_THEN_OTHERS, ClaimLimitScope.TABLE, ClaimPriority.FIRST_CALL,
             ClaimsPerWindow.CASCADE, AfterClaimActiveDraw.STOCK_ONLY,
             RoundEnd.OUT, RoundEnd.STALEMATE, RoundEnd.EXHAUSTED, Verb.PURCHASE, Verb.TRADE, Verb.EXCHANGE,
             PcDiscardPosition.IN_PLACE,
             end_round, is_stalemate, is_deadlocked, deplete, draw_from_stock, ClaimWindow, SIMPLE_KIT)


def implies_closing_window(state: GameState, action: Action) -> bool:
    """Whether ``action`` is the active player acting while a claim window is open (every silent seat passes)."""
    return state.phase is _CLAIM and action.seat == state.active and action.verb not in _CLAIM_ANSWERS


def check(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalActionError` if ``action`` is illegal now, its message placed in the game (round
    and turn); never changes ``state``."""
    native = backends.NATIVE
    if native is not None and native.simple_check(state, action, SIMPLE_KIT):
        return  # a simple action the compiled judgement accepts (a refusal is judged below, which says why)
    try:
        verify(_judged_on(state, action), action)
    except IllegalActionError as error:
        raise error.at(f"round {state.round_number}, turn {sum(state.own_turns)}") from None


def is_legal(state: GameState, action: Action) -> bool:
    """Whether :func:`check` accepts ``action`` (the same judgement; a refusal is not placed in the game)."""
    native = backends.NATIVE
    if native is not None:
        verdict: bool | None = native.simple_check(state, action, SIMPLE_KIT)
        if verdict is not None:
            return verdict
    try:
        verify(_judged_on(state, action), action)
    except IllegalActionError:
        return False
    return True


def apply(state: GameState, action: Action) -> None:
    """Check and apply ``action``; on an :class:`IllegalActionError` nothing changed."""
    native = backends.NATIVE
    if native is not None and native.simple_apply(state, action, APPLY_KIT):
        return  # a simple action the compiled judgement accepts, applied by the compiled core as below
    if implies_closing_window(state, action):
        check(state, action)
        close_implied(state)
        plan = verify(state, action)  # the judgement check made on a copy, now on the state itself
    else:
        try:
            plan = verify(state, action)
        except IllegalActionError as error:
            raise error.at(f"round {state.round_number}, turn {sum(state.own_turns)}") from None
    perform(state, action, plan)
    state.log.append(action)


def _judged_on(state: GameState, action: Action) -> GameState:
    """The state ``action`` is judged against: ``state``, or a copy with the claim window closed when the action
    closes it (the window's resolution moves cards first)."""
    if implies_closing_window(state, action):
        trial = state.copy()
        close_implied(trial)
        return trial
    return state


def verify(state: GameState, action: Action) -> Plan:
    """Judge ``action`` against ``state`` as it is: raise :class:`IllegalActionError`, or return the plan
    :func:`perform` needs.  Changes nothing."""
    phase = state.phase
    verb = action.verb
    malformed = form_error(action, len(state.players))
    if malformed is not None:
        raise IllegalActionError(malformed[0], action, malformed[1])
    if phase in _OVER:
        what = "game" if phase is Phase.GAME_OVER else "round"
        raise IllegalActionError("round-over", action, f"the {what} is over")
    if phase is _CLAIM:
        window = state.window
        assert window is not None
        if verb not in _CLAIM_ANSWERS:
            raise IllegalActionError("wrong-phase", action, f"a claim window on {card_name(window.card)} is open")
        check_answer(state, window, action)
        return None
    if verb is _PASS or (verb is _BUY and action.seat != state.active):
        if action.seat == state.active:
            raise IllegalActionError("not-eligible", action, "the active player cannot pass a claim")
        raise IllegalActionError("not-eligible", action, "no claim window is open")
    if action.seat != state.active:
        raise IllegalActionError("wrong-seat", action, f"it is p{state.active}'s turn")
    if phase is _DRAW:
        if verb not in _DRAW_VERBS:
            raise IllegalActionError("draw-first", action, f"p{state.active} must draw first")
        error = draw_error(state, verb)
        if error is not None:
            raise IllegalActionError(error[0], action, error[1])
        return None
    if verb in _DRAW_VERBS:
        raise IllegalActionError("already-drew", action, f"p{state.active} has already drawn this turn")
    if verb is _DISCARD:
        check_discard(state, action)
        return None
    if verb in _PURCHASE_VERBS:
        check_purchase_step(state, action)
        return None
    if verb is _BOOK:
        return check_book(state, action)
    return check_table_play(state, action)


def perform(state: GameState, action: Action, plan: Plan) -> None:
    """Apply an action :func:`verify` accepted, with the plan it returned."""
    verb = action.verb
    if state.phase is _CLAIM:
        assert state.window is not None
        answer(state, state.window, action)
    elif verb is _DRAW_VERB:
        draw(state)
    elif verb is _TAKE:
        take(state)
    elif verb is _BUY:
        own_buy(state)
    elif verb is _DISCARD:
        discard(state, action)
    elif verb in _PURCHASE_VERBS:
        purchase_step(state, action)
    elif isinstance(plan, TableMeld):
        book(state, plan)
    else:
        assert isinstance(plan, TurnScratch)
        commit(state, plan)
        if plan.size == 0:
            end_round(state, RoundEnd.OUT, state.active)
