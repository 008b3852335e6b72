/* The encounter page's live board (combat/templates/combat/encounter_detail.html).

   Catching up: on every (re)connect of the websocket, and when a message's version does not
   follow the page's (a message missed or out of order), fetch the whole board (board/).

   Access: the server closes the socket with 4001 when the viewer's rights may have changed
   (they left or were removed from the campaign, signed out, changed their password:
   characters/live.py). The page then reconnects once; the server lets it back in only if the
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
  function catchUp() {
    htmx.ajax("GET", root.getAttribute("data-board") + "?since=" + shown(), {source: root, swap: "none"});
  }
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
    var m = /data-version="(\d+)"/.exec(evt.detail.message || "");
    if (!m) return;
    var version = parseInt(m[1], 10), mine = shown();
    if (version <= mine) { evt.preventDefault(); }
    else if (version > mine + 1) { evt.preventDefault(); catchUp(); }
  });
  /* New log lines are added on top: keep the latest 30, as the page shows them (LOG_LENGTH). */
  root.addEventListener("htmx:wsAfterMessage", function () {
    var items = document.querySelectorAll("#encounter-log-list > li");
    for (var i = 30; i < items.length; i++) items[i].remove();
  });
})();
