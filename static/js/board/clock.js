// @ts-check
/* The game's clock as the player sees it: it starts at the first move, stops while the game is
 * paused (the button, P, or a tab left for a second) and when the game ends, and counts play,
 * not the page's life. The server keeps its own clock for games it watches move by move; for
 * moves made without network it takes this one (sync.js sends it). */

export function formatTime(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(s).padStart(2, "0")}`;
}

export class Clock {
  constructor(seconds, running) {
    this.base = seconds;
    this.since = running ? performance.now() : null;
    this.timer = null;
    if (running) this.tick();
  }

  get running() { return this.since !== null; }

  /** Whole seconds so far. */
  seconds() {
    const extra = this.since === null ? 0 : (performance.now() - this.since) / 1000;
    return Math.floor(this.base + extra);
  }

  start() {
    if (this.since !== null) return;
    this.since = performance.now();
    this.tick();
  }

  stop() {
    if (this.since === null) return;
    this.base += (performance.now() - this.since) / 1000;
    this.since = null;
    window.clearTimeout(this.timer);
    this.timer = null;
    this.show();
  }

  /** Take the server's figure (a page loaded again, another tab's moves). */
  set(seconds, running) {
    this.stop();
    this.base = seconds;
    if (running) this.start(); else this.show();
  }

  tick() {
    this.show();
    this.timer = window.setTimeout(() => this.tick(), 250);
  }

  show() {
    const label = document.querySelector("[data-elapsed]");
    if (!label) return;
    const text = formatTime(this.seconds());
    if (label.textContent !== text) label.textContent = text;
    label.setAttribute("data-running", this.running ? "true" : "false");
    label.setAttribute("data-elapsed", String(this.seconds()));
  }
}
