// What the race pages and the board's race strip share: the room's REST calls, its
// socket (/ws/races/<code>/, read-only, reconnecting), the server's clock and the words
// for a player's status. Every figure comes from the server; nothing here keeps score.

import { api } from "./connection.js";
import { formatNumber, tc } from "./i18n.js";
import { socketUrl } from "./net.js";

export const roomApi = (code, action = "", body) =>
  api(body === undefined && !action ? "GET" : "POST",
    `/api/races/${encodeURIComponent(code)}/${action ? `${action}/` : ""}`, body);

// The server's clock minus this one, from the newest payload's server_now.
let offsetMs = 0;
export const serverNow = () => Date.now() + offsetMs;
export function tookClock(room) {
  const now = Date.parse(room.server_now || "");
  if (!Number.isNaN(now)) offsetMs = now - Date.now();
}
export const msUntil = (iso) => (iso ? Date.parse(iso) - serverNow() : NaN);

export function clock(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export const STATUS = {
  waiting: tc("race status", "waiting"), playing: tc("race status", "playing"),
  won: tc("race status", "won"), stuck: tc("race status", "stuck"),
  "gave-up": tc("race status", "gave up"), "out-of-time": tc("race status", "out of time"),
  left: tc("race status", "left"),
};
export const statusWord = (status) => STATUS[status] || status;

// A bar of cards home out of the deal's, with the number beside it.
// The bar and the count; ``words`` puts the count in words where no column names it.
export function homeBar(home, total, words = (count) => count) {
  const box = document.createElement("span");
  box.className = "home-bar";
  const meter = document.createElement("meter");
  Object.assign(meter, { min: 0, max: total || 52, value: home || 0 });
  meter.setAttribute("aria-hidden", "true");
  box.append(meter, ` ${words(formatNumber(home || 0))}`);
  return box;
}

// Follow the room: onRoom(room) on each whole room, onProgress(message) on each
// move's figures, onLink(live) when the socket opens or drops. Returns reopen(): a
// socket reads who its player is when it opens, so a visitor who just joined (and got
// their session then) opens a new one to be seen as in the room, and present.
export function watchRoom(code, { onRoom, onProgress = () => {}, onLink = () => {} }) {
  let retryMs = 1000;
  let socket = null;
  const open = () => {
    socket = new WebSocket(socketUrl(`/ws/races/${encodeURIComponent(code)}/`));
    socket.onopen = () => { retryMs = 1000; onLink(true); };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "room") { tookClock(message); onRoom(message); }
      else if (message.type === "progress") onProgress(message);
    };
    socket.onclose = (event) => {
      onLink(false);
      if (event.code === 4404) return;  // no such room: nothing to come back to
      setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 30000);
    };
  };
  open();
  // A tab shown again may have missed events: ask for the whole room.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "sync" }));
    }
  });
  return () => {
    socket.onclose = socket.onmessage = null;  // nothing more from the old one
    socket.close();
    open();
  };
}

// A progress message folded into the room's player.
export function applyProgress(room, message) {
  const player = room && room.players.find((one) => one.id === message.player);
  if (!player) return null;
  for (const key of ["home", "moves", "status", "time_ms"]) if (key in message) player[key] = message[key];
  return player;
}

export const boardUrl = (room) => `/${room.game.slug}/${room.variant.slug}/?game=${encodeURIComponent(room.me.game)}&race=${encodeURIComponent(room.code)}`;
