// The play page: follows one game, draws it, and turns the player's input into
// intents for the server, which referees every move.

import { announce, attach as attachAnnouncer } from "./announcer.js";
import { applyLayout, drawTable } from "./board.js";
import * as link from "./connection.js";
import { attachInput, cancelDrag, dragging } from "./input.js";
import { attachLooks, blip, firstVisit, setLayouts, showLabels, store, targetsLit } from "./looks.js";
import * as motion from "./motion.js";
import { formatDay, formatNumber, formatPercent, t, tc, tf, tnf } from "./i18n.js";
import { adviceFor, capital, cardName, describeMove, movePlaces, rankLetter, theLabel } from "./notation.js";
import { placeFrom } from "./places.js";
import { askFirst, heldForReview, personalBest, showWin } from "./overlay.js";
import { headOf, homeMove, isStep, layoutsOf, liftCounts, moveBetween, pathOf, pileNamed, pileOf, pilesWithRole,
  slugOf, sourcesOf, stepFrom, stockMove, tableOf, targetsFrom, upOf } from "./table.js";

const $ = (selector) => document.querySelector(selector);
// A race's board (?race=<code>): race-strip.js adds the race; here hints and new deals are off.
const race = new URLSearchParams(location.search).get("race");

let game = null;       // the last game payload drawn
let selected = null;   // { pile, count }: the top cards picked up (tap them, then tap a pile)
let aim = null;        // { pile, count }: the run the up and down arrows chose, before Enter
let hint = null;       // { move, version, ... } while it applies to the game drawn
let table = null;      // the table drawn: the game's description (table.js)
let layouts = null;    // its layouts by name, and the one in use
let layout = null;

// -- drawing -----------------------------------------------------------------

function show(next) {
  const before = game && game.id === next.id ? game : null;
  if (before && next.version < before.version) return;
  if (!before || before.version !== next.version) hint = hint && hint.version === next.version ? hint : null;
  const pileText = (payload, name) => JSON.stringify(pileOf(payload.state, name));
  const held = (selected && selected.pile) || dragging();
  if (!before || (held && pileText(before, held) !== pileText(next, held))) {  // those cards have gone
    selected = null;
    cancelDrag();
  }
  if (!before || before.version !== next.version) aim = null;
  const seen = before ? motion.measure($("#table")) : null;
  game = next;
  useTable(tableOf(next));
  if (next.status === "playing") stopCelebrating();  // undone after the win
  draw();
  if (before) {
    const played = next.state.log.length - before.state.log.length;
    const path = played === 1 ? pathOf(before.state, next.state.log[next.state.log.length - 1]) : null;
    motion.play($("#table"), seen, before.state, next.state, { cascade: played > 1, path });
    tellChange(before, next);
  }
}

// A new game's table (or the first): build its slots and let looks.js fit its layouts.
function useTable(next) {
  if (table && JSON.stringify(table) === JSON.stringify(next)) return;
  table = next;
  layouts = layoutsOf(table);
  layout = layouts.wide;
  drawTable($("#table"), table, game.state, { selected: null, hinted: [] });
  setLayouts(layouts, (name) => {
    layout = layouts[name] || layouts.wide;
    applyLayout($("#table"), layout);
  });
}

function draw() {
  const state = game.state;
  const hinted = hint && hint.move ? movePlaces(hint.move, state) : [];
  const held = selected && upOf(state, selected.pile).length >= selected.count ? selected : null;
  drawTable($("#table"), table, state, { selected: held && held.pile, count: held && held.count, hinted, aim,
    lit: targetsLit() });
  $("#table").setAttribute("aria-busy", "false");
  $("#title").textContent = title();
  drawExtras(state);
  $("#moves").textContent = formatNumber(state.moves);
  $("#home").textContent = tf(t("%(home)s of %(total)s"),
    { home: formatNumber(state.home), total: formatNumber(table.card_count) });
  const turn = $("#turn");
  const move = stockMove(state, table);
  const path = (move && pathOf(state, move)) || undefined;
  const stock = pilesWithRole(table, "stock")[0];
  turn.hidden = !stock;
  turn.dataset.move = move || "";
  turn.querySelector(".what").textContent = stockWord(path);
  turn.disabled = !move;
  $("#undo").disabled = $("#end-undo").disabled = !canUndo();
  const final = game.ranked || Boolean(race);  // a race undoes as a ranked daily
  $("#undo").title = final && state.moves > 0 && !canUndo()
    ? t("A ranked daily cannot take back a stock turn, a card turned face up or a win") : "";
  $("#hint").disabled = $("#fair-hint").disabled = game.status !== "playing";
  $("#finish").hidden = !game.can_finish;
  $("#replay").disabled = $("#end-replay").disabled = !canReplay();
  drawEnd();
  tick();
}

