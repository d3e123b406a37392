// Cards and moves in words, in the page's language. Cards are texts ("7H", "TS"); a move
// is described by its path ({from, to, count}) and the table's labels (places.js gives
// each its forms), so no game's pile is named here. Every sentence is one message with
// named placeholders: Russian and Finnish order and inflect its parts their own way.

import { t, tc, tf, tnf } from "./i18n.js";
import { placeFrom, placeIn, placeTo, thePlace } from "./places.js";
import { headOf, labelOf, pathOf, pileNamed, pileOf, upOf } from "./table.js";

const RANK_NAMES = {
  A: tc("rank", "Ace"), 2: tc("rank", "2"), 3: tc("rank", "3"), 4: tc("rank", "4"),
  5: tc("rank", "5"), 6: tc("rank", "6"), 7: tc("rank", "7"), 8: tc("rank", "8"),
  9: tc("rank", "9"), T: tc("rank", "10"), J: tc("rank", "Jack"), Q: tc("rank", "Queen"),
  K: tc("rank", "King"),
};
// The letters on the cards' corners (Russian cards say Т, В, Д, К).
const RANK_LETTERS = {
  A: tc("rank letter", "A"), J: tc("rank letter", "J"), Q: tc("rank letter", "Q"),
  K: tc("rank letter", "K"), T: "10",
};
const SUIT_NAMES = { C: tc("suit", "clubs"), D: tc("suit", "diamonds"), H: tc("suit", "hearts"),
  S: tc("suit", "spades") };
export const SUIT_GLYPHS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

export const rankLabel = (card) => RANK_LETTERS[card[0]] || card[0];
// A rank alone ("K", "T", "6"), as the cards' corners write it.
export const rankLetter = (rank) => RANK_LETTERS[rank] || rank;
export const isRed = (card) => card[1] === "H" || card[1] === "D";
// "7 of hearts", "семёрка червей", "herttaseitsemän".
export const cardName = (card) => tf(t("%(rank)s of %(suit)s"),
  { rank: RANK_NAMES[card[0]] || card[0], suit: SUIT_NAMES[card[1]] || card[1] });

const roleOf = (table, name) => (pileNamed(table, name) || {}).role;
// A pile's name after "on": "the waste", "the tomb", but "pile 5".
export const theLabel = (table, name) => thePlace(labelOf(table, name));
const from = (table, name) => placeFrom(labelOf(table, name));
const to = (table, name) => placeTo(labelOf(table, name));

// A sentence's first letter up: a card's name may start it ("семёрка червей: …").
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// The piles a move involves, for lighting a hint up.
export function movePlaces(move, state) {
  const path = move && pathOf(state, move);
  return path ? [path.from, path.to] : [];
}

// A suggested move in words: "play the 4 of clubs from the waste to the north cell".
export function adviceFor(move, state, table) {
  const path = pathOf(state, move);
  if (!path) return tf(t("play %(move)s"), { move });
  const { from: source, to: target, count } = path;
  if (roleOf(table, source) === "stock") return t("turn the stock");
  if (roleOf(table, target) === "stock") {
    return roleOf(table, source) === "waste" ? t("turn the waste over into the stock")
      : t("gather the piles into the stock");
  }
  const card = headOf(state, source, count);
  const places = { from: from(table, source), to: to(table, target) };
  if (!card) return tf(t("play %(from)s %(to)s"), places);
  return tf(t("play the %(card)s %(from)s %(to)s"), { card: cardName(card), ...places });
}

