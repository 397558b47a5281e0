"""Players: one protocol, ``choose(game) -> Move``, and the bots behind it.

Holds the protocol and the registry of bot kinds by name (``players``) and
one module per bot.  Bots see a :class:`~engine.core.game.Game` and the
ruleset only; they may import ``engine.core`` and ``engine.rules``, never
files, simulation, views or the CLI.
"""
