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

/* Every − / + click counts, in order. A click is not the button's own htmx request (a request
   queued behind another would be dropped once the swap replaces its button, and cancelling one
   lost clicks). The first click leaves at once, on the form (hx-sync "this:queue all", which the
   swaps never replace); the clicks made while it is on its way wait here and leave together, as
   one request carrying every step, once its answer is drawn: with the version that answer drew,
   so two of this page's own requests never leave with the same version. So do the clicks made
   while an autosave is on its way: htmx would queue the click's request with its target as it was
   then, the part that autosave's answer replaces, and the click's answer would be drawn off the
   page (the number not raised on screen, and the next save putting it back). An answer that is
   not drawn (the person edited since it left) lets them leave with the next answer drawn, or
   after 1.5 s. The server applies each step to the saved build, so a click counts once even from an
   older page. Before this script runs, a click is the button's plain form post, which saves too. */
(function () {
  "use strict";
  var form = document.querySelector("form#builder-form[data-autosave]");
  if (!form) return;
  var state = window.sfBuilder = { pending: 0, waiting: [], inFlight: false, flush: false };
  var flushTimer = null;
  function send(steps) {
    state.inFlight = true;
    window.htmx.ajax("POST", form.getAttribute("hx-post") || form.action, {
      source: form,
      values: { _step: steps, _stepclick: "1" },
      target: "#builder-sections",
      swap: "outerHTML"
    });
  }
  function sendWaiting() {
    state.inFlight = false;
    state.flush = false;
    if (flushTimer !== null) { clearTimeout(flushTimer); flushTimer = null; }
    if (state.waiting.length) send(state.waiting.splice(0));
  }
  /* The waiting clicks leave once the answer just come is drawn (htmx:afterSettle, below). An
     answer not drawn (the person edited while it was out) is followed by their edit's own autosave,
     whose answer is drawn; if none is (typing that has not left its field), they leave after 1.5 s,
     once the form is quiet (3 s at most). */
  function flushAfterDrawn() {
    state.flush = true;
    if (flushTimer !== null) clearTimeout(flushTimer);
    var waited = 0;
    flushTimer = setTimeout(function quiet() {
      waited += 100;
      if (form.classList.contains("htmx-request") || document.querySelector(".htmx-swapping, .htmx-settling")) {
        if (waited < 1500) { flushTimer = setTimeout(quiet, 100); return; }
      }
      flushTimer = null;
      if (state.flush) sendWaiting();
    }, 1500);
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target instanceof Element ? ev.target.closest("button.step") : null;
    if (!button || button.form !== form || button.disabled || !window.htmx) return;
    ev.preventDefault();
    ev.stopPropagation();
    state.pending += 1;
    if (state.inFlight || state.flush || form.classList.contains("htmx-request")) state.waiting.push(button.value);
    else send([button.value]);
  }, true);
  /* htmx remembers the submit button that last had the focus in a form and adds its value to the
     form's next request, an autosave's too; and the focus stays on the stepper after its swap. A
     click's step would then be sent again with the next autosave: only the click's own request
     carries it (marked _stepclick here, unmarked before it leaves). */
  document.addEventListener("htmx:configRequest", function (ev) {
    if (ev.detail.elt !== form) return;
    var params = ev.detail.parameters;
    if (params._stepclick !== undefined && params._stepclick !== null) {
      delete params._stepclick;
    } else if (params._step !== undefined && params._step !== null) {
      delete params._step;
    }
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    var config = ev.detail.requestConfig;
    var data = config && config.formData;
    if (ev.detail.elt !== form || !data || !data.getAll) return;
    var sent = data.getAll("_step").length;
    if (!sent && (state.inFlight || !state.waiting.length)) return;  /* an autosave, no click waiting on it */
    state.pending = Math.max(0, state.pending - sent);
    // The waiting clicks leave once this answer is drawn (its version on the form); an answer
    // that swaps nothing (an error) lets them leave at once.
    if (ev.detail.successful) flushAfterDrawn();
    else sendWaiting();
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (state.flush) sendWaiting();
  });
})();

