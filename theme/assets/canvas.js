/**
 * beliefbase canvas: pan and zoom for JSON Canvas boards (theme/canvas.html).
 * Plain ES2017, no dependencies, loaded as a classic script.
 *
 * The board (`.bb-canvas__world`, laid out at 1:1 by the build) is moved with one
 * CSS transform.  Drag (mouse, pen or one finger) pans; a pinch, Ctrl/⌘ + wheel,
 * the + − buttons or the + − 0 keys zoom; the fit button or 0 shows the whole
 * board; a board wider than its box makes the box lower.  On a board's own page the wheel pans it; in an embed the wheel scrolls
 * the page, as a reader expects inside a note.  A drag never follows a link: a
 * click that ends a drag is swallowed.  A board shown in another board's file node is
 * a still picture of the whole board: the outer board pans and zooms it, its caption
 * opens it.  Nothing is read from the page but numbers.
 *
 * @module canvas
 */
(function () {
  "use strict";

  var MIN_SCALE = 0.1;
  var MAX_SCALE = 4;
  /** The smallest scale the first view uses: below it, text cannot be read (a phone's
   *  screen is held closer, but a board fitted to 390 px would be a stamp). */
  var MIN_FIT = 0.5;
  var MIN_FIT_PHONE = 0.7;
  var PHONE_WIDTH = 600;
  /** The lowest a board's box is made (px), for a board much wider than tall. */
  var MIN_BOX = 240;
  /** Pixels kept between the zoom buttons and a fitted board. */
  var GUTTER = 8;
  /** Pixels a pointer moves before a press becomes a drag. */
  var DRAG_SLOP = 4;

  /** @param {number} v @param {number} lo @param {number} hi */
  function clamp(v, lo, hi) { return Math.min(hi, Math.max(lo, v)); }

  /** @param {HTMLElement} viewport */
  function Board(viewport) {
    this.viewport = viewport;
    this.world = /** @type {HTMLElement} */ (viewport.querySelector(":scope > .bb-canvas__world"));
    /** Its own zoom buttons (a nested board's are in its world), shown by listen(). */
    this.controls = viewport.querySelector(":scope > .bb-canvas__controls");
    this.width = Number(viewport.getAttribute("data-width")) || 1;
    this.height = Number(viewport.getAttribute("data-height")) || 1;
    this.embedded = !!viewport.closest(".bb-canvas--embedded");
    /** In another board's file node: fitted whole, never moved on its own. */
    this.nested = !!(viewport.parentElement &&
                     viewport.parentElement.closest(".bb-canvas__node"));
    /** The box's height from the style sheet: the most a board's box takes. */
    this.maxHeight = viewport.clientHeight;
    this.scale = 1;
    this.x = 0;
    this.y = 0;
    this.touched = false; // the reader moved the board: a resize no longer refits it
    this.pointers = new Map();
    this.dragged = false;
    this.pinch = null;
  }

  Board.prototype.apply = function () {
    this.world.style.transform =
      "translate(" + this.x.toFixed(1) + "px," + this.y.toFixed(1) + "px) scale(" +
      this.scale.toFixed(4) + ")";
    this.viewport.setAttribute("data-bb-canvas-scale", this.scale.toFixed(4));
    this.viewport.setAttribute("data-bb-canvas-x", this.x.toFixed(1));
    this.viewport.setAttribute("data-bb-canvas-y", this.y.toFixed(1));
  };

  /** The whole board in view, centred, clear of the zoom buttons on both sides when it
   *  fits so; never smaller than MIN_FIT (then from its top), but a nested board is
   *  fitted whole in the box its node gives it. */
  Board.prototype.fit = function () {
    var vw = this.viewport.clientWidth;
    var buttons = this.controls && !this.controls.hidden ? this.controls.offsetWidth : 0;
    var room = buttons ? Math.max(vw - 2 * (buttons + GUTTER), vw / 2) : vw;
    var least = vw < PHONE_WIDTH ? MIN_FIT_PHONE : MIN_FIT;
    if (!this.nested) {
      // a board wider than tall leaves its box no taller than the board at this width
      var across = Math.max(Math.min(vw / this.width, 1), least);
      var tall = Math.max(this.height * across, MIN_BOX);
      this.viewport.style.height = tall < this.maxHeight ? Math.ceil(tall) + "px" : "";
    }
    var vh = this.viewport.clientHeight;
    var s = Math.min(room / this.width, vh / this.height, 1);
    this.scale = this.nested ? Math.max(s, 0.01)
                             : clamp(Math.max(s, least), MIN_SCALE, MAX_SCALE);
    var w = this.width * this.scale, h = this.height * this.scale;
    this.x = w <= vw ? (vw - w) / 2 : 0;
    this.y = h <= vh ? (vh - h) / 2 : 0;
    this.apply();
  };

  /** Zoom by `factor` keeping the board point under (cx, cy) (viewport px) in place. */
  Board.prototype.zoomAt = function (factor, cx, cy) {
    var s = clamp(this.scale * factor, MIN_SCALE, MAX_SCALE);
    var k = s / this.scale;
    this.x = cx - (cx - this.x) * k;
    this.y = cy - (cy - this.y) * k;
    this.scale = s;
    this.touched = true;
    this.apply();
  };

  Board.prototype.panBy = function (dx, dy) {
    this.x += dx;
    this.y += dy;
    this.touched = true;
    this.apply();
  };

  Board.prototype.centre = function () {
    return [this.viewport.clientWidth / 2, this.viewport.clientHeight / 2];
  };

  /** @param {PointerEvent|WheelEvent|MouseEvent} e */
  Board.prototype.local = function (e) {
    var r = this.viewport.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };

  Board.prototype.listen = function () {
    var self = this, vp = this.viewport;
    vp.addEventListener("pointerdown", function (e) {
      if (e.button !== 0 || e.target.closest(".bb-canvas__controls")) { return; }
      self.pointers.set(e.pointerId, [e.clientX, e.clientY]);
      self.start = [e.clientX, e.clientY];
      self.dragged = false;
      if (self.pointers.size === 2) { self.pinch = self.spread(); }
    });
    vp.addEventListener("pointermove", function (e) {
      var last = self.pointers.get(e.pointerId);
      if (!last) { return; }
      self.pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (self.pointers.size >= 2 && self.pinch) {
        var now = self.spread();
        var r = vp.getBoundingClientRect();
        self.zoomAt(now.d / self.pinch.d, now.cx - r.left, now.cy - r.top);
        self.panBy(now.cx - self.pinch.cx, now.cy - self.pinch.cy);
        self.pinch = now;
        self.dragged = true;
        return;
      }
      if (!self.dragged && Math.hypot(e.clientX - self.start[0], e.clientY - self.start[1])
          < DRAG_SLOP) { return; }
      if (!self.dragged) {
        self.dragged = true;
        vp.setAttribute("data-bb-canvas-dragging", "");
        if (vp.setPointerCapture) { vp.setPointerCapture(e.pointerId); }
      }
      self.panBy(e.clientX - last[0], e.clientY - last[1]);
    });
    function end(e) {
      self.pointers.delete(e.pointerId);
      if (self.pointers.size < 2) { self.pinch = null; }
      if (self.pointers.size === 0) { vp.removeAttribute("data-bb-canvas-dragging"); }
    }
    vp.addEventListener("pointerup", end);
    vp.addEventListener("pointercancel", end);
    // a drag that ends on a link must not follow it
    vp.addEventListener("click", function (e) {
      if (self.dragged) { e.preventDefault(); e.stopPropagation(); self.dragged = false; }
    }, true);
    vp.addEventListener("wheel", function (e) {
      var at = self.local(e);
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        self.zoomAt(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0025)), at[0], at[1]);
      } else if (!self.embedded) {
        e.preventDefault();
        var unit = e.deltaMode === 1 ? 16 : 1;
        self.panBy(-e.deltaX * unit, -e.deltaY * unit);
      }
    }, { passive: false });
    vp.addEventListener("keydown", function (e) {
      if (e.target !== vp) { return; }
      var c = self.centre(), step = 60, handled = true;
      if (e.key === "+" || e.key === "=") { self.zoomAt(1.25, c[0], c[1]); }
      else if (e.key === "-" || e.key === "_") { self.zoomAt(0.8, c[0], c[1]); }
      else if (e.key === "0") { self.touched = false; self.fit(); }
      else if (e.key === "ArrowLeft") { self.panBy(step, 0); }
      else if (e.key === "ArrowRight") { self.panBy(-step, 0); }
      else if (e.key === "ArrowUp") { self.panBy(0, step); }
      else if (e.key === "ArrowDown") { self.panBy(0, -step); }
      else { handled = false; }
      if (handled) { e.preventDefault(); }
    });
    var controls = this.controls;
    if (controls) {
      controls.hidden = false;
      controls.addEventListener("click", function (e) {
        var button = e.target.closest("[data-bb-canvas-zoom]");
        if (!button) { return; }
        var what = button.getAttribute("data-bb-canvas-zoom"), c = self.centre();
        if (what === "in") { self.zoomAt(1.25, c[0], c[1]); }
        else if (what === "out") { self.zoomAt(0.8, c[0], c[1]); }
        else { self.touched = false; self.fit(); }
      });
    }
    this.watch();
  };

  /** Fit again when the box changes size, until the reader moves the board. */
  Board.prototype.watch = function () {
    var self = this;
    if (window.ResizeObserver) {
      new ResizeObserver(function () { if (!self.touched) { self.fit(); } })
        .observe(this.viewport);
    }
  };

  /** The distance between the two first pointers and their midpoint (client px). */
  Board.prototype.spread = function () {
    var p = Array.from(this.pointers.values());
    return { d: Math.max(1, Math.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1])),
             cx: (p[0][0] + p[1][0]) / 2, cy: (p[0][1] + p[1][1]) / 2 };
  };

  function start() {
    var boards = document.querySelectorAll("[data-bb-canvas]:not([data-bb-canvas-ready])");
    Array.prototype.forEach.call(boards, function (vp) {
      vp.setAttribute("data-bb-canvas-ready", "");
      vp.scrollLeft = 0;
      vp.scrollTop = 0;
      var board = new Board(vp);
      if (board.nested) {  // the outer board takes the pointer, the wheel and the keys
        board.fit();
        vp.removeAttribute("tabindex");
        vp.removeAttribute("aria-roledescription");
        board.watch();
      } else {
        board.listen();  // (its buttons shown first: the fit keeps clear of them)
        board.fit();
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
  // Material's instant navigation swaps the page without loading scripts again
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(start);
  }
})();
