/* The table's roll feed (characters/templates/characters/_table_feed.html, characters/table/feed.py).

   New rolls arrive over the websocket as list items added on top of #table-feed-list (htmx ws
   extension, out-of-band swap). On every (re)connect the page fetches the latest rolls once, so
   a roll made while the socket was down is not missed. Access: a 4001 close means "your rights
   may have changed" (characters/table/live.py): reconnect once, and the server decides; a connection
   refused (or one that never opened) makes the page ask over HTTP, and a 404 or a redirect to
   the sign-in page stops the reconnecting and says so. The list keeps the latest 20. */
(function () {
  "use strict";
  var feed = document.getElementById("table-feed");
  if (!feed) return;
  var CLOSE_RECHECK = 4001, KEEP = 20;
  var gone = false;

  function catchUp() {
    htmx.ajax("GET", feed.getAttribute("data-feed-url"), {target: "#table-feed-list", swap: "outerHTML", source: feed});
  }
  function trim() {
    var items = document.querySelectorAll("#table-feed-list > li");
    for (var i = KEEP; i < items.length; i++) items[i].remove();
  }
  function showGone() {
    if (gone) return;
    gone = true;
    var note = document.createElement("section");
    note.className = "card";
    note.setAttribute("data-testid", "table-feed-gone");
    var text = document.createElement("p");
    text.textContent = "The table's rolls no longer reach this page: you are not at this table any more, or you signed out.";
    note.appendChild(text);
    feed.replaceWith(note);  /* htmx stops reconnecting a socket whose element left the page */
  }
  function checkAccess() {
    fetch(feed.getAttribute("data-feed-url"), {credentials: "same-origin", redirect: "manual", headers: {"HX-Request": "true"}})
      .then(function (r) {
        if (r.type === "opaqueredirect" || r.status === 401 || r.status === 403 || r.status === 404) showGone();
      })
      .catch(function () { /* offline: htmx keeps trying */ });
  }
  var opened = false;
  feed.addEventListener("htmx:wsConnecting", function (evt) { evt.stopPropagation(); opened = false; });
  feed.addEventListener("htmx:wsOpen", function (evt) {
    evt.stopPropagation();
    if (opened) return;
    opened = true;
    if (feed.getAttribute("data-connected")) catchUp();
    feed.setAttribute("data-connected", "true");
  });
  feed.addEventListener("htmx:wsClose", function (evt) {
    evt.stopPropagation();
    if (gone) return;
    var code = evt.detail && evt.detail.event ? evt.detail.event.code : 0;
    if (code === CLOSE_RECHECK) {
      var socket = evt.detail.socketWrapper;
      setTimeout(function () { if (!gone) socket.reconnect(); }, 200 + Math.random() * 300);
    } else if (!opened || code === 4403 || code === 4404) {
      checkAccess();  /* refused before it opened: ask over HTTP whether the table is still ours */
    }
  });
  feed.addEventListener("htmx:wsBeforeMessage", function (evt) {
    evt.stopPropagation();
    /* The GM's socket also hears the party's JSON notes (characters/party/live.py): not feed lines. */
    if (/^\s*\{/.test(evt.detail.message)) evt.preventDefault();
  });
  feed.addEventListener("htmx:wsAfterMessage", function (evt) { evt.stopPropagation(); trim(); });
})();
