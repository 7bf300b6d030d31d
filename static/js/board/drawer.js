// @ts-check
/* What the board shows, and nothing else: the board drawn from the game on this device, its
 * counters, the message line, the cards in flight, the offline banner. The board
 * (controller.js) decides; the drawer draws. */

import { Marks, drawBoard, drawCounters, drawSelection } from "./draw.js";
import { focusOnBoard, keepFocus, roving } from "./input.js";
import { Motion } from "./motion.js";

/** @typedef {import("./local.js").LocalGame} LocalGame */

export class Drawer {
  /** @param {HTMLElement} root #board */
  constructor(root) {
    this.root = root;
    this.marks = new Marks();
    this.motion = new Motion(root);
    /** Marks (hinted, refused cards) on the board as last drawn. */
    this.marked = false;
  }

  /** The whole board drawn from `local`; `record` is saved.js's record of it.
   * @param {LocalGame} local @param {any} record @param {number} seconds the clock's
   * @param {boolean} canPlay */
  draw(local, record, seconds, canPlay) {
    const focused = focusOnBoard(this.root);
    this.versioned(record.server);
    drawBoard(this.root, local, this.marks, { canPlay });
    this.marked = !this.marks.empty;
    drawCounters(local, seconds);
    document.documentElement.dataset.inputs = String(record.steps.length);
    // Where the focus goes when its card left is measured in the next frame, when the page is
    // laid out anyway: measured now, it would lay the page out twice.
    if (focused && !this.root.contains(document.activeElement)) {
      requestAnimationFrame(() => keepFocus(this.root, focused));
    }
    roving(this.root);
  }

  /** Only the selection changed since the board was last drawn: `name` (or none) is the
   * selected card now. Drawn alone (one or two cards' class and aria-pressed), unless marks
   * drawn before must go too, or the card is not a free card's button: then false, and the
   * whole board is drawn. @param {string|null} name */
  selection(name) {
    if (this.marked || !this.marks.empty) return false;
    return drawSelection(this.root, name);
  }

  /** The server has confirmed steps the board already shows: only what says so changes.
   * @param {LocalGame} local @param {any} record @param {number} seconds */
  confirmed(local, record, seconds) {
    this.versioned(record.server);
    document.documentElement.dataset.inputs = String(record.steps.length);
    drawCounters(local, seconds);
  }

  /** The version and last batch the server holds, on the board as a page from it has them.
   * @param {{version: number, last_input?: string|null}} server */
  versioned(server) {
    this.root.dataset.version = String(server.version);
    if (server.last_input) this.root.dataset.lastInput = server.last_input;
    for (const input of this.root.querySelectorAll('input[name="version"]')) {
      if (input instanceof HTMLInputElement) input.value = String(server.version);
    }
  }

  /** One sentence in the message line (none: the line emptied).
   * @param {string} text @param {boolean} [refused] */
  say(text, refused = false) {
    const region = document.getElementById("message");
    if (!region) return;
    region.textContent = "";
    if (!text) return;
    const span = document.createElement("span");
    span.className = refused ? "tone-error" : "tone-info";
    span.setAttribute("data-tone", refused ? "error" : "info");
    if (refused) span.setAttribute("data-refused", "");
    span.textContent = text;
    region.appendChild(span);
  }

  /** The banner that says the server can't be reached, shown or hidden.
   * @param {boolean} away */
  offline(away) {
    const banner = document.querySelector("[data-offline]");
    if (banner instanceof HTMLElement) banner.hidden = !away;
    document.documentElement.toggleAttribute("data-offline-now", away);
  }

  /** How long a press took to show (bench/play_feel.py reads window.pyramidFeel).
   * @param {number} [at] the press's time stamp */
  painted(at) {
    if (at === undefined) return;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => window.pyramidFeel.push(performance.now() - at);
      channel.port2.postMessage(null);
    });
  }
}
