// The play page's dialogs: a confirmation before a step that cannot be taken back
// (a hint in a ranked attempt, its first stock turn) and the win. Both are real
// <dialog> elements opened modally: the focus moves in, Esc closes, Tab stays inside.

import { announce } from "./announcer.js";
import * as link from "./connection.js";
import { slugOf } from "./table.js";

const $ = (selector) => document.querySelector(selector);

// Ask before acting: resolves true only if the player chose yes.
export function askFirst(text, yes) {
  const dialog = $("#confirm");
  $("#confirm-text").textContent = text;
  $("#confirm-yes").textContent = yes;
  dialog.returnValue = "";
  dialog.showModal();
  $("#confirm-no").focus();  // the safe choice has the focus
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

const NEW_BEST = { time: "fastest win", moves: "fewest moves" };

function fact(term, value) {
  const row = document.createElement("div");
  const dt = document.createElement("dt");
  const dd = document.createElement("dd");
  dt.textContent = term;
  dd.textContent = value;
  row.append(dt, dd);
  return row;
}

// A win's new personal best, in words (empty when none): play.js says it with the win.
export function personalBest(game, variant) {
  return freePlayLines(game, variant).best;
}

// The free-play figures, when the server sends them (a finished free game).
function freePlayLines(game, variant) {
  const free = game.free_play;
  if (!free) return { best: "", figures: "" };
  const names = (free.new_best || []).map((kind) => NEW_BEST[kind]).filter(Boolean);
  const best = names.length ? `New personal best for the ${variant}: ${names.join(" and ")}!` : "";
  const rate = typeof free.win_rate === "number" ? `${Math.round(free.win_rate * 100)}%` : "–";
  const figures = `${free.wins} won of ${free.games} · win rate ${rate} · streak ${free.streak}`
    + ` (best ${free.best_streak})${free.winnable_only ? " · winnable deals" : ""}`;
  return { best, figures };
}

export function showWin(game, actions) {
  const dialog = $("#win");
  const variant = actions.variantName(slugOf(game.variant));
  const cards = actions.cardCount();
  $("#win-title").textContent = "You won!";
  $("#win-text").textContent = game.deal ? `All ${cards} cards are home: ${variant}, deal ${game.deal}.`
    : `All ${cards} cards are home on the daily ${variant}${game.ranked ? ", ranked" : ""}.`;
  $("#win-facts").replaceChildren(fact("Time", actions.elapsed()), fact("Moves", String(game.state.moves)),
    fact("Hints", String(game.hints)), fact("Undos", String(game.undos)));
  const { best, figures } = freePlayLines(game, variant);
  $("#win-best").hidden = !best;
  $("#win-best").textContent = best;
  $("#win-free").hidden = !figures;
  $("#win-free").textContent = figures;
  $("#win-daily").hidden = true;
  $("#win-replay").disabled = !actions.canReplay();
  $("#win-new").onclick = () => { dialog.close(); actions.newDeal(); };
  $("#win-replay").onclick = () => { dialog.close(); actions.replay(); };
  $("#win-close").onclick = () => dialog.close();
  if (!dialog.open) dialog.showModal();
  $("#win-new").focus();
  if (game.seeded) dailyResult(game);
}

// After a daily: the share line and, when ranked, the place on today's board.
async function dailyResult(game) {
  const variant = encodeURIComponent(slugOf(game.variant));
  try {
    const today = await link.api("GET", `/api/daily/${variant}/`);
    const me = today.me;
    if (!me || me.game !== game.id) return;
    const boardPage = `/daily/${variant}/${today.date}/`;
    $("#win-board").href = boardPage;
    $("#win-share").value = me.share || ""; // the server's line: words, rank and link
    $("#win-copy").onclick = () => navigator.clipboard?.writeText($("#win-share").value)
      .then(() => announce("Copied."), () => {});
    $("#win-rank").textContent = "";
    $("#win-daily").hidden = false;
    if (!me.ranked) return;
    if (me.under_review) {
      $("#win-rank").textContent = "Your result is under review: it joins today's board once an admin has looked at it.";
      return;
    }
    const board = await link.api("GET", `/api/daily/${variant}/${today.date}/board/`);
    const name = $("#play").dataset.user;
    const mine = board.entries.find((entry) => entry.player === name);
    $("#win-rank").textContent = mine
      ? `You are number ${mine.rank} on today's board.` : "Your result is on today's board.";
  } catch { /* the figures above stand without it */ }
}
