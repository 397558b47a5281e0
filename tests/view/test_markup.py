"""Text from files inside SVG and HTML (engine/view/markup.py): element text, attribute
values and the JSON in the viewer's script each get what their context needs."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from engine.errors import printable
from engine.view.markup import script_json, xml_text

HOSTILE = ["</script>", "<!--", "<script", "-->", "]]>", "&amp;", '"', "'", "\x1b[2J", "\x00", "\ud800",
           "\u202e", "\u2028\u2029", "\ufffe", "\x9b", "a\rb", "é🙂"]


@pytest.mark.parametrize("text", HOSTILE)
def test_xml_text_is_well_formed_as_element_text_and_attribute(text: str) -> None:
    root = ET.fromstring(f'<svg a="{xml_text(text)}" b=\'{xml_text(text)}\'>{xml_text(text)}</svg>')
    assert root.text == root.get("a") == root.get("b") == printable(text)


@pytest.mark.parametrize("text", HOSTILE)
def test_script_json_holds_no_markup_character_and_reads_back(text: str) -> None:
    embedded = script_json({"names": [text], "steps": [{"title": text, "scores": [1, 2]}]})
    assert not set(embedded) & set("<>&\u2028\u2029")
    embedded.encode("utf-8")  # no lone surrogate left to fail the page's encoding
    assert json.loads(embedded) == {"names": [printable(text)], "steps": [{"title": printable(text),
                                                                          "scores": [1, 2]}]}