// The stock's button says what it does: turn a card onto the waste or deal onto the
// piles; turn the waste over or gather the piles back.
function stockWord({ from, to } = {}) {
  const role = (name) => (pileNamed(table, name) || {}).role;
  if (role(to) === "stock") return role(from) === "waste" ? tc("stock button", "Turn over") : tc("stock button", "Redeal");
  return !to || role(to) === "waste" ? tc("stock button", "Turn") : tc("stock button", "Deal");
}

// What some games add to the view, shown when the state carries it: the Tomb's
// countdown, the passes through the stock.
function drawExtras(state) {
  // A game that keeps a score (Klondike's Windows score) shows it; the others have none.
  const scored = typeof state.score === "number";
  $("#score").parentElement.hidden = !scored;
  if (scored) $("#score").textContent = formatNumber(state.score);
  const tomb = state.tomb;
  $("#tomb-counter").parentElement.hidden = !tomb;
  if (tomb) {
    $("#tomb-counter").textContent = tomb.complete ? tc("the tomb", "complete")
      : tf(t("wants %(rank)s · round %(round)s of 4"), { rank: rankLetter(tomb.wants), round: tomb.round });
  }
  $("#passes").textContent = !state.passes ? ""
    : state.passes > 1 ? tf(t("Pass %(pass)s of %(passes)s · %(left)s left"),
      { pass: state.pass, passes: state.passes, left: state.passes_left })
      : t("One pass through the stock");
}

// The server decides (game/undoing.py): never a ranked move that showed a card, nor a win.
const canUndo = () => Boolean(game.state.can_undo);

const variantSlug = () => slugOf(game.variant);

// A variant's name in the page's language: this game's from the variant menu, the game's
// own from its payload (a daily of another game opened here); never its slug.
function variantName(slug) {
  const option = [...$("#variant").options].find((item) => item.value === slug);
  if (option) return option.textContent;
  return game && slugOf(game.variant) === slug && game.variant.name ? game.variant.name : "";
}

function title() {
  const name = variantName(variantSlug());
  const values = { variant: name, deal: game.deal, day: formatDay(game.daily_date) };
  if (game.deal_kind === "race") return tf(t("%(variant)s · race"), values);
  if (game.deal_kind === "winnable") return tf(t("%(variant)s · deal %(deal)s · proved winnable"), values);
  if (!game.seeded) return tf(t("%(variant)s · deal %(deal)s"), values);
  if (!game.ranked) return tf(t("Daily %(variant)s %(day)s — replay, unranked"), values);
  return tf(t("Daily %(variant)s %(day)s — ranked attempt"), values);
}

function drawEnd() {
  const end = $("#end");
  const over = game.status !== "playing";
  end.hidden = game.status !== "lost";  // a win has its own overlay
  end.className = game.status;
  if (!over) return;
  const won = game.status === "won";
  $("#end-text").textContent = won ? wonText()
    : race ? t("No move is left: this deal is lost. Undo if you can, or follow the others.")
    : canReplay() ? t("No move is left: this deal is lost. Undo, replay it or start a new deal.")
      : t("No move is left: this deal is lost. Undo or start a new deal.");
}

function wonText() {
  const { moves } = game.state;
  const { hints, undos } = game;
  return tnf("You won! All %(count)s card is home in %(moves)s, %(hints)s, %(undos)s.",
    "You won! All %(count)s cards are home in %(moves)s, %(hints)s, %(undos)s.", table.card_count, {
      count: formatNumber(table.card_count),
      moves: tnf("%(count)s move", "%(count)s moves", moves, { count: formatNumber(moves) }),
      hints: tnf("%(count)s hint", "%(count)s hints", hints, { count: formatNumber(hints) }),
      undos: tnf("%(count)s undo", "%(count)s undos", undos, { count: formatNumber(undos) }),
    });
}

// A public deal replays by its number. A daily has none: its unranked replay is
// asked from the archive, which opens a day only once it is over (UTC midnight).
const DAY_MS = 24 * 60 * 60 * 1000;

