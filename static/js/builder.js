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

/* An answer to an older state of the form is not swapped in when the person has edited since
   that request left: the request their edit triggers brings the newer state (without this, a
   slow answer could put older values back into fields typed after it was sent). */
(function () {
  "use strict";
  var edits = 0;
  function edited(ev) {
    if (ev.target && ev.target.form && ev.target.form.id === "builder-form") edits += 1;
  }
  document.addEventListener("input", edited, true);
  document.addEventListener("change", edited, true);
  document.addEventListener("htmx:beforeRequest", function (ev) {
    if (ev.detail.elt && ev.detail.elt.id === "builder-form" && ev.detail.xhr) ev.detail.xhr.sfEdits = edits;
  });
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var xhr = ev.detail.xhr;
    if (xhr && typeof xhr.sfEdits === "number" && xhr.sfEdits !== edits) ev.detail.shouldSwap = false;
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
