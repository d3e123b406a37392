// The win's cascade: the foundations' cards leap off and bounce away, leaving trails,
// on a canvas. A key or a touch ends it; the win's overlay waits (4 s at most).

import { pipLayout } from "./faces.js";
import { isRed, rankLabel } from "./notation.js";

let running = null;

// The suits' shapes on a 100 x 100 square: the masks cards.css paints the pips with.
const SUITS = {
  S: "M50 3C62 22 96 38 96 62C96 78 84 86 72 86C63 86 57 81 53 75C54 85 58 92 67 97H33C42 92 46 85 47 75C43 81 37 86 28 86C16 86 4 78 4 62C4 38 38 22 50 3Z",
  H: "M50 94C22 70 3 53 3 31C3 15 15 5 28 5C39 5 46 12 50 22C54 12 61 5 72 5C85 5 97 15 97 31C97 53 78 70 50 94Z",
  D: "M50 2Q68 28 88 50Q68 72 50 98Q32 72 12 50Q32 28 50 2Z",
  C: "M50 6A21 21 0 1 1 49.9 6ZM26 37A21 21 0 1 1 25.9 37ZM74 37A21 21 0 1 1 73.9 37ZM50 40A12 12 0 1 1 49.9 40Z"
    + "M46 58C46 78 41 90 31 97H69C59 90 54 78 54 58Z",
};
const shapes = {};
const shapeOf = (suit) => (shapes[suit] = shapes[suit] || new Path2D(SUITS[suit]));

// A pip of `size` centred at (x, y), upside down below the middle, as on the table.
function drawPip(pen, suit, x, y, size, turned = false) {
  pen.save();
  pen.translate(x, y);
  if (turned) pen.rotate(Math.PI);
  pen.scale(size / 100, size / 100);
  pen.translate(-50, -50);
  pen.fill(shapeOf(suit));
  pen.restore();
}

// Rank over suit in a corner (cards.css .ix: 3 and 4 hundredths of the width in, the
// rank 17 hundredths high); the far one is the same turned round.
function drawIndex(pen, card, w, h, far) {
  const size = Math.max(w * 0.17, 12);
  pen.save();
  if (far) { pen.translate(w, h); pen.rotate(Math.PI); }
  const x = w * 0.03 + Math.max(w * 0.15, size * 0.6) / 2;
  pen.font = `700 ${size}px system-ui, sans-serif`;
  pen.textAlign = "center";
  pen.textBaseline = "top";
  pen.fillText(rankLabel(card), x, w * 0.04);
  drawPip(pen, card[1], x, w * 0.04 + size * 1.35, size * 0.76);
  pen.restore();
}

// The middle: A-10's pips on faces.js's grid (cards.css .pips: 32 hundredths in from each
// side, 27 from top and bottom), a court's framed panel with its letter and pip.
function drawMiddle(pen, card, w, h, ink) {
  const layout = pipLayout(card[0]);
  if (layout && card[0] === "A") {
    drawPip(pen, card[1], w / 2, h / 2, w * (card[1] === "S" ? 0.54 : 0.46));
  } else if (layout) {
    const [left, top, width, height] = [w * 0.32, w * 0.27, w * 0.36, h - w * 0.54];
    for (const [column, row] of layout) {
      drawPip(pen, card[1], left + (width * column) / 2, top + (height * row) / 12, w * 0.17, row > 6);
    }
  } else {
    const [left, top, width, height] = [w * 0.2, w * 0.11, w * 0.6, h - w * 0.22];
    pen.beginPath();
    pen.roundRect(left, top, width, height, w * 0.03);
    pen.fillStyle = "#fbf2d8";
    pen.fill();
    pen.lineWidth = Math.max(1, w * 0.012);
    pen.strokeStyle = ink;
    pen.stroke();
    pen.fillStyle = ink;
    pen.font = `700 ${w * 0.3}px Georgia, serif`;
    pen.textAlign = "center";
    pen.textBaseline = "middle";
    pen.fillText(rankLabel(card), w / 2, h / 2 - w * 0.16);
    drawPip(pen, card[1], w / 2, h / 2 + w * 0.17, w * 0.24);
  }
}

