// Characters left in the post box (code points, as the server counts them).
(function () {
  "use strict";
  document.querySelectorAll("textarea[data-counter]").forEach(function (box) {
    var out = document.getElementById(box.getAttribute("data-counter"));
    var max = parseInt(box.getAttribute("data-max"), 10);
    if (!out || !max) { return; }
    var update = function () {
      var left = max - Array.from(box.value.trim()).length;
      out.textContent = String(left);
      out.classList.toggle("over", left < 0);
    };
    box.addEventListener("input", update);
    update();
  });
})();
