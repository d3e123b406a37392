// How the table looks and sounds, remembered per browser: the card size (Auto fits
// the table to the screen; S, M, L and XL are shares of what fits, so they differ on
// every screen and for every game, and XL is the whole of it, past Auto's cap),
// the table's surface, the card back, a four-colour deck, the pile names of a first
// game, the lit targets (Hints: where a lifted card may go rings gold) and sound.

const SIZES = { S: 0.55, M: 0.7, L: 0.85, XL: 1 };  // shares of the card width that fits
const SURFACES = ["felt", "baize", "claret", "walnut", "slate", "sand"];
const BACKS = ["lattice", "navy", "laurel"];
const MIN_CARD = 34;
const MAX_CARD = 180;  // Auto's largest card: a big screen gets room round the table, XL fills it
// The caption line under each row of cards (play.css --cap): this share of a card's
// width, and never less than a legible line.
const CAP_SHARE = 0.2;
const CAP_MIN = 18;
// The stage's edge the table keeps clear (its rings and shadows).
const EDGE = 8;

export const store = {
  get: (key, fallback) => { try { return localStorage.getItem(key) || fallback; } catch { return fallback; } },
  set: (key, value) => { try { localStorage.setItem(key, value); } catch { /* private mode */ } },
};

let root = null;
let stage = null;
let size = "auto";

// The table's layouts in card widths (table.js layoutsOf: "wide" as the game placed
// its piles, "tall" with stock and waste below). The game's own (the first) keeps the
// table while its cards stay legible: it spreads the piles across a phone's width, as
// the rules picture them. Below that, the layout with the biggest cards wins.
const LEGIBLE_CARD = 48;
let layouts = {};
let chose = () => {};
let chosen = "";

export function setLayouts(given, onChoose) {
  layouts = given;
  chose = onChoose;
  chosen = "";
  if (stage) fit();
}

// The widest card whose rows and their captions fit `height`.
function cardForHeight(shape, height) {
  const rows = shape.rows || 0;
  const scaled = height / (shape.h + rows * CAP_SHARE);
  return scaled * CAP_SHARE >= CAP_MIN ? scaled : (height - rows * CAP_MIN) / shape.h;
}

// The room the table may take. Beside the dock (a row: play.css) the stage is as wide as
// the table, so the table and the dock stand together in the middle: the room is the
// arena's width less the dock's and the gap between them. Over the dock (a column) the
// stage spans the arena, and its height is what the dock leaves either way. Beside the
// dock, the gap to it and the page's padding keep the table's edge clear.
function room() {
  const arena = stage.parentElement;
  const style = getComputedStyle(arena);
  if (!style.flexDirection.startsWith("row")) return [stage.clientWidth - EDGE, stage.clientHeight - EDGE];
  const besides = [...arena.children].filter((child) => child !== stage && child.offsetParent !== null);
  const taken = besides.reduce((sum, child) => sum + child.getBoundingClientRect().width, 0);
  const gaps = (parseFloat(style.columnGap) || 0) * besides.length;
  return [arena.clientWidth - taken - gaps, stage.clientHeight - EDGE];
}

function fit() {
  const [width, height] = room();
  if (width <= 0 || height <= 0) return;
  let best = null;
  for (const [name, shape] of Object.entries(layouts)) {
    const card = Math.min(width / shape.w, cardForHeight(shape, height));
    if (!best || (best.card < LEGIBLE_CARD && card > best.card)) best = { name, card };
  }
  if (!best) return;
  // Every size is a share of what fits: the table never scrolls.
  const wanted = size === "auto" ? Math.min(best.card, MAX_CARD) : best.card * SIZES[size];
  // A smaller size never goes under MIN_CARD; a table too big for the screen even at
  // MIN_CARD (two decks on a phone) takes the card that fits rather than spill over the page.
  const card = Math.max(Math.min(MIN_CARD, best.card), Math.min(wanted, best.card));
  root.style.setProperty("--cw", `${Math.floor(card)}px`);
  root.dataset.shape = best.name;
  if (best.name !== chosen) {
    chosen = best.name;
    chose(best.name);
  }
}

