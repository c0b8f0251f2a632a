// beliefbase: small enhancements for every page.  Plain ES2017, no dependencies.
// (Hover previews and the local graph are added by the reader-experience work.)
(function () {
  "use strict";
})();
