"""The game: the turn loop over a compiled ruleset, generic over every ruleset.

Holds the seeded deck (``deck``), the :class:`Game` with its frontier and
union-find feature graph (``game``), start-tile and multi-map set-up
(``setup``), follower deployment options (``deploy``), feature scoring and
final scoring (``scoring``), strengths worked out on a feature (``strength``: the
mayor's) and the move valuer the bots use (``lookahead``).
It may import ``engine.rules`` and the base modules (``errors``, ``geometry``,
``resources``), never bots, files, simulation, views or the CLI.
"""
