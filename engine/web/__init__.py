"""The local web table (``carcassonne serve``): play a ruleset in the browser against bots.

``table`` holds one game and what the page may see of it; ``moves_json`` reads
a move the page sends; ``app`` serves the pages and the JSON API (Starlette,
from the ``web`` extra); ``pages`` writes the HTML; ``static/`` holds the page's
script and style.  It may import the simulation, view, bots, files, core and rules
layers; only the CLI imports it.
"""
