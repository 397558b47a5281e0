// The table page. Everything shown comes from GET /api/tables/ID; a human's choice (cell,
// rotation, follower) stays on the page until it is confirmed, so "undo" only forgets it.
// Every move goes to POST /api/tables/ID/play as {turn, move}, the move tagged by its kind.
// Names and explanations are put in as text, never as markup; the SVG comes from the server.
// A hand of tiles (deck.hand) is drawn by hands.js.
"use strict";
const TABLE = document.body.dataset.table;
const SVG_NS = "http://www.w3.org/2000/svg";
let state = null;
let pick = null; // {cell, rotation, follower: index into the rotation's spots or null} while a human chooses
let busy = false;
let zoom = Number(localStorage.getItem("carcassonne-zoom")) || 1; // the board's scale, kept across reloads

const $ = (id) => document.getElementById(id);

function element(tag, text, attrs = {}) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  return el;
}

function svgElement(tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  return el;
}

async function call(path, body) {
  const answer = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const data = await answer.json();
  if (!answer.ok) throw Object.assign(new Error(data.error), {status: answer.status});
  return data;
}

async function load() {
  try {
    state = await call(`/api/tables/${TABLE}`);
    $("error").textContent = saveWarning();
  } catch (error) {
    $("error").textContent = error.message;
    return;
  }
  pick = null;
  draw();
  watch();
}

// While a bot is to play, ask again every POLL ms: the board is redrawn only when the game has
// moved on (its version), the status every time (who thinks, for how long).
const POLL = 300;
let watching = null;

function botToPlay() {
  return !state.finished && !state.stopped && state.to_play !== null && !state.players[state.to_play].human;
}

function watch() {
  clearTimeout(watching);
  if (state && botToPlay()) watching = setTimeout(poll, POLL);
}

let sent = 0; // counts the moves sent: a poll answered after one was sent is out of date

async function poll() {
  if (busy) return watch();
  const asked = sent;
  try {
    const now = await call(`/api/tables/${TABLE}`);
    if (asked !== sent || busy) return;  // a move was sent meanwhile: its answer is newer
    const moved = now.version !== state.version;
    state = now;
    if (moved) { pick = null; draw(); } else drawStatus();
    $("error").textContent = saveWarning();
  } catch (error) {
    $("error").textContent = `${error.message} (still trying)`;
  }
  watch();
}

function saveWarning() {
  return state && state.save_error ? `The record could not be saved: ${state.save_error}` : "";
}

// Send the human's move ({kind: "place", …}, {kind: "decline"}, …) for the turn shown.
async function play(move) {
  if (busy) return;
  busy = true;
  sent += 1;
  clearTimeout(watching);
  $("status").textContent = "Playing your move…";
  try {
    state = await call(`/api/tables/${TABLE}/play`, {turn: state.turn, move});
    pick = null;
    $("error").textContent = saveWarning();
  } catch (error) {
    $("error").textContent = error.message;
    if (error.status === 409) {  // another tab (or a bot) moved on: show the game as it stands now
      try {
        state = await call(`/api/tables/${TABLE}`);
        pick = null;
        $("error").textContent = `That move was not played: the game had moved on (${error.message}). ` +
          "The table below is as it stands now.";
      } catch (again) { /* keep the old view, and the first error */ }
    }
  }
  busy = false;
  draw();
  watch();
}

function legalRotations(cell) {
  return Object.keys(cell.rotations).map(Number).sort((a, b) => a - b);
}

function panel(map) {
  const g = document.querySelector(`#board g.map[data-map="${map}"]`);
  return g && {x0: Number(g.dataset.x0), y0: Number(g.dataset.y0), size: Number(g.dataset.size)};
}

// Where map 0's cell (0, 0) lies in the scrolled board panel, in screen pixels, or null.
function origin() {
  const g = document.querySelector('#board g.map[data-map="0"]');
  return g && {x: Number(g.dataset.x0) * zoom, y: Number(g.dataset.y0) * zoom};
}

let followed = null; // the state version whose last tile the view has followed

