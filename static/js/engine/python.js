// @ts-check
/* The few bits of Python whose rules decide what the engine accepts: str.strip()'s whitespace,
 * truthiness, and "is it a dict". app/engine reads a player's text and a JSON body with
 * them, so the JS engine must accept and refuse exactly the same inputs; what it refuses is a
 * Refusal (refusals.js), never a sentence, so nothing of Python's repr() is needed here. */

/** Python's whitespace (str.isspace()), which str.strip() and re's \s use: unlike JS's trim(),
 * it includes \x1c-\x1f and \x85 and excludes \ufeff. */
export const PY_SPACE = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a" +
  "\\u2028\\u2029\\u202f\\u205f\\u3000";
const STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");

/** Python's `str.strip()` with no argument.
 * @param {string} text @returns {string} */
export function pyStrip(text) {
  return text.replace(STRIP, "");
}

/** Python's bool(): empty lists, objects and strings, 0 and None are false.
 * @param {unknown} value @returns {boolean} */
export function pyTruthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

/** A plain JSON object (what Python's isinstance(data, dict) accepts from json.loads).
 * @param {unknown} value @returns {value is Record<string, unknown>} */
export function isDict(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
