// Talking to the server: REST for games, the game's WebSocket for play.
//
// One action is in flight at a time; later ones wait in a queue. Each live
// action carries a seq that the server echoes with its answer, and a move or
// undo carries the game's version it was meant for: the server applies it only
// on that version and otherwise refuses it as "stale", changing nothing. So an
// action whose answer was lost (a dropped socket, a silent link, a failed
// request) is simply sent again with its first version once the board is back:
// applied already -> refused, and the fresh state is taken; not applied ->
// applied once; another board moved meanwhile -> refused, and the board shows
// the game as it now is. While the socket is down, actions go over REST.
//
// A socket sends the whole game first, then deltas: what changed since the last
// state it sent ({type: "delta", version, base, game: change}, game/deltas.py). A
// delta applies only to the version it names as its base; on any other the board
// asks for the whole state again ({type: "sync"}).

import { t } from "./i18n.js";
import { OFFLINE, cookie, socketUrl } from "./net.js";

const ACK_TIMEOUT_MS = 8000;
const BACKOFF_MS = [300, 1000, 2000, 4000, 8000, 15000];
const REST_AFTER_FAILURES = 3;  // reconnect attempts before an unsure action goes over REST
const CLOSE_NOT_ALLOWED = 4403;
const VERSIONED = new Set(["move", "undo", "finish"]);
const MOVED_ELSEWHERE = t("The game changed on another screen: here it is as it stands now.");

let handlers = { state() {}, hint() {}, error() {}, link() {}, notice() {} };
let gameId = null;
let version = -1;   // the newest version seen of the followed game
let current = null; // the game at that version: the base a delta applies to
let socket = null;
let fresh = false;  // the socket has just opened: its first state settles an unsure action
let failures = 0;
let seq = 0;
let inflight = null;  // { action, seq, base, live, unsure, resent }
let ackTimer = 0;
let retryTimer = 0;
const queue = [];
export let clockSkewMs = 0;  // server clock minus this one, from REST answers' Date header

export function setHandlers(given) { handlers = { ...handlers, ...given }; }

// The page's inline script may have sent the board's first request while the modules
// loaded: the same request takes its answer, once.
function early(method, url, body) {
  const sent = window.tombEarly;
  if (!sent || sent.method !== method || sent.url !== url
      || JSON.stringify(sent.body) !== JSON.stringify(body)) return null;
  window.tombEarly = null;
  return sent.response;
}

