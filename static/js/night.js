// Club night start page: the roster search filters the list as you type. Without this
// script the "Find" button does the same on the server, keeping every tick.
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
})();
