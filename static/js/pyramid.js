/* Pyramid: the little the board needs beyond HTML forms and htmx.
 *
 *  - Every board input (a card, Draw, Recycle, Undo, Hint, a key, a drag) goes into one queue
 *    and is sent to the server one at a time, in order. Each request carries the version of the
 *    game that the last answer drew, and only the server's answers are ever drawn: the board
 *    never shows a position the server does not hold, no input is lost, and no late answer
 *    overwrites a newer one. An input about a card that an earlier input removed is dropped
 *    (a double-click on a King removes it once).
 *  - The server decides everything, the selection included; the page only marks a pressed card
 *    at once, so a click feels instant while its answer is on the way.
 *  - Keyboard play (arrows between free cards; D, U, H, Esc), drag a card onto its partner,
 *    the game clock, the copy-link button, and Back/Forward showing the server's position.
 * Without this file every control still works as a plain form.
 */
(function () {
  "use strict";

  function board() { return document.getElementById("board"); }
  function playForm() { return document.getElementById("play"); }
  function say(text) {
    var region = document.getElementById("message");
    if (region) region.textContent = text;
  }
  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }
  function freeCards() {
    return Array.prototype.slice.call(
      document.querySelectorAll("#board button[data-card]:not([disabled])"));
  }
  function enabledCard(name) {
    return document.querySelector('#board button[data-card="' + name + '"]:not([disabled])');
  }

  /* --- the input queue ------------------------------------------------------------------ */
  var queue = [];
  var busy = false;

  /* <html data-inputs="N">: inputs waiting or on their way (0 when the board is settled), for
     anyone who needs to know the board is the server's latest answer (tests, assistive tech). */
  function showPending() {
    document.documentElement.setAttribute("data-inputs", String(queue.length + (busy ? 1 : 0)));
  }

  function enqueue(input) {
    queue.push(input);
    showPending();
    pump();
  }

  /* What an input becomes against the board as it is now (the last answer's), or null to
     drop it: a card that is gone, a control that no longer exists. */
  function resolve(input) {
    var root = board();
    if (!root || !root.hasAttribute("data-game")) return null;
    var form = playForm();
    var version = root.getAttribute("data-version");
    var fields = { version: version };
    var url;
    if (input.kind === "card") {
      if (!enabledCard(input.card)) return null;
      if (input.selected && !enabledCard(input.selected)) return null;
      url = form.getAttribute("action");
      fields.card = input.card;
      fields.selected = input.selected !== undefined ? input.selected
        : form.querySelector("input[name=selected]").value;
    } else if (input.kind === "deselect") {
      var current = form && form.querySelector("input[name=selected]").value;
      if (!current) return null;
      url = form.getAttribute("action");
      fields.card = current;
      fields.selected = current;
    } else if (input.kind === "draw" || input.kind === "recycle" || input.kind === "stock") {
      if (!form) return null;
      url = form.getAttribute("action");
      var action = input.kind;
      if (action === "stock") {
        // D: draw while the stock has cards, recycle when it is empty; with neither possible,
        // ask anyway so the player hears why not, in the engine's words.
        action = root.querySelector("[data-action=recycle]:not([disabled])") ? "recycle" : "draw";
      }
      fields.action = action;
      fields.selected = form.querySelector("input[name=selected]").value;
    } else {
      var control = root.querySelector("[data-action=" + input.kind + "]");
      if (!control || control.disabled) return null;
      url = control.form.getAttribute("action");
      if (input.kind === "hint") delete fields.version;
    }
    return { url: url, fields: fields };
  }

  function pump() {
    if (busy) return;
    var request = null;
    while (queue.length && !request) request = resolve(queue.shift());
    if (!request) { showPending(); return; }
    busy = true;
    showPending();
    board().setAttribute("aria-busy", "true");
    var body = new URLSearchParams();
    Object.keys(request.fields).forEach(function (key) { body.append(key, request.fields[key]); });
    fetch(request.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true", "X-CSRF-Token": csrfToken() }
    }).then(function (response) {
      return response.text().then(function (html) {
        if (response.ok || response.status === 409) {
          // 409: the game changed elsewhere; the answer is the board as it stands, and the
          // inputs still waiting were made on the old one.
          if (response.status === 409) queue = [];
          var focused = focusOnBoard();
          window.htmx.swap("#board", html, { swapStyle: "outerHTML" });
          keepFocus(focused);
          startClock();
        } else {
          queue = [];
          say(response.status === 403 ?
            "This page has expired: reload it to carry on (your game is saved)." :
            "That did not work (" + response.status + "). Reload the page to see the game as it is.");
        }
      });
    }).catch(function () {
      queue = [];
      say("The server could not be reached: check the connection and try again.");
    }).then(function () {
      busy = false;
      var root = board();
      if (root) root.removeAttribute("aria-busy");
      pump();
    });
  }

  /* Keyboard focus across a redraw: htmx keeps it on an element with the same id; when the
     focused card has just been removed, it goes to the free card nearest to where it was. */
  function focusOnBoard() {
    var active = document.activeElement;
    var root = board();
    if (!active || !root || !root.contains(active)) return null;
    return active.getBoundingClientRect();
  }
  function keepFocus(rect) {
    var root = board();
    if (!rect || !root || root.contains(document.activeElement)) return;
    var best = null, bestDistance = Infinity;
    freeCards().forEach(function (card) {
      var b = card.getBoundingClientRect();
      var distance = Math.hypot(b.left - rect.left, b.top - rect.top);
      if (distance < bestDistance) { bestDistance = distance; best = card; }
    });
    best = best || root.querySelector("[data-action]:not([disabled])");
    if (best) best.focus({ preventScroll: true });
  }

  /* Clicks on the board's controls become inputs (the forms stay plain forms without JS). */
  /* What a board control asks for, as an input for the queue. */
  function inputFor(control) {
    if (control.name === "card") return { kind: "card", card: control.value };
    if (control.name === "action") return { kind: control.value };
    var action = control.getAttribute("data-action");
    return action === "undo" || action === "hint" ? { kind: action } : null;
  }

  /* A press on a board control is an input at once, on pointerdown: a click whose button goes
     down on one board and up on the next (the answer to an earlier input redrew it in between)
     fires no click at all, and would be lost. The click that follows a press is then ignored;
     a click from the keyboard (Enter, Space) has no press and goes through the form's submit. */
  document.addEventListener("pointerdown", function (event) {
    if (event.button !== 0 || !window.htmx) return;
    var control = event.target.closest &&
      event.target.closest("#board[data-game] form[data-board-form] button:not([disabled])");
    if (!control) return;
    var input = inputFor(control);
    if (!input) return;
    if (input.kind === "card") {
      control.classList.add("pressed");
      drag = { card: control, x: event.clientX, y: event.clientY, ghost: null, id: event.pointerId };
    }
    enqueue(input);
  });

  document.addEventListener("click", function (event) {
    if (event.detail > 0 && event.target.closest &&
        event.target.closest("#board[data-game] form[data-board-form]") && window.htmx) {
      event.preventDefault();  // a pointer's click: its press was the input
    }
  }, true);

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("#board form[data-board-form]") || !window.htmx) return;
    event.preventDefault();
    var submitter = event.submitter || form.querySelector("button");
    var input = submitter && inputFor(submitter);
    if (input) enqueue(input);
  });

  /* --- drag a card onto its partner (mouse and touch) ---------------------------------- */
  /* The press on the first card has already selected it (an input); dropping it on another
     card adds that card with the first as the selection, which removes the pair. */
  var drag = null;
  var DRAG_THRESHOLD = 6;

  document.addEventListener("pointermove", function (event) {
    if (!drag || event.pointerId !== drag.id) return;
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      drag.ghost = drag.card.cloneNode(true);
      drag.ghost.removeAttribute("id");
      drag.ghost.classList.add("drag-ghost");
      drag.ghost.setAttribute("aria-hidden", "true");
      var rect = drag.card.getBoundingClientRect();
      drag.ghost.style.left = rect.left + "px";
      drag.ghost.style.top = rect.top + "px";
      drag.ghost.style.width = rect.width + "px";
      drag.ghost.style.height = rect.height + "px";
      document.body.appendChild(drag.ghost);
      drag.card.classList.add("dragging");
    }
    drag.ghost.style.transform = "translate(" + dx + "px," + dy + "px)";
    event.preventDefault();
  });

  function endDrag(event, drop) {
    if (!drag || event.pointerId !== drag.id) return;
    var current = drag;
    drag = null;
    if (!current.ghost) return;  // a plain click: the click event does the rest
    current.ghost.remove();
    current.card.classList.remove("dragging");
    if (!drop) return;
    var under = document.elementFromPoint(event.clientX, event.clientY);
    var target = under && under.closest && under.closest("#board button[data-card]:not([disabled])");
    if (!target || target === current.card) return;
    target.classList.add("pressed");
    enqueue({ kind: "card", card: target.getAttribute("data-card"),
              selected: current.card.getAttribute("data-card") });
  }
  document.addEventListener("pointerup", function (event) { endDrag(event, true); });
  document.addEventListener("pointercancel", function (event) { endDrag(event, false); });

  /* --- keyboard play --------------------------------------------------------------------- */
  function nearest(from, direction) {
    var cards = freeCards();
    if (!cards.length) return null;
    if (!from || cards.indexOf(from) < 0) return cards[0];
    var a = from.getBoundingClientRect();
    var ax = a.left + a.width / 2, ay = a.top + a.height / 2;
    var best = null, bestScore = Infinity;
    cards.forEach(function (card) {
      if (card === from) return;
      var b = card.getBoundingClientRect();
      var dx = b.left + b.width / 2 - ax, dy = b.top + b.height / 2 - ay;
      var along, across;
      if (direction === "ArrowLeft") { along = -dx; across = dy; }
      else if (direction === "ArrowRight") { along = dx; across = dy; }
      else if (direction === "ArrowUp") { along = -dy; across = dx; }
      else { along = dy; across = dx; }
      if (along <= 1) return;
      var score = along + 2 * Math.abs(across);
      if (score < bestScore) { bestScore = score; best = card; }
    });
    return best;
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    if (document.getElementById("replay")) { replayKey(event); return; }
    var root = board();
    if (!root || !root.hasAttribute("data-game") || !window.htmx) return;
    var key = event.key;
    if (key === "d" || key === "D") {
      event.preventDefault();
      enqueue({ kind: "stock" });
    } else if (key === "u" || key === "U") {
      event.preventDefault();
      enqueue({ kind: "undo" });
    } else if (key === "h" || key === "H") {
      event.preventDefault();
      enqueue({ kind: "hint" });
    } else if (key === "Escape") {
      enqueue({ kind: "deselect" });
    } else if (key.indexOf("Arrow") === 0) {
      var active = document.activeElement;
      var onCard = active && active.matches && active.matches("#board button[data-card]");
      if (!onCard && active !== document.body && !root.contains(active)) return;
      var next = nearest(onCard ? active : null, key);
      if (next) { event.preventDefault(); next.focus(); }
    }
  });

  /* --- the game clock: the server says how long so far; the page counts on ------------- */
  var clock = null;
  function formatTime(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }
  function startClock() {
    if (clock) window.clearInterval(clock);
    clock = null;
    var label = document.querySelector("[data-elapsed]");
    if (!label || label.getAttribute("data-running") !== "true") return;
    var base = Number(label.getAttribute("data-elapsed")) || 0;
    var since = Date.now();
    clock = window.setInterval(function () {
      var current = document.querySelector("[data-elapsed]");
      if (current) current.textContent = formatTime(base + Math.floor((Date.now() - since) / 1000));
    }, 1000);
  }

  document.addEventListener("htmx:sendError", function () {
    say("The server could not be reached: check the connection and try again.");
  });

  /* --- copy the deal link: the button only exists for people with JavaScript ------------ */
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy-link]");
    if (!button) return;
    var link = document.querySelector("[data-deal-link]");
    if (!link) return;
    var done = function () { button.textContent = "Copied!"; say("Deal link copied."); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(link.href).then(done, function () {
        window.getSelection().selectAllChildren(link);
        say("Select the link and copy it.");
      });
    } else {
      window.getSelection().selectAllChildren(link);
      say("The link is selected: copy it with Ctrl+C.");
    }
  });

  /* --- replays: htmx links step and play (the server's load-delay trigger); keys here ---- */
  function replayKey(event) {
    var kind = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    var link = null;
    if (kind) link = document.querySelector('#replay-stage a[data-replay-nav="' + kind + '"]');
    else if (event.key === " " || event.key === "k" || event.key === "K") {
      link = document.querySelector("#replay-stage [data-replay-play]");
    }
    if (kind || link) event.preventDefault();
    if (!link) return;
    // htmx wires up a swapped-in link as the swap settles; a key pressed before that would
    // follow the bare link (a page load that adds a history entry): wire it up first.
    if (window.htmx) window.htmx.process(link);
    link.click();
  }

  /* --- Back and Forward show the server's position, never a page kept by the browser ---- */
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && (board() || document.querySelector("[data-continue], .new-game"))) {
      window.location.reload();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    showPending();
    startClock();
    document.querySelectorAll("[data-copy-link][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  });
})();
