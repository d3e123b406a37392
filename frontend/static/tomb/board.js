// Drawing the table: the X of foundations and cells, the stock and the waste.
// Cards are CSS boxes with text glyphs, so they stay crisp at every size. Each card
// carries data-card (its text, e.g. "7H") so motion.js can slide it to where it went.

import { CELLS, CORNERS, FOUNDATIONS, SUIT_GLYPHS, cardName, isRed, moveTo, placeName, rankLabel }
  from "./notation.js";

const FAN = 3;  // waste cards shown fanned; the last is the one in play
const RANK_WORDS = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };
const NEXT_RANK = { 7: "8", 8: "9", 9: "10", T: "J", J: "Q", Q: "K" };

// What each part is, for a first game (shown while #play has the class "coach").
const PART_NAMES = {
  corner: "corner 7\u2192K", tomb: "tomb 6\u2192A \u00d74", cell: "cell: one card from the waste",
  stock: "stock", waste: "waste",
};

export function cardHtml(card, extra = "") {
  const suit = SUIT_GLYPHS[card[1]];
  return `<span class="card${isRed(card) ? " red" : ""}${extra}" data-card="${card}" aria-hidden="true">`
    + `<span class="ix${card[0] === "T" ? " ten" : ""}">${rankLabel(card)}<br>${suit}</span>`
    + `<span class="pip">${suit}</span><span class="ix far">${rankLabel(card)}<br>${suit}</span></span>`;
}

// Touch the DOM only where the picture changed: a card being dragged or tapped
// must not be replaced by an identical one under the player's finger.
const drawn = new WeakMap();
function setHtml(slot, html) {
  if (drawn.get(slot) === html) return;
  slot.innerHTML = html;
  drawn.set(slot, html);
}

const emptyHtml = (text) => `<span class="card empty" aria-hidden="true">${text}</span>`;
const badge = (kind, text) => `<span class="badge ${kind}" aria-hidden="true">${text}</span>`;
const partHtml = (name) => `<span class="part" aria-hidden="true">${PART_NAMES[name]}</span>`;
const top = (pile) => pile[pile.length - 1];

// The rank a corner takes next, as a label: "7" empty, "9" on an 8, null when complete.
function cornerWants(pile) {
  const card = top(pile);
  if (!card) return "7";
  return NEXT_RANK[card[0]] || null;
}

function drawFoundation(slot, name, state, hinted) {
  const pile = state.foundations[name];
  const card = top(pile);
  const tomb = name === "tomb";
  let label = `${placeName(name)}: ${card ? cardName(card) : `empty, takes a ${tomb ? 6 : 7}`}`;
  let wants;
  if (tomb) {
    const t = state.tomb;
    label += t.complete ? ", complete" : `, wants ${rankWord(t.wants)}, round ${t.round} of 4`;
    wants = t.complete ? badge("wants done", "done") : badge("wants", `wants ${t.wants} \u00b7 ${t.round}/4`);
  } else {
    const next = cornerWants(pile);
    label += next ? (card ? `, wants ${rankWord(next)}` : "") : ", complete";
    wants = badge(next ? "wants" : "wants done", next ? `next ${next === "T" ? "10" : next}` : "K \u2713");
  }
  if (hinted) label += ", hinted: play the waste card here";
  setHtml(slot, (card ? cardHtml(card) : emptyHtml(tomb ? "6" : "7")) + wants
    + partHtml(tomb ? "tomb" : "corner"));
  slot.setAttribute("aria-label", label);
}

const rankWord = (rank) => RANK_WORDS[rank] || String(rank);

function drawCell(slot, name, state, hinted) {
  const card = state.cells[name];
  setHtml(slot, (card ? cardHtml(card, " parked") : emptyHtml("")) + partHtml("cell"));
  slot.classList.toggle("full", Boolean(card));
  slot.setAttribute("aria-label", `${placeName(name)}: ${card ? cardName(card) : "empty"}`
    + (hinted ? ", hinted: park the waste card here" : ""));
}

function drawStock(slot, state, hinted) {
  const count = state.stock_count;
  const canRedeal = count === 0 && state.passes_left > 0 && state.waste.length > 0;
  slot.dataset.move = count ? "D" : "R";
  const pass = state.passes > 1 ? `pass ${state.pass}/${state.passes}` : "one pass";
  setHtml(slot, (count ? `<span class="card back" aria-hidden="true"></span>`
    : emptyHtml(canRedeal ? "\u21bb" : "\u2715"))
    + badge("count", String(count)) + badge("wants", pass) + partHtml("stock"));
  const what = count ? `${count} cards, press to turn`
    : (canRedeal ? "empty, press to turn the waste over" : "empty");
  slot.setAttribute("aria-label", `stock: ${what}; pass ${state.pass} of ${state.passes}`
    + (hinted ? ", hinted: turn it" : ""));
}

function drawWaste(slot, state, selected, hinted) {
  const shown = state.waste.slice(-FAN);
  setHtml(slot, (shown.length
    ? shown.map((card, i) => cardHtml(card, i === shown.length - 1 ? " top" : " under")).join("")
    : emptyHtml("")) + badge("count", String(state.waste.length)) + partHtml("waste"));
  const card = top(state.waste);
  const picked = Boolean(selected && card);
  slot.classList.toggle("selected", picked);
  slot.setAttribute("aria-pressed", String(picked));
  slot.setAttribute("aria-label", card
    ? `waste: ${cardName(card)} in play, ${state.waste.length} cards${picked ? ", selected" : ""}`
      + (hinted ? ", hinted" : "")
    : "waste: empty");
}

// Draw the whole table; `view` is what the board adds: the selection and the hint.
export function drawTable(table, state, view) {
  const slots = {};
  for (const slot of table.querySelectorAll("[data-slot]")) slots[slot.dataset.slot] = slot;
  const hinted = (name) => view.hinted.includes(name);
  for (const name of FOUNDATIONS) drawFoundation(slots[name], name, state, hinted(name));
  for (const name of CELLS) drawCell(slots[name], name, state, hinted(name));
  drawStock(slots.stock, state, hinted("stock"));
  drawWaste(slots.waste, state, view.selected, hinted("waste"));
  table.classList.toggle("picking", Boolean(view.selected));
  const legal = new Set(state.legal);
  for (const [name, slot] of Object.entries(slots)) {
    const move = moveTo(name);
    slot.classList.toggle("target", Boolean(move && legal.has(move)));
    slot.classList.toggle("hinted", hinted(name));
  }
  for (const name of CORNERS) slots[name].classList.toggle("complete", state.foundations[name].length === 7);
  slots.tomb.classList.toggle("complete", state.tomb.complete);
}
