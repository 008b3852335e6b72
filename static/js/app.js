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

  document.addEventListener("htmx:beforeSwap", remember);
  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("htmx:oobAfterSwap", restore);
})();
