/* Behaviour every page may use, without inline handlers (the Content-Security-Policy allows no
   inline script): a button with data-print prints the page. */
(function () {
  "use strict";
  document.addEventListener("click", function (evt) {
    var target = evt.target instanceof Element ? evt.target.closest("[data-print]") : null;
    if (target) { evt.preventDefault(); window.print(); }
  });
})();

/* htmx swaps keep the player's place: the control that was used stays where it was on the screen
   and keeps the focus (or its replacement with the same id does). htmx gives the focus back by id
   for the target it swaps; out-of-band blocks above the control can still change the page's height,
   and a replaced control can lose the focus, so both are put back after the swap settles (the
   focus only when it was lost, never taken from a control the person has moved to since). */
(function () {
  "use strict";
  var place = null;

  function remember() {
    var active = document.activeElement;
    var anchor = active && active !== document.body && active.id ? active : null;
    place = {
      id: anchor ? anchor.id : null,
      top: anchor ? anchor.getBoundingClientRect().top : null,
      y: window.scrollY,
      until: Date.now() + 2000
    };
  }

  function restore() {
    if (!place || Date.now() > place.until) { return; }
    var anchor = place.id ? document.getElementById(place.id) : null;
    if (anchor) {
      // Only a focus the swap lost is given back: if the person has moved on to another control
      // since (a quick Tab or tap while the answer settled), that is where they are.
      var now = document.activeElement;
      var lost = !now || now === document.body || now === document.documentElement;
      if (lost && now !== anchor) { anchor.focus({ preventScroll: true }); }
      var moved = anchor.getBoundingClientRect().top - place.top;
      if (Math.abs(moved) >= 1) { window.scrollBy(0, moved); }
    } else if (Math.abs(window.scrollY - place.y) >= 1) {
      window.scrollTo(0, place.y);
    }
  }

  // Remembered right before every swap — a response's, each out-of-band block's, a websocket
  // message's — so each restore undoes only what its own swap moved (a place remembered for an
  // earlier swap put the encounter page back to the top when the socket's update came).
  document.addEventListener("htmx:beforeSwap", remember);
  document.addEventListener("htmx:oobBeforeSwap", remember);
  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
})();

/* A swap keeps what the person opened or closed: a <details> with an id (the encounter's GM
   forms, a sheet's collapsed section) comes back from the server in its first state; after a
   swap it is put back as it was just before. Without this, the GM's harm forms closed after
   every harm they dealt, and the focus had nowhere to return. */
(function () {
  "use strict";
  var states = null;

  function remember() {
    states = { until: Date.now() + 2000, open: {} };
    var all = document.querySelectorAll("details[id]");
    for (var i = 0; i < all.length; i++) { states.open[all[i].id] = all[i].open; }
  }

  function restore() {
    if (!states || Date.now() > states.until) { return; }
    for (var id in states.open) {
      var el = document.getElementById(id);
      if (el && el.tagName === "DETAILS" && el.open !== states.open[id]) { el.open = states.open[id]; }
    }
  }

  document.addEventListener("htmx:beforeSwap", remember);
  document.addEventListener("htmx:oobBeforeSwap", remember);
  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
})();

/* A 400 (a refusal) or a 503 (an outage) is shown where the form is (base.html's htmx-config swaps it). With DEBUG
   on, django-htmx's debug helper would put any 400 in place of the whole page, as it does for
   Django's error pages: a refusal's fragment (no <html> of its own) is kept from it, so a developer
   sees what a player sees. Django's own error pages, whole documents, still reach it. */
(function () {
  "use strict";
  document.addEventListener("htmx:beforeOnLoad", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    if (!xhr || (xhr.status !== 400 && xhr.status !== 503)) { return; }
    var body = typeof xhr.response === "string" ? xhr.response.trimStart().slice(0, 15).toLowerCase() : "";
    if (body.indexOf("<!doctype") !== 0 && body.indexOf("<html") !== 0) { evt.stopPropagation(); }
  }, true);
})();

/* A press is never lost to a swap. A press on a button takes the focus off the field being edited,
   and that field's change starts a request (the advance page re-prices on every change). Its answer
   could replace the button while the mouse button was still down: the browser then sends the click
   to what the old and the new button share, not to the button, and the press did nothing ("Request
   advancement" right after writing the note). A request that starts during a press waits until the
   press has ended and its click has run (at most 2 s, for a press that never ends here). If that
   click sent its form the usual way, the page is leaving with every field in it: the form's held
   request is dropped (sent after, it would carry the clicked button's name and do it twice). */