// A card's face as the table draws it (faces.js, cards.css), once, at the screen's scale.
function picture(card, w, h, scale) {
  const image = document.createElement("canvas");
  image.width = Math.ceil(w * scale);
  image.height = Math.ceil(h * scale);
  const pen = image.getContext("2d");
  pen.scale(scale, scale);
  pen.beginPath();
  pen.roundRect(0.5, 0.5, w - 1, h - 1, w * 0.09);
  pen.fillStyle = "#fffdf7";
  pen.fill();
  pen.strokeStyle = "#d8d2bf";
  pen.stroke();
  const ink = inkOf(card);
  pen.fillStyle = ink;
  drawMiddle(pen, card, w, h, ink);
  pen.fillStyle = ink;
  drawIndex(pen, card, w, h, false);
  drawIndex(pen, card, w, h, true);
  return image;
}

// The suit's colour as the table shows it (a four-colour deck too): a card of that suit
// on the table, else red or black.
function inkOf(card) {
  const shown = document.querySelector(`#table .card.suit-${card[1]}[data-card]`);
  return shown ? getComputedStyle(shown).color : isRed(card) ? "#b3121f" : "#1a1a1a";
}

// `piles`: [{box: its top card's DOMRect, cards: bottom first}]; `done` runs once at the end.
export function cascade(piles, done) {
  stopCascade();
  const order = [];  // each pile's top card in turn, then the next: 24 at most
  for (let i = 0; i < 13 && order.length < 24; i += 1) {
    for (const { box, cards } of piles) if (cards[cards.length - 1 - i] && box.width) order.push([cards[cards.length - 1 - i], box]);
  }
  if (!order.length) { done(); return; }
  const scale = devicePixelRatio || 1;
  const canvas = document.createElement("canvas");
  canvas.className = "cascade";
  canvas.width = innerWidth * scale;
  canvas.height = innerHeight * scale;
  document.body.append(canvas);
  const pen = canvas.getContext("2d");
  pen.scale(scale, scale);
  const { width: w, height: h } = order[0][1];
  const unit = w / 76;
  const flying = [];
  const start = performance.now();
  let last = start;
  const end = (event) => {
    if (!running || running.canvas !== canvas) return;
    if (event && event.type === "keydown") { event.preventDefault(); event.stopPropagation(); }  // it only ends this
    cancelAnimationFrame(running.frame);
    listen("removeEventListener");
    running = null;
    canvas.style.opacity = "0";
    setTimeout(() => canvas.remove(), 400);
    done();
  };
  const frame = (now) => {
    const dt = Math.min(3, (now - last) / 16.7);
    last = now;
    while (flying.length < order.length && now - start >= flying.length * 110) {
      const [card, box] = order[flying.length];
      const side = flying.length % 2 ? -1 : 1;
      flying.push({ image: picture(card, w, h, scale), x: box.left, y: box.top,
        vx: side * (2.5 + Math.random() * 4) * unit, vy: -(1 + Math.random() * 7) * unit });
    }
    for (const card of flying) {
      if (card.gone) continue;
      card.vy += 0.55 * unit * dt;
      card.x += card.vx * dt;
      card.y += card.vy * dt;
      if (card.y > innerHeight - h) { card.y = innerHeight - h; card.vy *= -0.74; }  // a bounce
      card.gone = card.x + w < 0 || card.x > innerWidth;
      if (!card.gone) pen.drawImage(card.image, card.x, card.y, w, h);  // never cleared: a trail
    }
    if ((flying.length === order.length && flying.every((card) => card.gone)) || now - start > 4000) end();
    else running.frame = requestAnimationFrame(frame);
  };
  const listen = (how) => ["keydown", "pointerdown"].forEach((type) => document[how](type, end, true));
  running = { canvas, frame: requestAnimationFrame(frame), end };
  listen("addEventListener");
}

export function stopCascade() {
  if (running) running.end();
}