function dailyReplayUrl() {
  if (!game.seeded || !game.daily_date) return null;
  const over = Date.parse(`${game.daily_date}T00:00:00Z`) + DAY_MS;
  if (Date.now() + link.clockSkewMs < over) return null;
  return `/api/daily/${encodeURIComponent(variantSlug())}/${game.daily_date}/replay/`;
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
    announce(t("Replaying the daily, unranked."));
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
  if (now.length < was.length) parts.push(t("Move undone."));
  else if (now.length > was.length + 1) {
    parts.push(tnf("Finished: %(count)s card went home.", "Finished: %(count)s cards went home.",
      now.length - was.length));
  } else if (now.length === was.length + 1) {
    const round = after.state.tomb ? after.state.tomb.round : 0;
    const turned = before.state.tomb && round > before.state.tomb.round
      ? " " + tf(t("The tomb starts round %(round)s of 4."), { round }) : "";
    parts.push(describeMove(now[now.length - 1], before.state, after.state, table) + turned);
  }
  if (now.length !== was.length) blip(after.state.home > before.state.home ? "home" : "move");
  if (after.status !== before.status && after.status !== "playing") {
    parts.push($("#end-text").textContent);
    if (after.status === "won") parts.push(personalBest(after, variantName(slugOf(after.variant))));
    showLabels(false);  // a first game is over: the piles' names have been seen
    if (after.status === "won") celebrate();
  }
  if (parts.length) announce(parts.filter(Boolean).join(" "));
}

function celebrate() {
  const felt = $("#table");
  felt.classList.remove("celebrate");
  void felt.offsetWidth;  // restart the animation
  felt.classList.add("celebrate");
  blip("win");
  loadWins();
  const won = () => { if (game && game.status === "won") showWin(game, winActions); };
  if (motion.still()) { won(); return; }
  setTimeout(() => {  // once the last cards have landed: the cascade, then the overlay
    if (!game || game.status !== "won") return;
    const piles = pilesWithRole(table, "foundation").map((pile) => {
      const card = $(`#table [data-slot="${pile.name}"] .card`);
      return { box: card ? card.getBoundingClientRect() : new DOMRect(), cards: upOf(game.state, pile.name) };
    });
    // Loaded on a first win only: no player waits for it before playing.
    import("./cascade.js").then((module) => { cascading = module; module.cascade(piles, won); }, won);
  }, 700);
}

const winActions = {
  variantName: (slug) => variantName(slug),
  newDeal: () => newDeal(),
  replay: () => replay(),
  canReplay: () => canReplay(),
  elapsed: () => $("#clock").textContent,
  cardCount: () => table.card_count,
};

let cascading = null;  // cascade.js, once a win has loaded it

function stopCelebrating() {
  $("#table").classList.remove("celebrate");
  if (cascading) cascading.stopCascade();
}

const VERDICTS = {
  winnable: t("Winnable: the solver has a winning line from here."),
  lost: t("The deal can no longer be won."),
  unknown: t("The solver cannot tell whether the deal can still be won."),
};
// The fair hint knows only what the player has seen: word it so.
const FAIR_VERDICTS = {
  winnable: t("However the unseen cards lie, this move wins."),
  lost: t("However the unseen cards lie, the deal can no longer be won."),
};

// The chance is the share of sampled stock orders the move won: a sample, not a proof,
// so it is rounded down and never said as "100%" (only an exact verdict says "wins").
function fairVerdict(hint) {
  if (FAIR_VERDICTS[hint.verdict]) return FAIR_VERDICTS[hint.verdict];
  const chance = Number(hint.chance) || 0;
  if (chance >= 1) return t("It won every stock order the hint tried from what you have seen; that is a sample, not a proof.");
  if (chance <= 0) return t("It won none of the stock orders the hint tried from what you have seen.");
  const percent = Math.min(99, Math.max(1, Math.floor(chance * 100)));
  return tf(t("It won %(share)s of the stock orders the hint tried from what you have seen (a sample, not a proof)."),
    { share: formatPercent(percent / 100) });
}

function showHint(message) {
  if (message.error) {  // the hint service failed or was too slow
    if (!message.version || (game && message.version === game.version)) onError(message.error);
    return;
  }
  if (!game || message.version !== game.version || !message.hint) return;  // the board moved on
  hint = { ...message.hint, version: message.version };
  const advice = hint.move ? { advice: adviceFor(hint.move, game.state, table) } : null;
  const what = !advice ? t("No move to suggest.")
    : hint.fair ? tf(t("Fair hint: %(advice)s."), advice) : tf(t("Hint: %(advice)s."), advice);
  const why = hint.fair ? fairVerdict(hint) : VERDICTS[hint.verdict];
  say(`${what} ${why}`);
  announce(`${what} ${why}`);
  draw();
}

