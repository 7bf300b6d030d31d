// @ts-check
/* Sound: five short cues made on the spot with the Web Audio API (no sound files, nothing to
 * download or license): a pair, a King, a draw (or a recycle), a refused move, a win.
 *
 *  - Never before the player's first input on the page (a press or a key): until then nothing
 *    plays, and a page that loads on a won game stays silent. Browsers allow audio only after
 *    an input anyway.
 *  - Never at the cost of a frame. Making an audio context blocks the page's thread: the first
 *    one a browser makes waits there for the browser's audio service to start (in Chromium
 *    70-200 ms with the CPU slowed 4x), which, made at the first input, cost a card press or
 *    the solver's search its frames (docs/solver.md, "The board while a search runs"). So on
 *    a board with sound on, the page first asks for the list of media devices, which starts
 *    that service off its thread (a promise; nothing is listed or kept, no permission is
 *    asked, and the list is empty without one), and once that is answered and the page is
 *    still (idle, no card in flight) it makes the context, in a few milliseconds, and
 *    suspends it if the browser let it run: silent until the first input, which resumes it
 *    (an input is what browsers ask for before audio). A cue asked for before the context is
 *    made (sound turned on later, or an input before the page was still) makes it the same
 *    way, and plays then if it is still fresh.
 *  - Only while <html data-sound="on"> (the player's preference, drawn by the server; the
 *    speaker button flips it: preferences.js).
 *  - Quiet and short (under half a second, the win under a second), so fast play never
 *    piles sounds up.
 *
 * The board's script calls window.pyramidSound.play(what), where ``what`` is a move as the
 * board sends it ("draw", "recycle", "KS", "5H+8C") or a cue's name ("refused", "win").
 * window.pyramidSound.played lists the cues played, for the browser tests.
 */
