// The cards' faces: corner indices on both corners, the standard pip layouts of A-10 and
// a double-ended figure for each court. Drawn here rather than taken from a published
// deck: the freely licensed SVG decks weigh too much for a page that must show a board
// within a second (SVG-cards, LGPL-2.1, is 7 MB unpacked; @letele/playing-cards, CC0,
// is 560 kB of React components), while these faces cost a few kB of markup. All of it
// is this project's own work under the project's licence.
//
// A pip is an empty <i class="p">: cards.css paints it in the card's colour through a
// suit-shaped mask, so the pips are the same shape on every system (the text glyphs
// turn into emoji on some phones) and the four-colour deck only changes a colour. Pip
// positions are classes (column c0-c2, row r0-r12 in twelfths of the pip area), so the
// layouts live in one table and the CSS places them.

import { rankLabel } from "./notation.js";

// Each rank's pips as [column, row]: columns 0 (left), 1 (middle), 2 (right); rows in
// twelfths from the top of the pip area. Pips below the middle stand on their heads.
const LAYOUTS = {
  A: [[1, 6]],
  2: [[1, 0], [1, 12]],
  3: [[1, 0], [1, 6], [1, 12]],
  4: [[0, 0], [2, 0], [0, 12], [2, 12]],
  5: [[0, 0], [2, 0], [1, 6], [0, 12], [2, 12]],
  6: [[0, 0], [2, 0], [0, 6], [2, 6], [0, 12], [2, 12]],
  7: [[0, 0], [2, 0], [1, 3], [0, 6], [2, 6], [0, 12], [2, 12]],
  8: [[0, 0], [2, 0], [1, 3], [0, 6], [2, 6], [1, 9], [0, 12], [2, 12]],
  9: [[0, 0], [2, 0], [0, 4], [2, 4], [1, 6], [0, 8], [2, 8], [0, 12], [2, 12]],
  T: [[0, 0], [2, 0], [1, 2], [0, 4], [2, 4], [0, 8], [2, 8], [1, 10], [0, 12], [2, 12]],
};

export const pipCount = (rank) => (LAYOUTS[rank] || []).length;
// The layout itself, for faces drawn elsewhere (the win's cascade on its canvas); null for a court.
export const pipLayout = (rank) => LAYOUTS[rank] || null;

const pip = (...classes) => `<i class="${["p", ...classes].join(" ")}"></i>`;

// Rank over suit; a narrow peek (a column's covered card) sets them side by side.
function indexHtml(card, far) {
  const ten = card[0] === "T" ? " ten" : "";
  return `<span class="ix${far ? " far" : ""}${ten}"><b>${rankLabel(card)}</b><br>${pip()}</span>`;
}

function pipsHtml(rank) {
  const pips = LAYOUTS[rank].map(([column, row]) => pip(`c${column}`, `r${row}`)).join("");
  return `<span class="pips${rank === "A" ? " ace" : ""}">${pips}</span>`;
}

// -- the courts: one figure per rank, its robe in the suit's colour ---------------------
// Each half is drawn on a 60 x 60 panel; the lower half is the same turned round, as on
// a real double-ended court. Classes colour the parts (cards.css): robe is the card's
// colour, acc the contrasting robe, gold, skin, hair and ink.

const KING = `<path class="robe" d="M5 60 7 45Q9 36 20 34H40Q51 36 53 45L55 60Z"/>`
  + `<path class="acc" d="M23 34 30 60 37 34Z"/>`
  + `<path class="gold" d="M17 34Q30 42 43 34V38Q30 46 17 38Z"/>`
  + `<path class="steel" d="M49 4V46"/><path class="hilt" d="M45 40H53M49 40V47"/>`
  + `<ellipse class="skin" cx="30" cy="23" rx="7" ry="8.5"/>`
  + `<path class="hair" d="M23 25Q23 38 30 39Q37 38 37 25Q34 30 30 30Q26 30 23 25Z"/>`
  + `<path class="ink" d="M26.5 21.5h2M31.5 21.5h2"/>`
  + `<path class="gold" d="M21.5 16 21 6 25.5 11 30 4 34.5 11 39 6 38.5 16Z"/>`
  + `<path class="acc" d="M21.6 13.5H38.4V16H21.6Z"/>`;

const QUEEN = `<path class="robe" d="M8 60 10 46Q12 37 21 35H39Q48 37 50 46L52 60Z"/>`
  + `<path class="acc" d="M21 35Q30 48 39 35L41 42Q30 55 19 42Z"/>`
  + `<path class="hair" d="M21 27Q19 12 30 12Q41 12 39 27L42 39Q36 36 36.5 25H23.5Q24 36 18 39Z"/>`
  + `<ellipse class="skin" cx="30" cy="24" rx="6.5" ry="8"/>`
  + `<path class="ink" d="M26.8 22.5h2M31.2 22.5h2M28.5 28h3"/>`
  + `<path class="gold" d="M23 15V8Q25 11 26.5 8Q28 11 30 6Q32 11 33.5 8Q35 11 37 8V15Z"/>`
  + `<path class="stem" d="M13 58 15 30"/><circle class="acc" cx="15" cy="28" r="3.6"/>`
  + `<circle class="gold" cx="15" cy="28" r="1.5"/>`;

const JACK = `<path class="robe" d="M7 60 9 46Q11 38 21 36H39Q49 38 51 46L53 60Z"/>`
  + `<path class="gold" d="M21 36H39L37 41H23Z"/><path class="acc" d="M27 41H33L31 60H29Z"/>`
  + `<path class="steel" d="M11 4V58"/><path class="gold" d="M11 5 17 10 11 14Z"/>`
  + `<ellipse class="skin" cx="30" cy="25" rx="6.5" ry="8"/>`
  + `<path class="hair" d="M23 24Q22 15 30 15Q38 15 37 24L38.5 32Q35.5 29 36 22H24Q24.5 29 21.5 32Z"/>`
  + `<path class="ink" d="M26.8 24h2M31.2 24h2"/>`
  + `<path class="acc" d="M20 18Q21 8 30 8Q39 8 40 18Z"/><path class="gold" d="M20 16.5H40V18.5H20Z"/>`
  + `<path class="robe" d="M38 12Q46 2 52 6Q45 7 40 15Z"/>`;

const FIGURES = { J: JACK, Q: QUEEN, K: KING };

function courtHtml(rank) {
  const half = FIGURES[rank];
  return `<span class="court-art"><svg class="court" viewBox="0 0 60 120" aria-hidden="true" focusable="false">`
    + `<rect class="panel" x="1" y="1" width="58" height="118" rx="3"/>`
    + `<g>${half}</g><g transform="rotate(180 30 60)">${half}</g>`
    + `<path class="line" d="M1 60H59"/><rect class="frame" x="1" y="1" width="58" height="118" rx="3"/>`
    + `</svg>${pip("cp")}${pip("cp", "far")}</span>`;
}

// The inside of a card's box: its middle (pips or a figure), then both indices, so that
// an index lies over the figure where a covered card's peek widens it (cards.css).
export function faceHtml(card) {
  const rank = card[0];
  const middle = FIGURES[rank] ? courtHtml(rank) : pipsHtml(rank);
  return middle + indexHtml(card, false) + indexHtml(card, true);
}
