// The pages beside the board: start (or go on with) today's daily, replay an
// archive deal, copy the share line, keep the field live over
// /ws/daily/<variant>/, and turn the statistics calendar's months in place.
// The server renders every page whole; this only enhances it. Games are
// played on the board page (/?game=<id>).

import { announce, attach as attachAnnouncer } from "./announcer.js";
import { formatNumber, t, tc, tf, tnf } from "./i18n.js";
import { cookie, socketUrl } from "./net.js";

const $ = (selector, root = document) => root.querySelector(selector);

function say(text) {
  const box = $("#daily-message");
  if (box) box.textContent = text || "";
}

// One polite live region for short news (copied, month shown, the player's rank).
if ($("#field-news")) attachAnnouncer($("#field-news"));

// -- opening a game on the board -------------------------------------------------

async function openGame(url, button) {
  button.disabled = true;
  say("");
  try {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") },
    });
    const data = await response.json().catch(() => ({ error: t("the server sent no answer") }));
    if (!response.ok) throw new Error(data.error || response.statusText);
    location.assign(`/?game=${encodeURIComponent(data.id)}`);
  } catch (error) {
    say(tf(t("Could not open the game: %(error)s"), { error: error.message }));
    button.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("#play-daily, [data-replay]");
  if (!button) return;
  const url = button.dataset.replay || `/api/daily/${button.dataset.variant}/play/`;
  openGame(url, button);
});

// -- the share line --------------------------------------------------------------

async function copyShare(button) {
  const input = $("#share");
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    // No clipboard API (a plain-http site): the older way still works.
    input.select();
    document.execCommand("copy");
  }
  const label = button.textContent;  // "Copy", in the page's language
  button.textContent = t("Copied");
  announce(t("Share line copied to the clipboard"));
  setTimeout(() => { button.textContent = label; }, 2500);
}

const copy = $("#copy-share");
if (copy) copy.addEventListener("click", () => copyShare(copy));
// Phones can hand the line to another app.
const send = $("#send-share");
if (send && navigator.share) {
  send.hidden = false;
  send.addEventListener("click", () => navigator.share({ text: $("#share").value })
    .catch(() => {})); // the player closed the sheet
}

// -- today's deal still being made: show the maker's progress, then the deal ----------

async function pollPreparing(box) {
  try {
    const response = await fetch(`/api/daily/${box.dataset.variant}/`, { credentials: "same-origin" });
    if (response.ok) {
      location.reload(); // the deal is ready: the server renders the whole page
      return;
    }
    const data = await response.json();
    if (data.progress) {
      $("#prepare-progress").value = data.progress.screened;
      $("#prepare-count").textContent = data.progress.started
        ? tnf("%(count)s screened so far", "%(count)s screened so far", data.progress.screened,
          { count: formatNumber(data.progress.screened) })
        : t("starting");
    }
  } catch {
    // A network blip: the next poll tries again.
  }
  setTimeout(() => pollPreparing(box), 3000);
}

const preparingBox = $("#preparing");
if (preparingBox) setTimeout(() => pollPreparing(preparingBox), 2000);

// -- time left on today's daily ---------------------------------------------------

function showTimeLeft(box) {
  const left = Math.max(0, Date.parse(box.dataset.closes) - Date.now());
  const minutes = Math.ceil(left / 60000);
  box.textContent = minutes > 0
    ? tf(t(", in %(hours)s h %(minutes)s min"),
      { hours: Math.floor(minutes / 60), minutes: String(minutes % 60).padStart(2, "0") })
    : t(", now: reload for today's");
}

const closes = $("#closes");
if (closes) {
  showTimeLeft(closes);
  setInterval(() => showTimeLeft(closes), 30000);
}

// -- the field ---------------------------------------------------------------------

const field = $("#field");
let entries = new Map(); // player -> entry

function better(a, b) {
  // The board's order: cards home, no hints first, time, moves.
  return (b.home - a.home) || (a.assisted - b.assisted) || (a.time_ms - b.time_ms)
    || (a.moves - b.moves);
}

function stateWord(entry) {
  if (entry.status === "won") return tc("daily field", "won");
  return entry.finished ? tc("daily field", "lost") : tc("daily field", "playing");
}

function cellOf(tag, content) {
  const cell = document.createElement(tag);
  cell.append(...[content].flat());
  return cell;
}

function homeCell(home) {
  const meter = document.createElement("meter");
  Object.assign(meter, { min: 0, max: 52, value: home });
  meter.setAttribute("aria-hidden", "true");
  return cellOf("td", [meter, ` ${formatNumber(home)}`]);
}

