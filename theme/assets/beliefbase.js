/**
 * beliefbase: small enhancements for every page.  Plain ES2017, no
 * dependencies, loaded as a classic script (MkDocs' `extra_javascript`).
 *
 * Hover previews: hovering (or focusing) an internal link shows the target's
 * title and first paragraph in a popover.  The data comes from one small
 * file, `_beliefbase/previews.json` (`{pages: {BID: {title, url, excerpt}}}`),
 * fetched once — the first time a reader points at a link — and cached for
 * the page's lifetime; no request per hover.  Links are recognised by
 * `data-bb-target` (wikilinks, backlinks and embeds carry the target's BID)
 * or, for plain Markdown links, by their URL.  Every string reaches the DOM
 * through `textContent`.
 *
 * @module beliefbase
 */
(function () {
  "use strict";

  /** Milliseconds the pointer rests on a link before its preview opens. */
  var OPEN_DELAY = 350;
  /** Milliseconds before a preview closes once the pointer left (time to move onto it). */
  var CLOSE_DELAY = 250;
  /** Gap between the link and the popover, and between the popover and the screen edge. */
  var GAP = 8;
  /** Links in these places never get a preview. */
  var SKIP = ".bb-preview, .md-nav, .md-header, .md-footer, .md-search, .md-tabs, " +
    ".headerlink, .md-source, [data-bb-graph], .bb-explorer";

  var script = document.currentScript;
  var base = script && script.src ? script.src : window.location.href;
  /** The site root: this script lives in `<site>/_beliefbase/`. */
  var siteRoot = new URL("../", base).href;
  var previewsUrl = new URL("previews.json", base).href;

  /**
   * @typedef {object} PreviewEntry
   * @property {string} title
   * @property {string} url      site-relative
   * @property {string} excerpt
   * @property {Array<Array<number>>} code  [start, end) ranges of excerpt shown as <code>
   */

  /** @type {Promise<{byId: Object<string, PreviewEntry>, byUrl: Object<string, string>}> | null} */
  var loading = null;

  /**
   * previews.json, fetched once; resolves to empty maps if it cannot be read.
   * @returns {Promise<{byId: Object<string, PreviewEntry>, byUrl: Object<string, string>}>}
   */
  function load() {
    if (!loading) {
      loading = fetch(previewsUrl, { credentials: "same-origin" })
        .then(function (r) {
          if (!r.ok) throw new Error("HTTP " + r.status);
          return r.json();
        })
        .then(function (data) {
          var byId = Object.create(null);
          var byUrl = Object.create(null);
          var pages = data && typeof data.pages === "object" && data.pages ? data.pages : {};
          Object.keys(pages).forEach(function (id) {
            var p = pages[id];
            if (!p || typeof p.title !== "string" || typeof p.url !== "string") return;
            byId[id] = {
              title: p.title,
              url: p.url,
              excerpt: typeof p.excerpt === "string" ? p.excerpt : "",
              code: Array.isArray(p.code) ? p.code : []
            };
            byUrl[pageKey(new URL(p.url, siteRoot).href)] = id;
          });
          return { byId: byId, byUrl: byUrl };
        })
        .catch(function () {
          return { byId: Object.create(null), byUrl: Object.create(null) };
        });
    }
    return loading;
  }

  /**
   * A URL without its fragment and query, with `index.html` dropped, to compare pages.
   * @param {string} href
   */
  function pageKey(href) {
    var url = new URL(href, window.location.href);
    return (url.origin + url.pathname).replace(/index\.html$/, "");
  }

  /**
   * The link a preview is for, if `el` is (inside) one that can have one.
   * @param {EventTarget | null} el
   * @returns {HTMLAnchorElement | null}
   */
  function candidate(el) {
    if (!el || !(el instanceof Element)) return null;
    var a = /** @type {HTMLAnchorElement | null} */ (el.closest("a[href]"));
    if (!a || a.closest(SKIP) || !a.closest(".md-content, article, main")) return null;
    if (a.hasAttribute("data-bb-target")) return a;
    // A plain Markdown link: same site, another page.
    if (a.origin !== window.location.origin) return null;
    if (pageKey(a.href) === pageKey(window.location.href)) return null;
    return a;
  }

  /**
   * The preview entry for a link, or null.
   * @param {HTMLAnchorElement} a
   * @param {{byId: Object<string, PreviewEntry>, byUrl: Object<string, string>}} data
   * @returns {PreviewEntry | null}
   */
  function entryFor(a, data) {
    var id = a.getAttribute("data-bb-target");
    if (!id) id = data.byUrl[pageKey(a.href)] || "";
    var entry = id ? data.byId[id] : undefined;
    if (!entry) return null;
    if (pageKey(new URL(entry.url, siteRoot).href) === pageKey(window.location.href)) return null;
    return entry;
  }

  /* ----- the popover ----- */

  /** @type {HTMLElement | null} */
  var popover = null;
  /** @type {HTMLAnchorElement | null} the link whose preview is shown or pending */
  var current = null;
  /** @type {PreviewEntry | null} what the popover shows */
  var shown = null;
  var openTimer = 0;
  var closeTimer = 0;

  /** @returns {HTMLElement} the one popover element, created on first use */
  function popoverElement() {
    if (!popover) {
      popover = document.createElement("div");
      popover.className = "bb-preview";
      popover.id = "bb-preview";
      popover.setAttribute("role", "tooltip");
      popover.hidden = true;
      var title = document.createElement("strong");
      title.className = "bb-preview__title";
      var excerpt = document.createElement("p");
      excerpt.className = "bb-preview__excerpt";
      popover.appendChild(title);
      popover.appendChild(excerpt);
      popover.addEventListener("pointerenter", function () { clearTimeout(closeTimer); });
      popover.addEventListener("pointerleave", function () { scheduleClose(); });
      document.body.appendChild(popover);
    }
    return popover;
  }

  /**
   * The excerpt's text into `p`: text nodes, and <code> for its code ranges (text only:
   * nothing of the excerpt is ever read as HTML).
   * @param {Node} p
   * @param {PreviewEntry} entry
   */
  function fillExcerpt(p, entry) {
    var text = entry.excerpt;
    p.textContent = "";
    var at = 0;
    entry.code.forEach(function (run) {
      var start = Number(run && run[0]);
      var end = Number(run && run[1]);
      if (!(start >= at && end > start && end <= text.length)) return;
      p.appendChild(document.createTextNode(text.slice(at, start)));
      var code = document.createElement("code");
      code.textContent = text.slice(start, end);
      p.appendChild(code);
      at = end;
    });
    p.appendChild(document.createTextNode(text.slice(at)));
  }

  /**
   * Fill the popover and place it below the link (above if there is no room),
   * inside the screen.
   * @param {HTMLAnchorElement} a
   * @param {PreviewEntry} entry
   */
  function show(a, entry) {
    var el = popoverElement();
    var again = shown === entry && !el.hidden;
    shown = entry;
    el.firstChild.textContent = entry.title;
    fillExcerpt(el.lastChild, entry);
    el.hidden = false;
    if (!again) el.removeAttribute("data-shown");
    el.style.left = "0px";
    el.style.top = "0px";
    var link = a.getBoundingClientRect();
    var box = el.getBoundingClientRect();
    var vw = document.documentElement.clientWidth;
    var vh = window.innerHeight;
    var left = Math.min(Math.max(GAP, link.left), vw - box.width - GAP);
    var below = link.bottom + GAP;
    var top = below + box.height <= vh - GAP || link.top - GAP - box.height < GAP
      ? below : link.top - GAP - box.height;
    el.style.left = Math.max(GAP, left) + "px";
    el.style.top = Math.max(GAP, top) + "px";
    a.setAttribute("aria-describedby", el.id);
    // next frame: fade in from the final position (no jump)
    requestAnimationFrame(function () { if (current === a) el.setAttribute("data-shown", ""); });
  }

  function hide() {
    clearTimeout(openTimer);
    clearTimeout(closeTimer);
    if (current) current.removeAttribute("aria-describedby");
    current = null;
    shown = null;
    if (popover) {
      popover.hidden = true;
      popover.removeAttribute("data-shown");
    }
  }

  function scheduleClose() {
    clearTimeout(closeTimer);
    closeTimer = window.setTimeout(hide, CLOSE_DELAY);
  }

  /**
   * Open the preview of `a` after `delay` ms (loading previews.json if needed).
   * @param {HTMLAnchorElement} a
   * @param {number} delay
   */
  function open(a, delay) {
    clearTimeout(closeTimer);
    if (current === a) return;
    hide();
    current = a;
    var data = load();
    openTimer = window.setTimeout(function () {
      data.then(function (d) {
        if (current !== a || !a.isConnected) return;
        var entry = entryFor(a, d);
        if (entry) show(a, entry);
        else current = null;
      });
    }, delay);
  }

  document.addEventListener("pointerover", function (event) {
    if (event.pointerType === "touch") return;
    var a = candidate(event.target);
    if (a) open(a, OPEN_DELAY);
    else if (current && !(event.target instanceof Element && event.target.closest(".bb-preview"))) {
      scheduleClose();
    }
  });
  document.addEventListener("focusin", function (event) {
    var a = candidate(event.target);
    if (a) open(a, 0);
    else if (current) hide();
  });
  document.addEventListener("focusout", function (event) {
    if (current && event.target === current) scheduleClose();
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && current) hide();
  });
  // A tap on a phone navigates; a scrolled page moves the link away from its preview.
  document.addEventListener("pointerdown", function (event) {
    if (current && !(event.target instanceof Element && event.target.closest(".bb-preview"))) {
      hide();
    }
  }, true);
  // Keep an open preview beside its link while the page scrolls (keyboard focus scrolls too).
  var placing = 0;
  window.addEventListener("scroll", function () {
    if (!current || !shown || placing) return;
    placing = requestAnimationFrame(function () {
      placing = 0;
      if (current && shown) show(current, shown);
    });
  }, { passive: true });

  /** For tests: the previews data as loaded (`window.__bbPreviews()`). */
  window.__bbPreviews = load;
})();

