// The play page: follows one game, draws it, and turns the player's input into
// intents for the server, which referees every move.

import { announce, attach as attachAnnouncer } from "./announcer.js";
import { drawTable } from "./board.js";
import * as link from "./connection.js";
import { attachInput, cancelDrag } from "./input.js";
import { HOME, REDEAL, TURN, adviceFor, describeMove, movePlaces, placeName, targetOf }
  from "./notation.js";

const $ = (selector) => document.querySelector(selector);
const SIZES = ["S", "M", "L", "XL"];
const store = {
  get: (key, fallback) => { try { return localStorage.getItem(key) || fallback; } catch { return fallback; } },
  set: (key, value) => { try { localStorage.setItem(key, value); } catch { /* private mode */ } },
};

let game = null;       // the last game payload drawn
let selected = false;  // the top waste card is picked up (tap, then tap a pile)
let hint = null;       // { move, version, ... } while it applies to the game drawn

// -- drawing -----------------------------------------------------------------

function show(next) {
  const before = game && game.id === next.id ? game : null;
  if (before && next.version < before.version) return;
  if (!before || before.version !== next.version) hint = hint && hint.version === next.version ? hint : null;
  const topOf = (payload) => payload.state.waste[payload.state.waste.length - 1];
  if (!before || topOf(before) !== topOf(next)) {  // that card has gone
    selected = false;
    cancelDrag();
  }
  game = next;
  if (next.status === "playing") stopCelebrating();  // undone after the win
  draw();
  if (before) tellChange(before, next);
}

function draw() {
  const state = game.state;
  const hinted = hint && hint.move ? movePlaces(hint.move) : [];
  drawTable($("#table"), state, { selected: selected && state.waste.length > 0, hinted });
  $("#table").setAttribute("aria-busy", "false");
  $("#title").textContent = title();
  const tomb = state.tomb;
  $("#tomb-counter").textContent = tomb.complete ? "complete" : `wants ${tomb.wants} · round ${tomb.round} of 4`;
  $("#moves").textContent = String(state.moves);
  $("#passes").textContent = `${state.passes_left} (pass ${state.pass} of ${state.passes})`;
  $("#home").textContent = `${state.home} of 52`;
  const turn = $("#turn");
  const redeal = state.stock_count === 0;
  turn.dataset.move = redeal ? REDEAL : TURN;
  turn.firstChild.textContent = redeal ? "Turn over " : "Turn ";
  turn.disabled = !state.legal.includes(turn.dataset.move);
  $("#undo").disabled = !state.can_undo;
  $("#hint").disabled = $("#fair-hint").disabled = game.status !== "playing";
  $("#replay").disabled = $("#end-replay").disabled = !canReplay();
  drawEnd();
  tick();
}

function variantName(slug) {
  const option = [...$("#variant").options].find((item) => item.value === slug);
  return option ? option.textContent : slug;
}

function title() {
  const name = variantName(game.variant);
  if (!game.seeded) return `${name} · deal ${game.deal}`;
  if (!game.ranked) return `Daily ${name} — replay, unranked`;
  const day = game.closes ? new Date(Date.parse(game.closes) - 1).toISOString().slice(0, 10) : "";
  return `Daily ${name} ${day} — ranked attempt`;
}

function drawEnd() {
  const end = $("#end");
  const over = game.status !== "playing";
  end.hidden = !over;
  end.className = game.status;
  $("#end-undo").disabled = !game.state.can_undo;
  if (!over) return;
  $("#end-text").textContent = game.status === "won"
    ? `You won! All 52 cards are home in ${game.state.moves} moves.`
    : `No move is left: this deal is lost. Undo${canReplay() ? ", replay it" : ""} or start a new deal.`;
}

// A public deal replays by its number. A daily has none: its unranked replay is
// asked from the archive, which opens a day only once it is over; a daily whose
// day is unknown here (an unranked one) is not offered a replay.
function dailyReplayUrl() {
  if (!game.seeded || !game.closes) return null;
  const closes = Date.parse(game.closes);
  if (Date.now() + link.clockSkewMs < closes) return null;
  const day = new Date(closes - 1).toISOString().slice(0, 10);
  return `/api/daily/${encodeURIComponent(game.variant)}/${day}/replay/`;
}

