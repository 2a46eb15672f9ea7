"""The rules engine: the state as data (:mod:`~rummy.engine.state`), the rules as pure checks and applies
(:mod:`~rummy.engine.rules`), the candidate moves (:mod:`~rummy.engine.moves`) and the action space
(:mod:`~rummy.engine.action_space`).  :class:`rummy.game.Game` is the façade over them; see
``docs/engine.md``.
"""
