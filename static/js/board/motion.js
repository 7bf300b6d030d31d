// @ts-check
/* Cards that move like cards: a removed pair or King flies to the removed cards, a draw slides
 * the stock's card to the waste, a recycle gathers the waste back, an undo brings a card back
 * where it came from, the deal comes in at the start, and a win ends in a cascade.
 *
 * The board's truth never waits for a flight: the board is already drawn at its new position
 * (the pyramid's buttons gone, data-moves changed) in the same frame as the press, and a
 * flight is a decorative copy (aria-hidden, no button, carrying the card's data-card) that
 * travels over it, on the compositor (transform and opacity only), 300 ms at most; the card at
 * the flight's end waits, invisible, until it lands. The next input lands every flight at
 * once. Reduced motion (the system's, or "Animations: reduced/none"): nothing travels. */

import { foundOrMade } from "./dom.js";

const FLIGHT_MS = 260;
const DEAL_STAGGER_MS = 18;
const CASCADE_CARDS = 16;

function reduced() {
  const chosen = document.documentElement.dataset.motion;
  if (chosen === "none" || chosen === "reduced") return true;
  return chosen !== "full" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function layer() {
  return /** @type {HTMLElement} */ (foundOrMade("[data-flights]", "div",
    { class: "flight-layer", "data-flights": true, "aria-hidden": "true" },
    (made) => { document.body.append(made); }));
}

/** Where the cards `names` are on the board now (a name to its rectangle), and the piles'
 * places; nothing when no card will travel (reduced motion). */
export function positions(root, names = null) {
  const places = new Map();
  if (reduced()) return places;
  const cards = names === null ? root.querySelectorAll(".pyramid .card[data-card], .piles .card[data-card]")
    : names.map((name) => root.querySelector(`.card[data-card="${name}"]`)).filter(Boolean);
  for (const element of cards) places.set(element.dataset.card, element.getBoundingClientRect());
  for (const pile of ["stock", "waste", "discard"]) {
    const slot = root.querySelector(`[data-top="${pile}"]`);
    if (slot) places.set(pile, slot.getBoundingClientRect());
  }
  return places;
}

export class Motion {
  constructor(root) {
    this.root = root;
    this.flights = new Set();
  }

  /** Once every flight now in the air has landed. */
  settled() {
    return Promise.all([...this.flights].map((flight) => flight.finished.catch(() => null)));
  }

  /** Land every flight now (the next input, or a redraw, must not wait for one). */
  land() {
    for (const flight of [...this.flights]) flight.finish();
  }

  /** A copy of `card` (its face, from the board's element or the faces template) flying from
   * rectangle `from` to rectangle `to`; `arrive` is the element waiting there, if any. */
  fly(card, from, to, { arrive = null, delay = 0, fade = false } = {}) {
    if (!from || !to || reduced()) return;
    const source = this.root.querySelector(`.card[data-card="${card}"]`)
      || document.querySelector(`#card-faces [data-face="${card}"]`);
    const copy = document.createElement("span");
    copy.className = `card ${"DH".includes(card[1]) ? "red" : "black"} flying`;
    copy.setAttribute("data-card", card);
    copy.setAttribute("aria-hidden", "true");
    if (source) copy.append(...Array.from(source.childNodes, (node) => node.cloneNode(true)));
    Object.assign(copy.style, { left: `${from.left}px`, top: `${from.top}px`,
      width: `${from.width}px`, height: `${from.height}px` });
    layer().append(copy);
    if (arrive) arrive.style.opacity = "0";
    const dx = to.left - from.left, dy = to.top - from.top;
    const scale = from.width ? to.width / from.width : 1;
    const animation = copy.animate([
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: fade ? 0 : 1 },
    ], { duration: FLIGHT_MS, delay, easing: "cubic-bezier(.25, .7, .3, 1)", fill: "both" });
    this.flights.add(animation);
    const done = () => {
      this.flights.delete(animation);
      copy.remove();
      if (arrive) arrive.style.opacity = "";
    };
    animation.finished.then(done, done);
  }

  /** The flights of one step, from where the cards were (`before`) to where they are now. A
   * step forward ends on a pile, whose place the board's new drawing does not move: measured
   * before it, so the browser lays the page out once, in its frame, not twice. */
  step(kind, cards, before) {
    if (reduced()) return;
    const at = (name) => this.root.querySelector(`.card[data-card="${name}"]`);
    if (kind === "remove") {
      cards.forEach((name, index) => {
        const top = index === cards.length - 1;
        this.fly(name, before.get(name), before.get("discard"),
          { arrive: top ? at(name) : null, fade: !top });
      });
      return;
    }
    if (kind === "draw") {
      const [name] = cards;
      this.fly(name, before.get(name), before.get("waste"), { arrive: at(name) });
      return;
    }
    if (kind === "recycle") {
      const [name] = cards;
      this.fly(name, before.get(name), before.get("stock"), { fade: true });
      return;
    }
    const after = positions(this.root, cards);  // a step back ends at a card's own place
    if (kind === "unremove") {
      for (const name of cards) {
        this.fly(name, before.get("discard"), after.get(name), { arrive: at(name) });
      }
    } else if (kind === "undraw") {
      const [name] = cards;
      this.fly(name, before.get(name) || before.get("waste"), after.get(name), { arrive: at(name) });
    } else if (kind === "unrecycle") {
      const [name] = cards;
      this.fly(name, before.get("stock"), after.get(name), { arrive: at(name) });
    }
  }

  /** The deal coming in: each pyramid card from the stock to its place, one after another. */
  deal() {
    if (reduced()) return;
    const stock = this.root.querySelector(".stock-row") || this.root.querySelector('[data-top="stock"]');
    if (!stock) return;
    const from = stock.getBoundingClientRect();
    const cards = this.root.querySelectorAll(".pyramid .card[data-card]");
    cards.forEach((element, index) => {
      const to = element.getBoundingClientRect();
      this.fly(element.dataset.card, { left: from.left, top: from.top, width: to.width,
        height: to.height }, to, { arrive: element, delay: index * DEAL_STAGGER_MS });
    });
  }

  /** A win: the last cards removed tumble from the removed pile across the board. */
  cascade(names) {
    if (reduced()) return;
    const pile = this.root.querySelector('[data-top="discard"]');
    const board = this.root.getBoundingClientRect();
    if (!pile) return;
    const from = pile.getBoundingClientRect();
    names.slice(-CASCADE_CARDS).forEach((name, index) => {
      const x = board.left + ((index * 61) % 100) / 100 * Math.max(0, board.width - from.width);
      const y = Math.min(window.innerHeight, board.bottom) - from.height * 0.6;
      this.fly(name, from, { left: x, top: y, width: from.width, height: from.height },
        { delay: index * 70, fade: true });
    });
  }
}
