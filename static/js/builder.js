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

/* Leaving with unsaved work warns. The page is dirty from the first edit until the server says
   the draft holds it (#builder-actions data-dirty="false" after an autosave); pressing Save or
   Submit leaves on purpose. */
(function () {
  "use strict";
  var form = document.getElementById("builder-form");
  if (!form) return;
  var dirty = false;
  var leaving = false;
  function edited(ev) {
    if (ev.target && ev.target.form === form) dirty = true;
  }
  form.addEventListener("input", edited);
  form.addEventListener("change", edited);
  form.addEventListener("submit", function () { leaving = true; });
  document.addEventListener("htmx:afterSettle", function () {
    var actions = document.getElementById("builder-actions");
    if (actions) dirty = actions.getAttribute("data-dirty") === "true";
  });
  window.addEventListener("beforeunload", function (ev) {
    if (!dirty || leaving) return;
    ev.preventDefault();
    ev.returnValue = "";
  });
})();
