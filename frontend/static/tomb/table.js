// A game's table as data (patience.protocol.Table.as_data): which piles, where on
// a grid, what each is called and takes. Everything here reads that data and the
// state's `legal` and `paths`; no pile is named in code, so one board plays any game.

// The table a game payload describes.
export const tableOf = (payload) => payload.table;

export const slugOf = (named) => (named && typeof named === "object" ? named.slug : named);

// -- moves by their paths ------------------------------------------------------

const pathOf = (state, move) => (state.paths && state.paths[move]) || null;

// The first legal move from one pile to another (several may share a path: the first).
export function moveBetween(state, from, to) {
  return state.legal.find((move) => {
    const path = pathOf(state, move);
    return path && path[0] === from && path[1] === to;
  }) || null;
}

// The piles the top card of `from` may go to now.
export function targetsFrom(state, from) {
  const targets = new Set();
  for (const move of state.legal) {
    const path = pathOf(state, move);
    if (path && path[0] === from) targets.add(path[1]);
  }
  return targets;
}

// The piles that may send a card to `to` now.
export function sourcesOf(state, to) {
  const sources = new Set();
  for (const move of state.legal) {
    const path = pathOf(state, move);
    if (path && path[1] === to) sources.add(path[0]);
  }
  return sources;
}

// Clicking the stock: the move that starts there (a turn, a deal), else the one that
// ends there (the waste or the piles gathered back).
export function stockMove(state, table) {
  const stock = pilesWithRole(table, "stock")[0];
  if (!stock) return null;
  const starts = state.legal.find((move) => (pathOf(state, move) || [])[0] === stock.name);
  return starts || state.legal.find((move) => (pathOf(state, move) || [])[1] === stock.name) || null;
}

// The move that sends a pile's top card home: its first legal path to a foundation.
export function homeMove(state, table, from) {
  const homes = new Set(pilesWithRole(table, "foundation").map((pile) => pile.name));
  return state.legal.find((move) => {
    const path = pathOf(state, move);
    return path && path[0] === from && homes.has(path[1]);
  }) || null;
}

export const pilesWithRole = (table, role) => table.piles.filter((pile) => pile.role === role);
export const pileNamed = (table, name) => table.piles.find((pile) => pile.name === name) || null;

// What a person calls a pile (t("north-west corner")), from the table's labels.
export function labelOf(table, name) {
  const pile = pileNamed(table, name);
  return pile ? pile.label : name;
}

// -- the layout: the grid the server gave, or the same with stock and waste below ----

// Slot sizes in card widths (play.css): a slot is 1.16 wide and 1.56 high; a pile
// fanned right needs 1.9, one fanned down 2.5; gaps are .14.
const SLOT_W = 1.16;
const SLOT_H = 1.56;
const FANNED_W = 1.9;
const FANNED_H = 2.5;
const GAP = 0.14;

function measureLayout(places, table) {
  const rows = Math.max(0, ...places.map((place) => place.row + 1));
  const cols = Math.max(0, ...places.map((place) => place.col + place.span));
  const widths = Array(cols).fill(SLOT_W);
  const heights = Array(rows).fill(SLOT_H);
  for (const place of places) {
    const pile = pileNamed(table, place.name);
    if (pile.fan === "right" && place.span === 1) widths[place.col] = FANNED_W;
    if (pile.fan === "down") heights[place.row] = FANNED_H;
  }
  const sum = (values) => values.reduce((a, b) => a + b, 0) + GAP * Math.max(0, values.length - 1);
  return { places, widths, heights, w: sum(widths), h: sum(heights) };
}

// The table as sent: each pile where the game put it.
function givenLayout(table) {
  const places = table.piles.map((pile) => ({ name: pile.name, row: pile.row, col: pile.col, span: 1 }));
  return measureLayout(places, table);
}

// For a narrow screen: the stock and the waste on a row of their own under the rest,
// the columns they leave empty closed up. Null when that changes nothing.
function stackedLayout(table) {
  const moved = new Set(["stock", "waste"]);
  const rest = table.piles.filter((pile) => !moved.has(pile.role));
  const aside = table.piles.filter((pile) => moved.has(pile.role));
  if (!aside.length || !rest.length) return null;
  const usedCols = [...new Set(rest.map((pile) => pile.col))].sort((a, b) => a - b);
  if (usedCols.length === Math.max(...table.piles.map((pile) => pile.col)) + 1) return null;
  const rows = Math.max(...rest.map((pile) => pile.row)) + 1;
  const places = rest.map((pile) => ({ name: pile.name, row: pile.row, col: usedCols.indexOf(pile.col), span: 1 }));
  aside.sort((a, b) => (a.role === "stock" ? -1 : 1) - (b.role === "stock" ? -1 : 1));
  aside.forEach((pile, i) => {
    const last = i === aside.length - 1;
    const span = last ? Math.max(1, usedCols.length - i) : 1;  // the waste takes the rest of the row
    places.push({ name: pile.name, row: rows, col: i, span });
  });
  return measureLayout(places, table);
}

// The layouts the board may use, by name: looks.js keeps the one with the biggest cards.
export function layoutsOf(table) {
  const layouts = { wide: givenLayout(table) };
  const stacked = stackedLayout(table);
  if (stacked) layouts.tall = stacked;
  return layouts;
}

// -- the keyboard: arrows go to the nearest pile that way ------------------------

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export const isStep = (key) => Boolean(STEPS[key]);

// The pile an arrow leads to from `name` in a layout: the closest one in that
// direction, straight lines first; the same pile at the table's edge.
export function stepFrom(layout, name, key) {
  const [dr, dc] = STEPS[key];
  const here = layout.places.find((place) => place.name === name);
  if (!here) return name;
  const centre = (place) => [place.row, place.col + (place.span - 1) / 2];
  const [r0, c0] = centre(here);
  let best = null;
  for (const place of layout.places) {
    if (place === here) continue;
    const [r, c] = centre(place);
    const ahead = (r - r0) * dr + (c - c0) * dc;
    if (ahead <= 0) continue;
    const aside = Math.abs(dr ? c - c0 : r - r0);
    const score = ahead + 3 * aside;
    if (!best || score < best.score) best = { name: place.name, score };
  }
  return best ? best.name : name;
}
