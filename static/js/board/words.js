// @ts-check
/* Every sentence the board's script says, from the page: the script has keys, the words come
 * in the page's language from the catalogs (app/web/core/words.py writes them into
 * `<script type="application/json" id="words">` on every page). A sentence has named
 * placeholders (`{card}`, `{count}`) that `say(key, values)` fills; a sentence with a count has
 * a form for each plural category of the language, chosen by `Intl.PluralRules`. Cards are
 * named the way their buttons are (`Queen of hearts`), so what a screen reader announces
 * matches what it reads on the board. The engine refuses with values (a code and its fields),
 * which `sayRefusal` words from the page's table of refusals (the server's own, by code), as
 * `sayEnded` words why a game ended. */

let page = null;

function loaded() {
  if (page === null) {
    const element = document.getElementById("words");
    try { page = element ? JSON.parse(element.textContent) : {}; } catch { page = {}; }
    page.words ??= {};
    page.language ??= document.documentElement.lang || "en";
  }
  return page;
}

/** The page's language (BCP 47), as `<html lang>` says. */
export function language() {
  return loaded().language;
}

/** Headers that tell the server which language the page speaks (its answers' messages). */
export function languageHeaders() {
  return { "X-Pyramid-Language": language() };
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

let plurals = null;

function form(entry, count) {
  if (typeof entry === "string") return entry;
  plurals ??= new Intl.PluralRules(language());
  return entry[plurals.select(count)] ?? entry.other ?? Object.values(entry)[0];
}

/** The sentence `key` as written, in the plural form `values.count` asks for (the key itself
 * when the page has no such sentence: a bug, visible rather than silent). */
function sentence(key, values) {
  const entry = loaded().words[key];
  return entry === undefined ? key : form(entry, Number(values.count ?? 0));
}

function shown(values) {
  const { count } = values;
  return typeof count === "number" ? { ...values, count: formatNumber(count) } : values;
}

/** The sentence `key` with its placeholders filled from `values`.
 * @param {string} key @param {Record<string, string|number>} [values] @returns {string} */
export function say(key, values = {}) {
  return fill(sentence(key, values), shown(values));
}

/** The sentence `key` for `count` of something: its plural form in this language, the number
 * written as the language writes it. */
export function sayCount(key, count, values = {}) {
  return say(key, { ...values, count });
}

/** The sentence `key` as texts and `nodes`, each node where its placeholder is (`in_stock` is
 * `{count} in stock`: the count drawn as an element of its own).
 * @param {string} key @param {Record<string, string|number>} values
 * @param {Record<string, Node>} nodes @returns {(string|Node)[]} */
export function sayInto(key, values, nodes) {
  const holes = Object.fromEntries(Object.keys(nodes).map((name) => [name, `\u0000${name}\u0000`]));
  const text = fill(sentence(key, values), { ...shown(values), ...holes });
  return text.split(/\u0000(\w+)\u0000/).map((part, i) => (i % 2 ? nodes[part] : part))
    .filter((part) => part !== "");
}

/** @type {Intl.NumberFormat|null} */
let numbers = null;

/** A number as the page's language writes it (one formatter for the page: making one costs a
 * millisecond or more, and a board draws a dozen numbers a press). @param {number} value */
export function formatNumber(value) {
  numbers ??= new Intl.NumberFormat(loaded().words.number_locale || language());
  return numbers.format(value);
}

/** A card as its button names it: `Queen of hearts`, `Herz-Dame`.
 * @param {import("../engine/cards.js").Card} card */
export function cardName(card) {
  const cards = loaded().words.cards;
  if (!cards) return card.longName;
  return fill(cards.suits[card.suit], { rank: cards.ranks[card.rank - 1] });
}

/** A rule set as a heading: `Standard goal, 3 passes`. @param {{key: string, title: string}} variant */
export function variantTitle(variant) {
  return loaded().words.variants?.[variant.key] ?? variant.title;
}

const CARDS = new Set(["card", "a", "b"]);
const CARD_LISTS = new Set(["by", "doubled", "missing"]);
const NUMBERS = new Set(["count", "passes", "total", "length", "size", "first", "last", "most"]);
const DIGITS = new Set(["number", "index"]);

function listed(items) {
  return items.length ? new Intl.ListFormat(language(), { type: "conjunction" }).format(items) : "\u2013";
}

function quoted(value) {
  if (typeof value === "string") return `'${value}'`;
  return JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v)) ?? String(value);
}

/** A refusal's field as a sentence shows it (app/web/core/refusals.py's `_shown`). */
function shownField(name, value, parts) {
  if (CARDS.has(name)) return String(value);
  if (CARD_LISTS.has(name)) return listed(value.map(String));
  if (NUMBERS.has(name)) return formatNumber(value);
  if (DIGITS.has(name)) return String(value);
  if (name === "part") return parts[value] ?? value;
  if (name === "parts") return listed(value.map((part) => parts[part] ?? part));
  if (name === "fields") return value.map(quoted).join(", ");
  return quoted(value);
}

function refusals() {
  return loaded().words.refusals ?? { messages: {}, counts: {}, endings: {}, was: {}, parts: {} };
}

/** Why a game ended, in the page's language: its termination's sentence, that its player left
 * it, or its status (null while it is played). @param {string} status
 * @param {string|null} termination */
export function sayEnded(status, termination) {
  const table = refusals();
  if (status === "abandoned") return table.endings.abandoned;
  if (termination) return table.endings[termination] ?? termination;
  return table.was[status] ?? null;
}

/** An engine's refusal (a code and its fields: static/js/engine/refusals.js) in the page's
 * language, from the page's table by its code, its card names as the player sees them
 * (`TD` -> `10\u2666`); the code itself when the page has no message for it (a bug, visible
 * rather than silent; a test holds every code to a message).
 * @param {{code: string, fields: Record<string, any>}} refusal */
export function sayRefusal(refusal) {
  const { code, fields } = refusal;
  const table = refusals();
  const entry = table.messages[code];
  if (entry === undefined) return code;
  if (code === "game_over") return fill(entry, { why: sayEnded(fields.status, fields.termination) ?? "" });
  const values = Object.fromEntries(Object.entries(fields)
    .map(([name, value]) => [name, shownField(name, value, table.parts)]));
  const counter = table.counts[code];
  if (counter) values.count = formatNumber(fields[counter]);
  return withSymbols(fill(form(entry, counter ? Number(fields[counter]) : 0), values));
}

const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

/** The card names in an engine sentence as the player sees them: `TD` -> `10♦` (as the
 * server's view.with_symbols does). @param {string} text */
export function withSymbols(text) {
  return text.replace(/\b([A2-9TJQK])([CDHS])\b/g,
    (_, rank, suit) => (rank === "T" ? "10" : rank) + SUIT_SYMBOLS[suit]);
}