(function () {
  "use strict";
  var pressing = null;
  var held = [];
  function release() {
    if (!pressing) { return; }
    pressing = null;
    setTimeout(function () {
      held.splice(0).forEach(function (h) { h.issue(); });
    }, 0);
  }
  document.addEventListener("pointerdown", function (ev) {
    if (ev.isPrimary) { pressing = ev.target instanceof Node ? ev.target : document.body; }
  }, true);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
  window.addEventListener("blur", release);
  document.addEventListener("htmx:confirm", function (ev) {
    if (!pressing) { return; }
    // A queued tap leaving (taps.js) was pressed long ago: its queue waits for its answer.
    if (window.sfTaps && window.sfTaps.sending) { return; }
    // A change of the pressed control itself (a select's option chosen by dragging to it, whose
    // release the page may never see) is that control's own update: not held.
    var cause = ev.detail.triggeringEvent && ev.detail.triggeringEvent.target;
    if (cause instanceof Node && pressing.contains(cause)) { return; }
    ev.preventDefault();
    held.push({ elt: ev.detail.elt, issue: function () { ev.detail.issueRequest(true); } });
    setTimeout(release, 2000);
  });
  window.addEventListener("submit", function (ev) {
    if (ev.defaultPrevented) { return; }
    var form = ev.target;
    held = held.filter(function (h) { return !(h.elt === form || form.contains(h.elt)); });
  });
})();

/* sfIdle(): a promise that resolves once none of the page's own htmx requests is on its way,
   swapping or settling (10 s at most: a request that never ends). A live update waits for it
   before it draws anything new (sheet_live.js, party_live.js): drawn while the person's own request
   is out, it would replace the block that request's answer is aimed at, and the answer (the
   message of what they did) would land in the old block, off the page. */
window.sfIdle = function () {
  "use strict";
  var waited = 0;
  return new Promise(function (resolve) {
    (function check() {
      if (!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling") || waited >= 10000) { resolve(); return; }
      waited += 50;
      setTimeout(check, 50);
    })();
  });
};

/* Live updates paused (config/outage.py). A socket the server closes with 1013 ("try again
   later": Redis or the database away) or that drops (1006, 1011, 1012) is reconnected by htmx's
   ws extension by itself; meanwhile the page says that live updates are paused, and stops saying
   so once a socket has stayed open a moment (the server accepts a socket before it closes it with
   1013, so an open alone proves nothing). The reconnect waits longer the more such closes came in
   a row: htmx counts from 0 again at each open, and would otherwise knock every second or so.
   Heard in the capture phase: the sheet's and the party's own scripts stop their socket's events
   from going further (sheet_live.js, party_live.js), which kept both pages silent, knocking every
   second through a Redis outage. */
(function () {
  "use strict";
  var PAUSED = [1006, 1011, 1012, 1013];
  var STEADY_MS = 1500;
  var closes = 0;
  var steady = null;
  var notice = null;
  function show() {
    if (notice && document.body.contains(notice)) { return; }
    notice = document.createElement("p");
    notice.className = "message message-warning live-paused";
    notice.setAttribute("data-testid", "live-paused");
    notice.textContent = "Live updates are paused: the server cannot pass them on just now. " +
      "This page reconnects by itself and catches up then.";
    var main = document.getElementById("main") || document.body;
    main.insertBefore(notice, main.firstChild);
    /* Said once, by the page's one live region (below), not a region of its own added late. */
    if (window.sfSay) { window.sfSay(notice.textContent); }
  }
  function hide() {
    if (notice) { notice.remove(); notice = null; }
  }
  var opened = new WeakSet();  /* the sockets that opened at least once */
  document.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail && evt.detail.event ? evt.detail.event.code : 0;
    if (steady) { clearTimeout(steady); steady = null; }
    if (PAUSED.indexOf(code) < 0) { return; }
    /* A socket that never opened and closed without a word (1006) is no outage the server told of:
       only a socket that was open drops that way. */
    if (code === 1006 && !opened.has(evt.target)) { return; }
    closes += 1;
    show();
  }, true);
  document.addEventListener("htmx:wsOpen", function (evt) {
    opened.add(evt.target);
    if (steady) { clearTimeout(steady); }
    steady = setTimeout(function () { steady = null; closes = 0; hide(); }, STEADY_MS);
  }, true);
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retryCount) {
      var n = Math.min(Math.max(retryCount, closes - 1), 5);
      var most = 1000 * Math.pow(2, n);  /* 1 s, 2 s, … at most 32 s */
      return most / 2 + Math.random() * most / 2;
    };
  }
})();

/* The page's one polite live region (#38): base.html's #sf-status, present on load and empty, outside
   every swapped block. sfSay(text) puts one sentence in it (emptied first, so the same sentence said
   again is heard again). After a swap, each element of the new HTML marked data-status (its
   attribute's value, or its text) is said once, the marked elements of one answer in one sentence;
   the blocks themselves carry no live region, so nothing is said twice. Only swaps are said: a page
   loaded with a notice shows it, the region stays quiet. */
