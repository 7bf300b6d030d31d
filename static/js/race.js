// @ts-check
/* A race, live (docs/races.md): the strip of racers on the race page and on a racer's board,
 * kept from the race's Server-Sent Events (/races/{key}/events; EventSource reconnects with
 * Last-Event-ID by itself). The words come from the strip's data-word-* attributes, in the
 * page's language. A polite live region tells a screen reader how the others are doing: at
 * most once every few seconds, and at once when someone finishes. Without this file the page
 * shows the race as it was when loaded, with a refresh link.
 */
(function () {
  "use strict";

  var SAY_EVERY_MS = 5000;
  var FINISHED = { won: 1, lost: 1, gone: 1, out: 1 };

  function fill(template, values) {
    return String(template || "").replace(/%\((\w+)\)s/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  function clock(ms) {
    var seconds = Math.floor(ms / 1000);
    var minutes = Math.floor(seconds / 60);
    return minutes + ":" + String(seconds % 60).padStart(2, "0");
  }

  function word(strip, kind, key) {
    /* data-word-status-won -> dataset.wordStatusWon */
    var name = "word" + kind + key.charAt(0).toUpperCase() + key.slice(1);
    return strip.dataset[name] || key;
  }

  function field(row, name, text) {
    var element = row.querySelector('[data-field="' + name + '"]');
    if (!element) {
      element = document.createElement("span");
      element.dataset.field = name;
      row.appendChild(element);
    }
    if (element.textContent !== text) element.textContent = text;
  }

  function drawRacer(strip, list, racer, you) {
    var row = list.querySelector('[data-racer="' + racer.id + '"]');
    if (!row) {
      row = document.createElement("li");
      row.className = "racer";
      row.dataset.racer = racer.id;
      ["place", "name", "figures", "status"].forEach(function (name) {
        var span = document.createElement("span");
        span.className = "racer-" + name;
        span.dataset.field = name === "figures" ? "figures" : name;
        row.appendChild(span);
      });
    }
    row.dataset.cardsLeft = racer.cards_left;
    row.dataset.moves = racer.moves;
    row.dataset.status = racer.status;
    row.dataset.ready = racer.ready ? "true" : "false";
    row.dataset.timed = racer.timed === false ? "false" : "true";
    row.dataset.passesLeft = racer.passes_left;
    row.dataset.timeMs = racer.time_ms;
    row.classList.toggle("is-you", String(racer.id) === you);
    field(row, "place", racer.place ? String(racer.place) : "");
    field(row, "name", racer.name + (String(racer.id) === you ? " (" + strip.dataset.wordYou + ")" : ""));
    var figures = row.querySelector('[data-field="figures"]');
    if (figures && !figures.querySelector('[data-field="cards"]')) figures.textContent = "";
    field(figures || row, "cards", fill(strip.dataset.wordCards, { count: racer.cards_left }));
    field(figures || row, "moves", fill(strip.dataset.wordMoves, { count: racer.moves }));
    field(figures || row, "passes", fill(strip.dataset.wordPasses, { count: racer.passes_left }));
    var status = word(strip, "Status", racer.status);
    if (racer.status === "waiting" && racer.ready) status += " · " + strip.dataset.wordReady;
    if (FINISHED[racer.status] && racer.status !== "gone") status += " · " + clock(racer.time_ms);
    if (racer.hints) status += " · " + fill(strip.dataset.wordHints, { count: racer.hints });
    if (FINISHED[racer.status] && !racer.ranked) status += " · " + strip.dataset.wordUnranked;
    field(row, "status", status);
    return row;
  }

  function start(strip) {
    var list = strip.querySelector("[data-racers]");
    var region = strip.querySelector("[data-race-announce]");
    var stateText = strip.querySelector("[data-race-state]");
    var countdown = strip.querySelector("[data-countdown]");
    var offline = strip.querySelector("[data-race-offline]");
    var you = strip.dataset.you || "";
    var page = document.querySelector("[data-race-page]");
    var seen = {};
    var lastSaid = 0;
    var waiting = null;
    var ticking = null;
    var status = strip.dataset.raceStatus;

    function say(text, now) {
      if (!region || !text) return;
      if (!now && Date.now() - lastSaid < SAY_EVERY_MS) {
        waiting = text;  /* the latest news, said when the few seconds are up */
        return;
      }
      region.textContent = text;
      lastSaid = Date.now();
      waiting = null;
    }
    window.setInterval(function () { if (waiting) say(waiting, false); }, 1000);

    function ended() {
      if (countdown) { countdown.dataset.countdown = "0"; countdown.textContent = strip.dataset.wordGo; }
      /** @type {HTMLAnchorElement | null} */
      var play = document.querySelector("a[data-play]");
      if (play) {
        play.hidden = false;
        if (page && you) window.location.assign(play.href);  /* off to the board, together */
      }
    }

    function count(ms) {
      if (!countdown) return;
      var end = Date.now() + ms;
      window.clearInterval(ticking);
      function tick() {
        var left = end - Date.now();
        if (left <= 0) {
          window.clearInterval(ticking);
          ended();
          return;
        }
        var seconds = Math.ceil(left / 1000);
        if (countdown.dataset.countdown !== String(seconds)) {
          countdown.dataset.countdown = String(seconds);
          countdown.textContent = fill(strip.dataset.wordCountdown, { seconds: seconds });
        }
      }
      ticking = window.setInterval(tick, 50);
      tick();
    }

    function update(race) {
      var before = status;
      status = race.status;
      strip.dataset.raceStatus = status;
      if (stateText) stateText.textContent = word(strip, "State", status);
      if (status === "countdown" && before !== "countdown") count(race.starts_in_ms || 0);
      if (status === "running" && before === "countdown") { window.clearInterval(ticking); ended(); }
      var rows = race.racers.map(function (racer) { return drawRacer(strip, list, racer, you); });
      rows.forEach(function (row) { list.appendChild(row); });  /* in the race's order */
      race.racers.forEach(function (racer) {
        var old = seen[racer.id];
        seen[racer.id] = racer;
        if (old && !page && String(racer.id) === you && racer.status === "out" && old.status !== "out") {
          /* On your board: the race's time ran out, and the server ended your game. */
          window.setTimeout(function () { window.location.reload(); }, 300);
        }
        if (!old || String(racer.id) === you) return;
        if (FINISHED[racer.status] && !FINISHED[old.status]) {
          say(fill(strip.dataset.wordFinished, { name: racer.name,
            status: word(strip, "Status", racer.status) }), true);
        } else if (racer.moves !== old.moves) {
          say(fill(strip.dataset.wordProgress, { name: racer.name, count: racer.cards_left }), false);
        }
      });
      /* The race page's forms follow the race: its results, a rematch. */
      if (page && before !== "finished" && status === "finished") {
        window.setTimeout(function () { window.location.reload(); }, 300);
      } else if (page && race.rematch && status === "finished" && !page.querySelector("[data-rematch]")) {
        window.setTimeout(function () { window.location.reload(); }, 300);
      }
    }

    if (status === "countdown" && countdown && countdown.dataset.startsInMs) {
      count(Number(countdown.dataset.startsInMs));
    }
    if (!window.EventSource) return;
    var source = new window.EventSource(strip.dataset.events);
    source.onmessage = function (event) {
      try { update(JSON.parse(event.data)); } catch (e) { /* a bad event: the next one */ }
    };
    function online() { if (offline) offline.hidden = navigator.onLine; }
    source.onerror = online;
    source.onopen = online;
    window.addEventListener("online", online);
    window.addEventListener("offline", online);
    online();
  }

  function ready() {
    document.querySelectorAll("[data-race][data-events]").forEach(start);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