/* Leaving with unsaved work warns: from the first edit until an answer drawn after it says the
   draft holds it (#save-state data-saved="yes"), and while a click is still on its way or queued.
   Pressing Save, Submit or Check, or "Reload without them", leaves on purpose. */
(function () {
  "use strict";
  var form = document.getElementById("builder-form");
  if (!form) return;
  var dirty = false;
  var leaving = false;
  var edits = 0;
  function edited(ev) {
    if (ev.target && ev.target.form === form) { dirty = true; edits += 1; }
  }
  form.addEventListener("input", edited);
  form.addEventListener("change", edited);
  form.addEventListener("submit", function () { leaving = true; });
  document.addEventListener("click", function (ev) {
    if (ev.target instanceof Element && ev.target.closest("[data-discard]")) leaving = true;
  });
  document.addEventListener("htmx:beforeRequest", function (ev) {
    if (ev.detail.elt === form && ev.detail.xhr) ev.detail.xhr.sfLeaveEdits = edits;
  });
  /* An autosave (a field's change, 300 ms later) saves the draft and nothing more. htmx adds the
     submit button that has the focus to a form's request, and leaving a field for "Save draft" (a
     click, or Tab to it) both changes the field and focuses the button: its autosave went as a Save
     too, a second save whose redirect cut off the press's own page ("Draft saved" lost with it), or
     a save and a reload nobody asked for when the focus only reached the button. Once a button's
     submit is leaving (it carries the whole form), the autosave is not sent at all. */
  document.addEventListener("htmx:configRequest", function (ev) {
    var trigger = ev.detail.triggeringEvent;
    if (ev.detail.elt !== form || !trigger || trigger.type !== "change") return;
    if (leaving) { ev.preventDefault(); return; }
    ["_save", "_submit", "_check", "_rebase"].forEach(function (name) { delete ev.detail.parameters[name]; });
  });
  document.addEventListener("htmx:afterSettle", function (ev) {
    var xhr = ev.detail.xhr;
    var saved = document.querySelector("#builder-actions [data-saved]");
    if (!saved) return;
    if (saved.getAttribute("data-saved") !== "yes") dirty = true;
    else if (!xhr || xhr.sfLeaveEdits === edits) dirty = false;
  });
  window.addEventListener("beforeunload", function (ev) {
    var busy = (window.sfBuilder && window.sfBuilder.pending > 0) || form.classList.contains("htmx-request");
    if (leaving || !(dirty || busy)) return;
    ev.preventDefault();
    ev.returnValue = "";
  });
})();

/* An item chosen in an "add" select is added once: the request that carries it takes it, and the
   select goes back to "choose" as it leaves. Without this, an answer not drawn (the person edited
   while it was out) left the choice in the select, and the next autosave added the item again: a
   second dagger where a list may hold two (the server merges two sides' additions of it). */
(function () {
  "use strict";
  document.addEventListener("htmx:configRequest", function (ev) {
    var elt = ev.detail.elt;
    var form = elt && elt.closest ? elt.closest("form#builder-form") : null;
    if (!form) return;
    var params = ev.detail.parameters;
    form.querySelectorAll("select[name$='/-']").forEach(function (select) {
      var sent = params[select.name];
      if (sent !== undefined && sent !== null && sent !== "") select.value = "";
    });
  });
})();

/* This page's token, sent with every save of its form (_page): the server remembers which page wrote
   each version of the draft, so a save that leaves before the page has drawn its own earlier save's
   answer (the person typed on meanwhile) is not merged as if another tab had made that save: the
   value typed last is kept, never refused as a conflict with the person's own typing. */
(function () {
  "use strict";
  var form = document.querySelector("form#builder-form[data-autosave]");
  if (!form || form.querySelector("input[name='_page']")) return;
  var token = window.crypto && typeof window.crypto.randomUUID === "function"
    ? window.crypto.randomUUID()
    : Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12) + Math.random().toString(36).slice(2, 12);
  var input = document.createElement("input");
  input.type = "hidden";
  input.name = "_page";
  input.value = token;
  form.appendChild(input);
})();

/* What a step or a choice did, said once by the page's live region (#38, app.js sfSay): the new value
   and what is left to spend ("Strength 12. Character points: 3 left."), and the verdict only when it
   changed ("Ready to submit." after the last problem is fixed). The problems' list and the verdict
   are not live regions: they are read when the person goes to them, not after every press. */
