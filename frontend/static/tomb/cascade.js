// The win's cascade: the foundations' cards leap off and bounce away, leaving trails,
// on a canvas. A key or a touch ends it; the win's overlay waits (4 s at most).

import { SUIT_GLYPHS, isRed, rankLabel } from "./notation.js";

let running = null;

function picture(card, w, h, scale) {
  const image = document.createElement("canvas");
  image.width = w * scale;
  image.height = h * scale;
  const pen = image.getContext("2d");
  pen.scale(scale, scale);
  pen.beginPath();
  pen.roundRect(0.5, 0.5, w - 1, h - 1, w * 0.09);
  pen.fillStyle = "#fffdf7";
  pen.fill();
  pen.stroke();
  pen.fillStyle = isRed(card) ? "#b3121f" : "#1a1a1a";
  pen.textAlign = "center";
  pen.font = `bold ${w * 0.3}px system-ui`;
  pen.fillText(rankLabel(card), w * 0.2, w * 0.3);
  pen.fillText(SUIT_GLYPHS[card[1]], w * 0.2, w * 0.6);
  pen.font = `${w * 0.6}px system-ui`;
  pen.fillText(SUIT_GLYPHS[card[1]], w / 2, h * 0.72);
  return image;
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
