"""The ruleset language: from YAML files to a frozen, compiled :class:`Ruleset`.

Holds the position-keeping YAML reader (``source``), the JSON Schema checks
(``validate``), composition of ``extends`` chains and options (``compose``,
``references``), the scoring-formula language (``formula_syntax`` parses,
``formula`` compiles), tile and feature-kind compilation (``tiles``,
``kinds``, ``tile_compile``), named placement constraints (``constraints``),
the ``Ruleset`` itself (``ruleset``) and the read-only views behind
``carcassonne rulesets`` (``inspect``).  It may import only ``engine.errors``,
``engine.geometry`` and ``engine.resources``: nothing here knows a game is
being played.
"""
