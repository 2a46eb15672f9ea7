"""Search tools layered on the engine: random playouts of whole games (:mod:`rummy.search.playout`) and
a seat's information set, redacted and completed at random (:mod:`rummy.search.determinize`).

The engine never imports this package; bots, the simulator, benchmarks and tests do.
"""
