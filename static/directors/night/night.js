// Club night start page: the roster search filters the list as you type, and the count of
// ticked players (and a round robin's length) follows each tick. Without this script the
// "Find" button does the same on the server, keeping every tick.
(function () {
  "use strict";
  var box = document.querySelector("[data-night-filter]");
  if (!box) return;
  var list = document.getElementById(box.getAttribute("data-night-filter"));
  if (!list) return;
  box.addEventListener("input", function () {
    var wanted = box.value.trim().toLowerCase();
    list.querySelectorAll("li[data-name]").forEach(function (row) {
      // A hidden row's ticked box is still sent with the form.
      row.hidden = wanted !== "" && row.getAttribute("data-name").indexOf(wanted) === -1;
    });
  });

  // The server wrote each sentence for 1 and for 99 in the page's language; the number is
  // put in the one that fits (the languages we ship have one form for every count above 1).
  function say(paragraph, count) {
    if (!paragraph) return;
    var sentence = count === 1 ? paragraph.getAttribute("data-one") : paragraph.getAttribute("data-many");
    paragraph.textContent = sentence.replace(count === 1 ? "1" : "99", String(count));
  }
  var form = box.form;
  var ticked = document.getElementById("night-ticked");
  var robin = document.getElementById("night-rr");
  form.addEventListener("change", function (event) {
    if (event.target.name !== "players") return;
    var count = form.querySelectorAll('input[name="players"]:checked').length +
      form.querySelectorAll('input[type="hidden"][name="players"]').length;
    say(ticked, count);
    if (robin) {
      if (count < 2) robin.textContent = "";
      else say(robin, count % 2 === 0 ? count - 1 : count);
    }
  });
})();

// The printable list and slips: a Print button (without this script the browser's own
// print command does the same, so the button stays hidden).
(function () {
  "use strict";
  document.querySelectorAll("[data-night-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
})();
