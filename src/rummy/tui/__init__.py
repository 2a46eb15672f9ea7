"""Terminal play: ``rummy play`` (a Textual app, the ``tui`` extra; docs/terminal.md).

Modules: :mod:`~rummy.tui.snapshot` (the one state shape the screen draws, the same for both tables),
:mod:`~rummy.tui.local` (a game against the project's bots, in this process),
:mod:`~rummy.tui.remote` (a seat at a ``rummy serve`` table, over its WebSocket protocol),
:mod:`~rummy.tui.entry` (typed actions: the seat prefix and the completion of card names),
:mod:`~rummy.tui.hints` (what to play, in words), :mod:`~rummy.tui.render` (hand, table and scores as
text), :mod:`~rummy.tui.app` (the screen) and :mod:`~rummy.tui.command` (the command line).

Only :mod:`~rummy.tui.app` and :mod:`~rummy.tui.command` need Textual; the rest is plain Python and is
tested without a terminal.
"""
