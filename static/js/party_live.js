/* The party page follows its characters live (characters/party/live.py).

   The campaign's socket (#party-live, htmx ws extension; the GM's sockets are in the campaign's GM
   group) says only "character N is at version V" as JSON; the page then fetches that character's
   card (data-card-url, the same access check as the page) and puts it in place of the old one, or
   adds it, or takes it off (a stand-in marked data-gone: no longer in play), together with the
   "waiting for your review" block. Messages for one character while its card is on its way make
   one more fetch, not one each. Each message also carries the version of every character of the
   campaign ("party"): a card older than that (a message this page missed) is fetched too, and a
   page shown again fetches every card. An older card never replaces a newer one (data-version); a card
   is drawn once the GM's own request, if one is out, has its answer drawn (sfIdle, app.js), and
   what the GM has open on it stays open (keepInUse). Other
   messages on the socket (the table's roll feed lines, HTML) are not this page's. On a reconnect
   the page fetches every card once (data-cards-url). A 4001 close (rights may have changed,
   characters/table/live.py) reconnects once; a refused socket makes the page ask over HTTP and,
   on a 403, 404 or sign-in redirect, stop and say so. */
(function () {
  "use strict";
  var live = document.getElementById("party-live");
  if (!live) return;
  var cardUrl = live.getAttribute("data-card-url");
  var cardsUrl = live.getAttribute("data-cards-url");
  var CLOSE_RECHECK = 4001;
  var busy = {}, again = {}, gone = false, opened = false;

  function urlOf(id) { return cardUrl.replace(/\/0\/$/, "/" + id + "/"); }
  function versionOf(el) { return el ? parseInt(el.getAttribute("data-version"), 10) || 0 : 0; }

  function showGone() {
    if (gone) return;
    gone = true;
    var note = document.createElement("p");
    note.className = "message message-warning";
    note.setAttribute("role", "status");
    note.setAttribute("data-testid", "party-live-gone");
    note.textContent = "This page no longer follows the party: you may not see it any more, or you signed out.";
    live.replaceWith(note);
    note.hidden = false;
  }

  function place(fresh) {
    var old = fresh.id ? document.getElementById(fresh.id) : null;
    if (fresh.hasAttribute("data-gone")) { if (old) old.remove(); return; }
    if (old) {
      if (fresh.hasAttribute("data-version") && versionOf(fresh) < versionOf(old)) return;
      swapCard(old, fresh);
    } else if (fresh.classList.contains("party-card")) {
      var list = document.getElementById("party-cards");
      if (!list) return;
      var empty = document.getElementById("party-empty");
      if (empty) empty.remove();
      list.appendChild(fresh);
    } else {
      return;
    }
    htmx.process(fresh);
  }

  /* ``fresh`` in place of ``old``, keeping what the GM is in the middle of (below) and the focus: a
     control of the card that had it has it again (itself, when it was kept, or the fresh one of the
     same id), without scrolling; a keyboard user is not sent back to the top of the page. */
  function swapCard(old, fresh) {
    var active = document.activeElement;
    var inside = active && active !== document.body && old.contains(active);
    keepInUse(old, fresh);
    old.replaceWith(fresh);
    if (!inside || document.activeElement === active) return;
    var target = document.body.contains(active) ? active : (active.id ? document.getElementById(active.id) : null);
    if (target) target.focus({preventScroll: true});
  }

  /* What the GM is in the middle of on a card stays as they have it when the card is drawn again:
     what is open (details), and the "Apply an effect" form once loaded (an .effect-apply-slot until
     then): what they typed, and the answer it shows. */
  function keepInUse(old, fresh) {
    fresh.querySelectorAll("details[id]").forEach(function (d) {
      var mine = old.querySelector("#" + CSS.escape(d.id));
      if (mine && mine.tagName === "DETAILS") d.open = mine.open;
    });
    fresh.querySelectorAll(".effect-apply-slot[id]").forEach(function (slot) {
      var mine = old.querySelector("#" + CSS.escape(slot.id));
      if (mine && !mine.classList.contains("effect-apply-slot")) slot.replaceWith(mine);
    });
  }

  function apply(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    Array.prototype.slice.call(tpl.content.children).forEach(place);
    live.setAttribute("data-updated", String(Date.now()));
    document.body.dispatchEvent(new CustomEvent("party-updated"));
  }

  /* A 404 of one card is a character gone from the campaign; of the whole party, the campaign gone. */
  function get(url, whole) {
    return fetch(url, {credentials: "same-origin", redirect: "manual", headers: {"HX-Request": "true"}})
      .then(function (r) {
        if (r.type === "opaqueredirect" || r.status === 401 || r.status === 403 || (whole && r.status === 404)) { showGone(); return null; }
        return r.ok ? r.text() : null;
      });
  }

  function fetchCard(id) {
    if (gone) return;
    if (busy[id]) { again[id] = true; return; }
    busy[id] = true;
    get(urlOf(id), false)
      .then(function (html) { if (html) return window.sfIdle().then(function () { apply(html); }); })
      .catch(function () { /* offline: the next message or reconnect catches up */ })
      .then(function () {
        busy[id] = false;
        if (again[id]) { again[id] = false; fetchCard(id); }
      });
  }

  function redraw(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    Array.prototype.slice.call(tpl.content.children).forEach(function (fresh) {
      var old = fresh.id ? document.getElementById(fresh.id) : null;
      if (old) { swapCard(old, fresh); htmx.process(fresh); }
    });
    live.setAttribute("data-updated", String(Date.now()));
  }

  function catchUp() {
    get(cardsUrl, true)
      .then(function (html) { if (html) return window.sfIdle().then(function () { redraw(html); }); })
      .catch(function () { /* offline */ });
  }

  live.addEventListener("htmx:wsConnecting", function (evt) { evt.stopPropagation(); opened = false; });
  live.addEventListener("htmx:wsOpen", function (evt) {
    evt.stopPropagation();
    if (opened) return;
    opened = true;
    if (live.getAttribute("data-connected")) catchUp();
    live.setAttribute("data-connected", "true");
  });
  live.addEventListener("htmx:wsClose", function (evt) {
    evt.stopPropagation();
    if (gone) return;
    var code = evt.detail && evt.detail.event ? evt.detail.event.code : 0;
    if (code === CLOSE_RECHECK) {
      var socket = evt.detail.socketWrapper;
      setTimeout(function () { if (!gone) socket.reconnect(); }, 200 + Math.random() * 300);
    } else if (!opened || code === 4403 || code === 4404) {
      get(cardsUrl, true).catch(function () { /* offline */ });  /* refused: the HTTP answer says whether the party is still ours */
    }
  });
  live.addEventListener("htmx:wsBeforeMessage", function (evt) {
    evt.preventDefault();  /* this script applies what it needs; the roll feed's HTML is not this page's */
    evt.stopPropagation();
    var data;
    try { data = JSON.parse(evt.detail.message); } catch (e) { return; }
    /* The campaign's clock moved (characters/clock/live.py): its time, on every party page. */
    if (data && data.clock && typeof data.clock.text === "string") {
      var now = document.querySelector("[data-clock-now]");
      if (now) now.textContent = (now.getAttribute("data-clock-lead") || "") + data.clock.text;
      return;
    }
    if (!data || typeof data.character !== "number") return;
    fetchCard(data.character);
    /* Every message says the version of every character: a card older than that missed one. */
    if (data.party && typeof data.party === "object") {
      Object.keys(data.party).forEach(function (id) {
        var card = document.getElementById("party-character-" + id);
        if (card && String(data.character) !== id && versionOf(card) < data.party[id]) fetchCard(parseInt(id, 10));
      });
    }
  });
  /* Back on the page (the screen on again, the tab shown): every card is fetched once. */
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !gone) catchUp();
  });
})();
