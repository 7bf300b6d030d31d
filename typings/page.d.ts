// What the page's scripts find on `window` beside the DOM's own: the vendored libraries
// (htmx, idiomorph, Swagger UI) and what our scripts leave for each other and for the tests.
// Read by tsc only (tsconfig.json); never served.

interface PyramidSound {
  play(what: string): void;
  /** The cues played so far (the tests read them). */
  played: string[];
  /** The audio context is made (ahead, suspended until the first input). */
  made(): boolean;
  /** ...and an input has woken it: cues play. */
  started(): boolean;
}

interface Window {
  /** static/js/sound.js: the board's Web Audio cues. */
  pyramidSound?: PyramidSound;
  /** Press-to-paint times, in ms (bench/play_feel.py reads them). */
  pyramidFeel: number[];
  /** static/js/board/early.js: the inputs made before the board's module ran. */
  pyramidEarly?: { inputs: any[]; taken: boolean };
  /** static/js/board/main.js: the board, for the tests and the benches. */
  pyramidBoard?: import("../static/js/board/controller.js").Board;
  /** Safari's older name for AudioContext. */
  webkitAudioContext?: typeof AudioContext;
  /** htmx, vendored (static/vendor). */
  htmx?: { process(element: Element): void; ajax(...args: any[]): Promise<void>; [name: string]: any };
  /** idiomorph, vendored (static/vendor). */
  Idiomorph?: { morph(old: Element, fresh: Element | string, options?: object): unknown };
  /** Swagger UI's handle (static/js/swagger-init.js). */
  ui?: unknown;
}

/** Swagger UI's bundle, vendored (static/vendor/swagger-ui-*). */
declare const SwaggerUIBundle: any;