// Words for one move the server played, from the states before and after it:
// "7 of hearts went from the waste to the north-west corner."
export function describeMove(move, before, after, table) {
  const path = pathOf(before, move);
  if (!path) return tf(t("%(move)s played."), { move });
  const { from: source, to: target, count } = path;
  let words;
  if (roleOf(table, source) === "stock") {
    const dealt = arrived(before, after);
    const onto = new Set(dealt.map(([, pile]) => pile));
    if (onto.size > 1) {
      return tnf("%(count)s card dealt from the stock.", "%(count)s cards dealt from the stock.",
        dealt.length);
    }
    const pile = onto.size ? [...onto][0] : target;
    const card = headOf(after, pile);
    if (!card) words = t("Stock turned.");
    else if (roleOf(table, pile) === "waste") words = tf(t("Stock turned: %(card)s on the waste."), { card: cardName(card) });
    else words = tf(t("Stock turned: %(card)s dealt %(to)s."), { card: cardName(card), to: to(table, pile) });
  } else if (roleOf(table, target) === "stock") {
    words = roleOf(table, source) === "waste" ? t("Waste turned over into the stock.")
      : t("The piles gathered back into the stock.");
  } else {
    const card = headOf(before, source, count);
    const what = card ? cardName(card) : t("The card");
    if (count > 1 && card) {
      words = tnf("%(card)s and the %(count)s card on it went %(from)s %(to)s.",
        "%(card)s and the %(count)s cards on it went %(from)s %(to)s.", count - 1,
        { card: what, from: from(table, source), to: to(table, target) });
    } else {
      words = roleOf(table, target) === "cell"
        ? tf(t("%(card)s parked %(in)s."), { card: what, in: placeIn(labelOf(table, target)) })
        : wentWords(what, table, source, target);
    }
  }
  return capital(words) + describeOthers(before, after, table, path);
}

const wentWords = (card, table, source, target) =>
  tf(t("%(card)s went %(from)s %(to)s."), { card, from: from(table, source), to: to(table, target) });

// Cards that moved by themselves with the player's move (a cell's card going home,
// a place refilled) or turned face up: " 4 of clubs went from the north cell to the tomb."
function describeOthers(before, after, table, { from: source, to: target, count = 1 }) {
  const said = [];
  const gone = [];  // [card, pile] that left a pile other than by the move itself
  for (const name of Object.keys(before.piles)) {
    const cards = upOf(before, name);
    const now = upOf(after, name);
    const kept = commonPrefix(cards, now);
    const left = cards.slice(kept).filter((card, i) => !(name === source && kept + i >= cards.length - count));
    for (const card of left) gone.push([card, name]);
  }
  const moved = headOf(before, source, count);
  if (moved && !upOf(after, target).includes(moved)) gone.push([moved, target]);
  const placed = new Set();  // [pile, card] arrivals told already
  for (const [card, was] of gone) {
    const landed = Object.keys(after.piles).find((name) => name !== was
      && upOf(after, name).lastIndexOf(card) >= commonPrefix(upOf(before, name), upOf(after, name)));
    if (!landed) continue;
    placed.add(`${landed}|${card}`);
    said.push(" " + capital(wentWords(cardName(card), table, was, landed)));
  }
  for (const name of Object.keys(after.piles)) {
    const turned = roleOf(table, name) === "stock" ? 0 : pileOf(before, name).down - pileOf(after, name).down;
    for (const card of upOf(after, name).slice(0, Math.max(0, turned))) {
      said.push(" " + capital(tf(t("%(card)s turned face up."), { card: cardName(card) })));
    }
  }
  // A place filled from the stock at once (a cross place refilled): say what came.
  const stock = table.piles.find((pile) => pile.role === "stock");
  if (stock && after.stock_count < before.stock_count) {
    for (const [card, pile] of arrived(before, after)) {
      if (pile === target || placed.has(`${pile}|${card}`)) continue;
      said.push(" " + capital(tf(t("%(card)s dealt %(from)s %(to)s."),
        { card: cardName(card), from: from(table, stock.name), to: to(table, pile) })));
    }
  }
  return said.join("");
}

// The cards that came onto the piles, [card, pile] each.
function arrived(before, after) {
  const came = [];
  for (const name of Object.keys(after.piles)) {
    const cards = upOf(after, name);
    const kept = commonPrefix(upOf(before, name), cards);
    for (const card of cards.slice(kept)) came.push([card, name]);
  }
  return came;
}

export function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return i;
}
