// Drawing any game's table from its description (table.js): one button per pile,
// placed on the game's grid, drawn by its role (stock, waste, foundation, cell, pile)
// and its fan (top card only, spread right, spread down), face-down cards as backs.
// Cards are CSS boxes, their faces masks and inline SVG (faces.js), crisp at every size. Each
// face-up card carries data-card (its text) and data-at (its place among the pile's face-up
// cards) so motion.js can slide it where it went and input.js can lift a run from it.

import { faceHtml } from "./faces.js";
import { formatNumber, t, tc, tf, tnf } from "./i18n.js";
import { cardName, isRed, rankLabel } from "./notation.js";
import { acceptsText, learnPlaces, placeName } from "./places.js";
import { fanned, pileOf, stockMove, targetsFrom } from "./table.js";


// The face itself (indices, pips, courts) is faces.js's; suit-X lets cards.css colour a
// four-colour deck.
export function cardHtml(card, extra = "", at = "") {
  return `<span class="card${isRed(card) ? " red" : ""} suit-${card[1]}${extra}" data-card="${card}"`
    + `${at === "" ? "" : ` data-at="${at}"`} aria-hidden="true">${faceHtml(card)}</span>`;
}

const backHtml = (extra = "") => `<span class="card back${extra}" aria-hidden="true"></span>`;

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
// A pile's name and counts stand on one caption line under its cards (play.css .cap):
// nothing written on the table covers a card or the rank an empty pile starts with.
const captionHtml = (pile, ...badges) => `<span class="cap" aria-hidden="true">${partHtml(pile)}${badges.join("")}</span>`;
// A name cut to a few letters ("s…" beside the stock's count) tells a player nothing: a
// name that cannot show this many characters and its ellipsis is left out, and the
// caption shows the counts alone (the slot's title and accessible name say it whole).
const NAME_SHOWN = 5;
const ellipsisWidths = new Map();
function ellipsisWidth(font) {
  if (!ellipsisWidths.has(font)) {
    const context = document.createElement("canvas").getContext("2d");
    context.font = font;
    ellipsisWidths.set(font, context.measureText("\u2026").width);
  }
  return ellipsisWidths.get(font);
}

function tooShortToTell(part) {
  if (!part.offsetWidth || part.scrollWidth <= part.clientWidth + 1) return false;
  const text = part.firstChild;
  if (!text || text.length <= NAME_SHOWN) return true;
  const style = getComputedStyle(part);
  const room = part.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const range = document.createRange();
  range.setStart(text, 0);
  range.setEnd(text, NAME_SHOWN);
  return range.getBoundingClientRect().width + ellipsisWidth(style.font) > room;
}

// Measured all at once after the table is drawn or resized: one layout, then the writes.
// Piles of one role go alike (four foundations, not one named and three bare).
function fitNames(element) {
  const parts = [...element.querySelectorAll(".cap .part")];
  for (const part of parts) part.classList.remove("terse");
  const roleOf = (part) => part.closest("[data-role]").dataset.role;
  const untold = new Set(parts.filter(tooShortToTell).map(roleOf));
  for (const part of parts) part.classList.toggle("terse", untold.has(roleOf(part)));
}
const nameWatch = new ResizeObserver((entries) => { for (const entry of entries) fitNames(entry.target); });

// An empty foundation shows the rank it starts with, as the cards' corners write it.
const baseLetter = (base) => (base ? rankLabel(base) : "");
const top = (cards) => cards[cards.length - 1];

// -- building the slots once per table ----------------------------------------------

let built = { key: "", slots: {} };
// Columns fanned down refit their cards when their height changes.
const refit = new ResizeObserver((entries) => { for (const entry of entries) fitColumn(entry.target); });