// -- actions -------------------------------------------------------------------

function play(move) {
  if (!game || !move) return;
  const path = pathOf(game.state, move) || {};
  const stock = pilesWithRole(table, "stock")[0];
  const touchesStock = stock && [path.from, path.to].includes(stock.name);
  if (touchesStock && game.ranked && store.get("tomb.warned-turn", "") !== "1") {
    askFirst(t("In a ranked daily a stock turn cannot be undone. Turn the stock?"), tc("confirm button", "Turn")).then((yes) => {
      if (!yes) return;
      store.set("tomb.warned-turn", "1");
      play(move);
    });
    return;
  }
  say("");
  link.perform({ type: "move", move });
}

function refuse(text) {
  say(text);
  announce(text);
  blip("refuse");
}

// The `count` top cards of `from` dropped on `to` (any count when none is given).
function dropOn(from, to, count = null) {
  if (!game || from === to) return;
  const move = moveBetween(game.state, from, to, count);
  if (move) play(move);
  else refuse(tf(t("That card does not go on %(place)s."), { place: theLabel(table, to) }));
}

// How many top cards of a pile may be picked up (table.js liftCounts); the waste's top
// card always (dropping it where it does not fit says why).
function counts(name) {
  if (!game) return [];
  const found = liftCounts(game.state, table, name);
  const pile = pileNamed(table, name);
  if (!found.length && pile && pile.role === "waste" && upOf(game.state, name).length) return [1];
  return found;
}

// A touch on the face-up card at `at` lifts it and the cards on it if it may; else the
// run the keys aimed at, else the pile's first lift; 0: none.
function liftAt(name, at) {
  const allowed = counts(name);
  const up = upOf(game ? game.state : null, name).length;
  const wanted = at == null ? 0 : up - Number(at);
  if (wanted && allowed.includes(wanted)) return wanted;
  if (aim && aim.pile === name && allowed.includes(aim.count)) return aim.count;
  return allowed[0] || 0;
}

const canLift = (name) => counts(name).length > 0;

// Where a tap with nothing picked up takes cards from: the only pile that can send
// some here, else the waste.
function defaultSource(name) {
  const sources = [...sourcesOf(game.state, name)].filter((source) => pileNamed(table, source).role !== "stock");
  if (sources.length === 1) return sources[0];
  const waste = pilesWithRole(table, "waste")[0];
  return waste && waste.name !== name ? waste.name : null;
}

function select(name, count = 1) {
  const next = name ? { pile: name, count } : null;
  if (JSON.stringify(selected) === JSON.stringify(next)) return;
  selected = next;
  aim = null;
  if (game) draw();
  if (next) announce(pickedUp(next.pile, next.count));
}

function pickedUp(name, count) {
  const card = headOf(game.state, name, count);
  if (!card) return t("A card picked up: choose where it goes.");
  const values = { card: cardName(card), from: placeFrom((pileNamed(table, name) || {}).label || name) };
  return capital(count > 1
    ? tnf("The %(card)s %(from)s and the %(count)s card on it picked up: choose where they go.",
      "The %(card)s %(from)s and the %(count)s cards on it picked up: choose where they go.", count - 1, values)
    : tf(t("The %(card)s %(from)s picked up: choose where it goes."), values));
}

// A tap, a click or Enter on a pile; `at`: the face-up card touched, if one was.
function tap(name, at = null) {
  if (!game) return;
  const pile = pileNamed(table, name);
  if (!pile) return;
  if (selected) {
    const { pile: from, count } = selected;
    if (from === name) {  // put them back, or pick up more or fewer of them
      const again = at == null ? 0 : upOf(game.state, name).length - Number(at);
      if (again !== count && counts(name).includes(again)) select(name, again);
      else select(null);
      return;
    }
    const fits = moveBetween(game.state, from, name, count);
    if (pile.role === "stock" && !fits) { select(null); board.turn(); return; }
    if (!fits && canLift(name)) { select(name, liftAt(name, at)); return; }  // other cards
    select(null);
    dropOn(from, name, count);
    return;
  }
  if (pile.role === "stock") { board.turn(); return; }
  if (canLift(name)) { select(name, liftAt(name, at)); return; }
  const from = defaultSource(name);
  if (from) dropOn(from, name);
  else refuse(t("Pick a card up first: tap it, then tap where it goes."));
}

