/* Behaviour every page may use, without inline handlers (the Content-Security-Policy allows no
   inline script): a button with data-print prints the page. */
(function () {
  "use strict";
  document.addEventListener("click", function (evt) {
    var target = evt.target instanceof Element ? evt.target.closest("[data-print]") : null;
    if (target) { evt.preventDefault(); window.print(); }
  });
})();
