// The piles in words, in the page's language. A game's table names its piles in English
// (patience/*/rules.py: Pile.label and Pile.accepts); this module holds every label the
// games send, each in the forms a sentence needs, since Russian and Finnish inflect a
// place where English adds a preposition: "north cell" / "from the north cell" / "to
// the north cell" / "in the north cell" are "северная ячейка / из северной ячейки /
// в северную ячейку / в северной ячейке" and "pohjoinen solu / pohjoisesta solusta /
// pohjoiseen soluun / pohjoisessa solussa". A label missing here still reads, through
// the generic forms at the end ("from the %(place)s"). tests/service/test_i18n_js_places.py
// fails when a game sends a label or an "accepts" text this catalog lacks.

import { t, tf } from "./i18n.js";

// The English label a table sends, as this module's key: the msgid t() translates, not
// translated itself (as Django's gettext_noop).
const gettext_noop = (msgid) => msgid;

// label -> [name, from, to, in]; `in` only where a card is parked (a cell).
const PLACES = {
  [gettext_noop("north-west corner")]: [t("north-west corner"), t("from the north-west corner"), t("to the north-west corner")],
  [gettext_noop("north-east corner")]: [t("north-east corner"), t("from the north-east corner"), t("to the north-east corner")],
  [gettext_noop("south-west corner")]: [t("south-west corner"), t("from the south-west corner"), t("to the south-west corner")],
  [gettext_noop("south-east corner")]: [t("south-east corner"), t("from the south-east corner"), t("to the south-east corner")],
  [gettext_noop("north cell")]: [t("north cell"), t("from the north cell"), t("to the north cell"), t("in the north cell")],
  [gettext_noop("west cell")]: [t("west cell"), t("from the west cell"), t("to the west cell"), t("in the west cell")],
  [gettext_noop("east cell")]: [t("east cell"), t("from the east cell"), t("to the east cell"), t("in the east cell")],
  [gettext_noop("south cell")]: [t("south cell"), t("from the south cell"), t("to the south cell"), t("in the south cell")],
  [gettext_noop("north cross place")]: [t("north cross place"), t("from the north cross place"),
    t("to the north cross place"), t("in the north cross place")],
  [gettext_noop("west cross place")]: [t("west cross place"), t("from the west cross place"),
    t("to the west cross place"), t("in the west cross place")],
  [gettext_noop("east cross place")]: [t("east cross place"), t("from the east cross place"),
    t("to the east cross place"), t("in the east cross place")],
  [gettext_noop("south cross place")]: [t("south cross place"), t("from the south cross place"),
    t("to the south cross place"), t("in the south cross place")],
  tomb: [t("tomb"), t("from the tomb"), t("to the tomb")],
  stock: [t("stock"), t("from the stock"), t("to the stock")],
  waste: [t("waste"), t("from the waste"), t("to the waste")],
  // St. Helena's foundations, named by the card each starts with.
  [gettext_noop("King of hearts")]: [t("King of hearts"), t("from the King of hearts"), t("to the King of hearts")],
  [gettext_noop("King of diamonds")]: [t("King of diamonds"), t("from the King of diamonds"), t("to the King of diamonds")],
  [gettext_noop("King of clubs")]: [t("King of clubs"), t("from the King of clubs"), t("to the King of clubs")],
  [gettext_noop("King of spades")]: [t("King of spades"), t("from the King of spades"), t("to the King of spades")],
  [gettext_noop("Ace of hearts")]: [t("Ace of hearts"), t("from the Ace of hearts"), t("to the Ace of hearts")],
  [gettext_noop("Ace of diamonds")]: [t("Ace of diamonds"), t("from the Ace of diamonds"), t("to the Ace of diamonds")],
  [gettext_noop("Ace of clubs")]: [t("Ace of clubs"), t("from the Ace of clubs"), t("to the Ace of clubs")],
  [gettext_noop("Ace of spades")]: [t("Ace of spades"), t("from the Ace of spades"), t("to the Ace of spades")],
};

// What a pile takes (Pile.accepts), shown on hover and said after its name. Listed so that
// makemessages finds each text; acceptsText() looks the one a table sends up by its English.
export const ACCEPTS = [
  t("7 up to K, any suit"),
  t("6 down to A, any suit, four times"),
  t("one card from the waste; it goes home by itself when it fits"),
  t("refilled from the stock (then the waste); its card goes to any foundation it fits"),
  t("nothing: D turns it"),
  t("cards turned from the stock"),
  t("nothing: D deals it onto the piles, R gathers them into it"),
  t("dealt cards; plays to the King foundations only while the stock lasts; once it is empty, "
    + "takes a card of the same suit one rank above or below"),
  t("dealt cards; plays to any foundation while the stock lasts; once it is empty, "
    + "takes a card of the same suit one rank above or below"),
  t("dealt cards; plays to the Ace foundations only while the stock lasts; once it is empty, "
    + "takes a card of the same suit one rank above or below"),
  t("hearts, down from the King to the ace"),
  t("diamonds, down from the King to the ace"),
  t("clubs, down from the King to the ace"),
  t("spades, down from the King to the ace"),
  t("hearts, up to the King"),
  t("diamonds, up to the King"),
  t("clubs, up to the King"),
  t("spades, up to the King"),
];

const NUMBERED = /^pile (\d+)$/;  // St. Helena's twelve piles: "pile 5"

function forms(label) {
  if (PLACES[label]) return PLACES[label];
  const numbered = NUMBERED.exec(label);
  if (numbered) {
    const number = { number: numbered[1] };
    return [tf(t("pile %(number)s"), number), tf(t("from pile %(number)s"), number),
      tf(t("to pile %(number)s"), number)];
  }
  const place = { place: t(label) };
  return [place.place, tf(t("from the %(place)s"), place), tf(t("to the %(place)s"), place)];
}

// "north cell" as a name on its own (under the pile, before its contents).
export const placeName = (label) => forms(label)[0];
// "from the north cell", "to the north cell", "in the north cell" (a cell; else "to").
export const placeFrom = (label) => forms(label)[1];
export const placeTo = (label) => forms(label)[2];
export const placeIn = (label) => forms(label)[3] || forms(label)[2];

// "the north cell", "pile 5": English puts "the" before most names; other languages
// take the name as it is ("the %(place)s" translates to "%(place)s").
export function thePlace(label) {
  const name = placeName(label);
  return NUMBERED.test(label) ? name : tf(t("the %(place)s"), { place: name });
}

// What a pile takes, in the page's language (the English text when the catalog lacks it).
export const acceptsText = (accepts) => (accepts ? t(accepts) : "");