export function setSize(wanted) {
  size = wanted === "auto" || SIZES[wanted] ? wanted : "auto";
  for (const button of document.querySelectorAll("[data-size]")) {
    button.setAttribute("aria-pressed", String(button.dataset.size === size));
  }
  store.set("tomb.size", size);
  if (stage) fit();
}

function pick(kind, choices, value) {
  const chosen = choices.includes(value) ? value : choices[0];
  for (const name of choices) root.classList.toggle(`${kind}-${name}`, name === chosen);
  store.set(`tomb.${kind}`, chosen);
  return chosen;
}

export const setSurface = (value) => pick("surface", SURFACES, value);
export const setBack = (value) => pick("back", BACKS, value);

// A four-colour deck (cards.css): clubs green, diamonds blue, for telling suits apart at a glance.
export function setFourColour(on) {
  root.classList.toggle("four-colour", on);
  document.querySelector("#four-colour").checked = on;
  store.set("tomb.colours", on ? "four" : "two");
}

// -- the names of the piles, for a first game ------------------------------------

export function showLabels(on) {
  root.classList.toggle("coach", on);
  document.querySelector("#labels").checked = on;
  store.set("tomb.labels", on ? "on" : "off");
  relit();  // redrawn: the names shown are measured against their caption's room
}

export const firstVisit = () => store.get("tomb.labels", "") === "";

let lit = true;
let relit = () => {};

export const targetsLit = () => lit;

export function setLit(on) {
  lit = Boolean(on);
  document.querySelector("#lit").checked = lit;
  store.set("tomb.targets", lit ? "on" : "off");
  relit();
}

// -- sound: short WebAudio blips, off unless the player turns it on ---------------

let audio = null;
let soundOn = false;

export function setSound(on) {
  soundOn = Boolean(on);
  document.querySelector("#sound").checked = soundOn;
  store.set("tomb.sound", soundOn ? "on" : "off");
}

export function blip(kind) {
  if (!soundOn) return;
  try {
    audio = audio || new AudioContext();
    const tones = { move: [520, 0.05], home: [780, 0.07], turn: [330, 0.04], win: [1040, 0.25],
      refuse: [180, 0.09] };
    const [frequency, length] = tones[kind] || tones.move;
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    oscillator.type = "triangle";
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + length);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + length);
  } catch { /* no audio here: the game is silent */ }
}

// `changed` redraws the table (the lit targets changed).
export function attachLooks(playRoot, stageElement, changed = () => {}) {
  root = playRoot;
  stage = stageElement;
  setLit(store.get("tomb.targets", "on") !== "off");
  relit = changed;
  setSize(store.get("tomb.size", "auto"));
  document.querySelector("#surface").value = setSurface(store.get("tomb.surface", "felt"));
  document.querySelector("#back").value = setBack(store.get("tomb.back", "lattice"));
  setFourColour(store.get("tomb.colours", "two") === "four");
  setSound(store.get("tomb.sound", "off") === "on");
  showLabels(store.get("tomb.labels", "on") === "on");
  const watch = new ResizeObserver(fit);
  watch.observe(stage);
  watch.observe(stage.parentElement);  // the arena: beside the dock the stage follows the table
  fit();
  for (const button of document.querySelectorAll("[data-size]")) button.onclick = () => setSize(button.dataset.size);
  document.querySelector("#surface").onchange = (event) => setSurface(event.target.value);
  document.querySelector("#back").onchange = (event) => setBack(event.target.value);
  document.querySelector("#four-colour").onchange = (event) => setFourColour(event.target.checked);
  document.querySelector("#sound").onchange = (event) => { setSound(event.target.checked); blip("move"); };
  document.querySelector("#labels").onchange = (event) => showLabels(event.target.checked);
  document.querySelector("#lit").onchange = (event) => setLit(event.target.checked);
  // "Winnable only" is a choice of deals, remembered with the looks.
  const winnable = document.querySelector("#winnable");
  winnable.checked = store.get("tomb.winnable", "off") === "on";
  winnable.onchange = () => store.set("tomb.winnable", winnable.checked ? "on" : "off");
}
