"""A chat model in a seat (docs/llm.md), offline: by default a stand-in "model" served on this machine.

The ``llm`` bot talks to any OpenAI-compatible endpoint (``POST {base_url}/chat/completions``).  So that this
example runs without a network or a model, it starts a stand-in endpoint on 127.0.0.1 that reads the numbered
legal moves out of each prompt and answers with one (a lay-down or book when listed, else the first move), then
plays ``rummy sim`` with that seat against bots.  Point it at a real local server instead (llama.cpp, vLLM,
Ollama: a base URL on the loopback interface needs no key) with ``--base-url`` and ``--model``.

    python examples/llm_seat.py                                          # the stand-in, one basic game
    python examples/llm_seat.py --base-url http://127.0.0.1:8080/v1 --model qwen2.5-7b-instruct --variant may-i
    python examples/llm_seat.py --quick                                  # the stand-in, one game

Expected output: ``rummy sim``'s table for the seats, with the llm seat's counters as rummy sim prints them,
then what the stand-in saw (numbers vary with the arguments):

    rummy sim --variant basic --players llm:model=stand-in:base_url=http://127.0.0.1:38207/v1,heuristic ...
    basic: 1 games, 2 players (seats rotate), 2 rounds
    ... one row per player: wins, win share, 95% CI, mean score ...
    Counters:
      llm:model=stand-in:...: 37 decisions, 37 requests, 0 retries, 0 errors, 0 illegal, 0 unparsable, 0 fallbacks, ...
    first prompt: 2 legal moves, the stand-in answered 'p0 draw'
    the stand-in answered 37 requests
"""

from __future__ import annotations

import argparse
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from rummy.cli import main as rummy_main


def listed_moves(prompt: str) -> list[str]:
    """The moves of a prompt's numbered "Legal moves:" list, in record syntax (``p0 discard 7H``)."""
    block = prompt.split("Legal moves:\n", 1)[1].split("\n\n", 1)[0]
    return [re.sub(r"^\d+\. ", "", line) for line in block.splitlines() if re.match(r"^\d+\. ", line)]


def stand_in_answer(moves: list[str]) -> str:
    """What the stand-in model says: one of the listed moves."""
    for move in moves:  # "p0 down ...", "p0 meld ...", "p0 book ...": lay cards down when the list offers it
        if move.split()[1] in ("down", "meld", "book"):
            return move
    return moves[0]


class StandIn:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 (a free port) answering with :func:`stand_in_answer`."""

    def __init__(self) -> None:
        self.requests = 0
        self.first: tuple[int, str] | None = None
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                prompt = body["messages"][-1]["content"]  # the user message: observation, moves, answer format
                moves = listed_moves(prompt)
                answer = stand_in_answer(moves)  # a real model reads the whole prompt; see docs/llm.md
                stand_in.requests += 1
                if stand_in.first is None:
                    stand_in.first = (len(moves), answer)
                reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}],
                         "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 4}}
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (quiet)
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> StandIn:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="basic")
    parser.add_argument("--opponents", default="heuristic", help="comma-separated bots, one per other seat")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--base-url", default=None, help="a real endpoint (default: the stand-in on 127.0.0.1)")
    parser.add_argument("--model", default="stand-in", help="the model name sent to the endpoint")
    parser.add_argument("--quick", action="store_true", help="one game (the default already takes a second)")
    args = parser.parse_args()
    variant, games = args.variant, 1 if args.quick else args.games

    def sim(base_url: str) -> int:
        # rummy sim, called in this process: the llm seat then the opponents; one worker (requests in order)
        players = ",".join([f"llm:model={args.model}:base_url={base_url}", *args.opponents.split(",")])
        command = ["sim", "--variant", variant, "--players", players, "--games", str(games),
                   "--workers", "1", "--seed", "0", "--no-progress"]
        print("rummy " + " ".join(command))
        return rummy_main(command)

    if args.base_url:
        raise SystemExit(sim(args.base_url))
    with StandIn() as stand_in:
        status = sim(stand_in.url)
        if stand_in.first:
            listed, answer = stand_in.first
            print(f"first prompt: {listed} legal moves, the stand-in answered {answer!r}")
        print(f"the stand-in answered {stand_in.requests} requests")
    raise SystemExit(status)


if __name__ == "__main__":
    main()
