// Input: drag the top waste card (pointer events), tap it then tap a pile,
// double-click or double-tap it to send it home, and the keyboard: arrows move
// a roving focus over the piles, Enter plays, letters are shortcuts.

import { HOME, moveTo } from "./notation.js";

const GRID = [["nw", "n", "ne"], ["w", "tomb", "e"], ["sw", "s", "se"], ["stock", "waste", "waste"]];
const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
const DOUBLE_TAP_MS = 400;
const DRAG_START_PX = 6;

let table = null;
let board = null;  // the app: play(move), turn(), select(on), selected(), shortcut(key)
let lastWasteTap = -Infinity;  // performance.now() starts near 0 on a fresh page
let drag = null;

export function attachInput(tableElement, app) {
  table = tableElement;
  board = app;
  table.addEventListener("click", onClick);
  table.addEventListener("keydown", onTableKey);
  table.addEventListener("focusin", (event) => rove(event.target.closest("[data-slot]")));
  table.addEventListener("pointerdown", onPointerDown);
  // On the document, not the card: a state arriving mid-drag may redraw the card
  // away, and its listeners with it (the ghost would be left on the page).
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", cancelDrag);
  document.addEventListener("lostpointercapture", cancelDrag);
  document.addEventListener("keydown", onShortcut);
}

const ONCE_KEYS = new Set(["N", "H", "G", "U"]);  // a held key must not deal several games

const slotOf = (element) => element && element.closest && element.closest("[data-slot]");

// A slot's own action: the stock turns, the waste sends its card home, a pile takes the waste card.
function activate(name) {
  if (name === "stock") board.turn();
  else if (name === "waste") board.play(HOME);
  else board.play(moveTo(name));
}

function onClick(event) {
  const slot = slotOf(event.target);
  if (!slot || event.detail === 0) return;  // detail 0: Enter or Space, handled as a key
  const name = slot.dataset.slot;
  if (name === "waste") {
    const now = performance.now();
    if (now - lastWasteTap < DOUBLE_TAP_MS) { lastWasteTap = -Infinity; board.select(false); activate(name); }
    else { lastWasteTap = now; board.select(!board.selected()); }
    return;
  }
  lastWasteTap = -Infinity;
  board.select(false);
  activate(name);
}

function onTableKey(event) {
  const slot = slotOf(event.target);
  if (!slot) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    board.select(false);
    activate(slot.dataset.slot);
  } else if (STEPS[event.key]) {
    event.preventDefault();
    focusSlot(step(slot.dataset.slot, STEPS[event.key]));
  }
}

function step(name, [dr, dc]) {
  const row = GRID.findIndex((cells) => cells.includes(name));
  let col = GRID[row].indexOf(name);
  if (name === "waste" && dc > 0) col = 2;
  const r = Math.min(Math.max(row + dr, 0), GRID.length - 1);
  const c = Math.min(Math.max(col + dc, 0), 2);
  return GRID[r][c];
}

// Roving tabindex: the table is one tab stop, on the pile last focused.
function rove(slot) {
  if (!slot) return;
  for (const other of table.querySelectorAll("[data-slot]")) other.tabIndex = other === slot ? 0 : -1;
}

export function focusSlot(name) {
  const slot = table.querySelector(`[data-slot="${name}"]`);
  rove(slot);
  slot.focus();
}

function onShortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  if (event.key === "Escape") {  // put a picked-up card down
    lastWasteTap = -Infinity;
    board.select(false);
    return;
  }
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const key = event.key.toUpperCase();
  if (event.repeat && ONCE_KEYS.has(key)) { event.preventDefault(); return; }
  if (board.shortcut(key)) event.preventDefault();
}

// -- dragging the top waste card -------------------------------------------

function onPointerDown(event) {
  const card = event.target.closest(".waste .card.top");
  if (!card || event.button !== 0) return;
  drag = { card, x: event.clientX, y: event.clientY, ghost: null, pointer: event.pointerId };
  card.setPointerCapture(event.pointerId);
}

function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.ghost) {
    if (Math.hypot(dx, dy) < DRAG_START_PX) return;
    drag.ghost = startGhost(drag.card);
  }
  drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  const over = slotOf(targetAt(event));
  for (const slot of table.querySelectorAll(".over")) if (slot !== over) slot.classList.remove("over");
  if (over && moveTo(over.dataset.slot)) over.classList.add("over");
}

function startGhost(card) {
  const box = card.getBoundingClientRect();
  const ghost = card.cloneNode(true);
  ghost.classList.add("ghost");
  Object.assign(ghost.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`,
    height: `${box.height}px` });
  document.body.append(ghost);
  card.classList.add("lifted");
  table.classList.add("picking");  // show where the card may go
  return ghost;
}

function targetAt(event) {
  return document.elementFromPoint(event.clientX, event.clientY);
}

function onPointerUp(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dragged = Boolean(drag.ghost);
  const over = dragged ? slotOf(targetAt(event)) : null;
  endDrag();
  if (!dragged) return;  // a plain tap: the click handler has it
  lastWasteTap = -Infinity;
  suppressNextClick();
  board.select(false);
  const move = over && moveTo(over.dataset.slot);
  if (move) board.play(move);
}

function suppressNextClick() {
  const swallow = (event) => { event.stopPropagation(); event.preventDefault(); };
  table.addEventListener("click", swallow, { capture: true, once: true });
  setTimeout(() => table.removeEventListener("click", swallow, { capture: true }), 0);
}

// The card being dragged has gone (another board played it, an undo) or the
// pointer was taken away: put the drag down, nothing played.
export function cancelDrag(event) {
  if (!drag || (event && event.pointerId !== drag.pointer)) return;
  if (drag.ghost) suppressNextClick();
  endDrag();
}

function endDrag() {
  if (!drag) return;
  const { card, ghost } = drag;
  card.classList.remove("lifted");
  if (ghost) { ghost.remove(); table.classList.remove("picking"); }
  for (const slot of table.querySelectorAll(".over")) slot.classList.remove("over");
  drag = null;
}
