// Drawing any game's table from its description (table.js): one button per pile,
// placed on the game's grid, drawn by its role (stock, waste, foundation, cell, pile)
// and its fan (top card only, spread right, spread down). Cards are CSS boxes with
// text glyphs, so they stay crisp at every size. Each card carries data-card (its
// text) and data-at (its place in its pile) so motion.js can slide it where it went.

import { formatNumber, t, tc, tf, tnf } from "./i18n.js";
import { SUIT_GLYPHS, cardName, isRed, rankLabel } from "./notation.js";
import { acceptsText, placeName } from "./places.js";
import { stockMove, targetsFrom } from "./table.js";

const FAN_RIGHT = 3;   // cards shown spread right (the waste): the last is in play
const FAN_DOWN = 4;    // cards shown spread down (a slot 2.5 cards high): the count says the rest

export function cardHtml(card, extra = "", at = "") {
  const suit = SUIT_GLYPHS[card[1]];
  return `<span class="card${isRed(card) ? " red" : ""}${extra}" data-card="${card}"`
    + `${at === "" ? "" : ` data-at="${at}"`} aria-hidden="true">`
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
// A badge's kind (its CSS class) and its text: a count, a pass.
const COUNT = "count";
const WANTS = "wants";
const badge = (kind, text) => `<span class="badge ${kind}" aria-hidden="true">${text}</span>`;
const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const partHtml = (pile) => `<span class="part" aria-hidden="true">${escape(placeName(pile.label))}</span>`;
// An empty foundation shows the rank it starts with, as the cards' corners write it.
const baseLetter = (base) => (base ? rankLabel(base) : "");
const top = (cards) => cards[cards.length - 1];

// -- building the slots once per table ----------------------------------------------

let built = { key: "", slots: {} };

// One button per pile, in the table's order (the reading order of a screen reader).
function build(element, table) {
  const key = JSON.stringify(table.piles);
  if (built.key === key && element.querySelector("[data-slot]")) return built.slots;
  const slots = {};
  element.replaceChildren();
  for (const pile of table.piles) {
    const slot = document.createElement("button");
    slot.type = "button";
    slot.className = `slot ${pile.role} fan-${pile.fan}`;  // i18n: not text
    slot.dataset.slot = pile.name;
    slot.dataset.role = pile.role;
    slot.tabIndex = -1;
    if (pile.role !== "stock") slot.setAttribute("aria-pressed", "false");
    if (pile.accepts && pile.role !== "stock") {  // what it takes: on hover, and said after its name
      slot.title = tf(t("%(pile)s: %(accepts)s"), { pile: placeName(pile.label), accepts: acceptsText(pile.accepts) });
      slot.setAttribute("aria-description", acceptsText(pile.accepts));
    }
    slots[pile.name] = slot;
    element.append(slot);
  }
  const first = slots[(table.piles.find((pile) => pile.role === "stock") || table.piles[0]).name];
  first.tabIndex = 0;  // the table is one tab stop (input.js roves it)
  built = { key, slots };
  return slots;
}

// Place the slots on a layout's grid (table.js layoutsOf): sizes in card widths.
export function applyLayout(element, layout) {
  const track = (sizes) => sizes.map((size) => `calc(var(--cw) * ${size})`).join(" ");
  element.style.gridTemplateColumns = track(layout.widths);
  element.style.gridTemplateRows = track(layout.heights);
  for (const place of layout.places) {
    const slot = built.slots[place.name];
    if (!slot) continue;
    slot.style.gridRow = String(place.row + 1);
    slot.style.gridColumn = `${place.col + 1} / span ${place.span}`;
    slot.dataset.row = String(place.row);
    slot.dataset.col = String(place.col);
  }
}

// -- drawing each pile ----------------------------------------------------------------

function describe(pile, cards, extra) {
  const card = top(cards);
  const name = placeName(pile.label);
  const counted = pile.fan !== "top" || pile.role === "pile";  // a foundation's count is its top card
  let words;
  if (!card && pile.base) words = tf(t("%(pile)s: empty, takes a %(base)s"), { pile: name, base: baseLetter(pile.base) });
  else if (!card) words = tf(t("%(pile)s: empty"), { pile: name });
  else if (cards.length > 1 && counted) {
    words = tnf("%(pile)s: %(card)s on top, %(count)s card", "%(pile)s: %(card)s on top, %(count)s cards",
      cards.length, { pile: name, card: cardName(card) });
  } else words = tf(t("%(pile)s: %(card)s"), { pile: name, card: cardName(card) });
  return words + extra;
}

function cardsHtml(pile, cards) {
  const foundation = pile.role === "foundation";
  if (!cards.length) return emptyHtml(foundation ? escape(baseLetter(pile.base)) : "");
  const shown = pile.fan === "right" ? FAN_RIGHT : pile.fan === "down" ? FAN_DOWN : 1;
  const from = Math.max(0, cards.length - shown);
  const parked = pile.role === "cell" ? " parked" : "";
  return cards.slice(from).map((card, i) => {
    const at = from + i;
    return cardHtml(card, (at === cards.length - 1 ? " top" : " under") + parked, at);
  }).join("");
}

function drawPile(slot, pile, cards, notes) {
  const count = pile.fan !== "top" || pile.role === "pile" ? cards.length : 0;
  setHtml(slot, cardsHtml(pile, cards) + (count > 1 ? badge(COUNT, formatNumber(count)) : "") + partHtml(pile));
  slot.classList.toggle("full", cards.length > 0);
  slot.setAttribute("aria-label", describe(pile, cards, notes));
}

function drawStock(slot, pile, state, table, notes) {
  const count = state.stock_count || 0;
  const move = stockMove(state, table);
  const gathers = !count && Boolean(move);
  const passes = state.passes > 1
    ? badge(WANTS, tf(tc("stock badge", "pass %(pass)s/%(passes)s"), { pass: state.pass, passes: state.passes })) : "";
  setHtml(slot, (count ? `<span class="card back top" aria-hidden="true"></span>`
    : emptyHtml(gathers ? "\u21bb" : "\u2715"))
    + badge(COUNT, formatNumber(count)) + passes + partHtml(pile));
  const name = placeName(pile.label);
  let words;
  if (count) words = tnf("%(pile)s: %(count)s card, press to turn", "%(pile)s: %(count)s cards, press to turn", count, { pile: name });
  else if (gathers) words = tf(t("%(pile)s: empty, press to turn the cards over"), { pile: name });
  else words = tf(t("%(pile)s: empty"), { pile: name });
  const pass = state.passes ? tf(t("; pass %(pass)s of %(passes)s"), { pass: state.pass, passes: state.passes }) : "";
  slot.setAttribute("aria-label", words + pass + notes);
}

// Draw the whole table. `view` is what the board adds: the pile picked up
// (`selected`), where its card may go (`targets`) and the hint's piles (`hinted`).
export function drawTable(element, table, state, view) {
  const slots = build(element, table);
  const targets = view.targets || (view.selected ? targetsFrom(state, view.selected) : new Set());
  for (const pile of table.piles) {
    const slot = slots[pile.name];
    const hinted = view.hinted.includes(pile.name);
    const picked = view.selected === pile.name;
    const notes = (picked ? t(", selected") : "") + (hinted ? t(", hinted") : "")
      + (targets.has(pile.name) ? t(", it can go here") : "");
    if (pile.role === "stock") drawStock(slot, pile, state, table, notes);
    else drawPile(slot, pile, (state.piles && state.piles[pile.name]) || [], notes);
    slot.classList.toggle("selected", picked);
    if (pile.role !== "stock") slot.setAttribute("aria-pressed", String(picked));
    slot.classList.toggle("target", targets.has(pile.name));
    slot.classList.toggle("hinted", hinted);
  }
  element.classList.toggle("picking", Boolean(view.selected));
  return slots;
}