// Double-click, double-tap: the card goes to the first foundation that takes it.
function home(name) {
  if (!game) return;
  const move = homeMove(game.state, table, name);
  if (move) play(move);
  else refuse(t("That card cannot go to a foundation now."));
}

// On a pile with runs to lift, up and down choose how many cards Enter picks up (up:
// one more); past either end the arrow goes on to the next pile (false).
function deepen(name, key) {
  if (!game || selected || (key !== "ArrowUp" && key !== "ArrowDown")) return false;
  const allowed = counts(name);
  if (allowed.length < 2) return false;
  const now = aim && aim.pile === name ? allowed.indexOf(aim.count) : 0;
  const next = allowed[now + (key === "ArrowUp" ? 1 : -1)];
  if (next === undefined) {
    if (aim) { aim = null; draw(); }
    return false;
  }
  aim = { pile: name, count: next };
  draw();
  announce(capital(tnf("%(count)s card from the %(card)s up: Enter picks it up.",
    "%(count)s cards from the %(card)s up: Enter picks them up.", next, { card: cardName(headOf(game.state, name, next)) })));
  return true;
}

function focused(name) {
  if (aim && aim.pile !== name) { aim = null; if (game) draw(); }
}

function finish() {
  if (!game || !game.can_finish) return;
  say("");
  link.perform({ type: "finish" });
}

const board = {
  play,
  tap,
  home,
  dropOn,
  canLift,
  liftAt,
  select,
  deepen,
  focused,
  lit: () => targetsLit(),
  selected: () => selected,
  redraw: () => game && draw(),
  targetsFrom: (name, count = null) => (game ? targetsFrom(game.state, name, count) : new Set()),
  step: (name, key) => (isStep(key) && layout ? stepFrom(layout, name, key) : null),
  turn: () => game && play(stockMove(game.state, table)),
  shortcut(key) {
    const keys = { D: board.turn, U: undo, H: () => askHint(false), G: () => askHint(true),
      N: () => newDeal(), F: finish };
    if (!keys[key] || (race && "HGN".includes(key))) return false;
    keys[key]();
    return true;
  },
};

function undo() { if (game && canUndo()) { say(""); link.perform({ type: "undo" }); } }

async function askHint(fair) {
  if (!game || game.status !== "playing") return;
  if (game.ranked && !game.hints) {  // the first hint of a ranked attempt changes its result
    const yes = await askFirst(fair
      ? t("A fair hint marks your ranked result assisted: it then ranks below every unassisted one. Ask for it?")
      : t("A hint marks your ranked result assisted: it then ranks below every unassisted one. Ask for it?"),
    t("Ask for the hint"));
    if (!yes || !game || game.status !== "playing") return;
  }
  say(fair ? t("Thinking without peeking…") : t("Asking the solver…"));
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
  $("#variant").value = slugOf(next.variant);
  offerWinnable();
  link.follow(next);
  // A reload opens this very game, even if the player has a newer one elsewhere.
  history.replaceState(null, "", `?game=${next.id}${race ? `&race=${encodeURIComponent(race)}` : ""}`);
  if (!document.body.dataset.ready) {
    // Usable from here: the bench reads when, counted from navigation start.
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    document.body.dataset.ready = "1";
  }
}

// "Winnable only" is offered where the server has proved deals of the variant (each
// option's data-proved, from the server); elsewhere it is not shown at all.
function winnableOffered(slug) {
  const option = [...$("#variant").options].find((item) => item.value === slug);
  return Boolean(option && Number(option.dataset.proved) > 0);
}

function offerWinnable() {
  $("#winnable-only").hidden = Boolean(race) || !winnableOffered($("#variant").value);
}

// `ordinary`: any deal, whatever the box says (the fallback when no table is drawn yet).
async function newDeal(deal, { ordinary = false } = {}) {
  const body = { variant: $("#variant").value };
  if (deal) body.deal = Number(deal);
  else if (!ordinary && $("#winnable").checked && winnableOffered(body.variant)) body.winnable = true;
  try {
    follow(await link.api("POST", "/api/games/", body));
    say("");
    announce(tf(t("New deal %(deal)s."), { deal: game.deal }));
  } catch (error) {
    await dealRefused(error, body);
  }
}