/**
 * Entity highlights (SPEC §7): a button at the top of every page that shows entity
 * mentions (`a.bb-entity`, made by site/entity_overlay.py) turns every highlight
 * off or on, site-wide: the choice is kept in localStorage (`bb-entities`:
 * "off"/"on") and applied as the class `bb-entities-off` on <html>, which the
 * stylesheet reads.  The page's text is never touched, only that class.
 */
(function () {
  "use strict";

  var KEY = "bb-entities";

  function stored() {
    try { return window.localStorage.getItem(KEY); } catch (e) { return null; }
  }

  function apply(off) {
    document.documentElement.classList.toggle("bb-entities-off", off);
    var buttons = document.querySelectorAll(".bb-entity-toggle");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", off ? "false" : "true");
    }
  }

  function place() {
    var article = document.querySelector("article.md-content__inner");
    if (!article || article.querySelector(".bb-entity-toggle") ||
        !article.querySelector("a.bb-entity")) {
      apply(stored() === "off");
      return;
    }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "bb-entity-toggle";
    button.title = "Show or hide the highlights of entity mentions on every page";
    button.textContent = "Entities";
    button.addEventListener("click", function () {
      var off = !document.documentElement.classList.contains("bb-entities-off");
      try { window.localStorage.setItem(KEY, off ? "off" : "on"); } catch (e) { /* private mode */ }
      apply(off);
    });
    article.insertBefore(button, article.firstChild);
    apply(stored() === "off");
  }

  apply(stored() === "off");
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(place);  // Material's instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", place);
  } else {
    place();
  }
})();
