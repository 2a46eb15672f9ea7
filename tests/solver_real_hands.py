"""Real hands for the contract solver's regression test, and the program that collects them.

The hands come from real games: uniformly random legal play (hands grow large), the project's steered
random player and heuristic bots, in every contract variant with house-rule mixes (wild policies, exact
sizes, no final discard, twos natural in place, …).  For each hand of a player not yet down, in the play
phase, the file keeps the hand, the round's contract and flags, and the solver's best lay-down
(:func:`rummy.engine.solver.find_lay_down`) under the round's flags and under the other flag pairs.  The test in
``tests/test_solver.py`` checks that the solver still gives exactly these answers, the tie-break included:
bots and the engine's candidate list depend on it.

Regenerate (only when a change of answer is intended):
``PYTHONPATH=src python3 tests/solver_real_hands.py tests/solver_real_hands.json.gz``.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rummy.bots import decide, make_bot
from rummy.engine.cards import card_name, parse_card, to_counts
from rummy.engine.errors import RummyError
from rummy.engine.game import Game, Phase, new_game
from rummy.engine.house_rules import get_variant
from rummy.engine.solver import find_lay_down
from rummy.engine.variants import Slot
from tests.random_games import random_play

DATA = Path(__file__).with_name("solver_real_hands.json.gz")

# (variant, house rules) of the tables played; the second entry of each variant changes the solver's rules.
TABLES: list[tuple[str, dict[str, Any]]] = [
    ("progressive-buy-it", {}),
    ("progressive-buy-it", {"final_discard_allowed": False}),
    ("progressive-buy-it", {"allow_adjacent_runs": False, "allow_same_rank_groups": False}),
    ("progressive-buy-it", {"wild_policy": "not_outnumber", "all_wild_melds": False}),
    ("progressive-buy-it", {"contract_exact_sizes": True}),
    ("progressive-buy-it", {"ace_mode": "low_only", "wild_ranks": ["joker", 2]}),
    ("progressive-15", {}),
    ("progressive-15", {"twos_natural_in_place": True}),
    ("progressive-15", {"pair_wilds": False, "wild_policy": "at_most_one"}),
    ("progressive-15", {"final_discard_allowed": False, "allow_adjacent_runs": False}),
    ("may-i", {}),
    ("may-i", {"wild_policy": "none", "all_wild_melds": True}),
    ("may-i", {"final_discard_allowed": False, "ace_mode": "high_only"}),
    ("may-i", {"contract_oversize_melds": False}),
]
FLAG_PAIRS = [(True, False), (False, False), (True, True)]  # (final_discard_allowed, must_use_all)
PLAYERS = ("uniform", "steered", "heuristic")


def encode_lay_down(lay_down: Any) -> list[str] | None:
    return None if lay_down is None else [str(meld) for meld in lay_down]


def hand_text(hand: list[int]) -> str:
    return " ".join(card_name(card) for card in range(len(hand)) for _ in range(hand[card]))


def hand_counts(text: str) -> list[int]:
    return to_counts(parse_card(name) for name in text.split())


def contract_text(contract: tuple[Slot, ...]) -> list[list[Any]]:
    return [[slot.kind, slot.min_size] for slot in contract]


def _games(variant_id: str, options: dict[str, Any], player: str, seed: int, cap: int) -> Iterator[Game]:
    """The states of one game (cut at ``cap`` decisions) where someone is to act."""
    game = new_game(variant_id, 4, seed=seed, options=options)
    bots = [make_bot("heuristic", seed=seed * 10 + seat) for seat in range(4)]
    policy = (lambda turn: decide(game, turn.seat, bots[turn.seat])) if player == "heuristic" else player
    for _ in random_play(game, random.Random(seed), policy=policy, decisions=cap):
        yield game


def collect(per_table: int, seed: int = 0) -> list[dict[str, Any]]:
    """Up to ``per_table`` distinct solver cases per (table, player), sampled from the states of real games."""
    cases: list[dict[str, Any]] = []
    pick = random.Random(seed)
    for variant_id, options in TABLES:
        variant = get_variant(variant_id, options)
        for player in PLAYERS:
            seen: set[tuple[Any, ...]] = set()
            kept = {True: 0, False: 0}  # cases that can lay down, and (a quarter as many) that cannot
            quota = {True: per_table, False: per_table // 4}
            # Uniform games are long (hands grow to 50 cards and more): sample them thinly, to the end.
            cap, share = (3000, 0.04) if player == "uniform" else (3000, 0.5)
            for game_seed in range(60):
                if kept[True] >= quota[True]:
                    break
                try:
                    for game in _games(variant_id, options, player, game_seed, cap):
                        if kept[True] >= quota[True]:
                            break
                        if game.phase is not Phase.PLAY or pick.random() > share:
                            continue
                        rules = game.rules
                        for seat in range(game.n):
                            hand = list(game.hands[seat])
                            key = (tuple(hand), rules.contract, rules.final_discard_allowed,
                                   rules.must_go_out_on_laydown)
                            if game.down[seat] or key in seen:
                                continue
                            seen.add(key)
                            flags = [(rules.final_discard_allowed, rules.must_go_out_on_laydown)]
                            flags += [pair for pair in FLAG_PAIRS if pair != flags[0]]
                            answers = [[fd, mu, encode_lay_down(find_lay_down(
                                hand, rules.contract, variant, final_discard_allowed=fd, must_use_all=mu))]
                                for fd, mu in flags]
                            found = answers[0][2] is not None or answers[1][2] is not None
                            if kept[found] >= quota[found]:
                                continue
                            kept[found] += 1
                            cases.append({"variant": variant_id, "options": options, "player": player,
                                          "contract": contract_text(rules.contract), "hand": hand_text(hand),
                                          "answers": answers})
                except RummyError as error:  # a house-rule mix this engine refuses: say so, play on
                    print(f"{variant_id} {options} {player} seed {game_seed}: {error}", file=sys.stderr)
    return cases


def load(path: Path = DATA) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as file:
        data: list[dict[str, Any]] = json.load(file)
    return data


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DATA
    per_table = int(sys.argv[2]) if len(sys.argv) > 2 else 80
    cases = collect(per_table)
    with gzip.open(path, "wt", encoding="utf-8") as file:
        json.dump(cases, file, separators=(",", ":"))
    found = sum(1 for case in cases if case["answers"][0][2] is not None)
    print(f"{len(cases)} cases ({found} can lay down under the round's flags) written to {path}")


if __name__ == "__main__":
    main()