// A refused deal never leaves the table empty nor shows the server's failure raw: the
// game before stays drawn and playable (its variant chosen again); with none yet, an
// ordinary deal is dealt. The server's refusal (a 4xx) is in the player's language.
async function dealRefused(error, asked) {
  const reason = error.offline || (error.status && error.status < 500) ? capital(error.message)
    : t("The server could not deal a new game. Try again in a moment.");
  if (game && game.id) {
    $("#variant").value = slugOf(game.variant);
    offerWinnable();
  } else if (asked.winnable || asked.deal) {
    await newDeal(null, { ordinary: true });
  }
  say(reason);
  announce(reason);
}

// The page names each variant's unfinished game (or null): ask for one only if it exists.
const resumable = JSON.parse($("#resumable").textContent);

async function resumeOrDeal() {
  const variant = $("#variant").value;
  const id = resumable[variant];
  resumable[variant] = null;  // a game dealt from here on is followed by its own id
  if (!id) { await newDeal(); return; }
  try {
    follow(await link.api("GET", `/api/games/${encodeURIComponent(id)}/`));
    if (game.status !== "playing") await newDeal();
  } catch (error) {
    if (error.status === 404 || error.status === 403) await newDeal(); else say(error.message);
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
    // This game's variants only: the menu names them (another game's are not on this page).
    const only = page.game ? `?game=${encodeURIComponent(page.game)}` : "";
    const { wins } = await link.api("GET", `/api/stats/${only}`);
    const counts = Object.entries(wins)
      .map(([slug, count]) => tf(t("%(variant)s %(wins)s"), { variant: variantName(slug), wins: formatNumber(count) }));
    $("#wins").textContent = tf(t("Your wins: %(counts)s"), { counts: counts.join(" · ") });
  } catch { /* the count is a nicety */ }
}

function wire() {
  attachAnnouncer($("#announcer"));
  attachInput($("#table"), board);
  link.setHandlers({
    state: show,
    hint: showHint,
    notice: (code) => { if (code === "held") heldForReview(); },
    error: onError,
    link: (status) => {
      document.body.dataset.link = status;  // for tests: "live" once the socket is open
      $("#link").textContent = { live: "", connecting: "", reconnecting: t("Reconnecting…"), closed: t("Not your game."),
        offline: t("Offline: your last action will be sent when the connection is back.") }[status];
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
    if (!hopping) $("#table").classList.remove("celebrate");
  });
  $("#open-deal").onsubmit = (event) => {
    event.preventDefault();
    $("#menu").open = false;  // the deal opens on the table: the menu is done with
    newDeal($("#deal").value);
  };
  $("#undo").onclick = $("#end-undo").onclick = undo;
  $("#hint").onclick = () => askHint(false);
  $("#fair-hint").onclick = () => askHint(true);
  $("#finish").onclick = finish;
  $("#turn").onclick = board.turn;
  $("#variant").onchange = () => {
    store.set("tomb.variant", $("#variant").value);
    offerWinnable();
    // The address names the variant: go to the chosen one's.
    if (page.variantFixed && page.game) location.assign(`/${page.game}/${$("#variant").value}/`);
    else resumeOrDeal();
  };
  $("#welcome-ok").onclick = () => { $("#welcome").hidden = true; showLabels(false); };
  // Key badges show once a key is used (and always with a mouse: see play.css).
  document.addEventListener("keydown", () => document.documentElement.classList.add("keyed"), { once: true });
  // The skip link must come first in the page: it is drawn inside the page's content.
  document.body.prepend($("#skip"));
  $("#skip").onclick = (event) => {
    event.preventDefault();
    $('#table [tabindex="0"]').focus();
  };
  setInterval(() => game && game.status === "playing" && game.started && tick(), 1000);
}

// What the page's address chose (the server says): the game, a variant it names, a deal.
const page = {
  game: $("#play").dataset.game || "",
  variantFixed: Boolean($("#play").dataset.variantFixed),
  deal: Number($("#play").dataset.deal) || null,
};

function start() {
  const first = firstVisit();
  attachLooks($("#play"), $("#stage"), () => game && draw());
  $("#welcome").hidden = !first;
  wire();
  // The table is drawn empty at once when the page carries it; the game fills it.
  const given = JSON.parse($("#table-data")?.textContent || "null");
  if (given && given.piles) {
    game = { state: { piles: {}, legal: [], paths: {}, stock_count: 0 } };
    useTable(given);
    game = null;
  }
  const variant = store.get("tomb.variant", "");
  const known = [...$("#variant").options].some((option) => option.value === variant);
  if (known && !page.variantFixed) $("#variant").value = variant;
  offerWinnable();
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted) openGame(wanted);
  else if (page.deal) newDeal(page.deal);
  else resumeOrDeal();
  loadWins();
}

start();
