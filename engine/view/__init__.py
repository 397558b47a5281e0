"""Pictures drawn from the ruleset data: tile shapes, boards, the HTML replay viewer.

Holds the SVG shapes of one tile's segments (``tile_svg``), boards and atlases
with PNG conversion (``render``), the pieces' figures (``figures``), a seat's
pieces left drawn as those figures (``supply``), the self-contained replay page
(``viewer``), and the escaping of text from files for each place it lands in
SVG or HTML (``markup``).  It may import ``engine.files``, ``engine.core`` and
``engine.rules``; never simulation or the CLI.  It returns text and never
prints.
"""
