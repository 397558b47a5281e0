"""The pieces on a board as SVG: each follower type's figure (``figure`` in the ruleset: a
meeple, a builder, a pig, a mayor, a wagon or a barn), in its seat's colour, at a point.

A figure is drawn by its named handler in :data:`FIGURES`; :func:`piece_svg` picks the one a
follower type names.  A meeple of a type other than the normal one carries a mark (the start of
its type's name) so two types drawn alike still tell apart; the other figures are their own
mark.  Sizes are fractions of a tile of ``s`` units.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules.ruleset import Ruleset
from .markup import svg_num, xml_text
from .symbols import labels

#: The outline colour of every figure.
INK = "#111111"


def _path(points: list[tuple[float, float]], x: float, y: float, u: float) -> str:
    """An SVG path through ``points`` (grid units of ``u``, about ``(x, y)``), closed."""
    return "M" + " L".join(f"{svg_num(x + px * u)},{svg_num(y + py * u)}" for px, py in points) + " Z"


def _shape(d: str, colour: str, s: float) -> str:
    return (f'<path d="{d}" fill="{colour}" stroke="{INK}" stroke-width="{svg_num(s * 0.015)}" '
            'stroke-linejoin="round"/>')


def meeple_svg(x: float, y: float, s: float, colour: str, lying: bool, scale: float = 1.0, mark: str = "") -> str:
    """A follower as an SVG ``<path>``, 0.26 of a tile of ``s`` units tall (times ``scale``),
    centred on ``(x, y)``: head, arms, legs, filled with ``colour``; lying (a quarter turn, as
    farmers are placed) when ``lying``; with ``mark`` (:func:`follower_mark`) in white on its
    body, so types of one size (a mayor and a knight) tell apart."""
    h = 0.26 * s * scale
    u = h / 10  # the outline is drawn on a 10-unit grid, the figure 8 wide and 10 tall
    outline = [(0, -5), (1.3, -4.6), (1.6, -3.2), (1.2, -2.3), (4, -1.3), (4, 0.2), (1.7, 0), (3, 5),
               (0.8, 5), (0, 2.8), (-0.8, 5), (-3, 5), (-1.7, 0), (-4, 0.2), (-4, -1.3), (-1.2, -2.3),
               (-1.6, -3.2), (-1.3, -4.6)]
    if lying:
        outline = [(-py, px) for px, py in outline]
    d = "M" + " L".join(f"{svg_num(x + px * u)},{svg_num(y + py * u)}" for px, py in outline) + " Z"
    figure = (f'<path d="{d}" fill="{colour}" stroke="#111111" stroke-width="{svg_num(s * 0.015)}" '
              'stroke-linejoin="round"/>')
    if not mark:
        return figure
    size = 5 * u if len(mark) == 1 else 3.6 * u  # the body is 8 units wide
    cx, cy = (x - u, y) if lying else (x, y + u)  # the chest, turned with the figure
    return (figure + f'<text class="follower-mark" x="{svg_num(cx)}" y="{svg_num(cy + 0.36 * size)}" '
            f'font-size="{svg_num(size)}" font-weight="bold" text-anchor="middle" fill="#ffffff" stroke="#111111" '
            f'stroke-width="{svg_num(0.35 * u)}" paint-order="stroke">{xml_text(mark)}</text>')


def building_svg(x: float, y: float, s: float, colour: str, mark: str = "") -> str:
    """A piece on a tile's corner (``spot: corner``: the barn) as an SVG ``<path>``: a barn with a
    broken roof, wider than tall, 0.31 of a tile of ``s`` units wide, centred on ``(x, y)``, so it
    tells apart at a glance from every follower and from a cloister's chapel; ``mark`` in white
    on its wall."""
    u = 0.026 * s  # a 10-unit grid, the barn 12 wide and 10.5 tall
    outline = [(-6, 5), (-6, -1), (-4, -4), (0, -5.5), (4, -4), (6, -1), (6, 5)]
    d = "M" + " L".join(f"{svg_num(x + px * u)},{svg_num(y + py * u)}" for px, py in outline) + " Z"
    door = (f'<path d="M{svg_num(x - 1.5 * u)},{svg_num(y + 5 * u)} L{svg_num(x - 1.5 * u)},{svg_num(y + 1.5 * u)} '
            f'L{svg_num(x + 1.5 * u)},{svg_num(y + 1.5 * u)} L{svg_num(x + 1.5 * u)},{svg_num(y + 5 * u)}" '
            f'fill="none" stroke="#111111" stroke-width="{svg_num(s * 0.01)}"/>')
    figure = (f'<path d="{d}" fill="{colour}" stroke="#111111" stroke-width="{svg_num(s * 0.015)}" '
              f'stroke-linejoin="round"/>{door}')
    if not mark:
        return figure
    size = 4.5 * u
    return (figure + f'<text class="follower-mark" x="{svg_num(x)}" y="{svg_num(y + 0.36 * size)}" '
            f'font-size="{svg_num(size)}" font-weight="bold" text-anchor="middle" fill="#ffffff" stroke="#111111" '
            f'stroke-width="{svg_num(0.35 * u)}" paint-order="stroke">{xml_text(mark)}</text>')


def follower_mark(ruleset: Ruleset, type_index: int) -> str:
    """What a follower of type ``type_index`` shows on its body: nothing for a normal one, else
    the start of its type's name that tells it from the ruleset's other types (:func:`~engine.view.symbols.labels`:
    ``M`` a mayor, ``B`` a builder, ``P`` a pig, ``L`` a large follower)."""
    if not type_index:
        return ""
    return labels(t.name for t in ruleset.follower_types[1:])[ruleset.follower_types[type_index].name]


def follower_scale(strength: int) -> float:
    """How much bigger than a normal follower one of ``strength`` is drawn: the large
    follower (2) a third bigger, a follower that counts for nothing (a builder, a pig) smaller."""
    return 0.7 if strength == 0 else min(1.0 + 0.3 * (strength - 1), 1.6)


def builder_svg(x: float, y: float, s: float, colour: str) -> str:
    """A builder (Traders & Builders): a figure taller and narrower than a meeple, with a
    broad-brimmed hat in black, 0.3 of a tile tall, centred on ``(x, y)``."""
    u = 0.03 * s
    body = [(0, -3.4), (1.1, -3), (1.4, -1.9), (1, -1.1), (2.6, -0.2), (2.6, 1), (1.3, 0.8), (2.1, 5),
            (0.6, 5), (0, 2.6), (-0.6, 5), (-2.1, 5), (-1.3, 0.8), (-2.6, 1), (-2.6, -0.2), (-1, -1.1),
            (-1.4, -1.9), (-1.1, -3)]
    hat = [(-2.6, -3.3), (2.6, -3.3), (2.6, -3.9), (1.3, -3.9), (1.1, -5.4), (-1.1, -5.4), (-1.3, -3.9),
           (-2.6, -3.9)]
    return _shape(_path(body, x, y, u), colour, s) + _shape(_path(hat, x, y, u), INK, s)


def pig_svg(x: float, y: float, s: float, colour: str) -> str:
    """A pig (Traders & Builders), seen from the side: a long body on four legs, a round snout and
    a pointed ear, 0.34 of a tile long, centred on ``(x, y)``."""
    u = 0.03 * s
    body = [(-5.6, -1), (-5.6, 0.6), (-4.2, 1.1), (-3.6, 2), (-3.6, 3.4), (-2.6, 3.4), (-2.4, 2.4),
            (1.6, 2.4), (1.8, 3.4), (2.8, 3.4), (3, 2), (4.2, 1.2), (4.8, 0.2), (5.6, -0.6), (4.8, -0.4),
            (4.6, -1.8), (3, -2.9), (-2.4, -2.9), (-3.2, -2.6), (-3.6, -3.8), (-4.2, -2.1)]
    eye = (f'<circle cx="{svg_num(x - 3.9 * u)}" cy="{svg_num(y - 0.9 * u)}" r="{svg_num(0.45 * u)}" '
           f'fill="{INK}"/>')
    return _shape(_path(body, x, y, u), colour, s) + eye


def mayor_svg(x: float, y: float, s: float, colour: str) -> str:
    """A mayor (Abbey & Mayor): a round head on a bell-shaped robe, no arms or legs, 0.27 of a
    tile tall, centred on ``(x, y)``."""
    u = 0.027 * s
    robe = [(0, -5), (1.3, -4.6), (1.6, -3.2), (1.1, -2.2), (2.4, -1.4), (3, 1), (4, 4), (4.2, 5),
            (-4.2, 5), (-4, 4), (-3, 1), (-2.4, -1.4), (-1.1, -2.2), (-1.6, -3.2), (-1.3, -4.6)]
    return _shape(_path(robe, x, y, u), colour, s)


def wagon_svg(x: float, y: float, s: float, colour: str) -> str:
    """A wagon (Abbey & Mayor): a cart's box on two wheels, with its shaft, 0.36 of a tile long,
    centred on ``(x, y)``."""
    u = 0.03 * s
    box = [(-4.2, -3), (3.4, -3), (3.4, 1.2), (-4.2, 1.2)]
    shaft = [(3.4, -0.4), (6, -0.4), (6, 0.4), (3.4, 0.4)]
    wheels = "".join(f'<circle cx="{svg_num(x + cx * u)}" cy="{svg_num(y + 2.4 * u)}" r="{svg_num(1.7 * u)}" '
                     f'fill="{colour}" stroke="{INK}" stroke-width="{svg_num(s * 0.015)}"/>' for cx in (-2.4, 1.6))
    return _shape(_path(shaft, x, y, u), colour, s) + _shape(_path(box, x, y, u), colour, s) + wheels


#: A figure's handler: ``(x, y, s, colour, lying, scale, mark) -> SVG``.
Figure = Callable[[float, float, float, str, bool, float, str], str]

#: Every figure a follower type may name (``figure``), by name.
FIGURES: dict[str, Figure] = {
    "meeple": meeple_svg,
    "builder": lambda x, y, s, colour, lying, scale, mark: builder_svg(x, y, s, colour),
    "pig": lambda x, y, s, colour, lying, scale, mark: pig_svg(x, y, s, colour),
    "mayor": lambda x, y, s, colour, lying, scale, mark: mayor_svg(x, y, s, colour),
    "wagon": lambda x, y, s, colour, lying, scale, mark: wagon_svg(x, y, s, colour),
    "barn": lambda x, y, s, colour, lying, scale, mark: building_svg(x, y, s, colour),
}


#: Each figure's extent about the point it is centred on, standing (a meeple not lying) at scale 1:
#: ``(left, top, right, bottom)`` in tiles (``s`` = 1), strokes left out; the outlines above set them,
#: and tests/view/test_supply.py checks them against the drawing.
FIGURE_BOXES: dict[str, tuple[float, float, float, float]] = {
    "meeple": (-0.104, -0.13, 0.104, 0.13),
    "builder": (-0.078, -0.162, 0.078, 0.15),
    "pig": (-0.168, -0.114, 0.168, 0.102),
    "mayor": (-0.1134, -0.135, 0.1134, 0.135),
    "wagon": (-0.126, -0.09, 0.18, 0.123),
    "barn": (-0.156, -0.143, 0.156, 0.13),
}


def piece_box(ruleset: Ruleset, type_index: int, s: float) -> tuple[float, float, float, float]:
    """Where a standing piece of type ``type_index`` drawn by :func:`piece_svg` in a tile of ``s``
    units reaches, about its centre: ``(left, top, right, bottom)`` in those units (strokes left
    out), a meeple's grown or shrunk by :func:`follower_scale`."""
    follower_type = ruleset.follower_types[type_index]
    scale = follower_scale(follower_type.strength) if follower_type.figure == "meeple" else 1.0
    left, top, right, bottom = FIGURE_BOXES[follower_type.figure]
    return left * s * scale, top * s * scale, right * s * scale, bottom * s * scale


def piece_svg(ruleset: Ruleset, type_index: int, x: float, y: float, s: float, colour: str, lying: bool) -> str:
    """A piece of follower type ``type_index`` of ``ruleset`` centred on ``(x, y)`` in a tile of ``s``
    units, in ``colour``: its type's figure (:data:`FIGURES`); a meeple is drawn lying when
    ``lying`` (a farmer), bigger or smaller by its strength (:func:`follower_scale`) and with its
    type's mark (:func:`follower_mark`)."""
    follower_type = ruleset.follower_types[type_index]
    return FIGURES[follower_type.figure](x, y, s, colour, lying, follower_scale(follower_type.strength),
                                         follower_mark(ruleset, type_index))


__all__ = ["FIGURES", "FIGURE_BOXES", "builder_svg", "building_svg", "follower_mark", "follower_scale", "mayor_svg",
           "meeple_svg", "pig_svg", "piece_box", "piece_svg", "wagon_svg"]