(function () {
  "use strict";
  var pending = [];
  var timer = null;
  function region() { return document.getElementById("sf-status"); }
  function textOf(el) {
    var given = el.getAttribute("data-status");
    var text = given && given.trim() ? given : (el.hidden ? el.textContent : (el.innerText || el.textContent));
    return (text || "").replace(/\s+/g, " ").trim();
  }
  window.sfSay = function (text) {
    var el = region();
    text = (text || "").replace(/\s+/g, " ").trim();
    if (!el || !text) { return; }
    el.textContent = "";
    setTimeout(function () { el.textContent = text; }, 50);
  };
  function flush() {
    timer = null;
    var said = [];
    pending.splice(0).forEach(function (el) {
      if (!document.body.contains(el)) { return; }
      var t = textOf(el);
      if (t && said.indexOf(t) < 0) { said.push(t); }
    });
    if (said.length) { window.sfSay(said.join(" ")); }
  }
  function collect(root) {
    if (!(root instanceof Element)) { return; }
    var found = root.matches("[data-status]") ? [root] : [];
    found = found.concat(Array.prototype.slice.call(root.querySelectorAll("[data-status]")));
    found.forEach(function (el) {
      if (el.sfSaid) { return; }
      el.sfSaid = true;
      pending.push(el);
    });
    if (pending.length && !timer) { timer = setTimeout(flush, 0); }
  }
  /* A swap's target: for outerHTML the old element is gone; its replacement sits where it was, so
     the settled target (or the body, for a whole-page answer) is searched. */
  document.addEventListener("htmx:afterSettle", function (evt) {
    var target = evt.detail && (evt.detail.elt || evt.detail.target);
    collect(target && document.body.contains(target) ? target : document.body);
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail && evt.detail.target;
    collect(target && document.body.contains(target) ? target : document.body);
  });
  /* What the page already shows when it loads is not news: marked as said. */
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-status]").forEach(function (el) { el.sfSaid = true; });
  });
})();

/* The focus after a swap (#38): never the body. A control the person used can leave the page or be
   disabled under them (a button disabled while its request is out, a "−" that reaches the minimum,
   a form swapped whole): the focus it lost goes back to the control with the same id, or when that
   one is disabled or gone, to the next sensible one near it (its stepper's other button, the value,
   the first control of the swapped block). A focus the person moved themselves (a click elsewhere,
   Tab) is theirs. */
(function () {
  "use strict";
  var last = null;  /* the control that last had the focus */
  var FOCUSABLE = "input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], summary, [tabindex]:not([tabindex='-1'])";
  function usable(el) {
    return el && document.body.contains(el) && !el.disabled && el.getClientRects().length > 0;
  }
  document.addEventListener("focusin", function (evt) {
    var el = evt.target;
    if (!(el instanceof Element) || !el.id) { last = null; return; }
    var group = el.parentElement && el.parentElement.closest("[id]");
    last = { id: el.id, groupId: group ? group.id : null };
  });
  /* A click on something that takes no focus (text, the page's margin): the person moved on. */
  document.addEventListener("pointerdown", function (evt) {
    var t = evt.target instanceof Element ? evt.target : null;
    if (!t || !t.closest("input, select, textarea, button, a[href], summary, label, [tabindex]")) { last = null; }
  }, true);
  function near(id, groupId, target) {
    var el = document.getElementById(id);
    if (usable(el)) { return el; }
    /* A stepper's "−" at its minimum: its value, then its "+"; the same for a "+" at its maximum. */
    var m = /^(.*)-(lower|raise)$/.exec(id);
    if (m) {
      var value = document.getElementById(m[1]);
      if (usable(value)) { return value; }
      var other = document.getElementById(m[1] + (m[2] === "lower" ? "-raise" : "-lower"));
      if (usable(other)) { return other; }
    }
    var group = groupId && document.getElementById(groupId);
    /* Last, the block around the lost control's own group (a Dice row's "Chance it", disabled once
       chanced, gives the focus to the same row's Roll). */
    var around = group && group.parentElement && group.parentElement.closest("[id]");
    var scopes = [el && el.closest("form, [id]"), group, target, around];
    for (var i = 0; i < scopes.length; i++) {
      var scope = scopes[i];
      if (!scope || !document.body.contains(scope)) { continue; }
      var all = scope.querySelectorAll(FOCUSABLE);
      for (var j = 0; j < all.length; j++) { if (usable(all[j])) { return all[j]; } }
    }
    return null;
  }
  function restore(evt) {
    setTimeout(function () {
      var now = document.activeElement;
      var onBody = !now || now === document.body || now === document.documentElement;
      if (!onBody || !last) { return; }
      var target = evt.detail && evt.detail.target;
      var el = near(last.id, last.groupId, target instanceof Element && document.body.contains(target) ? target : null);
      if (el) { el.focus({ preventScroll: true }); }
    }, 0);
  }
  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
})();

/* A notice that comes with a page (a redirect's "… is submitted and active.") is said once, by the
   page's live region, a moment after the page is there. */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("messages");
    var text = box ? (box.innerText || "").replace(/\s+/g, " ").trim() : "";
    if (text && window.sfSay) { setTimeout(function () { window.sfSay(text); }, 400); }
  });
})();
