/**
 * Canvas renderer on the main thread: camera (pan/zoom), the base layer,
 * overlays (hover neighbourhood, search rings, focus ring, labels) and hit
 * testing through a uniform grid.
 *
 * The base layer (background, edges, nodes) is drawn in one of three ways:
 *   direct  small graphs: redrawn on the canvas every frame;
 *   worker  large graphs: bitmaps rasterised by the scene worker;
 *   cached  large graphs without a worker canvas: drawn on the main thread
 *           into an offscreen canvas, but never while the camera moves.
 * In the last two, a frame is a blit of the base (moved and scaled to the
 * current camera) plus the overlays, so panning and zooming cost the same
 * whatever the number of edges; a fresh base follows when the camera rests.
 *
 * @module beliefbase/graph/renderer
 */
import { drawBase, drawNodes, MIN_NODE_PX } from './draw-base.js';

const LABEL_FONT_PX = 12;
const LABEL_MAX_CHARS = 48;
const LABEL_MAX = 200;
/** Nodes whose on-screen radius reaches this get a label (when there is room). */
const LABEL_MIN_RADIUS_PX = 5;
const HIT_SLOP_PX = 6;
/** The camera counts as moving for this long after its last change. */
export const SETTLE_MS = 150;
/** Share of the canvas size rendered around it, so short pans show no gap. */
const MARGIN = 0.25;

/**
 * @typedef {object} Theme
 * @property {string} fg @property {string} bg @property {string} muted
 * @property {string} edge @property {string} accent @property {string} focus
 * @property {string[]} palette  PALETTE_SIZE colours, then "other", then "none"
 * @property {string} font
 */

/**
 * @typedef {object} Scene
 * @property {Float32Array} pos       world positions, interleaved, by node index
 * @property {import('./model.js').View} view
 * @property {Float32Array} radius    world radius by node index
 * @property {Uint8Array} color       palette index by node index
 * @property {string[]} titles        label text by node index
 * @property {number} highlight       node whose neighbourhood is emphasised, or -1
 * @property {number} focus           keyboard-focused node, or -1
 * @property {number} centre          node marked as the centre (local graph), or -1
 * @property {Uint8Array | null} matches  search hits, or null
 * @property {boolean} labelAll       label every node that fits (small graphs)
 * @property {number} version         changes whenever positions change
 * @property {number} run             changes whenever the shown nodes/edges change
 * @property {'direct' | 'worker' | 'cached'} mode
 */

/** @param {{x: number, y: number, k: number}} a @param {{x: number, y: number, k: number}} b */
function sameCamera(a, b) {
  return a.x === b.x && a.y === b.y && a.k === b.k;
}

