// A race's replay (/race/<code>/replay/<entry>/): another player's game step by step,
// read-only, each frame the view that player had after the move (the server replays the
// log), drawn by board.js; and the whole deal, revealed because the race is over.
// The API refuses it while the race runs.

import { applyLayout, cardHtml, drawTable } from "./board.js";
import { api } from "./connection.js";
import { formatNumber, t, tf } from "./i18n.js";
import { cardName, describeMove } from "./notation.js";
import { layoutsOf } from "./table.js";

const $ = (selector) => document.querySelector(selector);
const page = $("#replay-page");
let replay = null;
let step = 0;        // 0: the deal as dealt; n: after the n-th move
let timer = 0;

// frames[i] is the view after moves[i-1] when the first frame is the deal, else after moves[i].
const frameAt = (n) => replay.frames[replay.frames.length > replay.moves.length ? n : Math.max(0, n - 1)];
const last = () => replay.moves.length;

function fit() {
  const felt = $("#felt");
  const { wide } = layoutsOf(replay.table);
  const card = Math.min((felt.clientWidth - 16) / wide.w, (innerHeight * 0.62) / wide.h, 120);
  felt.style.setProperty("--cw", `${Math.max(24, Math.floor(card))}px`);
  applyLayout($("#table"), wide);
}

function show(n) {
  step = Math.max(0, Math.min(last(), n));
  drawTable($("#table"), replay.table, frameAt(step), { selected: null, hinted: [] });
  $("#step").textContent = step
    ? tf(t("Move %(step)s of %(total)s: %(move)s"), { step: formatNumber(step), total: formatNumber(last()),
      move: describeMove(replay.moves[step - 1], frameAt(step - 1), frameAt(step), replay.table) })
    : tf(t("The deal, before the first of %(total)s moves"), { total: formatNumber(last()) });
  $("#first").disabled = $("#prev").disabled = step === 0;
  $("#next").disabled = $("#last").disabled = step === last();
  if (step === last()) pause();
}

function pause() {
  clearInterval(timer);
  timer = 0;
  $("#run").setAttribute("aria-pressed", "false");
  $("#run").textContent = t("Play");
}

function run() {
  if (timer) { pause(); return; }
  if (step === last()) show(0);
  $("#run").setAttribute("aria-pressed", "true");
  $("#run").textContent = t("Pause");
  timer = setInterval(() => show(step + 1), 700);
}

function wire() {
  $("#first").onclick = () => { pause(); show(0); };
  $("#prev").onclick = () => { pause(); show(step - 1); };
  $("#next").onclick = () => { pause(); show(step + 1); };
  $("#last").onclick = () => { pause(); show(last()); };
  $("#run").onclick = run;
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea, a")) return;
    const keys = { ArrowLeft: "#prev", ArrowRight: "#next", Home: "#first", End: "#last", " ": "#run" };
    if (event.key === " " && event.target.closest("button")) return;  // the button's own press
    if (!keys[event.key] || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    $(keys[event.key]).click();
  });
  new ResizeObserver(fit).observe($("#felt"));
}

async function open() {
  const { code, entry } = page.dataset;
  try {
    replay = await api("GET", `/api/races/${encodeURIComponent(code)}/replay/${encodeURIComponent(entry)}/`);
  } catch (error) {
    $("#race-message").textContent = error.message;
    return;
  }
  $("#replay-who").textContent = replay.player && replay.player.name ? replay.player.name : String(replay.player || "");
  $("#viewer").hidden = false;
  $("#deal").innerHTML = replay.deal.map((card) => cardHtml(card)).join("");
  $("#deal").setAttribute("role", "img");
  $("#deal").setAttribute("aria-label", replay.deal.map(cardName).join(", "));
  wire();
  fit();
  show(0);
}

if (page) open();
