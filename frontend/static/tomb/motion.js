// Motion, FLIP style: before a redraw note where every card is; after it, slide each
// card that moved from its old place to its new one (First, Last, Invert, Play).
// Purely cosmetic: the state is drawn at once and input never waits for it. Cards
// that went home in one answer (the cells' automatic moves, Finish) arrive one
// after another, so the chain can be seen. Nothing moves under prefers-reduced-motion.

import { cardHtml } from "./board.js";
import { CELLS, FOUNDATIONS } from "./notation.js";

const SLIDE_MS = 170;
const STEP_MS = 90;       // between cards of one chain
const CASCADE_MS = 55;    // between cards of a Finish: 52 cards in about 3 s
const reduced = matchMedia("(prefers-reduced-motion: reduce)");

let layer = null;  // fixed container for cards in flight that have no element of their own

export const still = () => reduced.matches;

// Where each drawn card is now (call before drawing the new state).
export function measure(table) {
  settle();
  const places = new Map();
  for (const card of table.querySelectorAll(".card[data-card]")) {
    if (!card.classList.contains("ghost")) places.set(card.dataset.card, card.getBoundingClientRect());
  }
  const rect = (name) => table.querySelector(`[data-slot="${name}"] .card`)?.getBoundingClientRect();
  return { places, stock: rect("stock"), waste: rect("waste") };
}

// End every slide at once: a new state measures cards where they truly are.
export function settle() {
  for (const animation of document.getAnimations()) {
    if (animation.id === "tomb-slide") animation.finish();
  }
  if (layer) layer.replaceChildren();
}

// The cards that arrived on a foundation or a cell, in the order they went.
function arrivals(before, after) {
  const came = [];
  const wasteOrder = (card) => {
    const at = before.waste.lastIndexOf(card);
    return at < 0 ? 0 : before.waste.length - at;  // the top went first
  };
  for (const name of FOUNDATIONS) {
    const had = before.foundations[name].length;
    after.foundations[name].slice(had).forEach((card, i) => came.push({ card, to: name, order: i }));
  }
  for (const name of CELLS) {
    const card = after.cells[name];
    if (card && card !== before.cells[name]) came.push({ card, to: name, order: 0 });
  }
  const cellCards = new Set(CELLS.map((name) => before.cells[name]).filter(Boolean));
  // From the waste first (top first), then the cells' automatic moves.
  const rank = (item) => (cellCards.has(item.card) ? 1000 + item.order : wasteOrder(item.card));
  return came.sort((a, b) => rank(a) - rank(b));
}

function slide(element, from, delay, z = 5) {
  const to = element.getBoundingClientRect();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  const animation = element.animate(
    [{ transform: `translate(${dx}px, ${dy}px)`, zIndex: z }, { transform: "none", zIndex: z }],
    { duration: SLIDE_MS, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  animation.id = "tomb-slide";
  return animation;
}

function flyGhost(card, from, to, delay) {
  if (!layer) {
    layer = document.createElement("div");
    layer.className = "flight";
    layer.setAttribute("aria-hidden", "true");
    document.body.append(layer);
  }
  const holder = document.createElement("div");
  holder.innerHTML = cardHtml(card);
  const ghost = holder.firstChild;
  ghost.classList.add("flying");
  Object.assign(ghost.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`,
    height: `${to.height}px` });
  layer.append(ghost);
  const animation = slide(ghost, from, delay, 100 - Math.round(delay / 10));
  if (animation) animation.finished.then(() => ghost.remove(), () => ghost.remove());
  else ghost.remove();
}

// After the new state is drawn: slide what moved. `before` is measure()'s answer.
export function play(table, seen, beforeState, afterState, { cascade = false } = {}) {
  if (still() || !seen) return;
  const step = cascade ? CASCADE_MS : STEP_MS;
  const source = (card) => seen.places.get(card) || (beforeState.waste.includes(card) ? seen.waste : null)
    || seen.stock;
  const moved = new Set();
  arrivals(beforeState, afterState).forEach((item, index) => {
    moved.add(item.card);
    const from = source(item.card);
    if (!from) return;
    const element = table.querySelector(`[data-slot="${item.to}"] .card[data-card="${item.card}"]`);
    if (element) slide(element, from, index * step);
    else {  // covered at once by a later card: it flies as a ghost and lands under it
      const to = table.querySelector(`[data-slot="${item.to}"] .card`);
      if (to) flyGhost(item.card, from, to.getBoundingClientRect(), index * step);
    }
  });
  // Everything else that changed place: waste cards turned from the stock, a card
  // taken back by an undo, the fan shifting.
  for (const element of table.querySelectorAll(".card[data-card]")) {
    const card = element.dataset.card;
    if (moved.has(card)) continue;
    const from = seen.places.get(card) || (afterState.waste.includes(card) ? seen.stock : null);
    if (from) slide(element, from, 0);
  }
}
