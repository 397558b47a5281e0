"""The ruleset language: from YAML files to a frozen, compiled :class:`Ruleset`.

Holds the reading of every input file (``reading``: regular files only, at
most 16 MiB, UTF-8), the position-keeping YAML reader (``source``, with
``yaml_nodes`` for YAML 1.2 scalars and marks), the JSON Schema checks (``validate``, with
``unbroken`` checking the rest of a ruleset beside its schema errors: errors in one pass),
composition of ``extends`` chains and options (``references``, ``compose``),
the scoring-formula language (``formula_syntax`` parses, ``formula``
compiles), feature kinds (``kinds``), tile types and their compilation
(``tiles``), follower types (``follower_types``), named placement constraints
(``constraints``), the collector of located problems (``problems``), warnings
for rules that can never take effect (``unreachable``), the ``Ruleset`` itself (``ruleset``) and the
read-only views behind ``carcassonne rulesets`` (``inspect``).  It may import
only ``engine.errors``, ``engine.geometry`` and ``engine.resources``: nothing
here knows a game is being played.
"""
