"""File formats a user reads and writes: game records, scenarios, move notation.

Holds the follower notation ``KIND@PORT`` (``notation``), the JSON game
record with replay (``record``) and the tiles a record may draw
(``supply``), scenario files with expected scores
(``scenario``) and atomic, checked output files (``output``).  It may import
``engine.core`` and ``engine.rules``, never bots, simulation, views or the CLI.
"""
