/* Every tap counts (#31): the play controls of a live page (the sheet's pools, harm, conditions,
   equipment and effects; the party page's effect forms; the encounter's relative actions) queue a
   person's taps and send them one after another, in the order they were made, each as its own
   request.

   The encounter page: which of its actions are taps is the action spec's to say (ActionSpec.relative,
   set by the ruleset: a "by N" change of a counter — the GM's harm and damage, a pool lowered or
   raised, a condition lowered). Such a form is marked data-taps itself, carries no version (a
   relative change applies to what the fighter has then) and keeps its button enabled
   (hx-disabled-elt="unset"); each tap gets a fresh request_id. Every other action — Next turn, a
   strike, a move, anything that uses or ends the turn or sets a value — is not marked: it keeps
   #19's rule (static/js/encounter.js), its button disabled while its request is out, a double
   click one intent.

   Without this, htmx sent a form's second submit only after the first one's answer, from the form
   that answer had just replaced: the tap was dropped (two quick taps of "Lower HP by 1" on a phone's
   300 ms link lowered HP once), and of five taps it would have kept only the last.

   Which forms: every htmx form (hx-post) inside an element marked data-taps, submitted by its button
   or by Enter. A tap is taken as it is made: the form's fields and the button that sent it, at
   that moment. It leaves once the tap before it has its answer drawn, through the form now on the
   page with the same button id (the swap of the previous answer replaced it); a control that is no
   longer on the page (an effect already removed) has nothing left to act on, and its tap is let go.

   A form that carries the version it was drawn from (an absolute value: a pool's number box)
   is refused by the server when someone else changed the character since. A
   tap queued behind this page's own earlier tap would be drawn against the version that earlier tap
   replaced: when every change since the tap was made came from this page's own answers, it leaves
   with the version now on the page; a change by someone else in between still gets it refused, in
   words (data-taps-version on the marked element names the element whose data-version is the
   version the page shows). A form with a request_id (the encounter's idempotency key) gets a fresh
   one per tap: two taps are two intents, not a resend of one.

   What is in flight shows on the button: aria-busy="true" and data-pending="N" (the taps of that
   button not yet answered, drawn beside it by the style sheet), put back on the button each time a
   swap or a live update draws it again. Leaving the page with taps still waiting warns. */
(function () {
  "use strict";
  var queue = [];         /* taps waiting to leave, in order */
  var current = null;     /* the tap on its way */
  var ownSteps = 0;       /* version steps made by this page's own answers */
  var marked = {};        /* button id -> shown count */
  var api = window.sfTaps = { sending: false, pending: function () { return queue.length + (current ? 1 : 0); } };

  function scopeVersion(scopeEl) {
    var sel = scopeEl ? scopeEl.getAttribute("data-taps-version") : null;
    var el = sel ? document.querySelector(sel) : null;
    var v = el ? parseInt(el.getAttribute("data-version"), 10) : NaN;
    return isNaN(v) ? null : v;
  }
  function scopeNamed(id) { return id ? document.getElementById(id) : null; }
  function newRequestId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function formOf(key) {
    var el = key ? document.getElementById(key) : null;
    if (!el) return null;
    return el.tagName === "FORM" ? el : el.form || null;
  }

  function mark() {
    var counts = {};
    var all = current ? [current].concat(queue) : queue;
    all.forEach(function (tap) { counts[tap.key] = (counts[tap.key] || 0) + 1; });
    Object.keys(marked).forEach(function (key) {
      if (counts[key]) return;
      var el = document.getElementById(key);
      if (el) { el.removeAttribute("aria-busy"); el.removeAttribute("data-pending"); }
      delete marked[key];
    });
    Object.keys(counts).forEach(function (key) {
      var el = document.getElementById(key);
      marked[key] = counts[key];
      if (!el) return;
      el.setAttribute("aria-busy", "true");
      el.setAttribute("data-pending", String(counts[key]));
    });
  }

  function finish(tap) {
    /* After the answer is swapped in (its out-of-band version included): count the version steps it
       made, then let the next tap leave. */
    setTimeout(function () {
      var after = scopeVersion(scopeNamed(tap.scope));
      if (after !== null && tap.before !== null) {
        var made = after - tap.before;
        if (made >= 0 && made <= 1) ownSteps += made;
      }
      current = null;
      mark();
      pump();
    }, 0);
  }

  function pump() {
    if (current || !queue.length) return;
    var tap = queue.shift();
    var form = formOf(tap.key);
    if (!form || !document.body.contains(form)) { mark(); pump(); return; }
    var scopeEl = scopeNamed(tap.scope);
    var now = scopeVersion(scopeEl);
    if (tap.data.has("version") && now !== null && tap.v0 !== null && now - tap.v0 === ownSteps - tap.own0) {
      /* Every change since the tap was this page's own: the tap stands on the version drawn now. */
      var fresh = form.querySelector('input[name="version"]');
      tap.data.set("version", fresh ? fresh.value : String(now));
    }
    tap.before = now;
    current = tap;
    mark();
    var promise;
    api.sending = true;
    try {
      promise = window.htmx.ajax(tap.verb, tap.path, { source: form, values: tap.data });
    } finally {
      api.sending = false;
    }
    if (promise && promise.then) promise.then(function () { finish(tap); }, function () { finish(tap); });
    else finish(tap);
  }

  document.addEventListener("htmx:confirm", function (ev) {
    var d = ev.detail;
    var form = d && d.elt;
    if (api.sending || ev.defaultPrevented || !form || form.tagName !== "FORM") return;
    var scopeEl = form.closest("[data-taps]");
    var trigger = d.triggeringEvent;
    if (!scopeEl || !trigger || trigger.type !== "submit") return;
    var submitter = trigger.submitter || null;
    var key = (submitter && submitter.id) || form.id;
    if (!key) return;  /* a form this script cannot find again after a swap: htmx's own way */
    ev.preventDefault();
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    if (data.has("request_id")) data.set("request_id", newRequestId());
    if (!scopeEl.id) scopeEl.id = "taps-" + newRequestId().slice(0, 8);
    queue.push({
      key: key,
      scope: scopeEl.id,
      verb: (d.verb || "post").toUpperCase(),
      path: d.path,
      data: data,
      v0: scopeVersion(scopeEl),
      own0: ownSteps,
      before: null
    });
    mark();
    pump();
  });

  /* A tap in the moment between a swap and htmx's processing of the new form (a settle task, some
     20 ms later) would be a plain POST: the page would leave. It is caught here and sent again
     once htmx has the form, through the queue above. */
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (ev.defaultPrevented || !form || form.tagName !== "FORM" || !form.hasAttribute("hx-post")) return;
    if (!form.closest("[data-taps]") || !window.htmx) return;
    ev.preventDefault();
    var submitter = ev.submitter || null;
    window.htmx.process(form);
    setTimeout(function () {
      if (!document.body.contains(form)) return;
      if (submitter && form.contains(submitter)) form.requestSubmit(submitter); else form.requestSubmit();
    }, 0);
  });

  /* A swap or a live update draws the buttons again: their marks go back on. */
  function remark() { if (api.pending() || Object.keys(marked).length) mark(); }
  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:afterSettle", "sheet-state-changed"].forEach(function (name) {
    document.addEventListener(name, remark);
  });
  document.body.addEventListener("party-updated", remark);  /* dispatched on the body, not bubbling */
  window.addEventListener("beforeunload", function (ev) {
    if (!api.pending()) return;
    ev.preventDefault();
    ev.returnValue = "";
  });
})();
