"""The listing's "legal by construction" shortcuts, checked against their references when asked.

The candidate-move listing (:mod:`rummy.engine.moves`) skips the rule check for moves it built to be legal, and
works some rule facts out a second, faster way.  Each such shortcut names its reference (the function that
decides the rule, and the rules.md section); ``RUMMY_CHECK_SHORTCUTS=1`` in the environment, read once at
import into :data:`CHECK_SHORTCUTS`, makes the listing run the references beside the shortcuts and raise
:class:`AssertionError`, with the state needed to reproduce, where they disagree.  Off, each hook costs one
boolean test.  The table of shortcuts is in docs/engine.md ("Shortcuts and their references").

What is checked, at every listing:

* every listed action (deferred ones worked out) passes :func:`rummy.engine.rules.check`, the path ``apply``
  takes: lay-offs, swaps, rearrangements and lay-downs listed without a full judgement included;
* the families listed exhaustively are exactly the legal ones: discards (each card held), lay-offs (each card
  held on each meld at each end :func:`~rummy.engine.melds.lay_off` takes), wild swaps to the hand (each
  natural held on each meld :func:`~rummy.engine.melds.swap_wild` takes) and wild relocations (each natural held
  on each run holding a wild, at each end);
* the lay-down listed for a player not yet down is the solver's best under the round's rules
  (:func:`rummy.engine.solver.find_lay_down`), when that is legal, and none else; and the listing's cheap answer
  to "can this hand lay down at all" (witnesses, refutations, :func:`~rummy.engine.contract_bound.short_of_wilds`)
  is :func:`rummy.engine.solver.first_lay_down`'s;
* per meld: the lay-off table (:func:`~rummy.engine.meld_offers.accepted_layoffs`, memoised per shape) is every
  (card, end) ``lay_off`` takes, and the split points are every natural at which the run could split;
* per spare-card rearrangement on offer (:class:`rummy.engine.deadlock.SpareBuilds`): its validity judged from
  counts (``SpareBuild.valid``) is that of its melds built by :func:`~rummy.engine.melds.table_meld`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import rummy.engine.rules as rules
from rummy.engine.actions import Action, Verb
from rummy.engine.candidates import CandidateMoves, Deferred
from rummy.engine.cards import CARD_COUNT, Card, card_names
from rummy.engine.errors import IllegalActionError, MeldError
from rummy.engine.meld_offers import accepted_layoffs, layoffs_among, split_points
from rummy.engine.melds import MeldSpec, TableMeld, swap_wild, table_meld
from rummy.engine.modes import JokerSwap, RearrangeMode, WildRelocationScope
from rummy.engine.solver import find_lay_down, first_lay_down
from rummy.engine.state import GameState, Phase
from rummy.engine.table_offers import table_offers
from rummy.engine.variants import Variant

#: Whether the listing runs the references beside its shortcuts (``RUMMY_CHECK_SHORTCUTS=1``, read once).
CHECK_SHORTCUTS = os.environ.get("RUMMY_CHECK_SHORTCUTS") == "1"


def describe(game: GameState, seat: int | None = None) -> str:
    """The state a disagreement is found in, enough to rebuild it: the game's variant, options, seed and
    actions so far, and the position itself."""
    variant = game.variant
    seat = game.active if seat is None else seat
    table = "; ".join(f"{meld.id}:{meld.kind} {' '.join(card_names(meld.cards))}" for meld in game.table)
    return (f"[{variant.id} options={dict(variant.options)} seed={game.seed} players={len(game.players)}, round "
            f"{game.round_number}, action {len(game.log)} ({game.phase.value}), p{seat} holds "
            f"{' '.join(card_names(_cards(game.hands[seat])))}; down={game.down} stolen_pending={game.stolen_pending} "
            f"taken={game.taken_card}; table: {table or '(empty)'}; last actions: "
            f"{'; '.join(str(action) for action in game.log[-4:]) or '(none)'}]")


def disagree(game: GameState, shortcut: str, reference: str, what: str, seat: int | None = None) -> AssertionError:
    """The error that reports ``shortcut`` disagreeing with ``reference`` about ``what`` in ``game``."""
    return AssertionError(f"shortcut {shortcut} disagrees with {reference}: {what} {describe(game, seat)}")


def check_listing(game: GameState, moves: CandidateMoves) -> None:
    """Run the references beside ``moves``, the listing of the active player in the play phase of ``game`` (the
    phase every shortcut belongs to; see the module docstring); raise :class:`AssertionError` on a
    disagreement.  The deferred entries are worked out on the side: the listing itself stays as it was."""
    listed = [entry.work_out() if isinstance(entry, Deferred) else entry for entry in moves.entries()]
    for action in listed:
        try:
            rules.check(game, action)
        except IllegalActionError as error:
            raise disagree(game, "legal_actions (legal by construction)", "rules.check", f"listed {action}: {error}",
                           action.seat) from None
    if game.phase is Phase.PLAY:
        _check_play_listing(game, listed)


def check_lay_down_answer(game: GameState, able: bool) -> None:
    """Check the listing's cheap answer ``able`` to whether the active player's hand can lay the round's
    contract down at all (:func:`rummy.engine.lay_down.can_lay_down_now`) against the solver's search."""
    hand = game.hands[game.active]
    if able != (first_lay_down(hand, game.rules.contract, game.variant) is not None):
        raise disagree(game, "lay_down.can_lay_down_now (witnesses, refutations, short_of_wilds)",
                       "solver.first_lay_down (rules.md §2.5)", f"the cheap answer was {able}")


