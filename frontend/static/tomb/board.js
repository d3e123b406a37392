// Drawing the table: the X of foundations and cells, the stock and the waste.
// Cards are CSS boxes with text glyphs, so they stay crisp at every size.

import { CELLS, FOUNDATIONS, SUIT_GLYPHS, cardName, isRed, moveTo, placeName, rankLabel }
  from "./notation.js";

const FAN = 3;  // waste cards shown fanned; the last is the one in play

export function cardHtml(card, extra = "") {
  const suit = SUIT_GLYPHS[card[1]];
  return `<span class="card${isRed(card) ? " red" : ""}${extra}" aria-hidden="true">`
    + `<span class="ix${card[0] === "T" ? " ten" : ""}">${rankLabel(card)}<br>${suit}</span><span class="pip">${suit}</span></span>`;
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
const top = (pile) => pile[pile.length - 1];

function drawFoundation(slot, name, state) {
  const pile = state.foundations[name];
  const card = top(pile);
  const start = name === "tomb" ? "6" : "7";
  let label = `${placeName(name)}: ${card ? cardName(card) : `empty, takes a ${start}`}`;
  if (name === "tomb") {
    const tomb = state.tomb;
    label += tomb.complete ? ", complete" : `, wants ${tomb.wants}, round ${tomb.round} of 4`;
  } else if (pile.length === 7) {
    label += ", complete";
  }
  setHtml(slot, (card ? cardHtml(card) : emptyHtml(start))
    + `<span class="count" aria-hidden="true">${pile.length}</span>`);
  slot.setAttribute("aria-label", label);
}

function drawCell(slot, name, state) {
  const card = state.cells[name];
  setHtml(slot, card ? cardHtml(card) : emptyHtml(""));
  slot.setAttribute("aria-label", `${placeName(name)}: ${card ? cardName(card) : "empty"}`);
}

function drawStock(slot, state) {
  const count = state.stock_count;
  const canRedeal = count === 0 && state.passes_left > 0 && state.waste.length > 0;
  slot.dataset.move = count ? "D" : "R";
  setHtml(slot, (count ? `<span class="card back" aria-hidden="true"></span>`
    : emptyHtml(canRedeal ? "\u21bb" : "\u2715"))
    + `<span class="count" aria-hidden="true">${count}</span>`);
  const what = count ? `${count} cards, press to turn`
    : (canRedeal ? "empty, press to turn the waste over" : "empty");
  slot.setAttribute("aria-label", `stock: ${what}`);
}

function drawWaste(slot, state, selected) {
  const shown = state.waste.slice(-FAN);
  setHtml(slot, shown.length
    ? shown.map((card, i) => cardHtml(card, i === shown.length - 1 ? " top" : " under")).join("")
    : emptyHtml(""));
  const card = top(state.waste);
  slot.classList.toggle("selected", Boolean(selected && card));
  slot.setAttribute("aria-label", card
    ? `waste: ${cardName(card)} in play, ${state.waste.length} cards${selected ? ", selected" : ""}`
    : "waste: empty");
}

// Draw the whole table; `view` is what the board adds: the selection and the hint.
export function drawTable(table, state, view) {
  const slots = {};
  for (const slot of table.querySelectorAll("[data-slot]")) slots[slot.dataset.slot] = slot;
  for (const name of FOUNDATIONS) drawFoundation(slots[name], name, state);
  for (const name of CELLS) drawCell(slots[name], name, state);
  drawStock(slots.stock, state);
  drawWaste(slots.waste, state, view.selected);
  table.classList.toggle("picking", Boolean(view.selected));
  const legal = new Set(state.legal);
  for (const [name, slot] of Object.entries(slots)) {
    const move = moveTo(name);
    slot.classList.toggle("target", Boolean(move && legal.has(move)));
    slot.classList.toggle("hinted", view.hinted.includes(name));
  }
}
