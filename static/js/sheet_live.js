/* An open sheet follows its character live (characters/sheet/live.py).

   The one way of every live page (README, "Live pages"): the socket (#sheet-live, htmx ws
   extension) says only "the character is at version N, stamp S" (the stamp: when the row last
   changed; an award changes the budget, not the version); when that is newer than what this page
   shows (#sheet-version's data-version and data-stamp), the page fetches its own blocks
   (data-live-url: the play state, effects, numbers, dice, equipment, Build and Costs and version,
   rendered for this person) and puts them in place of the old ones. It fetches the same way on a
   reconnect and when it is shown again (visibilitychange): whatever it missed. What the person is in the middle of stays: a form whose text
   field has the focus or typed text is kept as it is (its other blocks are updated around it; a
   pool's number box keeps the version it was typed against, so a stale value is refused and the
   refusal says the value now), the focus and the caret stay, and the page does not move. An
   older answer never replaces a newer page (versions), and the blocks are drawn only once the
   person's own request, if one is out, has its answer drawn (sfIdle, app.js). On every (re)connect the page catches up
   once. A 4001 close (rights may have changed, characters/table/live.py) reconnects once; a refused
   socket makes the page ask over HTTP and, on a 404 or a sign-in redirect, stop and say so. */
(function () {
  "use strict";
  var live = document.getElementById("sheet-live");
  if (!live) return;
  var url = live.getAttribute("data-live-url");
  var CLOSE_RECHECK = 4001;
  var heard = 0, heardStamp = 0, busyFetch = false, again = false, gone = false, opened = false;

  function shown() {
    var v = document.getElementById("sheet-version");
    return v ? parseInt(v.getAttribute("data-version"), 10) || 0 : 0;
  }
  function shownStamp() {
    var v = document.getElementById("sheet-version");
    return v ? parseInt(v.getAttribute("data-stamp"), 10) || 0 : 0;
  }
  /* Newer than what is drawn: a later version, or the same one changed since (an award: a later stamp). */
  function newer(version, stamp) {
    var mine = shown();
    return version > mine || (version === mine && stamp > shownStamp());
  }
  function textual(el) {
    if (el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
    return el.tagName === "INPUT" && ["hidden", "submit", "button", "reset", "image"].indexOf(el.type) < 0;
  }
  function dirty(el) {
    if (el.tagName === "SELECT") {
      for (var i = 0; i < el.options.length; i++) { if (el.options[i].selected !== el.options[i].defaultSelected) return true; }
      return false;
    }
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    return el.value !== el.defaultValue;
  }
  /* The form's text field the person is using (focused, or holding typed text), or null. */
  function inUse(form, active) {
    var controls = form.querySelectorAll("input, textarea, select");
    for (var i = 0; i < controls.length; i++) {
      var el = controls[i];
      if (textual(el) && el.id && (el === active || dirty(el))) return el;
    }
    return null;
  }

  function apply(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var version = tpl.content.querySelector("#sheet-version");
    if (!version || !newer(parseInt(version.getAttribute("data-version"), 10) || 0,
                           parseInt(version.getAttribute("data-stamp"), 10) || 0)) return;
    var active = document.activeElement;
    var caret = null;
    try { if (active && typeof active.selectionStart === "number") caret = [active.selectionStart, active.selectionEnd]; } catch (e) { caret = null; }
    var anchor = active && active !== document.body && active.id ? active.id : "sheet-state";
    var anchorEl = document.getElementById(anchor);
    var top = anchorEl ? anchorEl.getBoundingClientRect().top : null;
    Array.prototype.slice.call(tpl.content.children).forEach(function (fresh) {
      var old = fresh.id ? document.getElementById(fresh.id) : null;
      if (!old) return;
      old.querySelectorAll("form").forEach(function (form) {
        var control = inUse(form, active);
        if (!control) return;
        var twin = fresh.querySelector("#" + CSS.escape(control.id));
        var twinForm = twin ? twin.closest("form") : null;
        if (twinForm) twinForm.replaceWith(form);  /* kept whole: typed text, the version it was typed against */
      });
      fresh.querySelectorAll("[hx-preserve][id]").forEach(function (keep) {
        var mine = document.getElementById(keep.id);
        if (mine) keep.replaceWith(mine);
      });
      fresh.querySelectorAll("details[id]").forEach(function (d) {
        var mine = document.getElementById(d.id);
        if (mine && mine.tagName === "DETAILS") d.open = mine.open;
      });
      old.replaceWith(fresh);
      htmx.process(fresh);
    });
    if (active && active !== document.body && document.activeElement !== active) {
      var target = document.body.contains(active) ? active : (active.id ? document.getElementById(active.id) : null);
      if (target) {
        target.focus({preventScroll: true});
        if (caret && target.setSelectionRange) { try { target.setSelectionRange(caret[0], caret[1]); } catch (e) { /* not a text field */ } }
      }
    }
    var after = document.getElementById(anchor);
    if (after && top !== null) {
      var moved = after.getBoundingClientRect().top - top;
      if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
    }
    live.setAttribute("data-version", String(shown()));
    htmx.trigger(document.body, "sheet-state-changed");
  }

  function showGone() {
    if (gone) return;
    gone = true;
    var note = document.createElement("p");
    note.className = "message message-warning";
    note.setAttribute("role", "status");
    note.setAttribute("data-testid", "sheet-live-gone");
    note.textContent = "This sheet no longer follows the character: you may not see it any more, or you signed out.";
    live.replaceWith(note);
    note.hidden = false;
  }

  function catchUp() {
    if (busyFetch) { again = true; return; }
    busyFetch = true;
    fetch(url, {credentials: "same-origin", redirect: "manual", headers: {"HX-Request": "true"}})
      .then(function (r) {
        if (r.type === "opaqueredirect" || r.status === 401 || r.status === 403 || r.status === 404) { showGone(); return null; }
        return r.ok ? r.text() : null;
      })
      .then(function (html) {
        if (!html) return;
        /* The answer is the character as it is now: what was heard before it is not newer. */
        var v = /id="sheet-version"[^>]*?data-version="(\d+)"[^>]*?data-stamp="(\d+)"/.exec(html);
        if (v) {
          var got = parseInt(v[1], 10), gotStamp = parseInt(v[2], 10);
          if (got > heard || (got === heard && gotStamp >= heardStamp)) { heard = got; heardStamp = gotStamp; }
        }
        return window.sfIdle().then(function () { apply(html); });
      })
      .catch(function () { /* offline: the next message or reconnect catches up */ })
      .then(function () {
        busyFetch = false;
        var behind = newer(heard, heardStamp);
        if (again || behind) { again = false; if (!gone && behind) catchUp(); }
      });
  }
  /* Back on the page (a phone's screen on again, the tab shown): messages may have been missed
     while it slept; what it shows is fetched once. */
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && !gone) catchUp();
  });

  live.addEventListener("htmx:wsConnecting", function (evt) { evt.stopPropagation(); opened = false; });
  live.addEventListener("htmx:wsOpen", function (evt) {
    evt.stopPropagation();
    if (opened) return;
    opened = true;
    if (live.getAttribute("data-connected")) catchUp();  /* what was missed while it was away */
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
      catchUp();  /* refused: the HTTP answer says whether the sheet is still ours */
    }
  });
  live.addEventListener("htmx:wsBeforeMessage", function (evt) {
    evt.preventDefault();  /* JSON, not HTML: this script applies it */
    evt.stopPropagation();
    var data;
    try { data = JSON.parse(evt.detail.message); } catch (e) { return; }
    /* The campaign's clock moved (characters/clock/live.py): its time where the sheet says it. */
    if (data && data.clock && typeof data.clock.text === "string") {
      var clock = document.querySelector("[data-clock-now]");
      if (clock) clock.textContent = (clock.getAttribute("data-clock-lead") || "") + data.clock.text;
      return;
    }
    if (!data || typeof data.version !== "number") return;
    var stamp = typeof data.stamp === "number" ? data.stamp : 0;
    if (data.version > heard || (data.version === heard && stamp > heardStamp)) { heard = data.version; heardStamp = stamp; }
    if (newer(data.version, stamp)) catchUp();
  });
  /* A sheet's own htmx answer that arrives after a newer live one shows an older version: catch up. */
  document.body.addEventListener("htmx:afterSettle", function () { if (!gone && newer(heard, heardStamp)) catchUp(); });
})();
