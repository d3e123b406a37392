// Talking to the server: REST for games, the game's WebSocket for play.
//
// One action is in flight at a time; later ones wait in a queue. Each live
// action carries a seq that the server echoes with its answer. If the socket
// drops before the answer, the board reconnects with backoff; the state the
// server sends on connecting says whether the action was applied (its version
// moved past the one the action was sent on), and only if not is it sent again,
// so no move is lost or played twice. While the socket is down, actions go over
// REST.

const ACK_TIMEOUT_MS = 8000;
const BACKOFF_MS = [300, 1000, 2000, 4000, 8000, 15000];
const REST_AFTER_FAILURES = 3;  // reconnect attempts before an unsure action is settled over REST
const CLOSE_NOT_ALLOWED = 4403;

let handlers = { state() {}, hint() {}, error() {}, link() {} };
let gameId = null;
let version = -1;   // the newest version seen of the followed game
let socket = null;
let fresh = false;  // the socket has just opened: its first state settles an unsure action
let failures = 0;
let seq = 0;
let inflight = null;  // { action, seq, base, live, unsure }
let ackTimer = 0;
let retryTimer = 0;
const queue = [];
export let clockSkewMs = 0;  // server clock minus this one, from REST answers' Date header

export function setHandlers(given) { handlers = { ...handlers, ...given }; }

function cookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

export async function api(method, url, body) {
  const response = await fetch(url, {
    method, credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const date = Date.parse(response.headers.get("Date") || "");
  if (!Number.isNaN(date)) clockSkewMs = date - Date.now();
  const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

// Follow a game: its states come through handlers.state from now on.
export function follow(game) {
  gameId = game.id;
  version = game.version;
  queue.length = 0;
  inflight = null;
  failures = 0;
  clearTimeout(ackTimer);
  clearTimeout(retryTimer);
  openSocket();
}

export const pending = () => Boolean(inflight || queue.length);
export const isLive = () => Boolean(socket && socket.readyState === WebSocket.OPEN);

// An action: {type: "move", move: "F@nw"} | {type: "undo"} | {type: "hint", fair?: true}.
export function perform(action) {
  queue.push(action);
  pump();
}

function pump() {
  if (inflight || !queue.length || !gameId) return;
  const action = queue.shift();
  if (isLive()) {
    inflight = { action, seq: ++seq, base: version, live: true, unsure: false };
    transmit();
  } else {
    viaRest(action);
  }
}

function transmit() {
  socket.send(JSON.stringify({ ...inflight.action, seq: inflight.seq }));
  clearTimeout(ackTimer);
  const waiting = socket;
  ackTimer = setTimeout(() => waiting.close(), ACK_TIMEOUT_MS);  // reconnect and resettle
}

function settle() {
  inflight = null;
  clearTimeout(ackTimer);
  pump();
}

function deliver(game) {
  if (game.id !== gameId || game.version < version) return;  // another game, or old news
  version = game.version;
  handlers.state(game);
}

const REST_PATHS = { move: "moves/", undo: "undo/", hint: "hint/" };

function restBody(action) {
  if (action.type === "move") return { move: action.move };
  if (action.type === "hint") return { fair: Boolean(action.fair) };
  return undefined;
}

async function viaRest(action) {
  inflight = { action, live: false };
  const id = gameId;
  try {
    const game = await api("POST", `/api/games/${id}/${REST_PATHS[action.type]}`, restBody(action));
    deliver(game);
    if (game.hint) handlers.hint({ version: game.version, hint: game.hint });
  } catch (error) {
    if (id === gameId) handlers.error(error.message, action);
  }
  if (id === gameId) settle();
}

// The socket dropped with an action unanswered for a while: ask the game over
// REST and send the action again only if the game has not moved since.
async function settleOverRest() {
  const unsure = inflight;
  unsure.unsure = false;  // from here REST decides, not the next socket's first state
  unsure.live = false;
  try {
    const game = await api("GET", `/api/games/${gameId}/`);
    if (inflight !== unsure) return;
    deliver(game);
    if (game.version > unsure.base) settle();
    else { inflight = null; viaRest(unsure.action); }
  } catch (error) {
    handlers.error(error.message);
  }
}

function onMessage(event) {
  const message = JSON.parse(event.data);
  if (message.type === "state") {
    deliver(message.game);
    if (fresh && inflight && inflight.unsure && message.seq === undefined) {
      // The server's state on connecting: was the unanswered action applied?
      if (message.game.version > inflight.base) settle();
      else { inflight.unsure = false; transmit(); }
    } else if (inflight && inflight.live && message.seq === inflight.seq) {
      settle();
    }
    fresh = false;
  } else if (message.type === "hint") {
    handlers.hint(message);
  } else if (message.type === "error") {
    const mine = inflight && inflight.live && message.seq === inflight.seq;
    handlers.error(message.error, mine ? inflight.action : null);
    if (mine) settle();
  }
}

function openSocket() {
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}/`);
  const id = gameId;
  socket = ws;
  ws.onopen = () => { failures = 0; fresh = true; handlers.link("live"); };
  ws.onmessage = onMessage;
  ws.onclose = (event) => {
    if (socket !== ws || id !== gameId) return;
    socket = null;
    clearTimeout(ackTimer);
    if (event.code === CLOSE_NOT_ALLOWED) { handlers.link("closed"); return; }
    if (inflight && inflight.live) inflight.unsure = true;
    failures += 1;
    handlers.link("reconnecting");
    if (inflight && inflight.unsure && failures > REST_AFTER_FAILURES) settleOverRest();
    const base = BACKOFF_MS[Math.min(failures - 1, BACKOFF_MS.length - 1)];
    retryTimer = setTimeout(reconnect, base * (0.75 + Math.random() / 2));
  };
}

export function reconnect() {
  clearTimeout(retryTimer);
  const alive = socket && socket.readyState <= WebSocket.OPEN;  // connecting or open
  if (gameId && !alive) openSocket();
}

// For tests and the bench: drop the socket as a network failure would.
export function dropForTest() { if (socket) socket.close(4000, "test drop"); }

addEventListener("online", reconnect);
// A phone that slept may have lost its socket without a close event reaching us yet.
document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnect(); });