// Scroll the board panel so that ``element`` (a cell of the board) is in the middle of the view.
function centreOn(element) {
  const cell = element.getBoundingClientRect(), boardPanel = $("board-panel");
  const view = boardPanel.getBoundingClientRect();
  boardPanel.scrollLeft += cell.left + cell.width / 2 - (view.left + view.width / 2);
  boardPanel.scrollTop += cell.top + cell.height / 2 - (view.top + view.height / 2);
}

// Whether ``element`` lies wholly within the board panel's view.
function inView(element) {
  const cell = element.getBoundingClientRect(), view = $("board-panel").getBoundingClientRect();
  return cell.left >= view.left && cell.right <= view.right && cell.top >= view.top && cell.bottom <= view.bottom;
}

function draw() {
  $("about").textContent = `${state.ruleset} · seed ${state.seed}`;
  document.title = `Carcassonne · ${state.ruleset} · turn ${state.turn}`;
  // The board stays put: when it grows (or shrinks) on the left or at the top, scroll by as
  // much, so every tile stays where it was on the screen; the board's padding (table.css) leaves
  // room to, and the view moves only when the player scrolls.
  const before = origin();
  $("board").innerHTML = state.board;
  const svg = $("board").querySelector("svg");
  for (const side of ["width", "height"]) svg.setAttribute(side, Number(svg.getAttribute(side)) * zoom);
  const after = origin(), boardPanel = $("board-panel");
  if (before && after) {
    boardPanel.scrollLeft += after.x - before.x;
    boardPanel.scrollTop += after.y - before.y;
  } else if (after) {  // the first drawing: the start tile in the middle of the view
    centreOn(document.querySelector("#board rect.origin"));
  }
  if (state.version !== followed) {  // a move came: the view follows it when it was out of sight
    followed = state.version;
    const last = document.querySelector("#board rect.last");
    if (last && !inView(last)) centreOn(last);
  }
  drawPlayers();
  drawBreakdown();
  drawStatus();
  drawHeld();
  drawHand();
  drawEvents();
  drawLog();
  drawLinks();
}

// The pieces left, drawn: the server's SVG (every piece its type's figure in the seat's colour),
// whose title and aria-label say them in words ("7 followers, 1 mayor, 1 barn left"); with none
// left, those words ("no pieces left") as text.
function supply(p) {
  if (!p.followers) return element("span", "no pieces left", {class: "supply"});
  const template = element("template");
  template.innerHTML = p.supply_svg;
  return template.content.firstElementChild;
}

