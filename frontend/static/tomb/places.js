// The piles in words, in the page's language. Each game names its piles once, in its
// own package, with every form a sentence needs (Russian and Finnish inflect a place
// where English adds a preposition: "north cell" / "from the north cell" / "to the north
// cell" / "in the north cell"); the server translates them in Django's catalogs and sends
// them with the table (Pile.words: label, accepts, from, to, in, the). This module only
// remembers them by label; a pile sent without its forms still reads, through the
// generic forms ("from the %(place)s").

import { t, tf } from "./i18n.js";

const PILES = new Map();  // label -> the table's pile, with its forms

// Called with each table the board draws.
export function learnPlaces(table) {
  for (const pile of table.piles) PILES.set(pile.label, pile);
}

const form = (label, key, generic) => {
  const pile = PILES.get(label);
  return (pile && pile[key]) || tf(generic, { place: label });
};

// "north cell" as a name on its own (under the pile, before its contents).
export const placeName = (label) => label;
// "from the north cell", "to the north cell", "in the north cell" (a cell; else "to").
export const placeFrom = (label) => form(label, "from", t("from the %(place)s"));
export const placeTo = (label) => form(label, "to", t("to the %(place)s"));
export const placeIn = (label) => (PILES.get(label) || {}).in || placeTo(label);

// "the north cell", "pile 5": English puts "the" before most names; a pile that takes
// none sends no "the" form and is said as its label.
export function thePlace(label) {
  const pile = PILES.get(label);
  return pile ? pile.the || label : tf(t("the %(place)s"), { place: label });
}

// What a pile takes, already in the page's language.
export const acceptsText = (accepts) => accepts || "";
