// Results reported at the board (issue 36): the director's results screen follows the
// players' reports and confirmed results without a reload. Progressive enhancement only: the
// page works without it, and a tap still posts its plain form.
(function () {
  "use strict";
  var list = document.querySelector("ol.boards[data-reports]");
  if (!list || !window.fetch) return;
  var url = list.getAttribute("data-reports");
  var script = document.currentScript || document.querySelector("script[data-no-result]");
  var noResult = (script && script.getAttribute("data-no-result")) || "";
  var EVERY_MS = 4000;

  // With the offline queue (offline.js, ol[data-night-taps]) the board's result is drawn by
  // that script, under any tap not yet sent: this one only hands it the server's result, which
  // is also what the next tap says it corrects.
  var queued = list.hasAttribute("data-night-taps");

  function show(board) {
    var item = document.getElementById("board-" + board.number);
    if (!item) return;
    var current = item.querySelector(".current");
    if (queued) {
      item.setAttribute("data-result", board.result || "");
      item.setAttribute("data-label", board.label || "");
    } else if (current) {
      current.textContent = "";
      if (board.label) {
        current.textContent = board.label;
      } else {
        var muted = document.createElement("span");
        muted.className = "muted";
        muted.textContent = noResult;
        current.appendChild(muted);
      }
    }
    var state = item.querySelector("[data-report-state]");
    if (state && state.textContent !== board.text) {
      state.textContent = board.text;
    }
    if (state) state.setAttribute("data-report-state", board.state);
    item.querySelectorAll("button[name=result]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.value === board.result ? "true" : "false");
    });
  }

  function refresh() {
    if (document.hidden) return;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (answer) {
        if (!answer) return;
        answer.boards.forEach(show);
        if (queued) list.dispatchEvent(new CustomEvent("night:server-results"));
      })
      .catch(function () { /* offline for a moment: the next turn tries again */ });
  }

  window.setInterval(refresh, EVERY_MS);
  document.addEventListener("visibilitychange", refresh);
})();