(function () {
  "use strict";
  var form = document.getElementById("builder-form");
  if (!form) return;
  var cause = null;
  var verdictBefore = null;
  var due = null;
  function squash(t) { return (t || "").replace(/\s+/g, " ").replace(/^✓\s*/, "").trim(); }
  function labelOf(el) {
    if (!el) return "";
    var forIt = el.id ? document.querySelector('label[for="' + el.id + '"]') : null;
    if (forIt) {
      var copy = forIt.cloneNode(true);
      copy.querySelectorAll("input, select, textarea, .help").forEach(function (x) { x.remove(); });
      return squash(copy.textContent);
    }
    var wrap = el.closest("label");
    if (wrap) return squash(wrap.textContent);
    return squash(el.getAttribute("aria-label") || el.name);
  }
  function valueSaid(id) {
    var el = id ? document.getElementById(id) : null;
    if (!el) return "";
    var label = labelOf(el);
    if (el.tagName === "SELECT") {
      var opt = el.options[el.selectedIndex];
      return label + ": " + (opt ? squash(opt.textContent) : "none") + ".";
    }
    if (el.type === "checkbox" || el.type === "radio") return label + (el.checked ? ": chosen." : ": not chosen.");
    if (el.type === "number") return label + " " + (el.value === "" ? "empty" : el.value) + ".";
    return "";  /* typed text is not read back */
  }
  function leftSaid() {
    var parts = [];
    document.querySelectorAll("#builder-costs .budget-row").forEach(function (row) {
      var label = squash((row.querySelector(".budget-label") || {}).textContent);
      var over = row.querySelector(".overspend");
      var left = row.querySelector("[data-testid^='remaining-']");
      if (over) parts.push(squash(over.textContent) + ".");
      else if (left) parts.push(label + ": " + squash(left.textContent) + " left.");
    });
    return parts.join(" ");
  }
  function verdict() { return squash((document.getElementById("builder-verdict") || {}).textContent); }
  document.addEventListener("click", function (ev) {
    var b = ev.target instanceof Element ? ev.target.closest("button.step") : null;
    if (b && b.form === form) cause = b.getAttribute("aria-controls");
  }, true);
  form.addEventListener("change", function (ev) {
    var t = ev.target;
    if (t && t.id && t.type !== "text" && t.tagName !== "TEXTAREA") cause = t.id;
  });
  document.addEventListener("htmx:beforeRequest", function (ev) {
    if (ev.detail.elt === form && verdictBefore === null) verdictBefore = verdict();
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!cause || due) return;
    due = setTimeout(function () {
      due = null;
      if (!cause || document.querySelector("#builder-form.htmx-request")) return;
      var now = verdict();
      var said = [valueSaid(cause), leftSaid()];
      if (verdictBefore !== null && now && now !== verdictBefore) said.push(now + ".");
      cause = null;
      verdictBefore = null;
      var text = said.filter(Boolean).join(" ");
      if (text && window.sfSay) window.sfSay(text);
    }, 30);
  });
})();

/* The bottom bar (Save / Submit) never covers the focused field (#38, WCAG 2.4.11): its height is
   the page's scroll-padding (builder.css), and a focus that lands under it scrolls clear. */
(function () {
  "use strict";
  function bar() { return document.getElementById("builder-actions"); }
  function measure() {
    var b = bar();
    if (b) document.documentElement.style.setProperty("--builder-bar", b.getBoundingClientRect().height + "px");
  }
  function clear(el) {
    var b = bar();
    if (!b || !(el instanceof Element) || b.contains(el) || getComputedStyle(b).position !== "fixed") return;
    var top = b.getBoundingClientRect().top;
    var box = el.getBoundingClientRect();
    if (box.bottom > top - 4) window.scrollBy(0, box.bottom - top + 8);
  }
  measure();
  window.addEventListener("resize", measure);
  document.addEventListener("htmx:afterSettle", function () { measure(); clear(document.activeElement); });
  document.addEventListener("focusin", function (ev) { measure(); clear(ev.target); });
})();
