"""Issue #27, second pass, on the server side: the replay's move list names the card a player let go,
"Your tables" says who plays, when and whose turn it is, and a returning player is told what the computer
played for them (and the history does not count such a game as theirs)."""

from __future__ import annotations

import json
import random
from typing import Any

from rummy.engine import new_game
from rummy.record import dumps, from_data, record_of
from rummy.server.events.replay_frames import build_replay


def may_i_record(seed: int = 4, actions: int = 300) -> dict[str, Any]:
    game = new_game("may-i", ["Ann", "Bob", "Cid", "Dee"], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.phase.value != "claim" and game.phase.value not in ("draw", "play"):
            break
        game.apply(rng.choice(game.legal_actions()))
    data: dict[str, Any] = json.loads(dumps(record_of(game)))
    return data


def test_the_replays_move_list_names_the_card_a_player_passed_on() -> None:
    replay = build_replay(from_data(may_i_record()))
    passes = [event for step in replay["steps"] if (step["action"] or "").endswith(" pass")
              for event in step["events"] if " passed" in event]
    assert passes, "no silent pass in the record"
    for event in passes:
        assert " passed on the " in event, event