def _check_play_listing(game: GameState, listed: list[Action]) -> None:
    seat = game.active
    hand = game.hands[seat]
    variant = game.variant
    by_verb: dict[Verb, list[Action]] = {}
    for action in listed:
        by_verb.setdefault(action.verb, []).append(action)
    discards = [Action(seat, Verb.DISCARD, card=card) for card in _kinds(hand)]
    _same(game, "moves._discards", "rules.discard.discard_error (rules.md §2.10)", by_verb.get(Verb.DISCARD, []),
          [action for action in discards if _legal(game, action)])
    if variant.uses_books:
        return
    _check_table_plays(game, by_verb)
    if variant.has_contracts and not game.down[seat]:
        _check_lay_down(game, by_verb.get(Verb.DOWN, []))
    if variant.rearrange_mode is not RearrangeMode.NONE and game.table:
        _check_spare_builds(game)


def _check_table_plays(game: GameState, by_verb: dict[Verb, list[Action]]) -> None:
    """The lay-offs and joker swaps listed are the legal ones (each table meld checked first)."""
    seat = game.active
    hand = game.hands[seat]
    variant = game.variant
    for meld in game.table:
        _check_meld(game, meld)
    layoffs = [Action(seat, Verb.LAYOFF, card=card, meld=meld.id, end=end) for meld in game.table
               for card, end in accepted_layoffs(meld, variant) if hand[card]]  # checked per meld above
    _same(game, "moves._play_actions lay-offs (table offers, completability by hand size)",
          "rules.table.step_layoff and check_completable (rules.md §2.6, §2.10, §3.8)",
          by_verb.get(Verb.LAYOFF, []), [action for action in layoffs if _legal(game, action)])
    if variant.joker_swap is JokerSwap.TO_HAND:
        swaps = {Action(seat, Verb.SWAP, card=card, meld=meld.id) for meld in game.table if meld.wilds
                 for card in _kinds(hand) if not variant.is_wild(card) and _swaps(meld, card, variant)}
        listed_swaps = by_verb.get(Verb.SWAP, [])
        _same(game, "moves._play_actions swaps (_wild_can_be_played_back)",
              "rules.table.step_swap and check_completable (rules.md §3.8)",
              sorted(listed_swaps, key=str), sorted((a for a in swaps if _legal(game, a)), key=str))
    if variant.joker_swap is JokerSwap.RELOCATE_IN_RUN:
        ends = (None,) if variant.wild_relocation_scope is WildRelocationScope.HAND else ("low", "high")
        relocations = [Action(seat, Verb.MOVE, card=card, meld=meld.id, end=end) for meld in game.table
                       if meld.is_run and meld.wilds for card in _kinds(hand) if not variant.is_wild(card)
                       for end in ends]
        _same(game, "moves._list_swaps relocations (swap_options, completability by hand size)",
              "rules.table.step_move and check_completable (rules.md §3.8, §2.10)",
              sorted(by_verb.get(Verb.MOVE, []), key=str), sorted((a for a in relocations if _legal(game, a)), key=str))


