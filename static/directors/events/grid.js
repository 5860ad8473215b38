/* The results grid by keyboard, as fast as reading a paper sheet.
 *
 * Progressive enhancement: without this script the grid is a plain form (a <select> a
 * board) and saves the same. With it:
 * - a result is typed with the keys of clubs/grid_keys.py (read from data-grid-keys);
 *   the <select>'s own type-ahead is switched off, since it reached forfeits by accident;
 *   a finished result moves on to the next board's white;
 * - on the page of every round, the round carries forward to new rows, and a new row
 *   whose player already plays in the carried round starts the next round (the server
 *   would refuse the row anyway), announced in the status line; a round typed by hand
 *   always wins.
 * Enter never submits half-way: the form's first submit button is disabled (in the HTML),
 * which stops the browser's implicit submission with or without this script.
 */
(function () {
  "use strict";
  var table = document.querySelector("table[data-grid-keys]");
  if (!table) return;
  var keys = JSON.parse(table.getAttribute("data-grid-keys"));
  var prefixes = {};
  Object.keys(keys).forEach(function (sequence) {
    if (sequence.length > 1) prefixes[sequence.charAt(0)] = true;
  });
  var status = document.getElementById("grid-status");
  var legend = document.getElementById("grid-keys");
  if (legend) legend.hidden = false;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);

  function say(text) {
    if (status) status.textContent = text;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      return name in values ? values[name] : all;
    });
  }

  function field(row, part) {
    return row.querySelector('[name$="-' + part + '"]');
  }

  // Results -------------------------------------------------------------------------------

  function nextStop(row) {
    var at = rows.indexOf(row);
    for (var i = at + 1; i < rows.length; i++) {
      var white = field(rows[i], "white");
      if (white) return white;
    }
    return table.closest("form").querySelector('button[type="submit"]:not([disabled])');
  }

  function choose(select, value) {
    if (!select.querySelector('option[value="' + CSS.escape(value) + '"]')) return false;
    select.value = value;
    select.dispatchEvent(new Event("input", { bubbles: true }));
    select.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  }

  function onResultKey(event) {
    var select = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      select.removeAttribute("data-pending");
      choose(select, "");
      return;
    }
    if (event.key === "Escape") {
      select.removeAttribute("data-pending");
      say("");
      return;
    }
    // Space still opens the list, arrows still step through it; every other printable key
    // is ours, so the browser's type-ahead never picks an option.
    if (event.key.length !== 1 || event.key === " ") return;
    event.preventDefault();
    var typed = event.key.toLowerCase();
    var pending = select.getAttribute("data-pending");
    var sequence = pending ? pending + typed : typed;
    select.removeAttribute("data-pending");
    if (!pending && prefixes[typed]) {
      select.setAttribute("data-pending", typed);
      say(fill(table.getAttribute("data-pending-text"), { key: event.key }));
      return;
    }
    if (keys[sequence] !== undefined && choose(select, keys[sequence])) {
      if (pending) say(""); // the status line keeps a note about the rounds
      var next = nextStop(select.closest("tr"));
      if (next) next.focus();
      return;
    }
    say(fill(table.getAttribute("data-unknown-text"), { keys: sequence.split("").join(" ") }));
  }

  // Rounds --------------------------------------------------------------------------------

  function key(name) {
    return name.trim().replace(/\s+/g, " ").toLowerCase();
  }

  function names(row) {
    return ["white", "black"]
      .map(function (part) {
        var input = field(row, part);
        return input ? input.value : "";
      })
      .filter(function (name) {
        return key(name) !== "";
      });
  }

  // Rows that were empty when the page came are the new rows: their round is carried
  // unless typed; the rows already stored keep theirs.
  var carried = rows.filter(function (row) {
    return field(row, "round") && names(row).length === 0;
  });

  function carryRounds() {
    var current = 1;
    var seen = {}; // round -> {name key: true}
    var moved = null;
    rows.forEach(function (row) {
      var input = field(row, "round");
      if (!input) return;
      var players = names(row);
      var auto = carried.indexOf(row) >= 0 && !input.hasAttribute("data-typed");
      var round;
      if (auto) {
        round = current;
        var inRound = seen[round] || {};
        var again = players.filter(function (name) {
          return inRound[key(name)];
        });
        if (again.length) {
          round = current + 1;
          if (String(round) !== input.value) {
            moved = { row: row, round: round, name: again[0], previous: current };
          }
        }
        input.value = String(round);
      } else {
        var typed = parseInt(input.value, 10);
        round = typed >= 1 ? typed : current; // the server carries an empty round the same way
      }
      current = round;
      seen[round] = seen[round] || {};
      players.forEach(function (name) {
        seen[round][key(name)] = true;
      });
    });
    if (moved) {
      say(
        fill(table.getAttribute("data-new-round-text"), {
          row: moved.row.querySelector("th").textContent,
          round: moved.round,
          name: moved.name.trim(),
          previous: moved.previous,
        })
      );
    }
  }

  rows.forEach(function (row) {
    var select = field(row, "result");
    if (select) {
      select.addEventListener("keydown", onResultKey);
      select.addEventListener("blur", function () {
        select.removeAttribute("data-pending");
      });
    }
    var round = field(row, "round");
    if (round) {
      round.addEventListener("input", function () {
        round.setAttribute("data-typed", "");
        carryRounds();
      });
    }
    ["white", "black"].forEach(function (part) {
      var input = field(row, part);
      if (input && round) input.addEventListener("change", carryRounds);
    });
  });
})();
