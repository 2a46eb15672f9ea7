"""Every house rule in words: its group, a label, one sentence, and its values spelled out.

One source for the create-table panel (the server's variant catalogue) and ``rummy rules ID``.  Each key
of :data:`rummy.engine.house_rules.OPTION_PARSERS` has a :class:`RuleDoc`; ``applies`` says, from a variant's
data, whether the rule means anything there (a May-I limit means nothing in a game without buying).

>>> from rummy.engine import get_variant
>>> doc = RULE_DOCS["claim_limit"]
>>> doc.label, value_words("claim_limit", 3), value_words("claim_limit", None)
('Buys per hand', '3', 'unlimited')
>>> value_words("wild_ranks", ["JOKER", "2"]), value_words("ace_mode", "low_only")
('jokers and 2s', 'low only (A-2-3)')
>>> [row.key for row in rules_in_words(get_variant("basic"), "scoring")][:2]
['two_points', 'rummy_multiplier']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rummy.engine import GROUP, JOKER_RANK, OPTION_PARSERS, RANKS, JokerSwap, Scoring, Variant

#: The groups of the create-table panel and of ``rummy rules``, in order.
GROUPS: dict[str, str] = {
    "cards": "Cards and wilds",
    "deal": "Dealing, drawing and discarding",
    "melds": "Melds",
    "buying": "Buying",
    "going_out": "Going out",
    "scoring": "Scoring",
    "players": "Players",
}

Applies = Callable[[Variant], bool]


def _always(_: Variant) -> bool:
    return True


def _cards_game(v: Variant) -> bool:
    """Every variant that melds sets and runs (all but the book game)."""
    return v.scoring != "book"


def _contracts(v: Variant) -> bool:
    return v.has_contracts


def _wilds(v: Variant) -> bool:
    return bool(v.wild_ranks)


def _claims(v: Variant) -> bool:
    return v.claim_mode != "none"


def _scheduled(v: Variant) -> bool:
    return v.buy_schedule is not None


def _money(v: Variant) -> bool:
    return v.settlement_unit is not None or bool(v.settlement_table)


def _collects(v: Variant) -> bool:
    return v.scoring is Scoring.WINNER_COLLECTS


def _books(v: Variant) -> bool:
    return v.scoring is Scoring.BOOK


def _pair_slots(v: Variant) -> bool:
    return any(slot.kind == GROUP and slot.min_size == 2 for spec in v.rounds for slot in spec.contract)


def _last_round_without_discard(v: Variant) -> bool:
    return bool(v.rounds) and not v.rounds[-1].final_discard_allowed


@dataclass(frozen=True)
class RuleDoc:
    """The words of one house-rule key."""

    group: str
    label: str
    description: str
    words: Mapping[Any, str] = field(default_factory=dict)  # a value (choice, set member) in words
    null: str = "none"  # what null means
    applies: Applies = _always
    unit: str = ""  # after a number: "¢"


def _doc(group: str, label: str, description: str, applies: Applies = _always, null: str = "none",
         unit: str = "", **words: str) -> RuleDoc:
    return RuleDoc(group, label, description, dict(words), null, applies, unit)


_RANK_WORDS = {rank: ("aces" if rank == "A" else "10s" if rank == "T" else f"{rank}s") for rank in RANKS}

RULE_DOCS: dict[str, RuleDoc] = {
    # -- players ---------------------------------------------------------------------------------
    "players.min": _doc("players", "Fewest players", "The smallest number of seats a table may have."),
    "players.max": _doc("players", "Most players", "The largest number of seats a table may have."),
    # -- cards and wilds ---------------------------------------------------------------------------
    "decks": _doc("cards", "Decks", "How many 52-card decks are shuffled together.",
                  null="by the number of players (2 for 3–4, 3 for 5–6, 4 for 7–8)"),
    "jokers_per_deck": _doc("cards", "Jokers per deck", "Jokers added with each deck (jokers are always wild).",
                            _cards_game),
    "decks_for_5": _doc("cards", "Decks for five players", "Decks shuffled together when five people play.",
                        lambda v: v.decks is None),
    "wild_ranks": _doc("cards", "Wild cards", "Which cards are wild and may stand for any card in a meld.",
                       _cards_game, JOKER="jokers", **{"2": "2s"}),
    "twos_natural_in_place": _doc("cards", "A 2 in its own place is natural",
                                  "A wild 2 used as itself (a 2 in its own run or a set of 2s) counts as a "
                                  "natural card when wilds are counted.", lambda v: 2 in v.wild_ranks),
    "ace_mode": _doc("cards", "Aces in runs", "Where an ace may stand in a run; a run never wraps round "
                     "from king to ace to two.", _cards_game,
                     low_or_high="low or high (A-2-3 or Q-K-A)", low_only="low only (A-2-3)",
                     high_only="high only (Q-K-A)"),
    # -- dealing, drawing and discarding -----------------------------------------------------------------
    "first_dealer": _doc("deal", "First dealer", "Who deals the first round; the deal then passes left.",
                         random="chosen at random", high_card_draw="the highest card drawn",
                         first_seat="the first seat"),
    "deal_size": _doc("deal", "Cards dealt", "How many cards each player is dealt, in every round.",
                      null="the variant's own (per round or by players)"),
    "upcard": _doc("deal", "Turn up a first discard",
                   "After the deal the top card of the stock starts the discard pile."),
    "show_discard_history": _doc("deal", "Whole discard pile visible",
                                 "Everyone sees every card in the discard pile, not just the top one."),
    "may_discard_card_taken_from_discard": _doc(
        "deal", "May discard the card just taken",
        "A player who took the top discard may throw that same card away in the same turn.", _cards_game),
    "stock_refill": _doc("deal", "When the stock runs out",
                         "What happens when a card must be drawn from an empty stock.",
                         keep_top="shuffle the discards into a new stock (the top discard stays)",
                         whole_pile_once="turn the whole discard pile over as the stock, once",
                         none="no refill: take the top discard instead"),
    "depletion_check": _doc("deal", "When an empty stock is noticed",
                            "Whether the stock counts as run out at the start of a turn or as soon as "
                            "its last card is drawn.", _collects,
                            turn_start="at the start of a turn", on_last_card_drawn="when its last card is drawn"),
    "refill_keeps_top_discard": _doc("deal", "Refill keeps the top discard",
                                     "When the discard pile becomes the new stock, its top card stays behind "
                                     "as the discard pile.", _collects),
    # -- melds -----------------------------------------------------------------------------------------
    "run_min": _doc("melds", "Shortest run", "The fewest cards in any run laid on the table (contract runs "
                    "are raised to this length).", _cards_game),
    "group_min": _doc("melds", "Smallest set", "The fewest cards of one rank in a set.", _cards_game),
    "wild_policy": _doc("melds", "Wilds in a meld", "How many wild cards one meld may hold.", _wilds,
                        none="any number", not_outnumber="no more wilds than natural cards",
                        at_most_one="at most one wild"),
    "all_wild_melds": _doc("melds", "Melds of wilds only",
                           "A meld may be made of wild cards alone, saying what they stand for.", _wilds),
    "wild_group_min": _doc("melds", "Trio of wilds", "The fewest wild cards that may be laid as a set of "
                           "wilds on their own.", _wilds, null="not allowed"),
    "wild_group_counts_as_set": _doc("melds", "A trio of wilds fills a set",
                                     "A set made only of wilds counts as one of the contract's sets.", _wilds),
    "pair_wilds": _doc("melds", "Wilds in a pair", "A contract pair may contain wild cards.", _pair_slots),
    "pair_extendable": _doc("melds", "Pairs grow", "Cards may be laid off on a contract pair.", _pair_slots),
    "contract_oversize_melds": _doc("melds", "Longer contract melds",
                                    "The melds of a lay-down may have more cards than the contract asks.",
                                    _contracts),
    "contract_exact_sizes": _doc("melds", "Exact contract sizes",
                                 "Every contract meld must have exactly the size the contract names.", _contracts),
    "contract_extra_melds": _doc("melds", "Extra melds at the lay-down",
                                 "A lay-down may include more melds than the contract asks for.", _contracts),
    "new_melds_after_laydown": _doc("melds", "New melds after going down",
                                    "A player who is down may lay new melds on later turns.", _contracts),
    "max_new_melds_per_turn": _doc("melds", "New melds per turn", "How many new melds a player may lay in "
                                   "one turn.", _collects, null="unlimited"),
    "layoff_requires_down": _doc("melds", "Lay off only when down",
                                 "A player must have laid down before adding cards to melds on the table.",
                                 _cards_game),
    "layoff_timing": _doc("melds", "First lay-off", "When a player may first add cards to the melds on the "
                          "table.", _cards_game, next_turn="from the turn after going down",
                          same_turn="already in the turn of going down", always="at any time"),
    "rearrange_mode": _doc("melds", "Rearranging the table",
                           "Whether table melds may be rebuilt together with cards from the hand.", _contracts,
                           seed000="rebuild melds, playing at least one card from the hand",
                           unrestricted="rebuild melds freely", none="not allowed"),
    "rearrange_requires_table_card": _doc("melds", "Rebuilt melds keep a table card",
                                          "Every meld made by a rearrangement holds a card that was on the "
                                          "table before.", _contracts),
    "joker_swap": _doc("melds", "Taking a wild back", "What a player may do with a wild card on the table "
                       "by putting the natural card it stands for in its place.", _wilds,
                       to_hand="swap it: the wild goes to the hand", relocate_in_run="move it to an end of the run",
                       none="not allowed"),
    "joker_swap_in_groups": _doc("melds", "Swaps in sets",
                                 "A wild in a set may be swapped for any natural card of the set's rank.", _wilds),
    "joker_swap_timing": _doc("melds", "First swap", "When a player may first swap or move a wild.", _wilds,
                              next_turn="from the turn after going down",
                              same_turn="already in the turn of going down"),
    "stolen_joker_must_be_played": _doc("melds", "A swapped wild must be played",
                                        ("A wild taken from the table must be played again that turn, so it may only "
                                         "be taken when it can be."),
                                        _wilds),
    "wild_relocation_scope": _doc("melds", "Where a moved wild goes",
                                  "Where a wild goes when a natural card takes its place.",
                                  lambda v: v.joker_swap is JokerSwap.RELOCATE_IN_RUN,
                                  same_run="to an end of the same run", hand="to the player's hand"),
    "allow_same_rank_groups": _doc("melds", "Two sets of one rank",
                                   "One lay-down may hold two separate sets of the same rank.", _contracts),
    "allow_adjacent_runs": _doc("melds", "Runs side by side",
                                "One lay-down may hold two runs of one suit that could join up.", _contracts),
    "book_ace_mode": _doc("melds", "Aces in a book", "Where an ace may stand in a four-card sequence.",
                          _books, high_only="high only (J-Q-K-A)", low_or_high="low or high (A-2-3-4 or J-Q-K-A)"),
    # -- buying ---------------------------------------------------------------------------------------
    "claim_mode": _doc("buying", "When the discard may be bought",
                       "When players other than the one whose turn it is may claim the top discard.", _claims,
                       pre_draw="before every draw",
                       active_first_then_others="the player whose turn it is may buy it first, then the others",
                       after_decline="once the player whose turn it is passes it by", none="never"),
    "claim_priority": _doc("buying", "Who gets a wanted discard",
                           "Which caller gets the card when several want it.", _claims,
                           first_call="the first to call", rotation="the caller nearest the player in turn"),
    "active_first_refusal": _doc("buying", "The player in turn decides first",
                                 "Others may buy the discard only after the player whose turn it is has "
                                 "turned it down.", _claims),
    "claim_penalty_cards": _doc("buying", "Penalty cards per buy",
                                "Extra cards from the stock a buyer must take with the discard.",
                                lambda v: _claims(v) and not _scheduled(v)),
    "claim_cost": _doc("buying", "Price of a buy", "Pennies a buyer pays into the kitty for each buy.", _claims,
                       unit="¢"),
    "blind_card_cost": _doc("buying", "Price of a blind card",
                            "Pennies a buyer pays into the kitty for each blind card.", _scheduled, unit="¢"),
    "claim_limit": _doc("buying", "Buys per hand", "How many discards each player may buy in one hand.",
                        lambda v: _claims(v) and not _scheduled(v), null="unlimited"),
    "may_i_limit": _doc("buying", "May-I calls per hand",
                        "Another name for the buys per hand: how many May-I's each player has.",
                        lambda v: False, null="unlimited"),
    "claim_limit_scope": _doc("buying", "Buys counted per", "Whether the buying allowance is each player's "
                              "own or shared by the whole table.", _claims,
                              player="player", table="table (shared)"),
    "claims_per_window": _doc("buying", "Buys per discard",
                              "How many cards may be bought before the player in turn draws.", _claims,
                              **{"1": "one: after a buy the rest of the pile is dead", "cascade": "one after another"}),
    "after_claim_active_draw": _doc("buying", "Draw after a buy",
                                    "What the player in turn may draw once someone has bought.", _claims,
                                    stock_only="from the stock only",
                                    stock_or_new_top="the stock or the new top discard"),
    "claim_allowed_when_down": _doc("buying", "Players who are down may buy",
                                    "A player who has laid down may still buy discards.", _claims),
    "discarder_may_claim": _doc("buying", "The discarder may buy it back",
                                "The player who threw a card away may buy it back.", _claims),
    "buy_schedule": _doc("buying", "Buying by hand", "For each hand, how many buys each player has and how many "
                         "blind cards come with each buy.", _scheduled),
    "trade_requires_value_rule": _doc("buying", "Trades follow the value rule",
                                      "Trading purchase cards obeys the same value rule as buying.", _books),
    "ace_purchasable_by": _doc("buying", "What buys an ace", "Which purchase cards may buy an ace.", _books,
                               **_RANK_WORDS),
    "pc_discard_position": _doc("buying", "Where the old purchase card goes",
                                "Where a spent purchase card lands in the discard pile.", _books,
                                in_place="in the bought card's place", top="on top of the pile"),
    # -- going out ---------------------------------------------------------------------------------------
    "going_out_mode": _doc("going_out", "Going out", "How a player may empty the hand.", _cards_game,
                           discard_or_meld="by a discard or by playing the last card",
                           meld_only="only by playing every card to the table",
                           must_discard="only with a final discard", book="by tabling a book"),
    "final_discard_allowed": _doc("going_out", "Going out with a discard",
                                  "A player may go out by discarding the last card (in every round).",
                                  _cards_game, null="as each round says"),
    "round8_mode": _doc("going_out", "The last round", "How the last round's \"no discard at the end\" is read.",
                        _last_round_without_discard,
                        no_final_discard="no final discard: go out by playing the last card",
                        must_go_out_on_laydown="the lay-down must use every card",
                        keep_one_for_discard="play all cards but one, then discard it"),
    "exhaustion_scoring": _doc("going_out", "When nobody can go out",
                               "How a hand that ends because the cards ran out is scored.", _cards_game,
                               penalty="everyone counts the cards left", void="the hand does not count"),
    "stalemate_detection": _doc("going_out", "Stop a hopeless hand",
                                "A hand that can no longer be won ends as a stalemate.", _collects),
    "max_turns": _doc("going_out", "Turn limit", "After this many turns the game ends as a draw.", _books,
                      null="no limit"),
    "washout_laps": _doc("going_out", "Dead hand", "A hand ends as if the cards ran out once nobody has put "
                         "a card on the table for this many times round the table.", _always,
                         null="never"),
    # -- scoring -----------------------------------------------------------------------------------------
    "two_points": _doc("scoring", "Points for a 2", "What a 2 left in a hand counts.", _cards_game),
    "rummy_multiplier": _doc("scoring", "Going rummy multiplies",
                             "The winner's points are multiplied by this when they went out in one turn "
                             "without having melded before.", _collects),
    "target_by_players": _doc("scoring", "Target score", "The total that wins the game, by number of players.",
                              _collects),
    "tie_break": _doc("scoring", "Equal totals", "How players with the same final total are ranked.",
                      shared="they share the place", last_round="the latest round that split them decides"),
    "settlement_unit": _doc("scoring", "Pennies per place",
                            "In the settlement each place down the ranking pays this many pennies more.", _money,
                            unit="¢"),
    "settlement_table": _doc("scoring", "Payments by place",
                             "Fixed payments for each finishing place, instead of pennies per place.", _money),
    "kitty_split": _doc("scoring", "The kitty goes to", "Who collects the pennies paid for buys.", _money,
                        winner_all="the winner", two_thirds_one_third="two thirds to the winner, one third "
                        "to second place"),
    "match_target": _doc("scoring", "Games to win the match", "How many games a player must win to win the "
                         "match.", _books),
}


def option_value(key: str, value: Any) -> Any:
    """A variant attribute as the JSON value its house-rule key takes (``wild_ranks`` → ``["JOKER", "2"]``)."""
    if key == "wild_ranks":
        return ["JOKER" if rank == JOKER_RANK else str(rank) for rank in sorted(value)]
    if key == "ace_purchasable_by":
        return [RANKS[rank - 1] for rank in sorted(value)]
    if key in ("target_by_players", "settlement_table"):
        return {str(players): list(v) if isinstance(v, tuple) else v for players, v in value}
    if key == "buy_schedule":
        return None if value is None else [list(pair) for pair in value]
    if key == "claims_per_window":
        return 1 if value == "1" else value
    return value


def variant_value(variant: Variant, key: str) -> Any:
    """The JSON value of ``key`` in ``variant``."""
    attribute, _ = OPTION_PARSERS[key]
    return option_value(key, getattr(variant, attribute))


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _schedule_words(schedule: list[list[int]]) -> str:
    """``hands 9–11: 1 buy; hands 12–13: 2 buys, 1 blind card each; …; other hands: none``."""
    spans: list[tuple[int, int, tuple[int, int]]] = []
    for hand, (buys, blind) in enumerate(schedule, start=1):
        if spans and spans[-1][2] == (buys, blind) and spans[-1][1] == hand - 1:
            spans[-1] = (spans[-1][0], hand, (buys, blind))
        else:
            spans.append((hand, hand, (buys, blind)))
    parts = []
    for first, last, (buys, blind) in spans:
        if not buys:
            continue
        hands = f"hand {first}" if first == last else f"hands {first}–{last}"
        text = f"{hands}: {buys} buy{'s' if buys != 1 else ''}"
        if blind:
            text += f", {blind} blind card{'s' if blind != 1 else ''} each"
        parts.append(text)
    return "; ".join(parts) + ("; other hands: none" if parts else "no buying")


def value_words(key: str, value: Any) -> str:
    """A house-rule value (as JSON) in words."""
    doc = RULE_DOCS[key]
    if value is None:
        return doc.null
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key == "buy_schedule":
        return _schedule_words(value)
    if key == "target_by_players":
        return ", ".join(f"{target} for {players} players" for players, target in value.items())
    if key == "settlement_table":
        if not value:
            return "by the pennies per place"
        return "; ".join(f"{players} players: {', '.join(str(p) for p in pays)}" for players, pays in value.items())
    if isinstance(value, list):
        return _join([doc.words.get(item, str(item)) for item in value]) if value else doc.null
    if str(value) in doc.words:
        return doc.words[str(value)]
    return f"{value}{doc.unit}"


@dataclass(frozen=True)
class RuleRow:
    """One house rule of one variant, in words."""

    key: str
    group: str
    label: str
    description: str
    value: Any
    words: str


def rules_in_words(variant: Variant, group: str | None = None) -> list[RuleRow]:
    """The house rules that mean something in ``variant`` (of ``group``, or all), in panel order."""
    rows = []
    for key, doc in RULE_DOCS.items():
        if (group is None or doc.group == group) and doc.applies(variant):
            value = variant_value(variant, key)
            rows.append(RuleRow(key, doc.group, doc.label, doc.description, value, value_words(key, value)))
    return rows


def choice_words(key: str) -> list[dict[str, Any]]:
    """The choices of a ``choice`` or ``set`` control as ``[{"value", "label"}]``."""
    control = OPTION_PARSERS[key][1].control
    doc = RULE_DOCS[key]
    return [{"value": value, "label": doc.words.get(str(value), str(value))} for value in control.get("choices", [])]
