"""What both the bots and the learning environment encode from a seat's view: the fixed-size observation
vector (:mod:`rummy.features.observation`).

It sits below both :mod:`rummy.bots` and :mod:`rummy.env` and imports neither (a layer test holds that), so
the ``learned`` bot reads the same observation the environment gives without loading the environment.
Needs numpy (the ``rl`` extra); the engine does not.
"""

from __future__ import annotations

from rummy.features.observation import (
    PHASES,
    SEAT_FIELDS,
    Block,
    Encoder,
    Observation,
    observation_layout,
    observation_size,
)

__all__ = ["PHASES", "SEAT_FIELDS", "Block", "Encoder", "Observation", "observation_layout", "observation_size"]