def _check_spare_builds(game: GameState) -> None:
    """Each rearrangement the table offers is judged valid exactly when its melds are (rules.md §2.4)."""
    hand = game.hands[game.active]
    variant = game.variant
    offers = table_offers(game.table, variant)
    for build in offers.spare_builds(hand, _kinds(hand)):
        valid = all(_valid(spec, variant) for spec in build.melds())
        if build.valid != valid:
            raise disagree(game, "SpareBuild.valid (counts)", "melds.table_meld (rules.md §2.4)",
                           f"rearrangement of {build.sources} into {build.melds()} judged valid={build.valid}")


def _check_lay_down(game: GameState, listed: list[Action]) -> None:
    """The lay-down listed is the solver's best under the round's rules, when it is legal (rules.md §2.5)."""
    rules_now = game.rules
    melds = find_lay_down(game.hands[game.active], rules_now.contract, game.variant,
                          final_discard_allowed=rules_now.final_discard_allowed,
                          must_use_all=rules_now.must_go_out_on_laydown)
    expected = [] if melds is None else [Action(game.active, Verb.DOWN, melds=melds)]
    _same(game, "moves._lay_down (lay_down.deferrable, can_lay_down_now)",
          "solver.find_lay_down and rules.table.step_down (rules.md §2.5, §2.10)",
          listed, [action for action in expected if _legal(game, action)])


# id of a meld -> the meld (kept alive, so the id is not reused), once its offers were checked.
_CHECKED_MELDS: dict[tuple[int, int], tuple[TableMeld, Variant]] = {}


def _check_meld(game: GameState, meld: TableMeld) -> None:
    """A meld's lay-off table and split points against trying every card (once per meld object)."""
    variant = game.variant
    key = (id(meld), id(variant))
    hit = _CHECKED_MELDS.get(key)
    if hit is not None and hit[0] is meld and hit[1] is variant:
        return
    if list(accepted_layoffs(meld, variant)) != every_layoff(meld, variant):
        raise disagree(game, "meld_offers.accepted_layoffs (memoised per shape)", "melds.lay_off (rules.md §2.6)",
                       f"meld {meld.id} takes {every_layoff(meld, variant)}, the table says "
                       f"{list(accepted_layoffs(meld, variant))}")
    points = [(meld.position_card(i), i) for i in range(variant.run_min - 1, len(meld.cards) - variant.run_min + 1)
              if not variant.is_wild(meld.position_card(i))] if meld.is_run else []
    if list(split_points(meld, variant)) != points:
        raise disagree(game, "meld_offers.split_points (memoised per shape)", "rules.md §3.8 (a split point)",
                       f"meld {meld.id} splits at {points}, the table says {list(split_points(meld, variant))}")
    if len(_CHECKED_MELDS) > 100_000:
        _CHECKED_MELDS.clear()
    _CHECKED_MELDS[key] = (meld, variant)


def every_layoff(meld: TableMeld, variant: Variant) -> list[tuple[Card, str | None]]:
    """Every (card kind, end) :func:`~rummy.engine.melds.lay_off` takes on ``meld``, found by trying every card
    at every end :func:`~rummy.engine.melds.layoff_ends` names (the reference of the lay-off table, which
    tries only the cards its candidates name)."""
    return layoffs_among(range(CARD_COUNT), meld, variant)


def _swaps(meld: TableMeld, card: Card, variant: Variant) -> bool:
    try:
        swap_wild(meld, card, variant, in_groups=variant.joker_swap_in_groups)
    except MeldError:
        return False
    return True


def _valid(spec: MeldSpec, variant: Variant) -> bool:
    try:
        table_meld(spec, variant, 0, 0)
    except MeldError:
        return False
    return True


def _legal(game: GameState, action: Action) -> bool:
    try:
        rules.check(game, action)
    except IllegalActionError:
        return False
    return True


def _same(game: GameState, shortcut: str, reference: str, listed: list[Action], expected: list[Action]) -> None:
    if listed != expected:
        missing = [str(a) for a in expected if a not in listed]
        extra = [str(a) for a in listed if a not in expected]
        raise disagree(game, shortcut, reference, f"listed {[str(a) for a in listed]}, the reference gives "
                       f"{[str(a) for a in expected]} (missing {missing}, extra {extra})")


def _kinds(hand: Sequence[int]) -> list[Card]:
    return [card for card in range(CARD_COUNT) if hand[card]]


def _cards(hand: Sequence[int]) -> list[Card]:
    return [card for card in range(CARD_COUNT) for _ in range(hand[card])]
