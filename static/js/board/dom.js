// @ts-check
/* Building and patching the page's elements: what draw.js and ending.js share, and what
 * every script asks of the page (its CSRF token, an element made the first time it is needed). */

/** The page's CSRF token (templates/base.html's meta), which every POST carries.
 * @returns {string} */
export function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") || "";
}

/** The element `selector` finds from the event's target up (none for a target that is not an
 * element). @param {Event} event @param {string} selector @returns {HTMLElement|null} */
export function closestTo(event, selector) {
  const found = event.target instanceof Element ? event.target.closest(selector) : null;
  return found instanceof HTMLElement ? found : null;
}

/** The element `selector` finds, or else a new `tag` with `attributes` that `place` puts in
 * the page (null when `place` returns false: nowhere to put it).
 * @param {string} selector @param {string} tag @param {Record<string, unknown>} attributes
 * @param {(made: HTMLElement) => boolean|void} place @returns {HTMLElement|null} */
export function foundOrMade(selector, tag, attributes, place) {
  const found = document.querySelector(selector);
  if (found instanceof HTMLElement) return found;
  const made = element(tag, attributes);
  return place(made) === false ? null : made;
}

/** A new element with `attributes` (false, null and undefined left out; true as "") and
 * `children`. */
/** @param {string} tag @param {Record<string, unknown>} [attributes]
 * @param {(Node|string)[]} [children] @returns {HTMLElement} */
export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

/** Set `node`'s attributes to `attributes`, removing the others (its style and tabindex,
 * which the board's script sets, stay). */
export function setAttributes(node, attributes) {
  for (const { name } of Array.from(node.attributes)) {
    if (name !== "style" && name !== "tabindex" && !(name in attributes)) node.removeAttribute(name);
  }
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) {
      node.removeAttribute(name);
    } else {
      const text = value === true ? "" : String(value);
      if (node.getAttribute(name) !== text) node.setAttribute(name, text);
    }
  }
}

function attributesOf(node) {
  return Object.fromEntries(Array.from(node.attributes, (a) => [a.name, a.value]));
}

/** Bring `here` to `fresh`, keeping every element whose kind and card stay (a card's face
 * never changes, so it is not looked at): a few attribute and text changes rather than a
 * new subtree, which a slow phone feels. */
export function patchTree(here, fresh) {
  const sameKind = here.nodeName === fresh.nodeName && (here.nodeType !== Node.ELEMENT_NODE
    || here.getAttribute("data-card") === fresh.getAttribute("data-card"));
  if (!sameKind) {
    here.replaceWith(fresh);
    return;
  }
  if (here.nodeType === Node.TEXT_NODE) {
    if (here.data !== fresh.data) here.data = fresh.data;
    return;
  }
  setAttributes(here, attributesOf(fresh));
  if (here.hasAttribute("data-card")) return;
  const mine = Array.from(here.childNodes).filter((n) => n.nodeType !== Node.TEXT_NODE || n.data.trim());
  const theirs = Array.from(fresh.childNodes);
  theirs.forEach((node, index) => {
    if (index < mine.length) patchTree(mine[index], node);
    else here.append(node);
  });
  for (const extra of mine.slice(theirs.length)) extra.remove();
}
