"""Text from files (player names, tile ids, kind names, ruleset references) inside
SVG and HTML: one function per context it can land in.

* :func:`xml_text` for element text and attribute values (SVG and HTML alike);
* :func:`script_json` for data embedded in an HTML ``<script>``;
* :func:`svg_num` and :func:`pts` for numbers in SVG attributes.

Both first show every control character as a visible escape
(:func:`engine.errors.printable`): XML 1.0 cannot carry most of them even as
character references, a lone surrogate cannot be written as UTF-8, and a
bidirectional override would reorder what the page shows.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any, Sequence

from ..errors import printable

__all__ = ["xml_text", "script_json", "svg_num", "pts"]

#: Inside <script>, "<!--", "<script" and "</script" change how the HTML parser reads
#: the rest of the page, whatever the JavaScript means; "&" and ">" complete the set
#: so the JSON reads the same in any HTML context.  JSON's \uXXXX escapes say the
#: same characters.  (U+2028/U+2029, which end a string in JavaScript before ES2019,
#: are already visible escapes: ``printable`` writes them so.)
_SCRIPT_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def xml_text(text: object) -> str:
    """``text`` (made a string) safe as SVG/HTML element text or as a quoted attribute value.

    >>> xml_text('<b a="1">R&D\\x1b</b>')
    '&lt;b a=&quot;1&quot;&gt;R&amp;D\\\\x1b&lt;/b&gt;'
    """
    return escape(printable(str(text)), quote=True)


def script_json(data: Any) -> str:
    """``data`` as a JavaScript expression to embed in an HTML ``<script>`` element: JSON
    whose strings have visible escapes for control characters and that contains no ``<``,
    ``>`` or ``&`` at all, so no name can end the script or open a comment in it.

    >>> script_json({"name": "</script><!--x"})
    '{"name": "\\\\u003c/script\\\\u003e\\\\u003c!--x"}'
    """
    return json.dumps(_printable(data), ensure_ascii=False).translate(_SCRIPT_ESCAPES)


def _printable(data: Any) -> Any:
    if isinstance(data, str):
        return printable(data)
    if isinstance(data, dict):
        return {key: _printable(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_printable(value) for value in data]
    return data


def svg_num(x: float) -> str:
    """A number for SVG text: at most two decimals, no trailing zeros, never ``-0``.

    >>> svg_num(30.0), svg_num(2.345678), svg_num(-0.001)
    ('30', '2.35', '0')
    """
    text = f"{round(x, 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def pts(points: Sequence[tuple[float, float]]) -> str:
    """Points for an SVG ``points`` attribute: ``x,y x,y …`` through :func:`svg_num`."""
    return " ".join(f"{svg_num(x)},{svg_num(y)}" for x, y in points)
