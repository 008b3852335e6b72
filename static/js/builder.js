/* The builder re-renders its form on every change (htmx). If a response lands while the
   person is typing in another field, keep what they typed: without this the swap would put
   the server's older value back under their cursor. Nothing else needs JavaScript. */
(function () {
  "use strict";
  var kept = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var el = document.activeElement;
    kept = null;
    if (!el || !el.id || !el.form || el.form.id !== "builder-form") return;
    var typing = el.tagName === "TEXTAREA" || el.type === "text" || el.type === "number";
    if (typing && el.value !== el.defaultValue) kept = { id: el.id, value: el.value };
  });
  document.addEventListener("htmx:afterSwap", function () {
    if (!kept) return;
    var el = document.getElementById(kept.id);
    if (el && el.value !== kept.value) el.value = kept.value;
    kept = null;
  });
})();