(function () {
  "use strict";

  var context = null, master = null, heardInput = false, waking = false, pending = null;
  var noise = null;  // the draw's burst of noise, made once a context
  var played = [];
  var FRESH = 300;  // ms a cue may wait for the audio context before it is dropped

  function wanted() { return document.documentElement.getAttribute("data-sound") === "on"; }

  function audio() {
    if (context) return context;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    try {
      context = new Context();
      master = context.createGain();
      master.gain.value = 0.7;
      master.connect(context.destination);
    } catch (e) { context = null; }
    return context;
  }

  function warm() {
    // The browser's audio service started off this thread (see above); resolves either way.
    var devices = navigator.mediaDevices;
    if (!devices || !devices.enumerateDevices) return Promise.resolve();
    try {
      return devices.enumerateDevices().then(function () {}, function () {});
    } catch (e) { return Promise.resolve(); }
  }

  function resume() {
    // After an input (a gesture, as browsers ask): the context made ahead runs.
    if (context && heardInput && context.state === "suspended") {
      try { context.resume(); } catch (e) { /* audio is a nicety */ }
    }
  }

  function input(event) {
    if (!event.isTrusted) return;
    if (!heardInput) {
      heardInput = true;
      if (wanted()) ready();
    }
    resume();
    // Kept while the context is not running: some browsers count only a release (a click, a
    // pointer or key up) as the gesture that lets audio start.
    if (context && context.state === "running") {
      for (var i = 0; i < GESTURES.length; i++) document.removeEventListener(GESTURES[i], input, true);
    }
  }
  var GESTURES = ["pointerdown", "keydown", "pointerup", "click", "keyup"];
  // Capture, so it runs before the board's own handler reads the same input.
  for (var g = 0; g < GESTURES.length; g++) document.addEventListener(GESTURES[g], input, true);

  function whenStill(work) {
    // When the page is next idle and no card is in flight (static/js/board/motion.js): on a
    // busy CPU the idle callback's timeout comes while the first move's cards fly, and making
    // the context then would cost that flight its frames.
    var later = window.requestIdleCallback || function (w) { return window.setTimeout(w, 50); };
    later(function () {
      if (document.querySelector(".card.flying")) window.setTimeout(function () { whenStill(work); }, 80);
      else work();
    }, { timeout: 250 });
  }

  function ready() {
    // The audio context, made warm when the page is next still: suspended until the first
    // input; then any fresh pending cue plays.
    if (context || waking) return;
    waking = true;
    warm().then(function () { whenStill(function () {
      var c = audio();
      if (!c) return;
      if (!heardInput) {
        if (c.state === "running") c.suspend();
        return;
      }
      resume();
      var cue = pending;
      pending = null;
      if (cue && performance.now() - cue.at < FRESH) sound(c, cue.name);
    }); });
  }
  // Made ahead on a board (this script is on every page; only a board plays).
  if (wanted() && document.getElementById("board")) ready();

  /* --- the voices ------------------------------------------------------------------------- */
  function tone(c, at, o) {
    var osc = c.createOscillator(), amp = c.createGain();
    osc.type = o.type || "sine";
    osc.frequency.setValueAtTime(o.from, at);
    if (o.to) osc.frequency.exponentialRampToValueAtTime(o.to, at + o.length);
    amp.gain.setValueAtTime(0.0001, at);
    amp.gain.exponentialRampToValueAtTime(o.gain || 0.1, at + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, at + o.length);
    osc.connect(amp);
    amp.connect(master);
    osc.start(at);
    osc.stop(at + o.length + 0.02);
  }
  function flick(c, at, length, centre, gain) {
    // A burst of filtered noise: a card sliding off the stock (the noise made once).
    if (!noise || noise.length !== Math.ceil(c.sampleRate * length)) {
      var frames = Math.ceil(c.sampleRate * length);
      noise = c.createBuffer(1, frames, c.sampleRate);
      var data = noise.getChannelData(0);
      for (var i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
    }
    var buffer = noise;
    var source = c.createBufferSource(), filter = c.createBiquadFilter(), amp = c.createGain();
    source.buffer = buffer;
    filter.type = "bandpass";
    filter.frequency.value = centre;
    filter.Q.value = 1.2;
    amp.gain.value = gain;
    source.connect(filter);
    filter.connect(amp);
    amp.connect(master);
    source.start(at);
  }

  var CUES = {
    // Two light notes going up: a pair made.
    pair: function (c, at) {
      tone(c, at, { from: 659, length: 0.09, gain: 0.09 });
      tone(c, at + 0.07, { from: 988, length: 0.12, gain: 0.08 });
    },
    // A bright major chord: a King taken on its own.
    king: function (c, at) {
      [523, 659, 784].forEach(function (f) { tone(c, at, { from: f, type: "triangle", length: 0.28, gain: 0.07 }); });
      tone(c, at + 0.05, { from: 1568, length: 0.2, gain: 0.025 });
    },
    // A short flick of noise: a card drawn, or the waste turned over.
    draw: function (c, at) { flick(c, at, 0.06, 2600, 0.35); },
    // A low, soft buzz sliding down: that move is not allowed.
    refused: function (c, at) {
      tone(c, at, { from: 220, to: 150, type: "square", length: 0.16, gain: 0.035 });
    },
    // A rising arpeggio ending on a held chord: the game is won.
    win: function (c, at) {
      [523, 659, 784, 1047].forEach(function (f, i) {
        tone(c, at + i * 0.1, { from: f, type: "triangle", length: 0.3, gain: 0.08 });
      });
      [523, 784, 1047].forEach(function (f) {
        tone(c, at + 0.42, { from: f, type: "sine", length: 0.55, gain: 0.05 });
      });
    }
  };

  function cueOf(what) {
    if (CUES.hasOwnProperty(what)) return what;
    if (what === "recycle") return "draw";
    if (what.indexOf("+") > 0) return "pair";
    if (/^K[CDHS]$/.test(what)) return "king";
    return null;
  }

  function sound(c, cue) {
    if (c.state === "suspended") c.resume();
    played.push(cue);
    try { CUES[cue](c, c.currentTime + 0.005); } catch (e) { /* audio is a nicety */ }
  }
  function play(what) {
    var cue = cueOf(String(what));
    if (!cue || !heardInput || !wanted()) return;
    if (context) sound(context, cue);
    else { pending = { name: cue, at: performance.now() }; ready(); }
  }

  window.pyramidSound = {
    play: play,
    played: played,
    // The audio context is made (suspended until the first input)...
    made: function () { return context !== null; },
    // ...and woken by an input: cues play at once.
    started: function () { return context !== null && heardInput; }
  };
})();
