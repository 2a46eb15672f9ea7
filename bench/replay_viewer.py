"""Replay viewer benchmark: how long the server takes to work out a replay, and how large it is.

Run: ``python bench/replay_viewer.py [--players 4] [--seed 7]``.  Plays one game of each variant with the
heuristic and greedy bots, then builds its replay (every hand face up, and one seat's view) the way
``GET /api/tables/{id}/replay`` does, and prints the steps, the milliseconds it took (best of three),
the JSON's size and its gzipped size.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time

from rummy.bots import make_bot, play_game
from rummy.engine import VARIANTS
from rummy.record import Record, record_of
from rummy.server.events.replay_frames import build_replay


def played(variant: str, players: int, seed: int) -> Record:
    bots = [make_bot("heuristic" if seat % 2 == 0 else "greedy", seed=seed + seat) for seat in range(players)]
    return record_of(play_game(variant, bots, seed=seed))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"{'variant':<20} {'view':<6} {'steps':>6} {'ms':>7} {'JSON kB':>8} {'gzip kB':>8}")
    for variant in VARIANTS:
        record = played(variant, args.players, args.seed)
        for seat in (None, 0):
            best = float("inf")
            for _ in range(3):
                start = time.perf_counter()
                replay = build_replay(record, seat)
                best = min(best, time.perf_counter() - start)
            text = json.dumps(replay, ensure_ascii=False, separators=(",", ":")).encode()
            print(f"{variant:<20} {'all' if seat is None else 'seat':<6} {len(replay['steps']):>6} {best * 1000:>7.0f} "
                  f"{len(text) / 1000:>8.0f} {len(gzip.compress(text)) / 1000:>8.1f}")


if __name__ == "__main__":
    main()
