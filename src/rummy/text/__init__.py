"""The rules in words: how to play a variant (:mod:`~rummy.text.how_to_play`) and what each house rule
means (:mod:`~rummy.text.house_rule_docs`), generated from the engine's data so the words never drift
from the rules."""
