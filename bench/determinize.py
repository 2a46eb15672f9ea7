"""Opponent-model calibration: how far on the guessed hands are against the real ones.

Run: ``python bench/determinize.py [--games N] [--kept-draws 0,0.5,1,2]``.  Four ``heuristic`` bots
play; at a sample of seat 0's draw decisions the real hands of seats 1–3 are compared with
determinizations of seat 0's information set (``rummy.determinize.determinize``) at each
``kept_draws``.  The figure is the mean number of cards of a hand that lie in a complete meld (three
or more of a rank, or three or more in a row of a suit; wild cards not counted), a simple measure of
how close a hand is to going down.  The ``kept_draws`` whose guesses come nearest the real hands is
the calibrated opponent model (``rummy.bots.ismcts.DEFAULT_KEPT_DRAWS``).  Prints figures; asserts
nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics

from rummy.bots import decide, make_bot
from rummy.cards import make_card
from rummy.determinize import determinize, redact
from rummy.game import Phase, new_game

VARIANTS = ["progressive-buy-it", "progressive-15", "may-i", "basic", "purchase"]


def cards_in_melds(hand: list[int]) -> int:
    """Cards of ``hand`` (counts) in a group of three or more, or in a run of three or more (ace low)."""
    melded: set[int] = set()
    for rank in range(1, 14):
        cards = [make_card(rank, suit) for suit in range(4) if hand[make_card(rank, suit)]]
        if len(cards) >= 3:
            melded.update(cards)
    for suit in range(4):
        run: list[int] = []
        for rank in range(1, 15):
            card = make_card(rank, suit) if rank <= 13 else None
            if card is not None and hand[card]:
                run.append(card)
                continue
            if len(run) >= 3:
                melded.update(run)
            run = []
    return len(melded)


def calibrate(variant: str, games: int, kept_draws: list[float], *, samples: int = 3,
              seed: int = 1) -> tuple[float, dict[float, float], int]:
    """(mean cards in melds of the real opponent hands, the same of the guesses by kept_draws, hands)."""
    rng = random.Random(seed)
    real: list[int] = []
    guessed: dict[float, list[int]] = {k: [] for k in kept_draws}
    for game_seed in range(seed, seed + games):
        game = new_game(variant, 4, seed=game_seed)
        bots = [make_bot("heuristic", seed=game_seed * 10 + seat) for seat in range(4)]
        while not game.game_over:
            if game.phase is Phase.ROUND_OVER:
                game.deal()
                continue
            seat = game.next_to_act()
            if seat == 0 and game.phase is Phase.DRAW and rng.random() < 0.3:
                public = redact(game, 0)
                real.extend(cards_in_melds(game.hands[other]) for other in (1, 2, 3))
                for k in kept_draws:
                    for _ in range(samples):
                        guess = determinize(public, 0, rng, kept_draws=k)
                        guessed[k].extend(cards_in_melds(guess.hands[other]) for other in (1, 2, 3))
            game.apply(decide(game, seat, bots[seat]))
    means = {k: statistics.fmean(values) for k, values in guessed.items()}
    return statistics.fmean(real), means, len(real)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", help="variant(s) (default: all)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--kept-draws", default="0,0.5,1,1.5,2,3")
    args = parser.parse_args()
    kept_draws = [float(k) for k in args.kept_draws.split(",")]
    print("mean cards in complete melds per opponent hand: real, then guesses by kept_draws")
    print(f"{'variant':<20} {'hands':>6} {'real':>6} " + " ".join(f"{k:>6g}" for k in kept_draws))
    for variant in args.variant or VARIANTS:
        real, guessed, hands = calibrate(variant, args.games, kept_draws)
        row = " ".join(f"{guessed[k]:>6.2f}" for k in kept_draws)
        print(f"{variant:<20} {hands:>6} {real:>6.2f} {row}", flush=True)


if __name__ == "__main__":
    main()
