// "Race a friend": opening a room (/race/) and the room itself (/race/<code>/): the lobby
// (players, ready, the owner's options and Start), the synchronized countdown that opens
// every board at the same server time, the live progress and the results with Rematch
// and each player's replay. The room comes from the API and then its socket.

import { announce, attach as attachAnnouncer } from "./announcer.js";
import { api } from "./connection.js";
import { formatNumber, t, tc, tf, tnf } from "./i18n.js";
import { applyProgress, boardUrl, clock, homeBar, msUntil, roomApi, statusWord, tookClock,
  watchRoom } from "./race-room.js";

const $ = (selector) => document.querySelector(selector);
const say = (text) => { $("#race-message").textContent = text || ""; };

// -- opening a room ----------------------------------------------------------------

const form = $("#new-race");
if (form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const option = $("#race-variant").selectedOptions[0];
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const made = await api("POST", "/api/races/", {
        game: option.dataset.game, variant: option.value,
        minutes: Number(form.elements.minutes.value), visitors: $("#race-visitors").checked });
      location.assign(made.url);
    } catch (error) {
      say(error.message);
      button.disabled = false;
    }
  });
}

// -- the room ------------------------------------------------------------------------

const page = $("#room");
const code = page ? page.dataset.code : "";
const user = page ? page.dataset.user : "";
let room = null;
let seenRematch;    // the room's rematch when the page first saw it: a newer one takes us along
let leaving = false;
let reopen = () => {};  // the room's socket afresh (watchRoom)

function phase() {
  if (room.state === "running" && msUntil(room.starts_at) > 0) return "countdown";
  return room.state;
}

const LEADS = {
  lobby: () => t("Waiting for the players: the owner starts the race once everyone is ready."),
  countdown: () => t("Get ready: every board opens the same deal at the same second."),
  running: () => t("The race is on: everyone's progress, live."),
  finished: () => t("The race is over. The results:"),
  closed: () => t("This room has closed: every player left."),
};

const inRace = (player) => player.status !== "left";

function cell(tag, ...content) {
  const element = document.createElement(tag);
  element.append(...content.filter((part) => part !== null && part !== undefined));
  return element;
}

function nameCell(player) {
  const name = cell("th", player.name);
  name.scope = "row";
  if (player.owner) {
    const mark = cell("span", tc("race room", "owner"));
    mark.className = "tag";
    name.append(" ", mark);
  }
  return name;
}

function yesNo(on, yes, no) {
  const word = cell("span", on ? yes : no);
  word.className = on ? "yes" : "no";
  return word;
}

// Each phase shows its own columns: who is ready and here; the race's progress; results.
const COLUMNS = {
  lobby: () => [t("Player"), t("Ready"), t("Here")],
  running: () => [t("Player"), t("Cards home"), t("Moves"), t("Status")],
  finished: () => [t("Place"), t("Player"), t("Result"), t("Cards home"), t("Time"), t("Moves"),
    t("Replay")],
};

const TITLES = { lobby: () => t("Players"), running: () => t("Progress"), finished: () => t("Results") };

function rowCells(player, state) {
  if (state === "lobby") {
    const ready = player.owner ? cell("span", t("starts it")) : yesNo(player.ready, t("ready"), t("not yet"));
    return [nameCell(player), cell("td", ready),
      cell("td", yesNo(player.present, t("here"), t("away")))];
  }
  const home = cell("td", homeBar(player.home, room.card_count));
  const moves = cell("td", formatNumber(player.moves || 0));
  const status = cell("td", statusWord(player.status));
  status.className = `status ${player.status}`;
  if (state !== "finished") return [nameCell(player), home, moves, status];
  const replay = room.me ? cell("a", t("Watch")) : cell("span", "–");
  if (room.me) {
    replay.href = `/race/${encodeURIComponent(code)}/replay/${player.id}/`;
    replay.setAttribute("aria-label", tf(t("Watch %(name)s's game"), { name: player.name }));
  }
  return [cell("td", player.place ? formatNumber(player.place) : "–"), nameCell(player), status, home,
    cell("td", player.time_ms === null || player.time_ms === undefined ? "–" : clock(player.time_ms)),
    moves, cell("td", replay)];
}

function order(players, state) {
  const list = [...players];
  if (state === "finished") list.sort((a, b) => (a.place || 99) - (b.place || 99));
  else if (state !== "lobby") list.sort((a, b) => (b.home - a.home) || (a.moves - b.moves));
  return list;
}

