"""What both the bots and the learning environment encode from a seat's view: the fixed-size observation
vector (:mod:`rummy.features.observation`), whose blocks describe the composite candidates
(:mod:`rummy.features.candidates`) and the round's public history (:mod:`rummy.features.history`).

It sits below both :mod:`rummy.bots` and :mod:`rummy.env` and imports neither (a layer test holds that), so
the ``learned`` bot reads the same observation the environment gives without loading the environment.
Needs numpy (the ``rl`` extra); the engine does not.
"""

from __future__ import annotations

from rummy.features.candidates import CANDIDATE_FIELDS, CANDIDATE_SIZE, CandidateEncoder
from rummy.features.history import EVENT_KINDS, EVENT_ROWS, HISTORY_COUNTS, History
from rummy.features.observation import (
    OBSERVATION_VERSION,
    PHASES,
    SEAT_FIELDS,
    Block,
    Encoder,
    Observation,
    Scales,
    observation_layout,
    observation_size,
)

__all__ = ["CANDIDATE_FIELDS", "CANDIDATE_SIZE", "EVENT_KINDS", "EVENT_ROWS", "HISTORY_COUNTS", "OBSERVATION_VERSION",
           "PHASES", "SEAT_FIELDS", "Block", "CandidateEncoder", "Encoder", "History", "Observation", "Scales",
           "observation_layout", "observation_size"]
