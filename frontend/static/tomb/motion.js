// Motion, FLIP style: before a redraw note where every card is; after it, slide each
// card that moved from its old place to its new one (First, Last, Invert, Play).
// Which card went where comes from the piles' face-up cards before and after, not from
// a game's names: the move's run flies as one from its path's `from` to its `to`, a
// card that moved by itself flies from the pile it left, a card turned face up turns
// over. Purely cosmetic: the state is drawn at once and input never waits for it.
// Cards that went home in one answer (automatic moves, Finish) arrive one after
// another, so the chain can be seen. Nothing moves under prefers-reduced-motion.

import { cardHtml } from "./board.js";
import { commonPrefix } from "./notation.js";
import { pileOf, upOf } from "./table.js";

const SLIDE_MS = 170;
const STEP_MS = 90;       // between cards of one chain
const CASCADE_MS = 55;    // between cards of a Finish: 52 cards in about 3 s
const reduced = matchMedia("(prefers-reduced-motion: reduce)");

let layer = null;  // fixed container for cards in flight that have no element of their own

export const still = () => reduced.matches;

const key = (pile, at) => `${pile}|${at}`;

// Where each drawn card and each pile is now (call before drawing the new state).
export function measure(table) {
  settle();
  const cards = new Map();
  const piles = new Map();
  for (const slot of table.querySelectorAll("[data-slot]")) {
    const name = slot.dataset.slot;
    const first = slot.querySelector(".card");
    piles.set(name, (first || slot).getBoundingClientRect());
    for (const card of slot.querySelectorAll(".card[data-at]")) {
      cards.set(key(name, card.dataset.at), { box: card.getBoundingClientRect(), card: card.dataset.card });
    }
  }
  return { cards, piles };
}

// End every slide at once: a new state measures cards where they truly are.
export function settle() {
  for (const animation of document.getAnimations()) {
    if (animation.id === "tomb-slide") animation.finish();
  }
  if (layer) layer.replaceChildren();
}

// The cards that arrived on a pile, each with the pile and place it came from, in
// the order they went: the move's own card first, then the rest.
// A card with no source where a back was has been turned face up (`flip`).
function arrivals(before, after, path, stockName) {
  const left = [];  // { card, pile, at } that left a pile
  const came = [];  // { card, pile, at } that came onto one
  for (const name of new Set([...Object.keys(before.piles), ...Object.keys(after.piles)])) {
    const was = upOf(before, name);
    const now = upOf(after, name);
    const kept = commonPrefix(was, now);
    const flipped = pileOf(before, name).down - pileOf(after, name).down;
    was.slice(kept).forEach((card, i) => left.push({ card, pile: name, at: kept + i }));
    now.slice(kept).forEach((card, i) => came.push({ card, pile: name, at: kept + i, flip: kept + i < flipped }));
  }
  const { from, to } = path || {};
  const first = (item) => (item.pile === to ? 0 : 1);
  came.sort((a, b) => first(a) - first(b));
  const taken = new Set();
  return came.map((item) => {
    const mine = (source) => !taken.has(source) && source.card === item.card && source.pile !== item.pile;
    const source = left.find((s) => mine(s) && s.pile === from) || left.find(mine);
    if (source) taken.add(source);
    const run = Boolean(source) && item.pile === to && source.pile === from;  // the move's own cards
    return { ...item, run, source: source || (stockName && !item.flip ? { pile: stockName, at: -1 } : null) };
  });
}

function flip(element, delay) {
  const animation = element.animate(
    [{ transform: "perspective(40em) rotateY(90deg)" }, { transform: "none" }],
    { duration: 180, delay, easing: "ease-out", fill: "backwards" });
  animation.id = "tomb-slide";
  return animation;
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

const cardAt = (table, pile, at) => table.querySelector(`[data-slot="${pile}"] .card[data-at="${at}"]`);

// After the new state is drawn: slide what moved. `seen` is measure()'s answer;
// `path` the move's {from, to, count} when one move was played.
export function play(table, seen, beforeState, afterState, { cascade = false, path = null } = {}) {
  if (still() || !seen || !beforeState.piles || !afterState.piles) return;
  const step = cascade ? CASCADE_MS : STEP_MS;
  const stock = table.querySelector('[data-role="stock"]');
  const stockName = stock && afterState.stock_count !== beforeState.stock_count ? stock.dataset.slot : null;
  const moved = new Set();
  const came = arrivals(beforeState, afterState, path, stockName);
  if (cascade) came.sort((a, b) => a.at - b.at);  // Finish: the first cards of every pile first
  const gap = came.length > 4 ? CASCADE_MS : step;  // a deal onto every pile goes quickly
  // The move's run travels as one piece; what followed it, one card after another.
  let order = came.some((item) => item.run) ? 1 : 0;
  const delays = came.map((item) => (item.run ? 0 : (order++) * gap));
  came.forEach((item, index) => {
    const delay = delays[index];
    const element = cardAt(table, item.pile, item.at);
    if (!item.source) {
      if (item.flip && element) {
        moved.add(element);
        flip(element, delay + SLIDE_MS / 2);  // as the cards on it leave
      }
      return;
    }
    const from = (seen.cards.get(key(item.source.pile, item.source.at)) || {}).box || seen.piles.get(item.source.pile);
    if (!from) return;
    if (element) {
      moved.add(element);
      slide(element, from, delay);
    } else {  // covered at once by a later card: it flies as a ghost and lands under it
      const to = table.querySelector(`[data-slot="${item.pile}"] .card`);
      if (to) flyGhost(item.card, from, to.getBoundingClientRect(), delay);
    }
  });
  // Everything else that changed place: a fan shifting along.
  for (const element of table.querySelectorAll(".card[data-at]")) {
    if (moved.has(element)) continue;
    const slot = element.closest("[data-slot]");
    const was = seen.cards.get(key(slot.dataset.slot, element.dataset.at));
    if (was && was.card === element.dataset.card) slide(element, was.box, 0);
  }
}