function drawPlayers(state) {
  const shown = state === "countdown" || state === "closed" ? "lobby" : state;
  $("#racers-head").replaceChildren(...COLUMNS[shown]().map((name) => cell("th", name)));
  const players = order(room.players.filter((p) => shown === "finished" || inRace(p)), shown);
  $("#racers-rows").replaceChildren(...players.map((player) => {
    const row = cell("tr", ...rowCells(player, shown));
    row.dataset.player = player.id;
    if (room.me && player.id === room.me.id) { row.className = "me"; row.setAttribute("aria-current", "true"); }
    if (shown === "finished" && player.place) row.classList.add(`place-${player.place}`);
    return row;
  }));
  const count = room.players.filter(inRace).length;
  $("#players-title").firstChild.textContent = `${TITLES[shown]()} `;
  const counting = shown === "lobby";  // a count of who is in, while anyone may join
  $("#player-count").textContent = !counting ? ""
    : tnf("%(count)s of 8", "%(count)s of 8", count, { count: formatNumber(count) });
}

function startWhy() {
  const players = room.players.filter(inRace);
  if (players.length < 2) return t("A race needs a second player: send the link.");
  const waiting = players.filter((p) => !p.owner && !p.ready).map((p) => p.name);
  if (waiting.length) return tf(t("Waiting for: %(names)s."), { names: waiting.join(", ") });
  return "";
}

// The owner's controls follow the server's options only when those change: a room event
// sent before the owner's own change arrived must not undo it under their hand.
const said = new Map();
function setOption(control, property, value) {
  if (said.get(control) === value) return;
  said.set(control, value);
  control[property] = value;
}

function drawLobby(state) {
  const me = room.me;
  const lobby = state === "lobby";
  $("#share-box").hidden = !lobby;
  const left = Boolean(me && me.left);  // a player who left cannot come back in
  $("#mine").hidden = !lobby || !me || left;
  const mine = me && room.players.find((p) => p.id === me.id);
  if (mine) {
    $("#ready").setAttribute("aria-pressed", String(Boolean(mine.ready)));
    $("#ready").textContent = mine.ready ? t("Ready ✓ (press to wait)") : t("I'm ready");
    $("#ready").hidden = Boolean(me.owner);  // the owner's Start says it
  }
  const canJoin = lobby && !me && (user || room.visitors);
  $("#join").hidden = !canJoin;
  $("#join-name-row").hidden = Boolean(user);
  $("#join-name").required = !user;
  $("#visitors-off").hidden = !(lobby && !me && !user && !room.visitors);
  const owner = lobby && me && me.owner && !left;
  $("#owner").hidden = !owner;
  if (owner) {
    setOption($("#room-minutes"), "value", String(room.minutes));
    setOption($("#room-visitors"), "checked", Boolean(room.visitors));
    const why = startWhy();
    $("#start").disabled = Boolean(why);
    $("#start-why").textContent = why;
  }
  const late = !lobby && !me && state !== "finished" && state !== "closed";
  $("#no-join").hidden = !late && !left;
  $("#no-join").textContent = left ? t("You left this race: you can follow it here.")
    : late ? t("This race has started: you can follow it here, but no longer join.") : "";
}

function drawGoing(state) {
  const going = state === "running";
  $("#going").hidden = !going;
  if (!going) return;
  $("#to-board").hidden = !(room.me && room.me.game);
  if (room.me && room.me.game) $("#to-board").href = boardUrl(room);
  $("#clock-line").textContent = tf(t("Time left: %(time)s"), { time: clock(msUntil(room.ends_at)) });
}

function drawAfter(state) {
  // A closed room (everyone left its lobby) offers a new race, not a rematch.
  const closed = state === "closed";
  $("#after").hidden = !closed && !(state === "finished" && Boolean(room.me));
  $("#rematch").hidden = closed || Boolean(room.rematch);
  $("#to-rematch").hidden = closed || !room.rematch;
  if (room.rematch) $("#to-rematch").href = `/race/${encodeURIComponent(room.rematch)}/`;
}

function drawCountdown(state) {
  $("#countdown").hidden = state !== "countdown";
  if (state !== "countdown") return;
  const seconds = Math.max(1, Math.ceil(msUntil(room.starts_at) / 1000));
  const number = $("#count-number");
  if (number.textContent !== String(seconds)) number.textContent = formatNumber(seconds);
}

