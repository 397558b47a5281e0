"""Pictures drawn from the ruleset data: tile shapes, boards, the HTML replay viewer.

Holds the SVG shapes of one tile's segments (``tile_svg``), boards and atlases
with PNG conversion (``render``) and the self-contained replay page
(``viewer``).  It may import ``engine.files``, ``engine.core`` and
``engine.rules``; never simulation or the CLI.  It returns text and never
prints.
"""
