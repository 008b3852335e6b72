/* The encounter page's live board (combat/templates/combat/encounter_detail.html).

   How it follows the encounter — the one way of every live page (README, "Live pages"): the socket
   says only which version the encounter is at ({"encounter", "version"}, combat/broadcast.py); a
   page that shows an older one fetches what it shows (board/?since=: the status, turn order and log,
   and this viewer's own actions panel, in one answer, each part carrying the version it describes).
   It fetches the same way on every (re)connect and when it is shown again (a phone's screen on
   again): whatever it missed. An answer older than what is drawn is never drawn (each part's
   data-version, below); one fetch at a time, and one more if a newer version was heard meanwhile.

   Access: the server closes the socket with 4001 when the viewer's rights may have changed
   (they left or were removed from the campaign, signed out, changed their password:
   characters/table/live.py). The page then reconnects once; the server lets it back in only if the
   viewer may still see the encounter. A connection refused (or one that never opened) makes the
   page ask the board over HTTP: a 404 or a redirect to the sign-in page means the encounter is
   gone for this viewer, and the page says so and stops reconnecting. Network trouble (no answer
   at all) leaves htmx's own reconnecting with back-off alone. */
(function () {
  "use strict";
  var root = document.getElementById("encounter");
  if (!root) return;
  var CLOSE_RECHECK = 4001;
  var opened = false;
  var gone = false;

  function shown() {
    var s = document.getElementById("encounter-status");
    return s ? parseInt(s.getAttribute("data-version"), 10) || 0 : 0;
  }
  var heard = 0, fetching = false, fetchAgain = false;
  /* The oldest version the page shows (the board's parts and the panel are drawn apart). */
  function oldestShown() {
    var panel = document.getElementById("encounter-panel");
    var v = panel ? parseInt(panel.getAttribute("data-version"), 10) : NaN;
    return isNaN(v) ? shown() : Math.min(shown(), v);
  }
  function catchUp() {
    if (gone) return;
    if (fetching) { fetchAgain = true; return; }
    fetching = true;
    var done = function () {
      fetching = false;
      if (fetchAgain || heard > oldestShown()) { fetchAgain = false; if (heard > oldestShown()) catchUp(); }
    };
    var sent = htmx.ajax("GET", root.getAttribute("data-board") + "?since=" + oldestShown(), {source: root, swap: "none"});
    if (sent && sent.then) sent.then(done, done); else done();
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") catchUp();
  });
  function showGone() {
    if (gone) return;
    gone = true;
    var notice = document.createElement("section");
    notice.className = "card";
    notice.setAttribute("role", "alert");
    notice.setAttribute("data-testid", "encounter-gone");
    var text = document.createElement("p");
    text.textContent = "You can no longer follow this encounter: you are not at this table any more, or you signed out.";
    var link = document.createElement("a");
    link.href = root.getAttribute("data-gone-url") || "/";
    link.textContent = "Back to your campaigns";
    notice.appendChild(text);
    notice.appendChild(link);
    root.replaceWith(notice);  /* htmx stops reconnecting a socket whose element left the page */
  }
  function checkAccess() {
    fetch(root.getAttribute("data-board") + "?since=" + shown(),
          {credentials: "same-origin", redirect: "manual", headers: {"HX-Request": "true"}})
      .then(function (r) {
        if (r.type === "opaqueredirect" || r.status === 401 || r.status === 403 || r.status === 404) showGone();
      })
      .catch(function () { /* offline: htmx keeps trying */ });
  }

  root.addEventListener("htmx:wsConnecting", function () { opened = false; });
  root.addEventListener("htmx:wsOpen", function () { opened = true; catchUp(); });
  root.addEventListener("htmx:wsClose", function (evt) {
    if (gone) return;
    var code = evt.detail && evt.detail.event ? evt.detail.event.code : 0;
    if (code === CLOSE_RECHECK) {
      var socket = evt.detail.socketWrapper;
      setTimeout(function () { if (!gone) socket.reconnect(); }, 200 + Math.random() * 300);
    } else if (!opened || code === 4403 || code === 4404) {
      checkAccess();
    }
  });
  root.addEventListener("htmx:wsBeforeMessage", function (evt) {
    if (evt.defaultPrevented) return;
    var data = null;
    try { data = JSON.parse(evt.detail.message); } catch (e) { data = null; }
    if (!data || typeof data.version !== "number") return;  /* not the encounter's notice */
    evt.preventDefault();  /* JSON: this script fetches what it shows */
    heard = Math.max(heard, data.version);
    if (data.version > oldestShown()) catchUp();
  });
  /* One intent, one effect, applied to what the page shows (#19). Each form of the panel carries
     the version it was drawn from and a request id; its button is disabled while it is in flight
     (hx-disabled-elt on the panel). Not so a relative action ("by N": the GM's harm, damage, a
     pool's −/+; the spec's ``relative``): its form is marked data-taps, carries no version and is
     never disabled — static/js/taps.js queues each tap as its own request with a fresh id (#31). A new id after each answer that was applied: a later click on
     the same form, on a page the live update has not reached yet, is a new intent (refused as
     stale, not taken for a repeat); a request that got no answer keeps its id, so a resend of it
     is answered as done. */
  function newRequestId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function versionOf(el) {
    var v = el && el.getAttribute ? parseInt(el.getAttribute("data-version"), 10) : NaN;
    return isNaN(v) ? null : v;
  }
  function partIn(fragment, id) {
    if (!fragment) return null;
    if (fragment.id === id) return fragment;
    return fragment.querySelector ? fragment.querySelector("#" + id) : null;
  }
  /* A panel replaces the shown one only when it is newer, or as new and showing a refusal: two
     fetches answering out of order never leave the page on the older turn, and a refresh of the
     same state does not wipe the refusal just shown. */
  function panelWins(incoming, hasError, current) {
    if (incoming === null || current === null) return true;
    return incoming > current || (incoming === current && hasError);
  }
  var PARTS = {"encounter-status": true, "encounter-combatants": true, "encounter-log": true};

  /* A button disabled while its request is in flight loses the focus (the browser blurs it);
     it goes back to that control, or its replacement with the same id, once the request is
     answered or the panel redrawn — unless the person has moved on to another control. */
  var focusBack = null;
  function giveFocusBack() {
    if (!focusBack || Date.now() > focusBack.until) return;
    var now = document.activeElement;
    if (now && now !== document.body && now !== document.documentElement) return;
    var el = document.getElementById(focusBack.id);
    if (el && !el.disabled) el.focus({preventScroll: true});
  }
  document.body.addEventListener("htmx:afterSettle", giveFocusBack);
  document.body.addEventListener("htmx:afterRequest", function () { setTimeout(giveFocusBack, 0); });

  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    var form = evt.detail.elt;
    if (!form || form.tagName !== "FORM" || !root.contains(form)) return;
    var active = document.activeElement;
    if (active && active.id && form.contains(active)) focusBack = {id: active.id, until: Date.now() + 3000};
    if (form.__answerFollowed) return;
    form.__answerFollowed = true;
    /* A refusal always finds its place: when a live refresh replaced the panel while this form's
       request was in flight, htmx would look for the answer's parts in the form's detached tree
       (htmx:oobErrorNoTarget) and the refusal would be lost; its parts go into the page instead. */
    form.addEventListener("htmx:beforeOnLoad", function (e) {
      if (document.body.contains(form)) return;
      e.preventDefault();
      var xhr = e.detail.xhr;
      if (xhr && (xhr.status === 200 || xhr.status === 409) && xhr.responseText) {
        htmx.swap(document.getElementById("encounter") || document.body, xhr.responseText, {swapStyle: "none"});
      }
    });
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail.elt, xhr = evt.detail.xhr;
    if (!form || !form.querySelector || !xhr || xhr.status < 200 || xhr.status >= 300) return;
    var input = form.querySelector('input[name="request_id"]');
    if (input) input.value = newRequestId();
  });
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var d = evt.detail;
    if (!(evt.target instanceof Element) || !root.contains(evt.target)) return;
    /* A stale page's refusal (409) carries the whole page as it is now: swap it. */
    if (d.xhr && d.xhr.status === 409) { d.shouldSwap = true; d.isError = false; }
    if (d.shouldSwap && evt.target.id === "encounter-panel") {
      var m = /id="encounter-panel"[^>]*?data-version="(\d+)"/.exec(d.serverResponse || "");
      var hasError = (d.serverResponse || "").indexOf('data-testid="panel-error"') >= 0;
      if (!panelWins(m ? parseInt(m[1], 10) : null, hasError, versionOf(evt.target))) d.shouldSwap = false;
    }
  });
  document.body.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var d = evt.detail, target = d.target;
    if (!target || !target.id || !root.contains(target)) return;
    var part = partIn(d.fragment, target.id);
    if (target.id === "encounter-panel") {
      var hasError = !!(part && part.querySelector('[data-testid="panel-error"]'));
      if (!panelWins(versionOf(part), hasError, versionOf(target))) d.shouldSwap = false;
    } else if (PARTS[target.id]) {
      var v = versionOf(part);
      if (v !== null && v < shown()) d.shouldSwap = false;  /* an older board never replaces a newer one */
    }
  });

  /* After an action of this page was applied (204), its panel is the one the action left behind:
     every form in it carries a version the server has moved on from, and a click there (the GM
     pressing Next turn again the moment the header shows the next fighter, a player's second
     action) would be refused as stale instead of doing what was asked. So the panel stays busy
     and its buttons wait for the panel after the change (the live update makes the page fetch it,
     ~0.1 s; the button looks as it did while its request was in flight). If none has come after a
     while (the socket down, an answer that changed nothing), the page catches up and lets go.
     A page that did not act is not held: a click there that crossed someone else's change is
     refused visibly, with the page redrawn (#19). */
  var HOLD_RETRY_MS = 2500;
  var awaitingAbove = null;  /* the version of the panel this page's applied action left behind */
  var holdTimer = null;
  function panelNow() { return document.getElementById("encounter-panel"); }
  function panelHeld(panel) {
    var v = versionOf(panel);
    return v !== null && awaitingAbove !== null && v <= awaitingAbove;
  }
  function holdOrRelease() {
    var panel = panelNow();
    if (!panel) return;
    if (panelHeld(panel)) {
      panel.setAttribute("aria-busy", "true");
      /* A relative action's button (form[data-taps]: "by N", static/js/taps.js) is never held: it
         carries no version, and each tap of it is queued and counted. */
      var buttons = panel.querySelectorAll("form:not([data-taps]) button[type=submit]:not([disabled])");
      for (var i = 0; i < buttons.length; i++) {
        buttons[i].disabled = true;
        buttons[i].setAttribute("data-held", "");
      }
      if (holdTimer === null) {
        holdTimer = setTimeout(function () {
          holdTimer = null;
          awaitingAbove = null;
          catchUp();  /* the board as it is now; a newer one brings the panel's fetch with it */
          holdOrRelease();
        }, HOLD_RETRY_MS);
      }
      return;
    }
    awaitingAbove = null;
    if (holdTimer !== null) { clearTimeout(holdTimer); holdTimer = null; }
    panel.removeAttribute("aria-busy");
    var held = panel.querySelectorAll("button[data-held]");
    for (var j = 0; j < held.length; j++) {
      held[j].disabled = false;
      held[j].removeAttribute("data-held");
    }
  }
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail.elt, xhr = evt.detail.xhr, panel = panelNow();
    if (!form || !xhr || !panel || !panel.contains(form)) return;
    if (xhr.status === 204) {
      var v = versionOf(panel);
      if (v !== null) awaitingAbove = awaitingAbove === null ? v : Math.max(awaitingAbove, v);
    }
    holdOrRelease();
  });
  document.body.addEventListener("htmx:afterSettle", holdOrRelease);  /* a panel landed */
  document.body.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail && evt.detail.target && evt.detail.target.id === "encounter-panel") holdOrRelease();
  });
})();
