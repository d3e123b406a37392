// Cards and moves in words. Cards are texts ("7H", "TS"); a move is described by its
// path [from pile, to pile] and the table's labels, so no game's pile is named here.

import { labelOf, pileNamed } from "./table.js";

// The stock's moves in every game's notation (RULES.md and its siblings): a ranked
// attempt never takes them back.
export const TURN = "D";
export const REDEAL = "R";

const RANK_NAMES = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_GLYPHS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

export const rankLabel = (card) => (card[0] === "T" ? "10" : card[0]);
export const isRed = (card) => card[1] === "H" || card[1] === "D";
export const cardName = (card) => `${RANK_NAMES[card[0]] || card[0]} of ${SUIT_NAMES[card[1]]}`;

const top = (pile) => (pile && pile.length ? pile[pile.length - 1] : null);
const pathOf = (state, move) => (state.paths && state.paths[move]) || null;
const roleOf = (table, name) => (pileNamed(table, name) || {}).role;
// A pile's label after "from" or "to": "the waste", "the tomb", but "pile 5".
export function theLabel(table, name) {
  const label = labelOf(table, name);
  return /^the |\d$/i.test(label) ? label : `the ${label}`;
}
const the = theLabel;

// The piles a move involves, for lighting a hint up.
export const movePlaces = (move, state) => (move && pathOf(state, move)) || [];

// A suggested move in words: "play the 4 of clubs from the waste to the north cell".
export function adviceFor(move, state, table) {
  const path = pathOf(state, move);
  if (!path) return `play ${move}`;
  const [from, to] = path;
  if (roleOf(table, from) === "stock") return `turn ${the(table, from)}`;
  if (roleOf(table, to) === "stock") return `turn ${the(table, from)} over into ${the(table, to)}`;
  const card = top(state.piles[from]);
  if (!card) return `play from ${the(table, from)} to ${the(table, to)}`;
  if (roleOf(table, to) === "cell") return `park the ${cardName(card)} in ${the(table, to)}`;
  return `play the ${cardName(card)} from ${the(table, from)} to ${the(table, to)}`;
}

// Words for one move the server played, from the states before and after it:
// "7 of hearts went from the waste to the north-west corner."
export function describeMove(move, before, after, table) {
  const path = pathOf(before, move);
  if (!path) return `${move} played.`;
  const [from, to] = path;
  let words;
  if (roleOf(table, from) === "stock") {
    const dealt = arrived(before, after);
    const onto = new Set(dealt.map(([, pile]) => pile));
    if (onto.size > 1) return `${dealt.length} cards dealt from ${the(table, from)}.`;
    const pile = onto.size ? [...onto][0] : to;
    const card = top(after.piles[pile] || []);
    words = `${capital(labelOf(table, from))} turned${card ? `: ${cardName(card)} on ${the(table, pile)}` : ""}.`;
  } else if (roleOf(table, to) === "stock") {
    words = `${capital(labelOf(table, from))} turned over into ${the(table, to)}.`;
  } else {
    const card = top(before.piles[from]);
    const what = card ? cardName(card) : "The card";
    words = roleOf(table, to) === "cell" ? `${what} parked in ${the(table, to)}.`
      : `${what} went from ${the(table, from)} to ${the(table, to)}.`;
  }
  return words + describeOthers(before, after, table, path);
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// Cards that moved by themselves with the player's move (a cell's card going home,
// a place refilled): " 4 of clubs went from the north cell to the tomb."
function describeOthers(before, after, table, [from, to]) {
  const said = [];
  const gone = [];  // [card, pile] that left a pile other than by the move itself
  for (const [name, cards] of Object.entries(before.piles)) {
    const now = after.piles[name] || [];
    const kept = commonPrefix(cards, now);
    const left = cards.slice(kept).filter((card, i) => !(name === from && kept + i === cards.length - 1));
    for (const card of left) gone.push([card, name]);
  }
  const moved = top(before.piles[from]);
  if (moved && !(after.piles[to] || []).includes(moved)) gone.push([moved, to]);
  const placed = new Set();  // [pile, card] arrivals told already
  for (const [card, was] of gone) {
    const landed = Object.entries(after.piles).find(([name, cards]) => name !== was
      && cards.lastIndexOf(card) >= commonPrefix(before.piles[name] || [], cards));
    if (!landed) continue;
    placed.add(`${landed[0]}|${card}`);
    said.push(` ${cardName(card)} went from ${the(table, was)} to ${the(table, landed[0])}.`);
  }
  // A place filled from the stock at once (a cross place refilled): say what came.
  const stock = table.piles.find((pile) => pile.role === "stock");
  if (stock && after.stock_count < before.stock_count) {
    for (const [card, pile] of arrived(before, after)) {
      if (pile === to || placed.has(`${pile}|${card}`)) continue;
      said.push(` ${cardName(card)} dealt from ${the(table, stock.name)} to ${the(table, pile)}.`);
    }
  }
  return said.join("");
}

// The cards that came onto the piles, [card, pile] each.
function arrived(before, after) {
  const came = [];
  for (const [name, cards] of Object.entries(after.piles)) {
    const kept = commonPrefix(before.piles[name] || [], cards);
    for (const card of cards.slice(kept)) came.push([card, name]);
  }
  return came;
}

export function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return i;
}
