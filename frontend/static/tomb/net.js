// What every page's script shares to talk to the server: the CSRF cookie and
// the WebSocket address of a path.

import { t } from "./i18n.js";

export function cookie(name) {
  const found = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}

export const OFFLINE = t("The server cannot be reached: check the connection.");
