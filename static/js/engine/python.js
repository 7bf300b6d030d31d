// @ts-check
/* The few bits of Python that the engine's sentences show: repr() of what a player typed,
 * str.strip(), truthiness, str() and "{:,}". app/engine words its refusals with f-strings such
 * as f"{text!r} is not a move", and the JS engine must say the very same words (the server's),
 * so these mirror CPython's rules for the values a JSON body or a text box can hold. */

/** Python's whitespace (str.isspace()), which str.strip() and re's \s use: unlike JS's trim(),
 * it includes \x1c-\x1f and \x85 and excludes \ufeff. */
export const PY_SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a" +
  "\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `str.strip()` with no argument.
 * @param {string} text @returns {string} */
export function pyStrip(text) {
  return text.replace(STRIP, "");
}

/** The number of characters Python's len() counts (code points, not UTF-16 units).
 * @param {string} text @returns {number} */
export function pyLen(text) {
  return Array.from(text).length;
}

function hex(code, width) {
  return code.toString(16).padStart(width, "0");
}

/** repr() of a string: single quotes unless it holds ' and no ", escapes as CPython writes
 * them. */
function reprString(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + hex(code, 2);
    else if (code < 0x7f || ch === " " || !NOT_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += "\\x" + hex(code, 2);
    else if (code <= 0xffff) out += "\\u" + hex(code, 4);
    else out += "\\U" + hex(code, 8);
  }
  return out + quote;
}

/** repr() of a float as CPython writes it (JS writes 1e-7 where Python writes 1e-07). */
function reprNumber(value) {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return String(value).replace(/e([+-])(\d)$/, "e$10$2");
}

/** Python's repr() of a value decoded from JSON (or of a BigInt, Python's int).
 * @param {unknown} value @returns {string} */
export function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return reprString(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return reprNumber(value);
  if (Array.isArray(value)) return "[" + value.map(pyRepr).join(", ") + "]";
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const items = Object.entries(value).map(([k, v]) => `${reprString(k)}: ${pyRepr(v)}`);
    return "{" + items.join(", ") + "}";
  }
  return String(value);
}

/** Python's str(): a string as it is, anything else as repr() shows it.
 * @param {unknown} value @returns {string} */
export function pyStr(value) {
  return typeof value === "string" ? value : pyRepr(value);
}

/** Python's bool(): empty lists, objects and strings, 0 and None are false.
 * @param {unknown} value @returns {boolean} */
export function pyTruthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

/** f"{number:,}": thousands separated by commas.
 * @param {number|bigint} number @returns {string} */
export function withCommas(number) {
  const digits = (number < 0 ? -number : number).toString();
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ",");
  return number < 0 ? "-" + grouped : grouped;
}

/** A plain JSON object (what Python's isinstance(data, dict) accepts from json.loads).
 * @param {unknown} value @returns {value is Record<string, unknown>} */
export function isDict(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