const canReplay = () => Boolean(game && (game.deal || dailyReplayUrl()));

async function replay() {
  if (!game) return;
  if (game.deal) { await newDeal(game.deal); return; }
  const url = dailyReplayUrl();
  if (!url) return;
  try {
    follow(await link.api("POST", url));
    say("");
    announce("Replaying the daily, unranked.");
  } catch (error) {
    say(error.message);
  }
}

// -- the clock: the server's start, ticking here -------------------------------

function elapsedSeconds() {
  if (!game || !game.started) return 0;
  const end = game.finished ? Date.parse(game.finished) : Date.now() + link.clockSkewMs;
  return Math.max(0, Math.floor((end - Date.parse(game.started)) / 1000));
}

function tick() {
  const total = elapsedSeconds();
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor(total / 60) % 60;
  const seconds = String(total % 60).padStart(2, "0");
  $("#clock").textContent = hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`
    : `${minutes}:${seconds}`;
}

// -- telling the player ------------------------------------------------------

function say(text) { $("#message").textContent = text || ""; }

// One message per change: the live region says only its latest text, so the move
// and the game's end go out together.
function tellChange(before, after) {
  const was = before.state.log;
  const now = after.state.log;
  const parts = [];
  if (now.length < was.length) parts.push("Move undone.");
  else if (now.length === was.length + 1) {
    const round = after.state.tomb.round;
    const turned = round > before.state.tomb.round ? ` The tomb starts round ${round} of 4.` : "";
    parts.push(describeMove(now[now.length - 1], before.state, after.state) + turned);
  }
  if (after.status !== before.status && after.status !== "playing") {
    parts.push($("#end-text").textContent);
    if (after.status === "won") celebrate();
  }
  if (parts.length) announce(parts.join(" "));
}

function celebrate() {
  const table = $("#table");
  table.classList.remove("celebrate");
  void table.offsetWidth;  // restart the animation
  table.classList.add("celebrate");
  loadWins();
}

function stopCelebrating() { $("#table").classList.remove("celebrate"); }

const VERDICTS = {
  winnable: "Winnable: the solver has a winning line from here.",
  lost: "The deal can no longer be won.",
  unknown: "The solver cannot tell whether the deal can still be won.",
};
// The fair hint knows only what the player has seen: word it so.
const FAIR_VERDICTS = {
  winnable: "However the unseen cards lie, this move wins.",
  lost: "However the unseen cards lie, the deal can no longer be won.",
};

function fairVerdict(hint) {
  if (FAIR_VERDICTS[hint.verdict]) return FAIR_VERDICTS[hint.verdict];
  return `From what you have seen, it wins about ${Math.round(hint.chance * 100)}% of the stock orders you could be facing.`;
}

function showHint(message) {
  if (message.error) {  // the hint service failed or was too slow
    if (!message.version || (game && message.version === game.version)) onError(message.error);
    return;
  }
  if (!game || message.version !== game.version || !message.hint) return;  // the board moved on
  hint = { ...message.hint, version: message.version };
  const what = hint.move ? `${hint.fair ? "Fair hint" : "Hint"}: ${adviceFor(hint.move, game.state)}.` : "No move to suggest.";
  const why = hint.fair ? fairVerdict(hint) : VERDICTS[hint.verdict];
  say(`${what} ${why}`);
  announce(`${what} ${why}`);
  draw();
}

// -- actions -------------------------------------------------------------------

function play(move) {
  if (!game || !move) return;
  // The drawn table is current unless actions are queued: then the server judges.
  if (!link.pending() && !game.state.legal.includes(move) && move !== HOME) {
    const place = targetOf(move);
    const refusal = place ? `That card does not go on the ${placeName(place)}.` : "That move is not possible now.";
    say(refusal);
    announce(refusal);
    return;
  }
  say("");
  link.perform({ type: "move", move });
}

const board = {
  play,
  turn: () => game && play(game.state.stock_count ? TURN : REDEAL),
  selected: () => selected,
  select(on) {
    if (selected === Boolean(on)) return;
    selected = Boolean(on);
    if (game) draw();
  },
  shortcut(key) {
    const keys = { D: board.turn, U: undo, H: () => askHint(false), G: () => askHint(true),
      N: () => newDeal() };
    if (!keys[key]) return false;
    keys[key]();
    return true;
  },
};

function undo() { if (game) { say(""); link.perform({ type: "undo" }); } }

function askHint(fair) {
  if (!game || game.status !== "playing") return;
  say(fair ? "Thinking without peeking…" : "Asking the solver…");
  link.perform(fair ? { type: "hint", fair: true } : { type: "hint" });
}

function onError(text, action) {
  say(text);
  announce(text);
  if (action && action.type === "hint") hint = null;
}

// -- games ---------------------------------------------------------------------

function follow(next) {
  game = null;
  hint = null;
  stopCelebrating();
  show(next);
  $("#variant").value = next.variant;
  link.follow(next);
  // A reload opens this very game, even if the player has a newer one elsewhere.
  history.replaceState(null, "", `?game=${next.id}`);
  if (!document.body.dataset.ready) {
    // Usable from here: the bench reads when, counted from navigation start.
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    document.body.dataset.ready = "1";
  }
}

async function newDeal(deal) {
  const body = { variant: $("#variant").value };
  if (deal) body.deal = Number(deal);
  try {
    follow(await link.api("POST", "/api/games/", body));
    say("");
    announce(`New deal ${game.deal}.`);
  } catch (error) {
    say(error.message);
  }
}

async function resumeOrDeal() {
  const variant = $("#variant").value;
  try {
    follow(await link.api("GET", `/api/games/resume/?variant=${encodeURIComponent(variant)}`));
  } catch (error) {
    if (error.status === 404) await newDeal(); else say(error.message);
  }
}

async function openGame(id) {
  try {
    follow(await link.api("GET", `/api/games/${encodeURIComponent(id)}/`));
  } catch (error) {
    say(error.message);
    await resumeOrDeal();
  }
}

async function loadWins() {
  try {
    const { wins } = await link.api("GET", "/api/stats/");
    $("#wins").textContent = "Your wins: " + Object.entries(wins)
      .map(([slug, count]) => `${variantName(slug)} ${count}`).join(" · ");
  } catch { /* the count is a nicety */ }
}

function setSize(size) {
  if (!SIZES.includes(size)) size = "M";
  const root = $("#play");
  for (const name of SIZES) root.classList.toggle(`size-${name}`, name === size);
  for (const button of document.querySelectorAll("[data-size]")) {
    button.setAttribute("aria-pressed", String(button.dataset.size === size));
  }
  store.set("tomb.size", size);
}

function wire() {
  attachAnnouncer($("#announcer"));
  attachInput($("#table"), board);
  link.setHandlers({
    state: show,
    hint: showHint,
    error: onError,
    link: (status) => {
      document.body.dataset.link = status;  // for tests: "live" once the socket is open
      $("#link").textContent = { live: "", connecting: "", reconnecting: "Reconnecting…", closed: "Not your game.",
        offline: "Offline: your last action will be sent when the connection is back." }[status];
    },
  });
  $("#new").onclick = () => newDeal();
  $("#end-new").onclick = () => newDeal();
  $("#replay").onclick = $("#end-replay").onclick = replay;
  // Once the last card has hopped: else every card drawn later would hop again.
  $("#table").addEventListener("animationend", (event) => {
    if (event.animationName !== "hop") return;
    const hopping = $("#table").getAnimations({ subtree: true })
      .some((running) => running.animationName === "hop");
    if (!hopping) stopCelebrating();
  });
  $("#open-deal").onsubmit = (event) => { event.preventDefault(); newDeal($("#deal").value); };
  $("#undo").onclick = $("#end-undo").onclick = undo;
  $("#hint").onclick = () => askHint(false);
  $("#fair-hint").onclick = () => askHint(true);
  $("#turn").onclick = board.turn;
  $("#variant").onchange = () => { store.set("tomb.variant", $("#variant").value); resumeOrDeal(); };
  for (const button of document.querySelectorAll("[data-size]")) button.onclick = () => setSize(button.dataset.size);
  setInterval(() => game && game.status === "playing" && game.started && tick(), 1000);
}

function start() {
  wire();
  setSize(store.get("tomb.size", "M"));
  const variant = store.get("tomb.variant", "");
  if ([...$("#variant").options].some((option) => option.value === variant)) $("#variant").value = variant;
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) openGame(wanted); else resumeOrDeal();
  loadWins();
}

start();
