// A plain board: the server is the referee, this page only sends intents and
// draws the visible state it gets back. Live play goes over the game's
// WebSocket; when that is down, the same actions go over REST.

const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const $ = (selector) => document.querySelector(selector);

let game = null;      // the last game payload drawn
let socket = null;
let seq = 0;
let retry = 0;
let hintMove = null;

function cookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
  return found ? decodeURIComponent(found.split("=")[1]) : "";
}

async function api(method, url, body) {
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function cardHtml(text) {
  if (!text) return "&ndash;";
  const rank = text[0] === "T" ? "10" : text[0];
  const red = text[1] === "H" || text[1] === "D";
  return `<span class="card${red ? " red" : ""}">${rank}${SUITS[text[1]]}</span>`;
}

function say(text) { $("#message").textContent = text || ""; }

function show(next) {
  // States can arrive out of order from two tabs: keep the newest.
  if (game && next.id === game.id && next.version < game.version) return;
  if (!game || next.id !== game.id || next.version !== game.version) hintMove = null;
  game = next;
  draw();
}

function draw() {
  const state = game.state;
  const legal = new Set(state.legal);
  $("#table").hidden = false;
  const deal = game.deal ? `deal ${game.deal}`
    : (game.ranked ? "ranked daily (a stock turn cannot be undone)" : "daily deal");
  $("#title").textContent = `${state.variant} · ${deal} · pass ${state.pass} of ${state.passes}`;
  for (const box of document.querySelectorAll("[data-pile]")) {
    const name = box.dataset.pile;
    const pile = state.foundations[name];
    const extra = name === "tomb"
      ? (state.tomb.complete ? "complete" : `wants ${state.tomb.wants}, round ${state.tomb.round}`)
      : `${pile.length} cards`;
    box.innerHTML = `<div>${name}</div>${cardHtml(pile[pile.length - 1])}<div>${extra}</div>`;
    mark(box, legal.has(`F@${name}`), `F@${name}`);
  }
  for (const box of document.querySelectorAll("[data-cell]")) {
    const name = box.dataset.cell;
    box.innerHTML = `<div>cell ${name}</div>${cardHtml(state.cells[name])}`;
    mark(box, legal.has(`C@${name}`), `C@${name}`);
  }
  $("#stock").innerHTML = `<div>stock</div><div class="card">${state.stock_count}</div>`;
  mark($("#stock"), legal.has("D") || legal.has("R"), legal.has("R") ? "R" : "D");
  const waste = state.waste.slice(-3).map(cardHtml).join(" ");
  $("#waste").innerHTML = `<div>waste (${state.waste.length})</div>${waste || "&ndash;"}`;
  for (const button of document.querySelectorAll("[data-move]")) {
    button.disabled = !state.legal.some((move) => move.startsWith(button.dataset.move));
  }
  $("#undo").disabled = !state.can_undo;
  $("#hint").disabled = game.status !== "playing";
  const words = { playing: "Playing", won: "Won! All 52 cards are home.", lost: "Lost: no move is left. Undo or start again." };
  $("#status").textContent = `${words[game.status]} · ${state.home} of 52 home · `
    + `${game.moves} moves, ${game.undos} undos, ${game.hints} hints`;
}

function mark(box, isLegal, move) {
  box.classList.toggle("legal", isLegal);
  box.classList.toggle("hint", hintMove === move);
}

function connect() {
  if (socket) socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const id = game.id;
  const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${id}/`);
  socket = ws;
  ws.onopen = () => { retry = 0; };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      if (game && message.version > game.version + 1 && message.seq === undefined) {
        ws.send(JSON.stringify({ type: "sync" }));  // a gap: ask for the full state
      }
      show(message.game);
    } else if (message.type === "hint") {
      showHint(message);
    } else if (message.type === "error") {
      say(message.error);
    }
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    // Keep playing over REST meanwhile; try the socket again a little later.
    retry = Math.min(retry + 1, 5);
    setTimeout(() => { if (game && game.id === id && !socket) connect(); }, 1000 * retry);
  };
}

function showHint(message) {
  if (!game || message.version !== game.version) return;  // the board moved on
  const hint = message.hint;
  hintMove = hint.move;
  const verdict = { winnable: "the deal can still be won", lost: "the deal cannot be won any more",
    unknown: "the solver does not know whether it can still be won" }[hint.verdict];
  say(hint.move ? `Hint: ${hint.move} (${verdict})` : `No move to suggest: ${verdict}`);
  draw();
}

async function act(type, move) {
  if (!game) return;
  say("");
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ type, move, seq: ++seq }));
    return;
  }
  try {
    const base = `/api/games/${game.id}/`;
    if (type === "move") show(await api("POST", base + "moves/", { move }));
    if (type === "undo") show(await api("POST", base + "undo/"));
    if (type === "hint") {
      const answer = await api("POST", base + "hint/");
      show(answer);
      showHint({ version: answer.version, hint: answer.hint });
    }
  } catch (error) {
    say(error.message);
  }
}

async function start(deal) {
  try {
    const body = { variant: $("#variant").value };
    if (deal) body.deal = Number(deal);
    game = null;
    show(await api("POST", "/api/games/", body));
    connect();
  } catch (error) {
    say(error.message);
  }
}

async function resume() {
  try {
    show(await api("GET", `/api/games/resume/?variant=${encodeURIComponent($("#variant").value)}`));
    connect();
  } catch (error) {
    // No unfinished game of this variant: wait for "New game".
  }
}

async function openGame(id) {
  // A daily's game, from the daily page's link.
  try {
    show(await api("GET", `/api/games/${encodeURIComponent(id)}/`));
    $("#variant").value = game.variant;
    connect();
  } catch (error) {
    say(error.message);
  }
}

$("#new").onclick = () => start($("#deal").value);
$("#replay").onclick = () => game && start(game.deal);
$("#variant").onchange = resume;
$("#undo").onclick = () => act("undo");
$("#hint").onclick = () => act("hint");
for (const button of document.querySelectorAll("[data-move]")) {
  button.onclick = () => act("move", button.dataset.move);
}
for (const box of document.querySelectorAll("[data-pile]")) {
  box.onclick = () => act("move", `F@${box.dataset.pile}`);
}
for (const box of document.querySelectorAll("[data-cell]")) {
  box.onclick = () => act("move", `C@${box.dataset.cell}`);
}
$("#stock").onclick = () => game && act("move", game.state.legal.includes("R") ? "R" : "D");

document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key.toUpperCase();
  if ("DRFC".includes(key) && key.length === 1) act("move", key);
  else if (key === "U") act("undo");
  else if (key === "H") act("hint");
  else if (key === "N") start($("#deal").value);
  else return;
  event.preventDefault();
});

const wanted = new URLSearchParams(location.search).get("game");
if (wanted) openGame(wanted); else resume();
