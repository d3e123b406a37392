// Input, the same for every table: drag a pile's top card onto another pile; or tap
// it (it is picked up) then tap where it goes; double-click or double-tap it to send
// it home; tap the stock to turn it. The keyboard: arrows move a roving focus to the
// nearest pile that way, Enter or Space picks a card up and puts it down, Esc puts it
// back, letters are shortcuts. The board (play.js) turns a pair of piles into the legal
// move whose path joins them.

const DOUBLE_TAP_MS = 400;
const DRAG_START_PX = 6;

let table = null;
// The board: tap(name), home(name), dropOn(from, to), step(name, key), targetsFrom(name),
// canLift(name), select(name|null), selected(), redraw(), shortcut(key)
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
  board.tap(name);
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
  const next = board.step(slot.dataset.slot, event.key);
  if (next) {
    event.preventDefault();
    focusSlot(next);
  }
}

// Roving tabindex: the table is one tab stop, on the pile last focused.
function rove(slot) {
  if (!slot) return;
  for (const other of table.querySelectorAll("[data-slot]")) other.tabIndex = other === slot ? 0 : -1;
}

export function focusSlot(name) {
  const slot = table.querySelector(`[data-slot="${name}"]`);
  if (!slot) return;
  rove(slot);
  slot.focus();
}

function onShortcut(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  if (event.key === "Escape") {  // put a picked-up card down
    lastTap = { name: null, at: -Infinity };
    board.select(null);
    return;
  }
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  const key = event.key.toUpperCase();
  if (event.repeat && ONCE_KEYS.has(key)) { event.preventDefault(); return; }
  if (board.shortcut(key)) event.preventDefault();
}

// -- dragging a pile's top card -----------------------------------------------

function onPointerDown(event) {
  const card = event.target.closest(".slot .card.top[data-card]");
  const from = slotOf(card);
  if (!card || event.button !== 0 || !board.canLift(from.dataset.slot)) return;
  drag = { card, from: from.dataset.slot, x: event.clientX, y: event.clientY, ghost: null, pointer: event.pointerId };
  card.setPointerCapture(event.pointerId);
}

function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.ghost) {
    if (Math.hypot(dx, dy) < DRAG_START_PX) return;
    drag.ghost = startGhost(drag.card);
    drag.targets = board.targetsFrom(drag.from);
    for (const slot of table.querySelectorAll("[data-slot]")) {
      slot.classList.toggle("target", drag.targets.has(slot.dataset.slot));
    }
  }
  drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  const over = slotOf(targetAt(event));
  for (const slot of table.querySelectorAll(".over")) if (slot !== over) slot.classList.remove("over");
  if (over && drag.targets.has(over.dataset.slot)) over.classList.add("over");
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
  const from = drag.from;
  const over = dragged ? slotOf(targetAt(event)) : null;
  endDrag();
  if (!dragged) return;  // a plain tap: the click handler has it
  lastTap = { name: null, at: -Infinity };
  suppressNextClick();
  board.select(null);
  if (over && over.dataset.slot !== from) board.dropOn(from, over.dataset.slot);
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
  const { card, ghost } = drag;
  card.classList.remove("lifted");
  if (ghost) {
    ghost.remove();
    if (!board.selected()) table.classList.remove("picking");
    board.redraw();  // the targets of what is still picked up, if anything
  }
  for (const slot of table.querySelectorAll(".over")) slot.classList.remove("over");
  drag = null;
}