function draw() {
  const state = phase();
  page.dataset.state = state;
  $("#room-what").textContent = tf(t("%(game)s · %(variant)s · %(minutes)s"), {
    game: room.game.name, variant: room.variant.name,
    minutes: tnf("%(count)s minute", "%(count)s minutes", room.minutes, { count: formatNumber(room.minutes) }) });
  $("#room-state").textContent = LEADS[state]();
  $("#lobby").hidden = false;
  $("#live").hidden = state === "finished" || state === "closed";
  drawCountdown(state);
  drawPlayers(state);
  drawLobby(state);
  drawGoing(state);
  drawAfter(state);
}

let lastState = "";

function took(next) {
  if (leaving) return;
  const before = room;
  room = next;
  if (seenRematch === undefined) seenRematch = room.rematch;
  if (room.rematch && room.rematch !== seenRematch && room.me) {
    location.assign(`/race/${encodeURIComponent(room.rematch)}/`);  // the rematch: everyone follows
    return;
  }
  tellChange(before);
  draw();
  tick();
}

function tellChange(before) {
  const state = phase();
  if (state !== lastState && lastState) announce(LEADS[state]());
  lastState = state;
  if (!before || state !== "lobby") return;
  const had = new Set(before.players.filter(inRace).map((p) => p.id));
  const joined = room.players.filter((p) => inRace(p) && !had.has(p.id)).map((p) => p.name);
  if (joined.length) announce(tf(t("%(names)s joined."), { names: joined.join(", ") }));
}

// Once a second (five times during the countdown): the countdown, the time left, and
// at zero the board, opened when the server's clock says so.
// A page that showed the countdown opens the board at zero (whatever event came then);
// one opened later shows the way to it instead.
let counted = false;

function tick() {
  if (!room) return;
  const state = phase();
  if (state !== page.dataset.state) draw();
  if (state === "countdown") {
    counted = true;
    drawCountdown(state);
  } else if (state === "running") {
    $("#clock-line").textContent = tf(t("Time left: %(time)s"), { time: clock(msUntil(room.ends_at)) });
    if (counted && room.me && room.me.game) {
      counted = false;
      location.assign(boardUrl(room));
    }
  }
}

async function act(action, body) {
  say("");
  try {
    took(await roomApi(code, action, body));
    return true;
  } catch (error) {
    say(error.message);
    return false;
  }
}

async function copyLink(button) {
  const input = $("#share-link");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  const label = button.textContent;
  button.textContent = t("Copied");
  announce(t("The room's link is copied to the clipboard."));
  setTimeout(() => { button.textContent = label; }, 2500);
}

function wire() {
  attachAnnouncer($("#race-news"));
  $("#copy-link").onclick = () => copyLink($("#copy-link"));
  $("#ready").onclick = () => act("ready", { ready: $("#ready").getAttribute("aria-pressed") !== "true" });
  $("#leave").onclick = async () => {
    await act("leave", {});
    leaving = true;
    location.assign("/race/");
  };
  $("#room-minutes").onchange = () => act("options", { minutes: Number($("#room-minutes").value) });
  $("#room-visitors").onchange = () => act("options", { visitors: $("#room-visitors").checked });
  $("#start").onclick = () => act("start", {});
  $("#rematch").onclick = async () => {
    say("");
    try {
      const next = await roomApi(code, "rematch", {});
      leaving = true;
      location.assign(next.url);
    } catch (error) { say(error.message); }
  };
  $("#join").onsubmit = async (event) => {
    event.preventDefault();
    if (await act("join", user ? {} : { name: $("#join-name").value.trim() })) reopen();
  };
}

function link(live) {
  const status = $("#live");
  status.textContent = live ? t("Live.") : t("Connection lost; reconnecting…");
  status.className = `live-status ${live ? "live" : "down"}`;
}

async function open() {
  wire();
  try {
    const first = await roomApi(code);
    tookClock(first);
    took(first);
  } catch (error) {
    $("#room-state").textContent = error.status === 404 ? t("There is no race at this address.") : error.message;
    if (error.status === 404) return;
  }
  reopen = watchRoom(code, {
    onRoom: took,
    onProgress: (message) => { if (applyProgress(room, message)) draw(); },
    onLink: link,
  });
  setInterval(tick, 200);
}

if (page) open();
