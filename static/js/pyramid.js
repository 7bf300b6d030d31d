/* Pyramid: the little the board needs beyond HTML forms and htmx.
 *  - selecting the first card of a pair happens here, at once, without a request;
 *  - keyboard play: arrow keys between free cards, D to draw/recycle, U to undo, H for a
 *    hint, Esc;
 *  - focus kept in place across board redraws, the game clock, the copy-link button;
 *  - the leaving-card animation (skipped when the player prefers reduced motion).
 * Without this file every control still works as a plain form.
 */
(function () {
  "use strict";

  var reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  function configureHtmx() {
    if (!window.htmx) return;
    // The swap waits for the leaving animation; no wait when motion is reduced.
    window.htmx.config.defaultSwapDelay = reduceMotion.matches ? 0 : 170;
  }
  configureHtmx();
  if (reduceMotion.addEventListener) reduceMotion.addEventListener("change", configureHtmx);

  function board() { return document.getElementById("board"); }
  function selectedInput() { return document.querySelector("#play input[name=selected]"); }
  function freeCards() {
    return Array.prototype.slice.call(
      document.querySelectorAll("#board button[data-card]:not([disabled])"));
  }
  function say(text) {
    var region = document.getElementById("message");
    if (region) region.textContent = text;
  }

  function setSelected(name) {
    var input = selectedInput();
    if (!input) return;
    input.value = name || "";
    freeCards().forEach(function (button) {
      var on = button.getAttribute("data-card") === name;
      button.classList.toggle("selected", on);
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  /* A click on a card: the first (non-King) card is only selected; a King or a second card
     lets the form submit, carrying "selected" and the clicked card to the server. */
  document.addEventListener("click", function (event) {
    var button = event.target.closest("#board button[data-card]");
    if (!button || button.disabled) return;
    var input = selectedInput();
    var current = input ? input.value : "";
    var name = button.getAttribute("data-card");
    if (!current) {
      if (button.hasAttribute("data-king")) return;
      event.preventDefault();
      setSelected(name);
      say(button.getAttribute("aria-label") + " selected: choose a card that makes 13 with it.");
    } else if (current === name) {
      event.preventDefault();
      setSelected("");
      say("Selection cleared.");
    }
  });

  /* Keyboard play. */
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

  function clickControl(selector) {
    var root = board();
    var control = root && root.querySelector(selector);
    if (control && !control.disabled) control.click();
    return Boolean(control);
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    if (!board() || replayRoot()) return;
    var key = event.key;
    if (key === "d" || key === "D") {
      event.preventDefault();
      clickControl("[data-action=draw]:not([disabled]), [data-action=recycle]:not([disabled])");
    } else if (key === "u" || key === "U") {
      event.preventDefault();
      clickControl("[data-action=undo]");
    } else if (key === "h" || key === "H") {
      event.preventDefault();
      clickControl("[data-action=hint]");
    } else if (key === "Escape") {
      setSelected("");
      say("Selection cleared.");
    } else if (key.indexOf("Arrow") === 0) {
      var active = document.activeElement;
      var onCard = active && active.matches && active.matches("#board button[data-card]");
      if (!onCard && active !== document.body && !board().contains(active)) return;
      var next = nearest(onCard ? active : null, key);
      if (next) { event.preventDefault(); next.focus(); }
    }
  });

  /* Keep the keyboard focus where the player was across a board redraw. */
  var focusBefore = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    if (!active || !board() || !board().contains(active)) { focusBefore = null; return; }
    focusBefore = {
      card: active.getAttribute("data-card"),
      action: active.getAttribute("data-action"),
      rect: active.getBoundingClientRect()
    };
  });

  function restoreFocus() {
    if (!focusBefore) return;
    var root = board();
    var target = null;
    if (focusBefore.card) {
      target = root.querySelector('button[data-card="' + focusBefore.card + '"]:not([disabled])');
    } else if (focusBefore.action) {
      target = root.querySelector("[data-action=" + focusBefore.action + "]:not([disabled])") ||
        root.querySelector("[data-action=draw]:not([disabled]), [data-action=recycle]:not([disabled])");
    }
    if (!target) {
      // The card left: go to the free card nearest to where it was.
      var best = null, bestDistance = Infinity, r = focusBefore.rect;
      freeCards().forEach(function (card) {
        var b = card.getBoundingClientRect();
        var d = Math.hypot(b.left - r.left, b.top - r.top);
        if (d < bestDistance) { bestDistance = d; best = card; }
      });
      target = best || root.querySelector("[data-action]:not([disabled])");
    }
    if (target) target.focus({ preventScroll: true });
    focusBefore = null;
  }

  /* The game clock: the server says how long so far; the page counts on while playing. */
  var clock = null;
  function formatTime(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }
  function startClock() {
    if (clock) window.clearInterval(clock);
    var label = document.querySelector("[data-elapsed]");
    if (!label || label.getAttribute("data-running") !== "true") return;
    var base = Number(label.getAttribute("data-elapsed")) || 0;
    var since = Date.now();
    clock = window.setInterval(function () {
      var current = document.querySelector("[data-elapsed]");
      if (current) current.textContent = formatTime(base + Math.floor((Date.now() - since) / 1000));
    }, 1000);
  }

  document.addEventListener("htmx:afterSettle", function () {
    restoreFocus();
    startClock();
  });

  /* The leaving animation: the server names the removed cards before the swap. */
  document.addEventListener("cardsRemoved", function (event) {
    if (reduceMotion.matches || !event.detail || !event.detail.cards) return;
    event.detail.cards.forEach(function (name) {
      var card = document.querySelector('#board button[data-card="' + name + '"]');
      if (card) card.classList.add("leaving");
    });
  });

  document.addEventListener("htmx:sendError", function () {
    say("The server could not be reached: check the connection and try again.");
  });
  document.addEventListener("htmx:responseError", function (event) {
    var status = event.detail && event.detail.xhr ? event.detail.xhr.status : "";
    say("That did not work (" + status + "). Reload the page to see the game as it is.");
  });

  /* Copy the deal link: the button only exists for people with JavaScript. */
  function showCopyButtons() {
    document.querySelectorAll("[data-copy-link][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy-link]");
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

  /* Replays: the stage is swapped by htmx links; this adds the play timer, the arrow keys,
     and keeps the current move in view. Without this file the links and a <noscript>
     refresh do the same. */
  var PLAY_INTERVAL = 700;
  var player = null;
  function replayRoot() { return document.getElementById("replay"); }
  function replayNav(kind) {
    return document.querySelector('#replay-stage a[data-replay-nav="' + kind + '"]');
  }
  function playButton() { return document.querySelector("#replay-stage [data-replay-play]"); }
  function showPlaying(on) {
    var button = playButton();
    if (!button) return;
    if (on) {
      button.textContent = "❚❚ Pause";
      button.setAttribute("aria-label", "Pause");
      button.setAttribute("aria-pressed", "true");
    } else {
      button.setAttribute("aria-pressed", "false");
    }
  }
  function stopPlaying() {
    if (player) window.clearInterval(player);
    player = null;
    var button = playButton();
    if (button && button.getAttribute("aria-pressed") === "true") {
      var stage = document.getElementById("replay-stage");
      var atEnd = stage && stage.getAttribute("data-step") === stage.getAttribute("data-last");
      button.textContent = atEnd ? "↻ Again" : "▶ Play";
      button.setAttribute("aria-label", atEnd ? "Play from the start" : "Play");
      button.setAttribute("aria-pressed", "false");
    }
  }
  function step(kind) {
    var link = replayNav(kind);
    if (link) link.click();
    return Boolean(link);
  }
  function startPlaying() {
    var stage = document.getElementById("replay-stage");
    if (stage && stage.getAttribute("data-step") === stage.getAttribute("data-last")) {
      step("first");
    }
    showPlaying(true);
    player = window.setInterval(function () {
      if (!step("next")) stopPlaying();
    }, PLAY_INTERVAL);
  }
  function togglePlaying() {
    if (player) stopPlaying(); else startPlaying();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-replay-play]");
    if (button) {
      event.preventDefault();
      togglePlaying();
      return;
    }
    // A step chosen by hand stops the playing.
    if (event.isTrusted && event.target.closest("#replay-stage a[hx-get]")) stopPlaying();
  });

  document.addEventListener("keydown", function (event) {
    if (!replayRoot() || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    var kind = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (kind) {
      event.preventDefault();
      stopPlaying();
      step(kind);
    } else if (event.key === " " || event.key === "k" || event.key === "K") {
      event.preventDefault();
      togglePlaying();
    }
  });

  var replayFocus = null;
  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    replayFocus = active && active.closest && active.closest("#replay-stage") ?
      (active.getAttribute("data-replay-nav") || (active.hasAttribute("data-replay-play") ? "play" : null)) : null;
  });
  function afterReplaySwap() {
    var stage = document.getElementById("replay-stage");
    if (!stage) return;
    if (player) showPlaying(true);
    var current = stage.querySelector(".move-list a.current");
    var list = stage.querySelector(".move-list");
    if (current && list) {
      // Scroll only the list, never the page.
      var top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - current.offsetHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
    if (replayFocus) {
      var target = replayFocus === "play" ? playButton() :
        stage.querySelector('[data-replay-nav="' + replayFocus + '"]');
      if (target && target.tagName === "A") target.focus({ preventScroll: true });
      else if (playButton()) playButton().focus({ preventScroll: true });
      replayFocus = null;
    }
  }
  document.addEventListener("htmx:afterSettle", afterReplaySwap);

  document.addEventListener("DOMContentLoaded", function () {
    startClock();
    showCopyButtons();
    if (replayRoot()) {
      afterReplaySwap();
      // A page opened with ?play=1 (the no-JS play link) goes on playing with the timer.
      if (/[?&]play=1/.test(window.location.search)) startPlaying();
    }
  });
})();