export class Renderer {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    // Not opaque: until the first frame (loading, an error message) and for the
    // moment after each resize, an opaque canvas shows black; this one shows the
    // stage's page-coloured background. Every frame paints the background anyway.
    this.ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    this.width = 1;
    this.height = 1;
    this.dpr = 1;
    /** Camera: screen = world * k + (x, y), in CSS pixels. */
    this.camera = { x: 0, y: 0, k: 1 };
    this.lastCameraChange = -Infinity;
    /** @type {Theme | null} */
    this.theme = null;
    /** @type {import('./draw-base.js').BaseStyle | null} */
    this.baseStyle = null;
    this.styleVersion = 0;
    /**
     * The base layer: edges on the background, nodes on transparency, both
     * drawn for `view`.
     * @type {{edges: CanvasImageSource, nodes: CanvasImageSource,
     *         view: import('./draw-base.js').BaseView, run: number, version: number,
     *         style: number} | null}
     */
    this.base = null;
    /** @type {import('./draw-base.js').BaseView | null} last base view asked of the worker */
    this.requested = null;
    /** @type {{edges: HTMLCanvasElement, nodes: HTMLCanvasElement} | null} cached mode */
    this._baseCanvas = null;
    this._baseCost = 0;
    this._baseAt = 0;
    this._gridVersion = -1;
    /** @type {Map<number, number[]>} */
    this._grid = new Map();
    this._gridCell = 32;
    this._maxRadius = 1;
    /** @type {Map<string, number>} */
    this._charWidth = new Map();
    /** @type {Map<number, number>} */
    this._labelWidth = new Map();
    this.lastFrameMs = 0;
  }

  /** Match the canvas backing store to its CSS size. @returns {boolean} changed */
  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const w = Math.max(1, Math.round(rect.width));
    const h = Math.max(1, Math.round(rect.height));
    if (w === this.width && h === this.height && dpr === this.dpr) return false;
    this.width = w;
    this.height = h;
    this.dpr = dpr;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.requested = null;
    return true;
  }

  /**
   * @param {Theme} theme
   * @param {number} edgeDensity  0..1: how strongly edges show (fainter when dense)
   */
  setTheme(theme, edgeDensity = 1) {
    this.theme = theme;
    this.baseStyle = { palette: theme.palette, edge: this._opaque(theme.edge, theme.bg, edgeDensity),
      bg: theme.bg };
    this.styleVersion += 1;
    this._charWidth.clear();
    this._labelWidth.clear();
  }

  /**
   * The opaque colour of `colour` at `alpha` over `bg`: opaque strokes skip
   * blending, which halves the cost of drawing many edges.
   * @param {string} colour @param {string} bg @param {number} alpha
   */
  _opaque(colour, bg, alpha) {
    const probe = document.createElement('canvas');
    probe.width = 1;
    probe.height = 1;
    const ctx = /** @type {CanvasRenderingContext2D} */ (probe.getContext('2d', { willReadFrequently: true }));
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, 1, 1);
    ctx.globalAlpha = alpha;
    ctx.fillStyle = colour;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return `rgb(${r}, ${g}, ${b})`;
  }

  /** @param {number} x @param {number} y world -> screen */
  toScreen(x, y) {
    const { k } = this.camera;
    return [x * k + this.camera.x, y * k + this.camera.y];
  }

  /** @param {number} sx @param {number} sy screen -> world */
  toWorld(sx, sy) {
    const { k } = this.camera;
    return [(sx - this.camera.x) / k, (sy - this.camera.y) / k];
  }

  /** The camera is moving (pan, zoom, glide): blit, do not redraw the base. */
  get interactive() {
    return performance.now() - this.lastCameraChange < SETTLE_MS;
  }

  /**
   * Camera that fits a world-space box into the canvas.
   * @param {[number, number, number, number]} box  x0, y0, x1, y1
   * @param {number} [padding]  CSS pixels
   * @param {number} [maxK]
   */
  fitCamera(box, padding = 40, maxK = 2.5) {
    const [x0, y0, x1, y1] = box;
    const w = Math.max(x1 - x0, 1);
    const h = Math.max(y1 - y0, 1);
    const k = Math.min(
      Math.max((this.width - 2 * padding) / w, 0.002),
      Math.max((this.height - 2 * padding) / h, 0.002),
      maxK,
    );
    return { k, x: this.width / 2 - ((x0 + x1) / 2) * k, y: this.height / 2 - ((y0 + y1) / 2) * k };
  }

  /** The base view for the current camera, with a margin around the canvas. */
  baseView() {
    const mx = Math.round(this.width * MARGIN);
    const my = Math.round(this.height * MARGIN);
    return { camera: { ...this.camera }, dpr: this.dpr, left: -mx, top: -my,
      width: this.width + 2 * mx, height: this.height + 2 * my };
  }

  /**
   * In worker mode: the view to ask the worker for, when the camera has come
   * to rest somewhere the last request did not cover; else null.
   */
  wantedView() {
    if (this.interactive) return null;
    const r = this.requested;
    if (r && sameCamera(r.camera, this.camera) && r.dpr === this.dpr
        && r.width === this.baseView().width && r.height === this.baseView().height) return null;
    this.requested = this.baseView();
    return this.requested;
  }

  /**
   * A frame from the worker.
   * @param {ImageBitmap} edges @param {ImageBitmap} nodes
   * @param {import('./draw-base.js').BaseView} view @param {number} run
   */
  acceptFrame(edges, nodes, view, run) {
    this._release();
    this.base = { edges, nodes, view, run, version: -1, style: this.styleVersion };
  }

  /** Forget the base layer (the shown graph changed). */
  dropBase() {
    this._release();
    this.base = null;
    this.requested = null;
  }

  /** Free the worker's bitmaps now rather than at garbage collection. */
  _release() {
    for (const image of [this.base?.edges, this.base?.nodes]) {
      if (image && 'close' in image) /** @type {ImageBitmap} */ (image).close();
    }
  }

  /** @param {Scene} scene */
  _baseScene(scene) {
    return { pos: scene.pos, nodes: scene.view.nodes, src: scene.view.src, dst: scene.view.dst,
      radius: scene.radius, color: scene.color };
  }

  /** Cached mode: draw the base on the main thread, when the camera rests. @param {Scene} scene */
  _refreshCachedBase(scene) {
    const b = this.base;
    const fresh = b && b.run === scene.run && b.version === scene.version
      && b.style === this.styleVersion && sameCamera(b.view.camera, this.camera)
      && b.view.dpr === this.dpr && b.view.width === this.baseView().width;
    if (fresh || this.interactive) return;
    // While the layout moves, redraw at most a third of the time.
    if (b && b.run === scene.run && performance.now() - this._baseAt < 3 * this._baseCost) return;
    const view = this.baseView();
    const canvases = this._baseCanvas
      ?? { edges: document.createElement('canvas'), nodes: document.createElement('canvas') };
    this._baseCanvas = canvases;
    const t0 = performance.now();
    for (const part of /** @type {const} */ (['edges', 'nodes'])) {
      const canvas = canvases[part];
      canvas.width = Math.ceil(view.width * view.dpr);
      canvas.height = Math.ceil(view.height * view.dpr);
      const ctx = /** @type {CanvasRenderingContext2D} */ (
        canvas.getContext('2d', { alpha: part === 'nodes' }));
      drawBase(ctx, this._baseScene(scene), /** @type {any} */ (this.baseStyle), view, part);
    }
    this._baseCost = performance.now() - t0;
    this._baseAt = performance.now();
    this.base = { ...canvases, view, run: scene.run, version: scene.version,
      style: this.styleVersion };
  }

  /** @param {Scene} scene */
  draw(scene) {
    const t0 = performance.now();
    const { ctx, camera, dpr } = this;
    const theme = /** @type {Theme} */ (this.theme);
    const style = /** @type {import('./draw-base.js').BaseStyle} */ (this.baseStyle);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    const screen = { camera, dpr, left: 0, top: 0, width: this.width, height: this.height };
    if (scene.mode === 'direct') {
      drawBase(ctx, this._baseScene(scene), style, screen);
    } else {
      if (scene.mode === 'cached') this._refreshCachedBase(scene);
      const b = this.base;
      if (b && b.run === scene.run) {
        const r = camera.k / b.view.camera.k;
        const x = (b.view.left - b.view.camera.x) * r + camera.x;
        const y = (b.view.top - b.view.camera.y) * r + camera.y;
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        ctx.imageSmoothingQuality = 'low';
        ctx.drawImage(b.edges, x, y, b.view.width * r, b.view.height * r);
        if (r > 1.25) {
          // Zoomed in past the base's resolution: blurred edges are fine for a
          // moment, blurred nodes are not; few nodes are on screen now, so draw them.
          ctx.setTransform(dpr * camera.k, 0, 0, dpr * camera.k, dpr * camera.x, dpr * camera.y);
          drawNodes(ctx, this._baseScene(scene), style.palette, camera.k, this._viewport());
        } else {
          ctx.drawImage(b.nodes, x, y, b.view.width * r, b.view.height * r);
        }
      } else {
        // No base yet for these nodes (first paint, new filter): nodes now, edges with the base.
        ctx.setTransform(dpr * camera.k, 0, 0, dpr * camera.k, dpr * camera.x, dpr * camera.y);
        drawNodes(ctx, this._baseScene(scene), style.palette, camera.k, this._viewport());
      }
    }
    ctx.setTransform(dpr * camera.k, 0, 0, dpr * camera.k, dpr * camera.x, dpr * camera.y);
    if (scene.highlight >= 0) this._neighbourhood(scene);
    this._marks(scene);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this._labels(scene);
    this.lastFrameMs = performance.now() - t0;
  }

  /** Visible world rectangle. */
  _viewport() {
    const [x0, y0] = this.toWorld(0, 0);
    const [x1, y1] = this.toWorld(this.width, this.height);
    return [x0, y0, x1, y1];
  }

  /** Fade everything, then the highlighted node, its edges and neighbours. @param {Scene} scene */
  _neighbourhood(scene) {
    const { ctx, dpr } = this;
    const theme = /** @type {Theme} */ (this.theme);
    const { pos } = scene;
    const { adjStart, adj } = scene.view;
    const h = scene.highlight;
    const { k } = this.camera;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 0.72;
    ctx.fillStyle = theme.bg;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.restore();
    const near = [h];
    ctx.beginPath();
    for (let e = adjStart[h]; e < adjStart[h + 1]; e++) {
      const j = adj[e];
      near.push(j);
      ctx.moveTo(pos[2 * h], pos[2 * h + 1]);
      ctx.lineTo(pos[2 * j], pos[2 * j + 1]);
    }
    ctx.strokeStyle = theme.accent;
    // Wide strokes over many segments are slow in software raster: stay a hairline for hubs.
    ctx.lineWidth = (near.length > 300 ? 1 : 1.5 * dpr) / (dpr * k);
    ctx.stroke();
    drawNodes(ctx, { pos, nodes: near, radius: scene.radius, color: scene.color },
      theme.palette, k, this._viewport());
  }

  /** Rings for search hits, the centre, the keyboard focus. @param {Scene} scene */
  _marks(scene) {
    const { ctx } = this;
    const theme = /** @type {Theme} */ (this.theme);
    const { pos, radius, matches } = scene;
    const { k } = this.camera;
    /** @param {number} i @param {number} gapPx */
    const ring = (i, gapPx) => {
      const r = Math.max(radius[i], MIN_NODE_PX / k) + gapPx / k;
      ctx.moveTo(pos[2 * i] + r, pos[2 * i + 1]);
      ctx.arc(pos[2 * i], pos[2 * i + 1], r, 0, 2 * Math.PI);
    };
    if (matches) {
      ctx.beginPath();
      const { nodes } = scene.view;
      let count = 0;
      for (let n = 0; n < nodes.length && count < 500; n++) {
        if (matches[nodes[n]]) { ring(nodes[n], 2.5); count += 1; }
      }
      ctx.lineWidth = 2 / k;
      ctx.strokeStyle = theme.accent;
      ctx.stroke();
    }
    for (const [i, colour, gap, width] of /** @type {[number, string, number, number][]} */ ([
      [scene.centre, theme.fg, 2.5, 2], [scene.highlight, theme.fg, 2, 2],
      [scene.focus, theme.focus, 4, 3]])) {
      if (i < 0 || !scene.view.visible[i]) continue;
      ctx.beginPath();
      ring(i, gap);
      ctx.lineWidth = width / k;
      ctx.strokeStyle = colour;
      ctx.stroke();
    }
  }

  /**
   * Width of a label, from per-character widths (measureText once per
   * character, not once per node: thousands of calls cost a first frame).
   * @param {number} i @param {string} text
   */
  _textWidth(i, text) {
    let w = this._labelWidth.get(i);
    if (w !== undefined) return w;
    w = 0;
    for (const ch of text) {
      let cw = this._charWidth.get(ch);
      if (cw === undefined) {
        cw = this.ctx.measureText(ch).width;
        this._charWidth.set(ch, cw);
      }
      w += cw;
    }
    this._labelWidth.set(i, w);
    return w;
  }

  /**
   * Labels in screen space: emphasised nodes first, then by degree, skipping
   * any that would overlap a label already placed.
   * @param {Scene} scene
   */
  _labels(scene) {
    const { ctx } = this;
    const theme = /** @type {Theme} */ (this.theme);
    const { pos, radius, view } = scene;
    const { k } = this.camera;
    ctx.font = `${LABEL_FONT_PX}px ${theme.font}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    ctx.lineJoin = 'round';
    // Always labelled: the focused, highlighted and centre nodes. Labelled when
    // there is room, whatever their size: the neighbours and search hits.
    const must = [scene.focus, scene.highlight, scene.centre].filter((i) => i >= 0);
    /** @type {number[]} */
    const near = [];
    if (scene.highlight >= 0) {
      const h = scene.highlight;
      for (let e = view.adjStart[h]; e < view.adjStart[h + 1] && near.length < 80; e++) {
        near.push(view.adj[e]);
      }
    }
    if (scene.matches) {
      for (let n = 0; n < view.nodes.length && near.length < 120; n++) {
        if (scene.matches[view.nodes[n]]) near.push(view.nodes[n]);
      }
    }
    const emphasised = new Set([...must, ...near]);
    /** @type {Map<number, number[][]>} */
    const placed = new Map();
    const cell = 64;
    const done = new Set();
    let count = 0;
    /** @param {number} i @param {boolean} force  place even over other labels */
    const tryLabel = (i, force) => {
      if (done.has(i) || !view.visible[i]) return;
      const [sx, sy] = this.toScreen(pos[2 * i], pos[2 * i + 1]);
      if (sx < -50 || sy < -20 || sx > this.width + 50 || sy > this.height + 20) return;
      const r = Math.max(radius[i] * k, MIN_NODE_PX);
      if (!emphasised.has(i) && !scene.labelAll && r < LABEL_MIN_RADIUS_PX) return;
      let text = scene.titles[i];
      if (text.length > LABEL_MAX_CHARS) text = `${text.slice(0, LABEL_MAX_CHARS - 1)}…`;
      const w = this._textWidth(i, text);
      // Below the node, clear of the rings drawn around focused and centre nodes.
      const gap = i === scene.focus ? 8 : i === scene.highlight || i === scene.centre ? 6 : 3;
      const box = [sx - w / 2 - 2, sy + r + gap, sx + w / 2 + 2, sy + r + gap + 2 + LABEL_FONT_PX];
      const cx0 = Math.floor(box[0] / cell); const cx1 = Math.floor(box[2] / cell);
      const cy0 = Math.floor(box[1] / cell); const cy1 = Math.floor(box[3] / cell);
      if (!force) {
        for (let gx = cx0; gx <= cx1; gx++) {
          for (let gy = cy0; gy <= cy1; gy++) {
            for (const b of placed.get(gx * 4096 + gy) || []) {
              if (box[0] < b[2] && box[2] > b[0] && box[1] < b[3] && box[3] > b[1]) return;
            }
          }
        }
      }
      for (let gx = cx0; gx <= cx1; gx++) {
        for (let gy = cy0; gy <= cy1; gy++) {
          const key = gx * 4096 + gy;
          const list = placed.get(key);
          if (list) list.push(box); else placed.set(key, [box]);
        }
      }
      done.add(i);
      count += 1;
      // While a neighbourhood is highlighted, the other labels fade with their nodes.
      ctx.globalAlpha = scene.highlight >= 0 && !emphasised.has(i) ? 0.35 : 1;
      ctx.lineWidth = 3;
      ctx.strokeStyle = theme.bg;
      ctx.strokeText(text, sx, box[1] + 1);
      ctx.fillStyle = i === scene.focus || i === scene.highlight ? theme.fg : theme.muted;
      ctx.fillText(text, sx, box[1] + 1);
    };
    for (const i of must) tryLabel(i, true);
    for (const i of near) tryLabel(i, false);
    // Candidates by decreasing degree; give up after a bounded number of tries.
    for (let n = 0, tries = 0; n < view.nodes.length && count < LABEL_MAX && tries < 3000; n++) {
      const i = view.nodes[n];
      if (!scene.labelAll && Math.max(radius[i] * k, MIN_NODE_PX) < LABEL_MIN_RADIUS_PX) break;
      tries += 1;
      tryLabel(i, false);
    }
    ctx.globalAlpha = 1;
  }

  /**
   * The node under a screen point, or -1.
   * @param {Scene} scene @param {number} sx @param {number} sy
   */
  hitTest(scene, sx, sy) {
    this._buildGrid(scene);
    const [wx, wy] = this.toWorld(sx, sy);
    const { k } = this.camera;
    const reach = this._maxRadius + Math.max(HIT_SLOP_PX, MIN_NODE_PX) / k;
    const c = this._gridCell;
    const gx0 = Math.floor((wx - reach) / c); const gx1 = Math.floor((wx + reach) / c);
    const gy0 = Math.floor((wy - reach) / c); const gy1 = Math.floor((wy + reach) / c);
    /** @type {Iterable<number>[]} */
    const buckets = [];
    if ((gx1 - gx0 + 1) * (gy1 - gy0 + 1) > 4 * this._grid.size) {
      buckets.push(scene.view.nodes); // zoomed far out: scanning beats the grid
    } else {
      for (let gx = gx0; gx <= gx1; gx++) {
        for (let gy = gy0; gy <= gy1; gy++) {
          const bucket = this._grid.get(gx * 1048576 + gy);
          if (bucket) buckets.push(bucket);
        }
      }
    }
    let best = -1;
    let bestD = Infinity;
    for (const bucket of buckets) {
      for (const i of bucket) {
        const dx = scene.pos[2 * i] - wx; const dy = scene.pos[2 * i + 1] - wy;
        const d = Math.sqrt(dx * dx + dy * dy);
        const r = Math.max(scene.radius[i], MIN_NODE_PX / k) + HIT_SLOP_PX / k;
        if (d <= r && d - r < bestD) { best = i; bestD = d - r; }
      }
    }
    return best;
  }

  /** @param {Scene} scene */
  _buildGrid(scene) {
    const key = scene.version * 65536 + (scene.run % 65536);
    if (this._gridVersion === key) return;
    const { nodes } = scene.view;
    let maxR = 1;
    for (let n = 0; n < nodes.length; n++) maxR = Math.max(maxR, scene.radius[nodes[n]]);
    this._maxRadius = maxR;
    this._gridCell = Math.max(2 * maxR, 16);
    this._grid = new Map();
    for (let n = 0; n < nodes.length; n++) {
      const i = nodes[n];
      const cell = Math.floor(scene.pos[2 * i] / this._gridCell) * 1048576
        + Math.floor(scene.pos[2 * i + 1] / this._gridCell);
      const list = this._grid.get(cell);
      if (list) list.push(i); else this._grid.set(cell, [i]);
    }
    this._gridVersion = key;
  }
}