// "robber-baron" → "Robber Baron": a title as players say it.
function titleWords(name) {
  return name.split(/[-_]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
}

function drawPlayers() {
  $("players").replaceChildren(...state.players.map((p, seat) => {
    const row = element("div", undefined, {"data-player": seat});
    if (seat === state.to_play) row.className = "to-play";
    const swatch = element("span", undefined, {class: "swatch"});
    swatch.style.background = p.colour;
    const goods = Object.entries(p.tokens || {}).map(([name, n]) => `${n} ${name}`);
    if (p.personal !== undefined) goods.push(`${p.personal} own tile${p.personal === 1 ? "" : "s"} held`);
    if (p.holds !== undefined) goods.push(`${p.holds} tile${p.holds === 1 ? "" : "s"} in hand`);
    goods.push(...(p.titles || []).map((title) => `holds the ${titleWords(title)} title`));
    // The pieces and the goods on a line of their own under the name, in every row alike; a
    // good's words break only between goods, a comma after the words "no pieces left".
    const line = element("span", undefined, {class: "supply-line"});
    line.append(supply(p));
    goods.forEach((words, i) => line.append(i || !p.followers ? ", " : " ", element("span", words, {class: "good"})));
    row.append(swatch, ` ${p.name}: ${p.score} points `, line);
    return row;
  }));
}

// At the end, the points by category as the terminal prints them: a column per feature kind and
// bonus that paid anyone, then the score before final scoring and the final score.
function drawBreakdown() {
  const table = $("breakdown");
  table.hidden = !state.finished;
  if (!state.finished) return table.replaceChildren();
  const kinds = Object.keys(state.players[0].by_kind).filter((k) => state.players.some((p) => p.by_kind[k]));
  const head = element("tr");
  head.append(...["player", ...kinds, "in game", "final"].map((name) => element("th", name)));
  const rows = state.players.map((p, seat) => {
    const row = element("tr", undefined, {"data-player": String(seat)});
    row.append(element("td", p.name), ...kinds.map((k) => element("td", String(p.by_kind[k]))),
               element("td", String(p.in_game)), element("td", String(p.score)));
    return row;
  });
  table.replaceChildren(head, ...rows);
}

function drawStatus() {
  let text;
  if (state.stopped) {
    text = `The game stopped at turn ${state.turn}, before its end: ${state.stopped}`;
  } else if (state.finished) {
    const best = Math.max(...state.players.map((p) => p.score));
    const winners = state.players.filter((p) => p.score === best).map((p) => p.name);
    text = `Game over after ${state.turn} turns: ${winners.join(" and ")} ${winners.length > 1 ? "share" : "wins"} with ${best}.`;
  } else if (state.start) {
    text = `Turn the start tile ${state.start.tile}: pick a rotation.`;
  } else if (state.moving) {
    text = `${state.players[state.to_play].name}, your ${state.moving.follower}'s feature has scored: move it on ` +
      `to a feature that is not complete and holds no follower, within reach, or take it home.`;
  } else if (state.hand && state.hand.picking) {
    const [rest, are] = state.hand.tiles.length > 2 ? ["the others", "are"] : ["the other", "is"];
    const others = {kept: `you keep ${rest} for your next turn`, bottom: `${rest} ${are} put under the stack`,
      reshuffle: `${rest} ${are} shuffled back into the stack`, box: `${rest} ${are} out of the game`}[state.hand.others];
    text = `Turn ${state.turn + 1}: ${state.players[state.to_play].name}, choose the tile of your hand to place ` +
      `(${others}; ${state.remaining} left to draw). Click a tile of your hand, or press its number.`;
  } else if (state.tile) {
    const where = state.maps > 1 ? ` on map ${state.map}` : "";
    text = `Turn ${state.turn + 1}: ${state.players[state.to_play].name}, place tile ${state.tile.id}${where} ` +
      `(${state.remaining} left to draw). Click a highlighted cell.`;
    if (state.take_back) text += " Undo (Esc) to pick another tile of your hand.";
    if (state.tile.own === "draw") text += ` ${state.tile.id} is your own tile: place it, or keep it and draw a tile instead.`;
    if (state.tile.own === "pass") text += ` The stacks are used up: place your own ${state.tile.id}, or keep it and pass.`;
  } else if (state.thinking) {
    text = `${state.thinking.name} is thinking… ${state.thinking.seconds.toFixed(1)} s`;
  } else {
    text = `Waiting for ${state.players[state.to_play].name}.`;
  }
  $("status").textContent = text;
}

function drawHand() {
  const hand = $("hand");
  hand.hidden = !(state.tile || state.start || state.moving);
  $("tile-preview").replaceChildren();
  $("spots").replaceChildren();
  $("choice").textContent = "";
  $("keep").hidden = !(state.tile && state.tile.own);
  if (state.tile && state.tile.own) $("keep").textContent = `keep it and ${state.tile.own} (D)`;
  if (state.start) return drawStart();
  if (state.moving) return drawMoving();
  if (!state.tile) return;
  const rotation = pick ? pick.rotation : 0;
  $("tile-preview").append(tileSvg(state.tile.svg[rotation], 1.5));
  for (const rect of document.querySelectorAll("#board rect.spot")) {
    rect.addEventListener("click", () => choose(rect));
  }
  $("rotate").disabled = !pick || legalRotations(pick.cell).length < 2;
  $("undo").disabled = !pick && !state.take_back;
  $("confirm").disabled = !pick;
  if (!pick) return;
  const cell = pick.cell;
  const spot = document.querySelector(`#board rect.spot[data-map="${cell.map}"][data-x="${cell.x}"][data-y="${cell.y}"]`);
  spot.classList.add("picked");
  const x = Number(spot.getAttribute("x")), y = Number(spot.getAttribute("y"));
  const size = state.tile_size;
  const g = svgElement("g", {class: "preview", transform: `translate(${x},${y})`});
  g.innerHTML = state.tile.svg[pick.rotation];
  spot.ownerSVGElement.append(g);
  const spots = cell.rotations[String(pick.rotation)];
  const none = element("button", "no follower", {"aria-pressed": String(pick.follower === null)});
  none.onclick = () => { pick.follower = null; draw(); };
  $("spots").append(element("li"));
  $("spots").lastChild.append(none);
  const circled = new Set(); // one circle a segment: its first spot (the normal follower)
  spots.forEach((s, i) => {
    if (!circled.has(s.segment)) {
      circled.add(s.segment);
      const circle = svgElement("circle", {class: "follower-spot", cx: x + s.anchor[0] * size, cy: y + s.anchor[1] * size,
        r: size * 0.11, "data-segment": s.segment});
      if (pick.follower === i) circle.classList.add("chosen");
      circle.append(svgElement("title", {}));
      circle.firstChild.textContent = `${s.follower} on ${s.name}`;
      circle.addEventListener("click", () => { pick.follower = pick.follower === i ? null : i; draw(); });
      g.after(circle);
    }
    const button = element("button", `${s.follower} on ${s.name}  (${s.notation})`,
      {"aria-pressed": String(pick.follower === i), "data-segment": s.segment, "data-type": s.type});
    button.onclick = () => { pick.follower = i; draw(); };
    $("spots").append(element("li"));
    $("spots").lastChild.append(button);
  });
  const chosen = pick.follower === null ? null : spots[pick.follower];
  $("choice").textContent = `${state.tile.id} at (${cell.x},${cell.y})${state.maps > 1 ? ` on map ${cell.map}` : ""}, ` +
    `turned ${pick.rotation * 90}°, ${chosen ? `${chosen.follower} on ${chosen.name}` : "no follower"}. Confirm or undo.`;
}

function drawMoving() {
  // A follower moving on: a button per destination, and one to take it home.
  $("rotate").disabled = $("undo").disabled = $("confirm").disabled = true;
  const name = state.moving.follower;
  for (const o of state.moving.options) {
    const where = state.maps > 1 ? ` on map ${o.map}` : "";
    const button = element("button", `${name} to the ${o.name} at (${o.x},${o.y})${where}  (${o.notation})`,
      {"data-segment": o.segment, "data-x": o.x, "data-y": o.y});
    button.onclick = () => play({kind: "move-on", map: o.map, x: o.x, y: o.y, segment: o.segment});
    $("spots").append(element("li"));
    $("spots").lastChild.append(button);
  }
  const home = element("button", `take the ${name} home`, {class: "home"});
  home.onclick = () => play({kind: "home"});
  $("spots").append(element("li"));
  $("spots").lastChild.append(home);
}

function drawStart() {
  $("rotate").disabled = $("undo").disabled = $("confirm").disabled = true;
  state.start.svg.forEach((svg, rotation) => {
    const button = element("button", undefined, {"data-rotation": rotation, title: `${rotation * 90}°`});
    button.append(tileSvg(svg, 1));
    button.onclick = () => play({kind: "start", rotation});
    $("tile-preview").append(button);
  });
}

function tileSvg(markup, scale) {
  const size = state.tile_size;
  const svg = svgElement("svg", {width: size * scale, height: size * scale, viewBox: `0 0 ${size} ${size}`});
  svg.innerHTML = markup;
  return svg;
}

function choose(rect) {
  const [map, x, y] = ["map", "x", "y"].map((k) => Number(rect.dataset[k]));
  const cell = state.options.find((c) => c.map === map && c.x === x && c.y === y);
  const same = pick && pick.cell === cell;
  pick = same ? {...pick, rotation: nextRotation(cell, pick.rotation), follower: null}
    : {cell, rotation: legalRotations(cell)[0], follower: null};
  draw();
}

function nextRotation(cell, rotation) {
  const legal = legalRotations(cell);
  return legal[(legal.indexOf(rotation) + 1) % legal.length];
}

function rotate() {
  if (!pick) return;
  pick.rotation = nextRotation(pick.cell, pick.rotation);
  pick.follower = null;
  draw();
}

// Undo forgets the placement being chosen; with none, it takes back the tile picked from the
// hand (the state's take_back), so another may be picked.
function undo() {
  if (pick) { pick = null; draw(); } else if (state.take_back) play({kind: "take-back"});
}

function confirm() {
  if (!pick) return;
  const {cell, rotation, follower} = pick;
  const spot = follower === null ? null : cell.rotations[String(rotation)][follower];
  play({kind: "place", map: cell.map, x: cell.x, y: cell.y, rotation,
    follower: spot ? spot.segment : null, type: spot ? spot.type : 0});
}

function drawEvents() {
  const items = state.events.map((e) => {
    // In words; the formula that paid it on hover (title) and a click away (it toggles in).
    const li = element("li", `turn ${e.turn}${e.phase === "final" ? " (final)" : ""}: ${e.words}`, {title: e.text});
    li.addEventListener("click", () => {
      li.textContent = li.textContent.endsWith(e.text) ? li.textContent.split(" — ")[0] : `${li.textContent} — ${e.text}`;
    });
    li.addEventListener("mouseenter", () => highlight(e));
    li.addEventListener("mouseleave", () => highlight(null));
    return li;
  });
  $("events").replaceChildren(...items.reverse());
}

function highlight(event) {
  document.querySelectorAll("#board .highlight").forEach((el) => el.remove());
  if (!event) return;
  const where = panel(event.map);
  const svg = document.querySelector("#board svg");
  if (!where || !svg) return;
  for (const [x, y] of event.tiles) {
    svg.append(svgElement("rect", {class: "highlight", x: where.x0 + x * where.size, y: where.y0 + y * where.size,
      width: where.size, height: where.size}));
  }
}

function drawLog() {
  $("log").replaceChildren(...state.log.map((line) => element("li", line)).reverse());  // newest first
}

function drawLinks() {
  const links = $("links");
  links.replaceChildren();
  // Under hands the record names what each player held: the server gives it once the game is over.
  if (state.players[0].holds !== undefined && !state.finished && !state.stopped) return;
  const record = element("a", state.finished ? "download the record" : "download the record so far",
    {href: `/api/tables/${TABLE}/record`});
  links.append(record);
  if (state.finished && state.saved_as) {
    links.append(" · ", element("a", "replay it", {href: `/replay/${encodeURIComponent(state.saved_as)}`}));
  }
  if (state.finished) links.append(" · ", element("a", "new game", {href: "/"}));
}

document.addEventListener("keydown", (event) => {
  // Typing in a field, and the browser's own shortcuts (Ctrl+R, Ctrl+plus), are not the table's.
  if (event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "r" || event.key === "R") rotate();
  else if ((event.key === "d" || event.key === "D") && state && state.tile && state.tile.own) keep();
  else if (event.key === "Escape") undo();
  else if (event.key === "Enter" && pick) { event.preventDefault(); confirm(); }
  else if (event.key === "+" || event.key === "=") setZoom(1.25);
  else if (event.key === "-") setZoom(0.8);
});
function keep() {
  play({kind: "decline"});
}

// Zoom by ``factor`` about the middle of the view: the point there stays there.
function setZoom(factor) {
  const boardPanel = $("board-panel"), pad = parseFloat(getComputedStyle($("board")).paddingLeft);
  const padTop = parseFloat(getComputedStyle($("board")).paddingTop);
  const middle = {x: (boardPanel.scrollLeft + boardPanel.clientWidth / 2 - pad) / zoom,
                  y: (boardPanel.scrollTop + boardPanel.clientHeight / 2 - padTop) / zoom};
  zoom = Math.min(3, Math.max(0.4, zoom * factor));
  localStorage.setItem("carcassonne-zoom", String(zoom));
  draw();
  boardPanel.scrollLeft = middle.x * zoom + pad - boardPanel.clientWidth / 2;
  boardPanel.scrollTop = middle.y * zoom + padTop - boardPanel.clientHeight / 2;
}

$("zoom-in").onclick = () => setZoom(1.25);
$("zoom-out").onclick = () => setZoom(0.8);
$("rotate").onclick = rotate;
$("keep").onclick = keep;
$("undo").onclick = undo;
$("confirm").onclick = confirm;
load();
