// Input, the same for every table: drag a face-up card (and the cards on it: a run)
// onto another pile; or tap it, then where it goes; double-click or double-tap a pile
// to send its top card home; tap the stock to turn it. The keyboard: arrows move a
// roving focus to the nearest pile that way (up and down first choose how deep a run
// to lift), Enter or Space picks cards up and puts them down, Esc puts them back,
// letters are shortcuts. The board (play.js) turns a pile, a count and a pile into
// the legal move whose path that is.

const DOUBLE_TAP_MS = 400;
const DRAG_START_PX = 6;

let table = null;
// The board (play.js): tap, home, dropOn, step, deepen, focused, targetsFrom, canLift,
// liftAt, lit, select, selected, redraw, shortcut
let board = null;
let lastTap = { name: null, at: -Infinity };  // performance.now() starts near 0 on a fresh page
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

function onClick(event) {
  const slot = slotOf(event.target);
  if (!slot || event.detail === 0) return;  // detail 0: Enter or Space, handled as a key
  const name = slot.dataset.slot;
  const now = performance.now();
  const twice = lastTap.name === name && now - lastTap.at < DOUBLE_TAP_MS;
  lastTap = twice ? { name: null, at: -Infinity } : { name, at: now };
  if (twice && board.canLift(name)) {
    board.select(null);
    board.home(name);
    return;
  }
  const card = event.target.closest(".card[data-at]");
  board.tap(name, card ? card.dataset.at : null);
}

function onTableKey(event) {
  const slot = slotOf(event.target);
  if (!slot) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    lastTap = { name: null, at: -Infinity };
    board.tap(slot.dataset.slot);
    return;
  }
  if (board.deepen(slot.dataset.slot, event.key)) {
    event.preventDefault();
    return;
  }
  const next = board.step(slot.dataset.slot, event.key);
  if (next) {
    event.preventDefault();
    focusSlot(next);
  }
}

// Roving tabindex: the table is one tab stop, on the pile last focused.
function rove(slot) {
  if (!slot) return;
  board.focused(slot.dataset.slot);
  for (const other of table.querySelectorAll("[data-slot]")) other.tabIndex = other === slot ? 0 : -1;
}

export function focusSlot(name) {
  const slot = table.querySelector(`[data-slot="${name}"]`);
  if (!slot) return;
  rove(slot);
  slot.focus();
}

const TYPED_INTO = "select, textarea, input:not([type=checkbox]):not([type=radio]):not([type=button])";

function onShortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  if (event.key === "Escape") {  // put a picked-up card down
    lastTap = { name: null, at: -Infinity };
    board.select(null);
    return;
  }
  // Letters are the page's keys except where they are typed: a box ticked a moment ago
  // (Winnable only) keeps the focus and takes no letter, so N still deals.
  if (event.target.closest && event.target.closest(TYPED_INTO)) return;
  const key = event.key.toUpperCase();
  if (event.repeat && ONCE_KEYS.has(key)) { event.preventDefault(); return; }
  if (board.shortcut(key)) event.preventDefault();
}

// -- dragging a card and the cards on it ------------------------------------------

function onPointerDown(event) {
  const card = event.target.closest(".slot .card[data-at]");
  const from = slotOf(card);
  if (!card || event.button !== 0) return;
  const at = Number(card.dataset.at);
  const cards = [...from.querySelectorAll(".card[data-at]")].filter((each) => each.dataset.at >= at);
  const count = board.liftAt(from.dataset.slot, at);
  if (count !== cards.length || !from.querySelector(".card.top[data-at]")) return;  // only a run that may be lifted
  drag = { card, cards, from: from.dataset.slot, count, x: event.clientX, y: event.clientY, ghost: null,
    pointer: event.pointerId };
  card.setPointerCapture(event.pointerId);
}

function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.ghost) {
    if (Math.hypot(dx, dy) < DRAG_START_PX) return;
    drag.ghost = startGhost(drag.cards);
    drag.targets = board.targetsFrom(drag.from, drag.count);
    const lit = board.lit();
    for (const slot of table.querySelectorAll("[data-slot]")) {
      slot.classList.toggle("target", lit && drag.targets.has(slot.dataset.slot));
    }
  }
  drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  const over = slotOf(targetAt(event));
  for (const slot of table.querySelectorAll(".over")) if (slot !== over) slot.classList.remove("over");
  // Unlit targets (the Hints switch): any pile under the cards is marked.
  const aimed = over && over.dataset.slot !== drag.from
    && (board.lit() ? drag.targets.has(over.dataset.slot) : over.dataset.role !== "stock");
  if (aimed) over.classList.add("over");
}

// The cards lifted, as one piece: each where it lies, in a box that follows the pointer.
function startGhost(cards) {
  const first = cards[0].getBoundingClientRect();
  const ghost = document.createElement("div");
  ghost.className = "ghost";
  ghost.setAttribute("aria-hidden", "true");
  const last = cards[cards.length - 1].getBoundingClientRect();
  Object.assign(ghost.style, { left: `${first.left}px`, top: `${first.top}px`, width: `${first.width}px`,
    height: `${last.bottom - first.top}px` });
  for (const card of cards) {
    const box = card.getBoundingClientRect();
    const copy = card.cloneNode(true);
    copy.classList.remove("lift", "aim");
    Object.assign(copy.style, { left: `${box.left - first.left}px`, top: `${box.top - first.top}px`,
      width: `${box.width}px`, height: `${box.height}px` });
    ghost.append(copy);
    card.classList.add("lifted");
  }
  document.body.append(ghost);
  if (board.lit()) table.classList.add("picking");  // show where the cards may go
  return ghost;
}

function targetAt(event) {
  return document.elementFromPoint(event.clientX, event.clientY);
}

function onPointerUp(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dragged = Boolean(drag.ghost);
  const { from, count } = drag;
  const over = dragged ? slotOf(targetAt(event)) : null;
  endDrag();
  if (!dragged) return;  // a plain tap: the click handler has it
  lastTap = { name: null, at: -Infinity };
  suppressNextClick();
  board.select(null);
  if (over && over.dataset.slot !== from) board.dropOn(from, over.dataset.slot, count);
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

export const dragging = () => (drag && drag.ghost ? drag.from : null);

function endDrag() {
  if (!drag) return;
  const { cards, ghost } = drag;
  for (const card of cards) card.classList.remove("lifted");
  if (ghost) {
    ghost.remove();
    if (!board.selected()) table.classList.remove("picking");
    board.redraw();  // the targets of what is still picked up, if anything
  }
  for (const slot of table.querySelectorAll(".over")) slot.classList.remove("over");
  drag = null;
}
