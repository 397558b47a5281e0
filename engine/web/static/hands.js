// The hand of tiles (deck.hand): the tiles the state's `hand` holds, drawn unturned in the order
// drawn. While their holder is to choose, a click on one (or its number key) picks it: a move,
// sent at once, after which the page offers its placements as for a drawn tile. Hovering a tile
// lights up the cells where it fits. Loaded before table.js, whose state, $, element, tileSvg,
// play, panel and highlight it uses once the page has drawn.
"use strict";

function drawHeld() {
  const hand = state.hand;
  const held = $("held");
  held.hidden = !hand || !hand.tiles.length;
  if (held.hidden) return held.replaceChildren();
  const name = state.players[hand.seat].name;
  const title = element("p", hand.picking ? `${name}'s hand: click the tile to place` : `${name}'s hand`);
  const row = element("div", undefined, {class: "tiles"});
  hand.tiles.forEach((t, i) => {
    // Two tiles of a type are one choice: the first of them stands for it.
    const chosen = hand.chosen !== null && hand.tiles.findIndex((u) => u.id === hand.chosen) === i;
    const button = element("button", undefined, {"data-tile": t.id, "aria-pressed": String(chosen),
      title: hand.picking ? `place ${t.id} (${i + 1})` : t.id});
    button.disabled = !hand.picking;
    button.append(tileSvg(t.svg, 1), element("span", t.id));
    if (hand.picking) {
      button.onclick = () => pickTile(t.id);
      button.addEventListener("mouseenter", () => showCells(t.cells));
      button.addEventListener("mouseleave", () => highlight(null));
    }
    row.append(button);
  });
  held.replaceChildren(title, row);
}

function pickTile(id) {
  highlight(null);
  play({kind: "pick", tile: id});
}

// Outline the cells, [map, x, y] each, where a tile of the hand fits.
function showCells(cells) {
  highlight(null);
  const svg = document.querySelector("#board svg");
  for (const [map, x, y] of cells) {
    const where = panel(map);
    if (where && svg) svg.append(svgElement("rect", {class: "highlight", x: where.x0 + x * where.size,
      y: where.y0 + y * where.size, width: where.size, height: where.size}));
  }
}

document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
  const n = Number(event.key);
  if (state && state.hand && state.hand.picking && n >= 1 && n <= state.hand.tiles.length) {
    pickTile(state.hand.tiles[n - 1].id);
  }
});