function rowOf(entry, rank, me, fresh) {
  const row = document.createElement("tr");
  row.dataset.player = entry.player;
  if (entry.player === me) {
    row.className = "me";
    row.setAttribute("aria-current", "true");
  }
  if (fresh) row.classList.add("fresh");
  const name = cellOf("th", entry.player);
  name.scope = "row";
  if (entry.player === me) {  // said in the page's language, as the server's rows say it
    const you = cellOf("span", ` ${tc("the player's own name on a board", "(you)")}`);
    you.className = "you";
    name.append(you);
  }
  row.append(cellOf("td", formatNumber(rank)), name, homeCell(entry.home),
    cellOf("td", stateWord(entry)), cellOf("td", entry.time), cellOf("td", formatNumber(entry.moves)),
    cellOf("td", formatNumber(entry.hints)));
  return row;
}

function drawField(freshPlayer) {
  const rows = $("#field-rows");
  const me = rows.closest("table").dataset.me;
  const sorted = [...entries.values()].sort(better);
  rows.replaceChildren(...sorted.map(
    (entry, index) => rowOf(entry, index + 1, me, entry.player === freshPlayer)));
  const rank = $("#my-rank");
  const place = sorted.findIndex((entry) => entry.player === me) + 1;
  if (rank && place) rank.textContent = tf(t("%(place)s of %(total)s"), { place: formatNumber(place), total: formatNumber(sorted.length) });
  tellRank(place, sorted.length);
  if (!sorted.length) {
    const empty = cellOf("td", t("No ranked player yet."));
    empty.colSpan = 7;
    const row = cellOf("tr", empty);
    row.className = "empty";
    rows.append(row);
  }
}

// A busy field changes many times a second: say only the player's own rank, and
// at most once every few seconds (the latest one).
const NEWS_GAP_MS = 4000;
let myPlace = 0;
let lastNewsAt = -Infinity;
let newsTimer = 0;

function tellRank(place, total) {
  if (!place || place === myPlace) return;
  const known = myPlace > 0;
  myPlace = place;
  if (!known) return;  // the rank the page opened with is on the page already
  const text = tf(t("You are now %(place)s of %(total)s in the field."), { place: formatNumber(place), total: formatNumber(total) });
  clearTimeout(newsTimer);
  newsTimer = setTimeout(() => {
    lastNewsAt = performance.now();
    announce(text);
  }, Math.max(0, lastNewsAt + NEWS_GAP_MS - performance.now()));
}

function fieldStatus(text, live) {
  const status = $("#field-status");
  status.textContent = text;
  status.className = `live-status ${live ? "live" : "down"}`;
}

let retryMs = 1000;

function watchField() {
  const socket = new WebSocket(socketUrl(`/ws/daily/${field.dataset.variant}/`));
  socket.onopen = () => {
    retryMs = 1000;
    fieldStatus(t("Live."), true);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.date !== field.dataset.date) {
      // Midnight UTC passed: this page's deal is now an archive deal.
      fieldStatus(t("This daily has closed; reload the page for today's."), false);
      return;
    }
    if (message.type === "field") {
      entries = new Map(message.entries.map((entry) => [entry.player, entry]));
      drawField();
    } else if (message.type === "entry") {
      entries.set(message.entry.player, message.entry);
      drawField(message.entry.player);
    }
  };
  socket.onclose = () => {
    // Reconnect by itself, backing off to 30 s; the server resends the whole field.
    fieldStatus(t("Connection lost; reconnecting…"), false);
    setTimeout(watchField, retryMs);
    retryMs = Math.min(retryMs * 2, 30000);
  };
}

if (field) watchField();

// -- the statistics calendar: turn months without leaving the page ----------------------

async function showMonth(url, push) {
  const area = $("#calendars");
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) throw new Error(response.statusText);
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    area.replaceWith($("#calendars", page));
  } catch {
    location.assign(url); // let the server page say what went wrong
    return;
  }
  if (push) history.pushState({ month: url }, "", url);
  const title = $("#month-title");
  title.focus();
  announce(tf(t("Showing %(month)s"), { month: title.textContent }));
}

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-month]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  showMonth(link.href, true);
});

if ($("#calendars")) {
  window.addEventListener("popstate", () => showMonth(location.href, false));
  // Within the calendars PageUp / PageDown turn the months, as in a date picker;
  // elsewhere they scroll the page as usual.
  document.addEventListener("keydown", (event) => {
    const rel = { PageUp: "prev", PageDown: "next" }[event.key];
    const link = rel && $(`a[data-month][rel="${rel}"]`);
    if (!link || !event.target.closest("#calendars")) return;
    event.preventDefault();
    showMonth(link.href, true);
  });
}
