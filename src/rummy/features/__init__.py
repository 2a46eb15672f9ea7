"""What both the bots and the learning environment encode from a seat's view: the fixed-size observation
vector (:mod:`rummy.features.observation`), whose last block describes the composite candidates
(:mod:`rummy.features.candidates`).

It sits below both :mod:`rummy.bots` and :mod:`rummy.env` and imports neither (a layer test holds that), so
the ``learned`` bot reads the same observation the environment gives without loading the environment.
Needs numpy (the ``rl`` extra); the engine does not.
"""

from __future__ import annotations

from rummy.features.candidates import CANDIDATE_FIELDS, CANDIDATE_SIZE, CandidateEncoder
from rummy.features.observation import (
    PHASES,
    SEAT_FIELDS,
    Block,
    Encoder,
    Observation,
    observation_layout,
    observation_size,
)

__all__ = ["CANDIDATE_FIELDS", "CANDIDATE_SIZE", "PHASES", "SEAT_FIELDS", "Block", "CandidateEncoder", "Encoder",
           "Observation", "observation_layout", "observation_size"]