export async function api(method, url, body) {
  let response;
  try {
    response = await early(method, url, body) || await fetch(url, {
      method, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    const error = new Error(OFFLINE);  // not the browser's raw "Failed to fetch"
    error.offline = true;
    throw error;
  }
  const date = Date.parse(response.headers.get("Date") || "");
  if (!Number.isNaN(date)) clockSkewMs = date - Date.now();
  const data = await response.json().catch(() => ({ error: t("the server sent no JSON") }));
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    Object.assign(error, { status: response.status, code: data.code, game: data.game });
    throw error;
  }
  return data;
}

// Follow a game: its states come through handlers.state from now on.
export function follow(game) {
  gameId = game.id;
  version = game.version;
  current = game;
  queue.length = 0;
  inflight = null;
  failures = 0;
  clearTimeout(ackTimer);
  clearTimeout(retryTimer);
  handlers.link("connecting");
  openSocket();
}

export const pending = () => Boolean(inflight || queue.length);
export const isLive = () => Boolean(socket && socket.readyState === WebSocket.OPEN);

// An action: {type: "move", move: "F@nw"} | {type: "undo"} | {type: "finish"} | {type: "hint", fair?: true}.
export function perform(action) {
  queue.push(action);
  pump();
}

function pump() {
  if (inflight || !queue.length || !gameId) return;
  const entry = { action: queue.shift(), seq: 0, base: version, live: false, unsure: false,
    resent: false };
  if (isLive()) transmit(entry); else viaRest(entry);
}

function withVersion(entry, fields) {
  return VERSIONED.has(entry.action.type) ? { ...fields, version: entry.base } : fields;
}

function transmit(entry) {
  inflight = entry;
  Object.assign(entry, { seq: ++seq, live: true, unsure: false });
  socket.send(JSON.stringify(withVersion(entry, { ...entry.action, seq: entry.seq })));
  clearTimeout(ackTimer);
  const waiting = socket;
  // No answer in time: the link is dead, whatever the socket says. Reconnect at once
  // (a dead link's close event can take minutes) and send the action again.
  ackTimer = setTimeout(() => lost(waiting, 0), ACK_TIMEOUT_MS);
}

function settle() {
  inflight = null;
  clearTimeout(ackTimer);
  pump();
}

// The server refused the action because the game had moved past its version.
function refusedAsStale(entry) {
  if (!entry.resent) {  // another board moved: what was queued was meant for the old board
    queue.length = 0;
    handlers.error(MOVED_ELSEWHERE);
  }  // a resend's refusal is the quiet case: it had been applied (or another board moved)
  settle();
}

// ``chained``: a delta applied on its base, which makes the game whole whatever the gap.
function deliver(game, chained = false) {
  if (game.id !== gameId || game.version < version) return;  // another game, or old news
  // A gap: states crossed on the way (another board acted); ask for the newest.
  const gap = game.version > version + 1 && version >= 0 && !fresh && !chained;
  version = game.version;
  current = game;
  handlers.state(game);
  if (gap && isLive()) socket.send(JSON.stringify({ type: "sync" }));
}

// A change (game/deltas.py): {"=": value}, {"+": [keep, items]} for a list, or
// {"{": {key: change}, "-": [gone keys]} for an object. Returns a new value: the
// game held before is left as it was (the board compares the two to animate).
export function patch(before, change) {
  if ("=" in change) return change["="];
  if ("+" in change) return before.slice(0, change["+"][0]).concat(change["+"][1]);
  const after = { ...before };
  for (const [key, inner] of Object.entries(change["{"] || {})) after[key] = patch((before || {})[key], inner);
  for (const key of change["-"] || []) delete after[key];
  return after;
}

// A delta: applied on its base, else the whole state is asked for (a state from REST
// or a dropped message left this board elsewhere). Returns the game, or null.
function applyDelta(message) {
  if (message.version <= version) return null;  // old news
  if (!current || current.version !== message.base || current.id !== gameId) {
    if (isLive()) socket.send(JSON.stringify({ type: "sync" }));
    return null;
  }
  return patch(current, message.game);
}

const REST_PATHS = { move: "moves/", undo: "undo/", finish: "finish/", hint: "hint/" };

function restBody(entry) {
  const { action } = entry;
  if (action.type === "move") return withVersion(entry, { move: action.move });
  if (action.type === "hint") return { fair: Boolean(action.fair) };
  return withVersion(entry, {});
}

async function viaRest(entry) {
  inflight = entry;
  Object.assign(entry, { live: false, unsure: false });
  const id = gameId;
  try {
    const game = await api("POST", `/api/games/${id}/${REST_PATHS[entry.action.type]}`,
      restBody(entry));
    if (inflight !== entry) return;
    deliver(game);
    if (game.hint) handlers.hint({ version: game.version, hint: game.hint });
    settle();
  } catch (error) {
    if (inflight !== entry || id !== gameId) return;
    if (error.offline) { heldOffline(entry); return; }
    if (error.code === "stale") { if (error.game) deliver(error.game); refusedAsStale(entry); return; }
    handlers.error(error.message, entry.action);
    settle();
  }
}

// The request may or may not have reached the server: keep the action and send it
// again, with its first version, as soon as the board is back.
function heldOffline(entry) {
  entry.resent = true;
  handlers.link("offline");
  if (isLive()) transmit(entry);
  else entry.unsure = true;  // the next socket's first state sends it again
}

// The socket first opened: send the unanswered action again. A move or undo names
// its version, so the server judges; a hint (not versioned) is asked again only if
// the game has not moved since (counting a hint twice is the lesser harm anyway).
function resendUnsure(game) {
  const entry = inflight;
  entry.resent = true;
  if (VERSIONED.has(entry.action.type) || game.version <= entry.base) transmit(entry);
  else settle();
}

function onMessage(event) {
  const message = JSON.parse(event.data);
  if (message.type === "delta") {
    const game = applyDelta(message);
    if (game) deliver(game, true);
    if (inflight && inflight.live && message.seq === inflight.seq) settle();
  } else if (message.type === "state") {
    const first = fresh;
    deliver(message.game);
    fresh = false;
    if (first && inflight && inflight.unsure && message.seq === undefined) {
      resendUnsure(message.game);
    } else if (inflight && inflight.live && message.seq === inflight.seq) {
      settle();
    }
  } else if (message.type === "hint") {
    handlers.hint(message);
  } else if (message.type === "notice") {
    handlers.notice(message.notice);  // e.g. "held": the ranked result is under review
  } else if (message.type === "error") {
    const mine = inflight && inflight.live && message.seq === inflight.seq;
    if (mine && message.code === "stale") { refusedAsStale(inflight); return; }
    handlers.error(message.error, mine ? inflight.action : null);
    if (mine) settle();
  }
}

function openSocket() {
  if (socket) forget(socket);
  const ws = new WebSocket(socketUrl(`/ws/games/${gameId}/?deltas=1`));  // game/consumers.py
  const id = gameId;
  socket = ws;
  ws.onopen = () => { failures = 0; fresh = true; handlers.link("live"); };
  ws.onmessage = onMessage;
  ws.onclose = (event) => { if (id === gameId) lost(ws, event.code); };
}

function forget(ws) {
  ws.onopen = ws.onmessage = ws.onclose = null;
  try { ws.close(); } catch { /* closing already */ }
}

// A socket is gone (closed, or silent past the answer timeout): mark the unanswered
// action unsure and reconnect with backoff; after a few failures try REST.
function lost(ws, code) {
  if (socket !== ws) return;
  forget(ws);
  socket = null;
  clearTimeout(ackTimer);
  if (code === CLOSE_NOT_ALLOWED) { handlers.link("closed"); return; }
  if (inflight && inflight.live) inflight.unsure = true;
  failures += 1;
  handlers.link("reconnecting");
  if (inflight && inflight.unsure && failures > REST_AFTER_FAILURES) {
    inflight.resent = true;
    viaRest(inflight);
  }
  const base = BACKOFF_MS[Math.min(failures - 1, BACKOFF_MS.length - 1)];
  clearTimeout(retryTimer);
  retryTimer = setTimeout(reconnect, base * (0.75 + Math.random() / 2));
}

export function reconnect() {
  clearTimeout(retryTimer);
  const alive = socket && socket.readyState <= WebSocket.OPEN;  // connecting or open
  if (gameId && !alive) openSocket();
}

// For tests and the bench: drop the socket as a network failure would.
export function dropForTest() { if (socket) socket.close(4000, "test drop"); }  // i18n: not text

addEventListener("online", reconnect);
// A phone that slept may have lost its socket without a close event reaching us yet,
// and a hidden tab may have missed states: reconnect, or ask for the newest state.
document.addEventListener("visibilitychange", () => {
  if (document.hidden) return;
  if (isLive()) socket.send(JSON.stringify({ type: "sync" }));
  else reconnect();
});
