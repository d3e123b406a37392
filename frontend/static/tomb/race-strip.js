// The board during a race (/?game=<id>&race=<code>): a strip above the table with the time
// left by the server's clock, every other player's progress live (cards home as a bar,
// moves, status) and Give up; hints are off in a race, so their buttons go. When the
// race ends a banner links to the results. The game itself is play.js's, as ever.

import { announce } from "./announcer.js";
import { formatNumber, t, tf, tnf } from "./i18n.js";
import { askFirst } from "./overlay.js";
import { applyProgress, clock, homeBar, msUntil, roomApi, statusWord, tookClock,
  watchRoom } from "./race-room.js";

const $ = (selector) => document.querySelector(selector);
const code = new URLSearchParams(location.search).get("race");
let room = null;
let strip = null;

function element(tag, className, ...content) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  made.append(...content);
  return made;
}

function build() {
  strip = element("section", "race-strip");
  strip.id = "race-strip";
  strip.setAttribute("aria-label", t("The race"));
  const time = element("p", "race-time");
  time.id = "race-time";
  const others = element("ol", "racers-live");
  others.id = "racers-live";
  others.setAttribute("aria-label", t("The other players"));
  const giveUp = element("button", "give-up", t("Give up"));
  Object.assign(giveUp, { type: "button", id: "give-up" });
  giveUp.onclick = giveUpAsked;
  const banner = element("p", "race-over");
  banner.id = "race-over";
  banner.hidden = true;
  strip.append(time, others, giveUp, banner);
  $("#bar").after(strip);
  // A win's dialog leads back to the race, not to another deal.
  const back = element("a", "button primary", t("Back to the race"));  // i18n: not text (classes)
  Object.assign(back, { id: "win-race", href: `/race/${encodeURIComponent(code)}/` });
  $("#win .buttons").prepend(back);
  // No hints in a race, and no other deal from this board.
  for (const id of ["#hint", "#fair-hint", "#new", "#winnable-only", "#replay", "#variant", "#end-new", "#end-replay",
    "#win-new", "#win-replay", "#win-daily-link"]) {
    const control = $(id);
    if (control) control.hidden = true;
  }
}

function drawOthers() {
  const mine = room.me ? room.me.id : null;
  const others = room.players.filter((player) => player.id !== mine && player.status !== "left");
  $("#racers-live").replaceChildren(...others.map((player) => {
    const item = element("li", `racer ${player.status}`);
    item.dataset.player = player.id;
    // The strip has no column heads: each figure says what it counts ("home 0 · 8 moves").
    const home = homeBar(player.home, room.card_count, (count) => tf(t("home %(count)s"), { count }));
    item.append(element("span", "name", player.name), home,
      element("span", "moves", tnf("%(count)s move", "%(count)s moves", player.moves || 0,
        { count: formatNumber(player.moves || 0) })),
      element("span", "status", statusWord(player.status)));
    item.title = tf(t("%(name)s: %(home)s cards home, %(moves)s moves, %(status)s"), {
      name: player.name, home: formatNumber(player.home || 0), moves: formatNumber(player.moves || 0),
      status: statusWord(player.status) });
    return item;
  }));
}

function drawTime() {
  const time = $("#race-time");
  if (room.state !== "running") { time.textContent = ""; return; }
  const left = msUntil(room.ends_at);
  time.textContent = tf(t("%(time)s left"), { time: clock(left) });
  time.classList.toggle("short", left < 60000);
}

function draw() {
  drawOthers();
  drawTime();
  const me = room.me && room.players.find((player) => player.id === room.me.id);
  const over = room.state === "finished" || room.state === "closed";
  $("#give-up").hidden = over || !me || me.status !== "playing";
  drawBanner(over, Boolean(me) && me.status !== "playing");
}

// Once the player's own game is over, and again when the race is: where to go next.
function drawBanner(over, done) {
  const banner = $("#race-over");
  const text = over ? t("The race is over.") : done ? t("Your game is over; the others are still racing.") : "";
  if (banner.dataset.said === text) return;
  banner.dataset.said = text;
  banner.hidden = !text;
  if (!text) return;
  const link = element("a", "button", over ? t("See the results") : t("Follow the race"));
  link.href = `/race/${encodeURIComponent(code)}/`;
  banner.replaceChildren(text, " ", link);
  announce(text);
}

async function giveUpAsked() {
  const yes = await askFirst(t("Give up this race? Your game ends here and counts as not won."), t("Give up"));
  if (!yes) return;
  try {
    room = await roomApi(code, "give-up", {});
    tookClock(room);
    draw();
    announce(t("You gave up the race."));
  } catch (error) {
    $("#message").textContent = error.message;
  }
}

async function start() {
  build();
  try {
    room = await roomApi(code);
    tookClock(room);
    draw();
  } catch (error) {
    $("#race-time").textContent = error.message;
    return;
  }
  watchRoom(code, {
    onRoom: (next) => { room = next; draw(); },
    onProgress: (message) => { if (applyProgress(room, message)) drawOthers(); },
  });
  setInterval(() => room && drawTime(), 1000);
}

if (code && $("#play")) start();
