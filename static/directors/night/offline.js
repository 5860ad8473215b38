// The club night when the venue's network goes (issue 36). Without this script every page
// works as plain forms; with it:
// - the results screen keeps each tap in this browser (localStorage) with a key of its own,
//   shows it at once with "N results not yet sent", and sends the taps in order when the
//   network answers (at once, on the "online" event, and again with a growing pause). The
//   server applies a key once (directors/night/taps.py); a tap a re-pairing or a later result
//   made stale is refused and its reason stays on the screen, and the others go on;
// - the evening page says that pairing needs the network when there is none;
// - the service worker (/manage/sw.js) keeps the evening's pages to open them offline.
(function () {
  "use strict";
  var root = document.querySelector("[data-night-offline]");
  if (!root) return;

  if ("serviceWorker" in navigator && root.getAttribute("data-worker")) {
    // For the whole site (the server allows it), so that it sees signing in and out.
    navigator.serviceWorker.register(root.getAttribute("data-worker"), { scope: "/" }).catch(
      function () { /* the pages still work, only not offline */ }
    );
  }

  // The evening page: pairing is the server's work.
  var pairNote = document.querySelector("[data-night-needs-network]");
  if (pairNote) {
    var showPairNote = function () { pairNote.hidden = navigator.onLine; };
    window.addEventListener("online", showPairNote);
    window.addEventListener("offline", showPairNote);
    showPairNote();
    document.querySelectorAll("form[data-night-pair]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (!navigator.onLine) {
          event.preventDefault();
          pairNote.hidden = false;
        }
      });
    });
  }

  var boards = document.querySelector("ol[data-night-taps]");
  if (!boards) return;
  var storeKey = boards.getAttribute("data-store");
  var round = Number(boards.getAttribute("data-round"));
  var pending = document.querySelector("[data-night-pending]");
  var problems = document.querySelector("[data-night-problems]");
  var said = document.querySelector("[data-night-said]");
  var noResult = boards.getAttribute("data-no-result");
  var notSent = boards.getAttribute("data-not-sent");
  var dismiss = boards.getAttribute("data-dismiss");
  var cannotSend = boards.getAttribute("data-cannot-send");

  // { queue: [tap, ...] in the order tapped, refused: [{round, board, reason}, ...] }
  function load() {
    try {
      var state = JSON.parse(localStorage.getItem(storeKey) || "{}");
      return { queue: state.queue || [], refused: state.refused || [] };
    } catch (error) {
      return { queue: [], refused: [] };
    }
  }
  function save(state) {
    localStorage.setItem(storeKey, JSON.stringify(state));
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    // Outside a secure context randomUUID is missing: a version 4 UUID by hand.
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  function row(number) { return boards.querySelector('li[data-board="' + number + '"]'); }
  function lastTap(state, number) {
    var found = null;
    state.queue.forEach(function (tap) { if (tap.round === round && tap.board === number) found = tap; });
    return found;
  }

  // Every board as the server last said, under the taps not yet sent.
  function show() {
    var state = load();
    boards.querySelectorAll("li[data-board]").forEach(function (li) {
      var number = Number(li.getAttribute("data-board"));
      var tap = lastTap(state, number);
      var result = tap ? tap.result : li.getAttribute("data-result");
      var current = li.querySelector(".current");
      current.textContent = "";
      if (tap) {
        current.append(tap.label + " ");
        var mark = document.createElement("span");
        mark.className = "muted";
        mark.textContent = notSent;
        current.append(mark);
      } else if (li.getAttribute("data-label")) {
        current.textContent = li.getAttribute("data-label");
      } else {
        var none = document.createElement("span");
        none.className = "muted";
        none.textContent = noResult;
        current.append(none);
      }
      li.querySelectorAll("button[name=result]").forEach(function (button) {
        button.setAttribute("aria-pressed", button.value === result ? "true" : "false");
      });
      li.querySelectorAll(".tap-refused").forEach(function (p) { p.remove(); });
    });
    problems.textContent = "";
    state.refused.forEach(function (refusal, index) {
      var item = document.createElement("li");
      item.className = "message error";
      item.append(refusal.reason + " ");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "link";
      button.textContent = dismiss;
      button.addEventListener("click", function () {
        var now = load();
        now.refused.splice(index, 1);
        save(now);
        show();
      });
      item.append(button);
      problems.append(item);
      var li = refusal.round === round && row(refusal.board);
      if (li) {
        var note = document.createElement("p");
        note.className = "tap-refused notice";
        note.setAttribute("role", "alert");
        note.textContent = refusal.reason;
        li.querySelector(".current").after(note);
      }
    });
    problems.hidden = state.refused.length === 0;
    var count = state.queue.length;
    pending.hidden = count === 0;
    var sentence = count === 1 ? pending.getAttribute("data-one") : pending.getAttribute("data-many");
    pending.textContent = sentence.replace(count === 1 ? "1" : "99", String(count));
  }

  function say(text, kind) {
    said.textContent = "";
    if (!text) return;
    var item = document.createElement("li");
    item.className = "message " + kind;
    item.textContent = text;
    said.append(item);
  }

  boards.addEventListener("submit", function (event) {
    var form = event.target;
    var button = event.submitter;
    var li = form.closest("li[data-board]");
    if (!li || !button || button.name !== "result") return;
    event.preventDefault();
    var number = Number(li.getAttribute("data-board"));
    var state = load();
    var before = lastTap(state, number);
    state.queue.push({
      key: newKey(),
      url: form.action,
      round: round,
      board: number,
      result: button.value,
      label: button.textContent.trim(),
      white: form.elements.white.value,
      black: form.elements.black.value,
      pairing: form.elements.pairing.value,
      // The result this tap corrects: the one the screen showed, or the tap before it.
      based_on: before ? before.result : (li.getAttribute("data-result") || "none"),
    });
    state.refused = state.refused.filter(function (r) { return r.round !== round || r.board !== number; });
    save(state);
    var details = li.querySelector("details");
    if (details) details.open = false;
    show();
    onward(number);
    delay = 0;
    flush();
  });

  // On to the next board still waiting (after this one, then from the top), as the form does.
  function onward(number) {
    var state = load();
    var waiting = Array.prototype.filter.call(boards.querySelectorAll("li[data-board]"), function (li) {
      return !li.getAttribute("data-result") && !lastTap(state, Number(li.getAttribute("data-board")));
    });
    var next = waiting.filter(function (li) { return Number(li.getAttribute("data-board")) > number; })[0] || waiting[0];
    var target = next || document.getElementById("all-in");
    if (target && target.scrollIntoView) target.scrollIntoView({ block: "start" });
  }

  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  // One tap to the server: "done" (applied or refused: it leaves the queue) or "later".
  function send(tap) {
    var body = new URLSearchParams({
      csrfmiddlewaretoken: csrfToken(), result: tap.result, white: tap.white, black: tap.black,
      pairing: tap.pairing, based_on: tap.based_on, key: tap.key,
    });
    return fetch(tap.url, {
      // Not `keepalive`: a tap cut off by leaving the page stays in the queue and is sent
      // again from the next page (its key makes a second delivery harmless), and a keepalive
      // request is sent by the browser itself, past what the page knows of the network.
      method: "POST", body: body, credentials: "same-origin", redirect: "manual",
      headers: { Accept: "application/json" },
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (!json) {
        // Signed out, a stale CSRF token or a server fault: the tap waits.
        if (response.type === "opaqueredirect" || (response.status >= 400 && response.status < 500)) {
          say(cannotSend, "error");
        }
        return "later";
      }
      return response.json().then(function (answer) {
        var state = load();
        state.queue = state.queue.filter(function (t) { return t.key !== tap.key; });
        if (answer.status === "refused") {
          state.refused.push({ round: tap.round, board: tap.board, reason: answer.reason });
        } else if (answer.warning) {
          say(answer.warning, "warning");
        }
        if (answer.board !== undefined && tap.round === round) {
          var li = row(tap.board);
          if (li) {
            li.setAttribute("data-result", answer.result);
            li.setAttribute("data-label", answer.label);
          }
        }
        save(state);
        changed = true;
        return "done";
      });
    }, function () { return "later"; });
  }

  var sending = false;
  var changed = false;
  var delay = 0;
  var timer = null;

  function flush() {
    if (sending) return;
    var state = load();
    if (!state.queue.length) {
      if (changed) refresh();
      return;
    }
    sending = true;
    send(state.queue[0]).then(function (outcome) {
      sending = false;
      show();
      if (outcome === "done") {
        delay = 0;
        flush();
        return;
      }
      delay = Math.min(delay ? delay * 2 : 1000, 60000);
      clearTimeout(timer);
      timer = setTimeout(flush, delay);
    });
  }

  // The same board as the server has it now: its pair, pairing and result.
  function sameBoard(shown, fresh) {
    var fields = ["white", "black", "pairing"];
    var a = shown.querySelector("form"), b = fresh.querySelector("form");
    return shown.getAttribute("data-result") === fresh.getAttribute("data-result") &&
      shown.getAttribute("data-label") === fresh.getAttribute("data-label") &&
      (!a || !b || fields.every(function (name) {
        return a.elements[name] && b.elements[name] && a.elements[name].value === b.elements[name].value;
      }));
  }

  // Once every tap is in, the screen takes the server's page again (which also refreshes the
  // copy the service worker keeps): the boards without a tap waiting, and what follows them.
  function refresh() {
    changed = false;
    fetch(window.location.pathname + window.location.search, {
      credentials: "same-origin", headers: { Accept: "text/html" },
    }).then(function (response) {
      if (!response.ok) return null;
      return response.text();
    }).then(function (html) {
      if (!html || load().queue.length) return;
      var fresh = new DOMParser().parseFromString(html, "text/html");
      fresh.querySelectorAll("ol[data-night-taps] li[data-board]").forEach(function (li) {
        var old = row(li.getAttribute("data-board"));
        // A board as it was is left in place: the director may be inside it (its forfeits
        // open, a finger on a button) while another board's tap comes back.
        if (!old || sameBoard(old, li)) return;
        var opened = old.querySelector("details");
        var board = document.importNode(li, true);
        var details = board.querySelector("details");
        if (opened && details) details.open = opened.open;
        old.replaceWith(board);
      });
      ["all-in", "night-notices"].forEach(function (id) {
        var now = fresh.getElementById(id);
        var old = document.getElementById(id);
        if (now && old) old.replaceWith(document.importNode(now, true));
      });
      show();
    }).catch(function () { /* still offline: the screen stays as it is */ });
  }

  // The players' reports (reports.js) brought the server's results: drawn under the taps.
  boards.addEventListener("night:server-results", show);

  window.addEventListener("online", function () {
    delay = 0;
    flush();
  });
  show();
  flush();
})();
