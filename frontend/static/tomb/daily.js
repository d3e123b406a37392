// The daily pages: start (or go on with) today's game, replay an archive deal,
// copy the share line, and keep the field up to date over /ws/daily/<variant>/.
// The game itself is played on the board page (/?game=<id>).

const $ = (selector) => document.querySelector(selector);

function cookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
  return found ? decodeURIComponent(found.split("=")[1]) : "";
}

function say(text) {
  const box = $("#daily-message");
  if (box) box.textContent = text || "";
}

async function openGame(url) {
  try {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") },
    });
    const data = await response.json().catch(() => ({ error: "the server sent no JSON" }));
    if (!response.ok) throw new Error(data.error || response.statusText);
    location.assign(`/?game=${encodeURIComponent(data.id)}`);
  } catch (error) {
    say(error.message);
  }
}

// -- the field -------------------------------------------------------------

const field = $("#field");
let entries = new Map();  // player -> entry

function better(a, b) {
  // The board's order: cards home, no hints first, time, moves.
  return (b.home - a.home) || (a.assisted - b.assisted) || (a.time_ms - b.time_ms)
    || (a.moves - b.moves);
}

function cell(text) {
  const td = document.createElement("td");
  td.textContent = String(text);
  return td;
}

function drawField() {
  const rows = $("#field-rows");
  rows.replaceChildren();
  const sorted = [...entries.values()].sort(better);
  for (const entry of sorted) {
    const tr = document.createElement("tr");
    const finished = entry.status === "won" ? "won" : (entry.finished ? "lost" : "playing");
    for (const text of [entry.player, entry.home, finished, entry.time, entry.moves, entry.hints]) {
      tr.append(cell(text));
    }
    rows.append(tr);
  }
  if (!sorted.length) {
    const tr = document.createElement("tr");
    const td = cell("No ranked player yet.");
    td.colSpan = 6;
    tr.append(td);
    rows.append(tr);
  }
}

function watchField() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/daily/${field.dataset.variant}/`);
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "field" && message.date === field.dataset.date) {
      entries = new Map(message.entries.map((entry) => [entry.player, entry]));
      drawField();
    } else if (message.type === "entry" && message.date === field.dataset.date) {
      entries.set(message.entry.player, message.entry);
      drawField();
    }
  };
  ws.onclose = () => setTimeout(watchField, 5000);
}

// -- wiring ------------------------------------------------------------------

const play = $("#play-daily");
if (play) play.onclick = () => openGame(`/api/daily/${play.dataset.variant}/play/`);
const replay = $("#replay-daily");
if (replay) replay.onclick = () => openGame(replay.dataset.url);
const copy = $("#copy-share");
if (copy) {
  copy.onclick = async () => {
    await navigator.clipboard.writeText($("#share").textContent);
    copy.textContent = "Copied";
  };
}
if (field) watchField();
