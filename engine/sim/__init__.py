"""Many games: playing a game with bots, simulating, comparing, rescoring.

Holds the whole-game loop with bots (``play``), seeded games on a process
pool or a Dask cluster (``simulate``), streaming statistics and plots
(``stats``) with their intervals in plain Python (``intervals``) and rescoring
a record under other rulesets (``rescore``).  It may import ``engine.bots``,
``engine.files``, ``engine.core`` and ``engine.rules``; never views or the
CLI.  Optional extras (numpy, matplotlib, distributed) are imported only
inside the functions that need them, and only ``--plot`` and ``--scheduler``
need one: numpy merely makes the bootstrap faster.
"""
