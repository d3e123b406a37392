// The browser's strings: Django's JavaScriptCatalog (/jsi18n/, its address in base.html's
// <html data-catalog>) defines gettext, ngettext, interpolate and pgettext as globals in the
// page's language. This module loads it once, before any module importing it runs (top-level
// await), so pages without modules (the rules, the log-in) carry no script at all. The
// wrappers below fall back to the English msgid, with English plurals, when the catalog did
// not load, so the board never shows nothing.
//
// Mark every user-facing string with one of these; `manage.py makemessages -d djangojs`
// finds t(), tn(), tnf() and tc() calls by their names (README: "Languages").

const catalog = globalThis;
const CATALOG_WAIT_MS = 4000;  // a catalog slower than this: English rather than no board

function loadCatalog(source) {
  return new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = source;
    script.onload = script.onerror = resolve;
    setTimeout(resolve, CATALOG_WAIT_MS);
    document.head.append(script);
  });
}

const source = typeof document === "undefined" ? "" : document.documentElement.dataset.catalog;
if (source && typeof catalog.gettext !== "function") await loadCatalog(source);

// Named %(name)s placeholders, as Django's interpolate(fmt, obj, true) fills them.
function fill(fmt, values) {
  return String(fmt).replace(/%\((\w+)\)s/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole);
}

// A message in the page's language.
export function t(msgid) {
  return typeof catalog.gettext === "function" ? catalog.gettext(msgid) : msgid;
}

// A message with a count: the form right for n in the page's language (Russian has three
// for whole numbers: 1 карта, 2 карты, 5 карт; Finnish two). See tnf for the number itself.
export function tn(singular, plural, n) {
  if (typeof catalog.ngettext === "function") return catalog.ngettext(singular, plural, n);
  return n === 1 ? singular : plural;
}

// tn with the number and any other values filled in:
// tnf("%(count)s card left", "%(count)s cards left", n) -> "5 карт осталось".
export function tnf(singular, plural, n, values = {}) {
  return tf(tn(singular, plural, n), { count: n, ...values });
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
  return (typeof document !== "undefined" && document.documentElement.lang) || "en";
}

// -- numbers, dates and lists in the page's language (Intl) ---------------------------

const formats = new Map();
function formatter(kind, options) {
  const key = `${kind}|${language()}|${JSON.stringify(options)}`;
  if (!formats.has(key)) formats.set(key, new Intl[kind](language(), options));
  return formats.get(key);
}

// 1234 -> "1,234" / "1 234" (the language's grouping and digits).
export const formatNumber = (n) => formatter("NumberFormat", {}).format(n);

// 0.42 -> "42%" / "42 %".
export const formatPercent = (share) =>
  formatter("NumberFormat", { style: "percent", maximumFractionDigits: 0 }).format(share);

// A day ("2026-12-01", UTC) in words: "1 дек. 2026 г.", "1.12.2026". English pages keep the
// ISO day the server's share lines and addresses use.
export function formatDay(iso) {
  if (!iso || language() === "en") return iso || "";
  const day = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return iso;
  return formatter("DateTimeFormat", { dateStyle: "medium", timeZone: "UTC" }).format(day);
}

// ["fastest win", "fewest moves"] -> "fastest win and fewest moves" / "… и …" / "… ja …".
export const formatList = (items) =>
  formatter("ListFormat", { style: "long", type: "conjunction" }).format(items);
