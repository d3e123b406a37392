// A game's table as data (patience.protocol.Table.as_data): which piles, where on
// a grid, what each is called and takes. Everything here reads that data and the
// state's `piles`, `legal`, `paths` and `pickable` (docs/view-contract.md); no pile
// is named in code, so one board plays any game.

// The table a game payload describes.
export const tableOf = (payload) => payload.table;

export const slugOf = (named) => (named && typeof named === "object" ? named.slug : named);

// -- piles ({down: a count, up: bottom first}), moves by paths ({from, to, count}) --

const NO_PILE = Object.freeze({ down: 0, up: Object.freeze([]) });
export const pileOf = (state, name) => (state && state.piles && state.piles[name]) || NO_PILE;
export const upOf = (state, name) => pileOf(state, name).up;
// The bottom card of the `count` top cards of a pile.
export const headOf = (state, name, count = 1) => upOf(state, name)[upOf(state, name).length - count] || null;

export const pathOf = (state, move) => (state.paths && state.paths[move]) || null;
const paths = (state) => (state.legal || []).map((move) => pathOf(state, move)).filter(Boolean);
// The first legal move whose path passes `test`; a null `count` lifts any.
const findMove = (state, test) => (state.legal || []).find((move) => pathOf(state, move) && test(pathOf(state, move))) || null;
const lifts = (path, count) => count == null || path.count === count;

// The first legal move lifting `count` cards from one pile to another.
export const moveBetween = (state, from, to, count = null) =>
  findMove(state, (path) => path.from === from && path.to === to && lifts(path, count));

// The piles `count` cards of `from` may go to now.
export const targetsFrom = (state, from, count = null) =>
  new Set(paths(state).filter((path) => path.from === from && lifts(path, count)).map((path) => path.to));

// The piles that may send cards to `to` now.
export const sourcesOf = (state, to) => new Set(paths(state).filter((path) => path.to === to).map((path) => path.from));

const stockName = (table) => (pilesWithRole(table, "stock")[0] || {}).name;

// How many top cards of a pile may be picked up by hand: `pickable`, less the stock's
// moves (a turn, a redeal: a tap on the stock).
export function liftCounts(state, table, from) {
  const stock = stockName(table);
  const allowed = (state.pickable || {})[from] || [];
  const found = paths(state).filter((path) => path.from === from && from !== stock && path.to !== stock)
    .map((path) => path.count);
  return allowed.filter((count) => found.includes(count));
}

// Clicking the stock: the move that starts there (a turn, a deal), else the one that
// ends there (the waste or the piles gathered back).
export function stockMove(state, table) {
  const stock = stockName(table);
  return stock ? findMove(state, (path) => path.from === stock) || findMove(state, (path) => path.to === stock) : null;
}

// The move that sends a pile's top card home: its first legal path to a foundation.
export function homeMove(state, table, from) {
  const homes = pilesWithRole(table, "foundation").map((pile) => pile.name);
  return findMove(state, (path) => path.from === from && path.count === 1 && homes.includes(path.to));
}

export const pilesWithRole = (table, role) => table.piles.filter((pile) => pile.role === role);
export const pileNamed = (table, name) => table.piles.find((pile) => pile.name === name) || null;

// What a person calls a pile (t("north-west corner")), from the table's labels.
export function labelOf(table, name) {
  const pile = pileNamed(table, name);
  return pile ? pile.label : name;
}

// -- the layout: the grid the server gave, or the same with stock and waste below ----

// Slot sizes in card widths (play.css): a slot is 1.16 wide and 1.56 high; fanned
// right, .3 more a card it spreads (1.9 for three); fanned down, 3.6; gaps are .14.
// Each row also holds a caption line under its cards (the pile's name and counts,
// never over a card): --cap, measured apart (looks.js), as `rows` counts them.
const SLOT_W = 1.16;
const SLOT_H = 1.56;
const FAN_STEP = 0.3;
const FAN_RIGHT = 3;  // what a right fan whose show is 0 (all) spreads: what 1.9 holds
const FANNED_H = 3.6;
const GAP = 0.14;

export const fanned = (pile) => pile.show || FAN_RIGHT;  // the cards a right fan spreads
const fanWidth = (pile) => (fanned(pile) > 1 ? SLOT_W + FAN_STEP * (fanned(pile) - 1) + GAP : SLOT_W);
const spanWidth = (span) => span * SLOT_W + (span - 1) * GAP;

function measureLayout(places, table) {
  const rows = Math.max(0, ...places.map((place) => place.row + 1));
  const cols = Math.max(0, ...places.map((place) => place.col + place.span));
  const widths = Array(cols).fill(SLOT_W);
  const heights = Array(rows).fill(SLOT_H);
  const flexRows = Array(rows).fill(false);
  for (const place of places) {
    const pile = pileNamed(table, place.name);
    if (pile.fan === "right" && place.span === 1) widths[place.col] = Math.max(widths[place.col], fanWidth(pile));
    if (pile.fan === "down") {
      heights[place.row] = FANNED_H;
      flexRows[place.row] = true;
    }
  }
  const sum = (values) => values.reduce((a, b) => a + b, 0) + GAP * Math.max(0, values.length - 1);
  return { places, widths, heights, flexRows, rows, w: sum(widths), h: sum(heights) };
}

// The table as sent: each pile where the game put it; a pile fanned right spreads over
// empty places to its right before it widens its column (Klondike's waste).
function givenLayout(table) {
  const cols = Math.max(0, ...table.piles.map((pile) => pile.col + 1));
  const taken = new Set(table.piles.map((pile) => `${pile.row}|${pile.col}`));
  const places = table.piles.map((pile) => {
    let span = 1;
    if (pile.fan === "right") {
      while (spanWidth(span) < fanWidth(pile) && pile.col + span < cols && !taken.has(`${pile.row}|${pile.col + span}`)) {
        span += 1;
      }
      if (spanWidth(span) < fanWidth(pile)) span = 1;  // no room beside it: its column widens
    }
    return { name: pile.name, row: pile.row, col: pile.col, span };
  });
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
