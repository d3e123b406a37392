// The play page's dialogs: a confirmation before a step that cannot be taken back
// (a hint in a ranked attempt, its first stock turn) and the win. Both are real
// <dialog> elements opened modally: the focus moves in, Esc closes, Tab stays inside.

import { announce } from "./announcer.js";
import * as link from "./connection.js";
import { formatList, formatNumber, formatPercent, t, tf, tnf } from "./i18n.js";
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

const NEW_BEST = { time: t("fastest win"), moves: t("fewest moves"), score: t("best score") };

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
  const best = names.length
    ? tf(t("New personal best (%(variant)s): %(records)s!"), { variant, records: formatList(names) }) : "";
  const rate = typeof free.win_rate === "number" ? formatPercent(Math.round(free.win_rate * 100) / 100) : "–";
  const values = { wins: formatNumber(free.wins), games: formatNumber(free.games), rate,
    streak: formatNumber(free.streak), best: formatNumber(free.best_streak) };
  const figures = free.winnable_only
    ? tf(t("%(wins)s won of %(games)s · win rate %(rate)s · streak %(streak)s (best %(best)s) · winnable deals"), values)
    : tf(t("%(wins)s won of %(games)s · win rate %(rate)s · streak %(streak)s (best %(best)s)"), values);
  return { best, figures };
}

export function showWin(game, actions) {
  const dialog = $("#win");
  const variant = actions.variantName(slugOf(game.variant));
  const cards = actions.cardCount();
  $("#win-title").textContent = t("You won!");
  const values = { count: formatNumber(cards), variant, deal: game.deal };
  if (game.deal) {
    $("#win-text").textContent = tnf("All %(count)s card is home: %(variant)s, deal %(deal)s.",
      "All %(count)s cards are home: %(variant)s, deal %(deal)s.", cards, values);
  } else if (game.ranked) {
    $("#win-text").textContent = tnf("All %(count)s card is home on the daily %(variant)s, ranked.",
      "All %(count)s cards are home on the daily %(variant)s, ranked.", cards, values);
  } else {
    $("#win-text").textContent = tnf("All %(count)s card is home on the daily %(variant)s.",
      "All %(count)s cards are home on the daily %(variant)s.", cards, values);
  }
  const facts = [fact(t("Time"), actions.elapsed()),
    fact(t("Moves"), formatNumber(game.state.moves)), fact(t("Hints"), formatNumber(game.hints)),
    fact(t("Undos"), formatNumber(game.undos))];
  // A game that scores (Klondike) shows its score, and the best of its kind once counted.
  if (typeof game.score === "number") facts.splice(1, 0, fact(t("Score"), formatNumber(game.score)));
  const bestScore = game.free_play && game.free_play.best_score;
  if (typeof bestScore === "number") facts.push(fact(t("Best score"), formatNumber(bestScore)));
  $("#win-facts").replaceChildren(...facts);
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

const UNDER_REVIEW = () => t("Your result is under review: it joins today's board once an admin has looked at it.");
const CHECK_AGAIN_MS = 2000;
const CHECKS = 30;

// The server held the ranked result for review (a "held" notice): say so at once.
export function heldForReview() {
  const rank = $("#win-rank");
  if (rank && $("#win")?.open) rank.textContent = UNDER_REVIEW();
  announce(UNDER_REVIEW());
}

// After a daily: the share line and, when ranked, the place on today's board. While the
// fair-play check is still reading the game, say so and ask again shortly.
async function dailyResult(game, checks = CHECKS) {
  const variant = encodeURIComponent(slugOf(game.variant));
  try {
    const today = await link.api("GET", `/api/daily/${variant}/`);
    const me = today.me;
    if (!me || me.game !== game.id) return;
    const boardPage = `/daily/${variant}/${today.date}/`;
    $("#win-board").href = boardPage;
    $("#win-share").value = me.share || ""; // the server's line: words, rank and link
    $("#win-copy").onclick = () => navigator.clipboard?.writeText($("#win-share").value)
      .then(() => announce(t("Copied.")), () => {});
    $("#win-rank").textContent = "";
    $("#win-daily").hidden = false;
    if (!me.ranked) return;
    if (me.under_review) {
      $("#win-rank").textContent = UNDER_REVIEW();
      return;
    }
    if (me.checking && checks > 0) {
      $("#win-rank").textContent = t("Checking your result for fair play…");
      setTimeout(() => dailyResult(game, checks - 1), CHECK_AGAIN_MS);
      return;
    }
    const board = await link.api("GET", `/api/daily/${variant}/${today.date}/board/`);
    const name = $("#play").dataset.user;
    const mine = board.entries.find((entry) => entry.player === name);
    $("#win-rank").textContent = mine
      ? tf(t("You are number %(rank)s on today's board."), { rank: formatNumber(mine.rank) })
      : t("Your result is on today's board.");
  } catch { /* the figures above stand without it */ }
}