// One button per pile, in the table's order (the reading order of a screen reader).
function build(element, table) {
  learnPlaces(table);
  const key = JSON.stringify(table.piles);
  if (built.key === key && element.querySelector("[data-slot]")) return built.slots;
  const slots = {};
  refit.disconnect();
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
    } else slot.title = placeName(pile.label);  // the whole name, where its caption is cut short
    slots[pile.name] = slot;
    element.append(slot);
    if (pile.fan === "down") refit.observe(slot);
  }
  const first = slots[(table.piles.find((pile) => pile.role === "stock") || table.piles[0]).name];
  first.tabIndex = 0;  // the table is one tab stop (input.js roves it)
  built = { key, slots };
  return slots;
}

// Place the slots on a layout's grid (table.js layoutsOf): sizes in card widths; a row
// fanned down takes what height is left.
export function applyLayout(element, layout) {
  const track = (sizes, flex = [], extra = "0px") => sizes.map((size, i) => (flex[i]
    ? `minmax(calc(var(--cw) * ${size} + ${extra}), 1fr)` : `calc(var(--cw) * ${size} + ${extra})`)).join(" ");
  element.style.gridTemplateColumns = track(layout.widths);
  element.style.gridTemplateRows = track(layout.heights, layout.flexRows, "var(--cap)");
  element.classList.toggle("fills", (layout.flexRows || []).some(Boolean));
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

function describe(pile, { down, up }, extra) {
  const card = top(up);
  const name = placeName(pile.label);
  const counted = pile.fan !== "top" || pile.role === "pile";  // a foundation's count is its top card
  let words;
  if (!card && down) {
    words = tnf("%(pile)s: %(count)s face-down card", "%(pile)s: %(count)s face-down cards", down, { pile: name });
  } else if (!card && pile.base) words = tf(t("%(pile)s: empty, takes a %(base)s"), { pile: name, base: baseLetter(pile.base) });
  else if (!card) words = tf(t("%(pile)s: empty"), { pile: name });
  else if (down) {
    words = tf(t("%(pile)s: %(card)s on top, %(up)s face up, %(down)s face down"),
      { pile: name, card: cardName(card), up: formatNumber(up.length), down: formatNumber(down) });
  } else if (up.length > 1 && counted) {
    words = tnf("%(pile)s: %(card)s on top, %(count)s card", "%(pile)s: %(card)s on top, %(count)s cards",
      up.length, { pile: name, card: cardName(card) });
  } else words = tf(t("%(pile)s: %(card)s"), { pile: name, card: cardName(card) });
  return words + extra;
}

function cardsHtml(pile, { down, up }) {
  const foundation = pile.role === "foundation";
  if (!up.length && !down) return emptyHtml(foundation ? escape(baseLetter(pile.base)) : "");
  const column = pile.fan === "down";
  const backs = column ? down : up.length ? 0 : 1;
  const shown = pile.fan === "right" ? fanned(pile) : column ? up.length : 1;
  const from = Math.max(0, up.length - shown);
  const parked = pile.role === "cell" ? " parked" : "";
  const html = [];
  for (let i = 0; i < backs; i += 1) html.push(backHtml(i === backs - 1 && !up.length ? " top" : " under"));
  up.slice(from).forEach((card, i) => {
    const at = from + i;
    html.push(cardHtml(card, (at === up.length - 1 ? " top" : " under") + parked, at));
  });
  return html.join("");
}

// A column fanned down fits its height: when it is long the backs' steps shrink first,
// then the face-up cards', then both.
function fitColumn(slot) {
  const down = Number(slot.dataset.down) || 0;
  const up = Number(slot.dataset.up) || 0;
  const card = slot.querySelector(".card");
  if (!card) return;
  const w = card.offsetWidth;
  const style = getComputedStyle(slot);  // the bottom padding holds the caption line
  const room = slot.clientHeight - (parseFloat(style.paddingTop) || 0) - (parseFloat(style.paddingBottom) || 0)
    - card.offsetHeight;
  const backs = up ? down : Math.max(0, down - 1);  // steps after a back, and after a face-up card
  const cards = Math.max(0, up - 1);
  const need = () => backs * back + cards * face;
  let back = 0.14 * w;
  let face = 0.3 * w;
  if (need() > room) back = Math.max(0.05 * w, (room - cards * face) / (backs || 1));
  if (need() > room) face = Math.max(0.2 * w, (room - backs * back) / (cards || 1));
  const over = Math.max(1, need() / Math.max(1, room));
  slot.style.setProperty("--off-back", `${(back / over).toFixed(1)}px`);
  slot.style.setProperty("--off-up", `${(face / over).toFixed(1)}px`);
}

function drawPile(slot, pile, cards, notes, lift, aim) {
  const total = cards.down + cards.up.length;
  const counted = pile.fan === "right" || (pile.fan === "top" && pile.role === "pile");
  setHtml(slot, cardsHtml(pile, cards) + captionHtml(pile, counted && total > 1 ? badge(COUNT, formatNumber(total)) : ""));
  // Marked, not drawn anew: the card under the finger stays. Picked up; the keys' aim.
  const up = cards.up.length;
  for (const card of slot.querySelectorAll(".card[data-at]")) {
    const at = Number(card.dataset.at);
    card.classList.toggle("lift", lift > 0 && at >= up - lift);
    card.classList.toggle("aim", aim > 0 && at === up - aim);
  }
  slot.classList.toggle("full", total > 0);
  slot.setAttribute("aria-label", describe(pile, cards, notes));
  if (pile.fan === "down") {
    slot.dataset.down = String(cards.down);
    slot.dataset.up = String(cards.up.length);
    fitColumn(slot);
  }
}

function drawStock(slot, pile, state, table, notes) {
  const count = pileOf(state, pile.name).down || state.stock_count || 0;
  const move = stockMove(state, table);
  const gathers = !count && Boolean(move);
  const passes = state.passes > 1
    ? badge(WANTS, tf(tc("stock badge", "pass %(pass)s/%(passes)s"), { pass: state.pass, passes: state.passes })) : "";
  setHtml(slot, (count ? backHtml(" top") : emptyHtml(gathers ? "\u21bb" : "\u2715"))
    + captionHtml(pile, badge(COUNT, formatNumber(count)), passes));
  const name = placeName(pile.label);
  let words;
  if (count) words = tnf("%(pile)s: %(count)s card, press to turn", "%(pile)s: %(count)s cards, press to turn", count, { pile: name });
  else if (gathers) words = tf(t("%(pile)s: empty, press to turn the cards over"), { pile: name });
  else words = tf(t("%(pile)s: empty"), { pile: name });
  const pass = state.passes ? tf(t("; pass %(pass)s of %(passes)s"), { pass: state.pass, passes: state.passes }) : "";
  slot.setAttribute("aria-label", words + pass + notes);
}

// Draw the whole table. `view` is what the board adds: the pile picked up (`selected`)
// and how many cards (`count`), where they may go (`targets`, unlit if `lit` is false),
// the run the keys aim at (`aim`: {pile, count}) and the hint's piles (`hinted`).
export function drawTable(element, table, state, view) {
  const slots = build(element, table);
  const lit = view.lit !== false;
  const count = view.count || null;
  const targets = !lit ? new Set()
    : view.targets || (view.selected ? targetsFrom(state, view.selected, count) : new Set());
  for (const pile of table.piles) {
    const slot = slots[pile.name];
    const hinted = (view.hinted || []).includes(pile.name);
    const picked = view.selected === pile.name;
    const notes = (picked ? t(", selected") : "") + (hinted ? t(", hinted") : "")
      + (targets.has(pile.name) ? t(", it can go here") : "");
    const aim = view.aim && view.aim.pile === pile.name ? view.aim.count : 0;
    if (pile.role === "stock") drawStock(slot, pile, state, table, notes);
    else drawPile(slot, pile, pileOf(state, pile.name), notes, picked ? count || 1 : 0, aim);
    slot.classList.toggle("selected", picked);
    if (pile.role !== "stock") slot.setAttribute("aria-pressed", String(picked));
    slot.classList.toggle("target", targets.has(pile.name));
    slot.classList.toggle("hinted", hinted);
  }
  element.classList.toggle("picking", Boolean(view.selected) && lit);
  fitNames(element);
  nameWatch.observe(element);  // the cards' size changes the names' room
  return slots;
}
