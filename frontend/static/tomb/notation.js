// The notation the server speaks (RULES.md): moves, piles and cards, and how to
// say them in words. The only module that knows the move strings.

export const CORNERS = ["nw", "ne", "sw", "se"];
export const FOUNDATIONS = [...CORNERS, "tomb"];
export const CELLS = ["n", "w", "e", "s"];

export const TURN = "D";
export const REDEAL = "R";
export const HOME = "F";
export const toFoundation = (name) => `F@${name}`;
export const toCell = (name) => `C@${name}`;

const PLACE_NAMES = {
  nw: "north-west corner", ne: "north-east corner", sw: "south-west corner",
  se: "south-east corner", tomb: "the tomb",
  n: "north cell", w: "west cell", e: "east cell", s: "south cell",
  stock: "stock", waste: "waste",
};
const RANK_NAMES = { A: "Ace", T: "10", J: "Jack", Q: "Queen", K: "King" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_GLYPHS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

export const placeName = (name) => PLACE_NAMES[name] || name;
export const rankLabel = (card) => (card[0] === "T" ? "10" : card[0]);
export const isRed = (card) => card[1] === "H" || card[1] === "D";
export const cardName = (card) => `${RANK_NAMES[card[0]] || card[0]} of ${SUIT_NAMES[card[1]]}`;

// The move that sends the top waste card to a pile, or null if the pile takes none.
export function moveTo(pile) {
  if (FOUNDATIONS.includes(pile)) return toFoundation(pile);
  if (CELLS.includes(pile)) return toCell(pile);
  return null;
}

// The pile a move sends the waste card to ("F@nw" -> "nw"; "F", "D" -> null).
export const targetOf = (move) => move.split("@")[1] || null;
const parks = (move) => move[0] === "C";

// The piles a move involves ("F@nw" -> waste and nw, "D" -> stock), for highlighting hints.
export function movePlaces(move) {
  if (!move) return [];
  if (move === TURN || move === REDEAL) return ["stock"];
  const place = targetOf(move);
  return place ? ["waste", place] : ["waste"];
}

// A suggested move in words: "park the 4 of clubs in the north cell".
export function adviceFor(move, state) {
  if (move === TURN) return "turn the stock";
  if (move === REDEAL) return "turn the waste over";
  const card = cardName(state.waste[state.waste.length - 1]);
  const place = targetOf(move);
  if (parks(move)) return `park the ${card} in the ${placeName(place)}`;
  return `play the ${card} to ${place ? placeName(place) : "its foundation"}`;
}

// Words for a move the server played, from the tables before and after it.
export function describeMove(move, before, after) {
  if (move === TURN) {
    const top = after.waste[after.waste.length - 1];
    return `Stock turned${top ? `: ${cardName(top)} on the waste` : ""}.`;
  }
  if (move === REDEAL) return "Waste turned over into the stock.";
  const card = before.waste[before.waste.length - 1];
  const place = targetOf(move);
  const words = parks(move) ? `${cardName(card)} parked in the ${placeName(place)}`
    : `${cardName(card)} to ${placeName(place)}`;
  return `${words}.${describeAutoMoves(before, after, place)}`;
}

// Cards that left a cell by themselves: "4 of clubs from the north cell went home."
function describeAutoMoves(before, after, parkedIn) {
  const said = [];
  for (const cell of CELLS) {
    const had = cell === parkedIn ? before.waste[before.waste.length - 1] : before.cells[cell];
    if (had && !after.cells[cell]) said.push(` ${cardName(had)} from the ${placeName(cell)} went home.`);
  }
  return said.join("");
}
