// The browser's strings: Django's JavaScriptCatalog (/jsi18n/, loaded by base.html before
// any module) defines gettext, ngettext, interpolate and pgettext as globals in the page's
// language. These wrappers use them, and fall back to the English msgid (with English
// plurals) when the catalog did not load, so the board never shows nothing.
//
// Mark every user-facing string with one of these; `manage.py makemessages -d djangojs`
// finds t(), tn(), tc() and tf() calls by their names (README: "Languages").

const catalog = globalThis;

// Named %(name)s placeholders, as Django's interpolate(fmt, obj, true) fills them.
function fill(fmt, values) {
  return String(fmt).replace(/%\((\w+)\)s/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
}

// A message in the page's language.
export function t(msgid) {
  return typeof catalog.gettext === "function" ? catalog.gettext(msgid) : msgid;
}

// A message with a count: the form right for n in the page's language (Russian has three).
// Use %(count)s in the text and pass it with tf, or call tf(tn(...), {count: n}).
export function tn(singular, plural, n) {
  if (typeof catalog.ngettext === "function") return catalog.ngettext(singular, plural, n);
  return n === 1 ? singular : plural;
}

// A message whose English is ambiguous (a "Turn" button, a turn of the game): the context
// tells translators which one, as {% translate "x" context "y" %} does in templates.
export function tc(context, msgid) {
  return typeof catalog.pgettext === "function" ? catalog.pgettext(context, msgid) : msgid;
}

// Named interpolation: tf(t("%(card)s went home"), {card: name}). Word order is the
// translator's, so never build a sentence by joining translated pieces.
export function tf(fmt, values) {
  if (typeof catalog.interpolate === "function") return catalog.interpolate(fmt, values, true);
  return fill(fmt, values);
}

// The page's language (the <html lang> Django set), for Intl's number and date formats.
export function language() {
  return document.documentElement.lang || "en";
}
