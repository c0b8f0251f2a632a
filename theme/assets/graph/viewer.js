/**
 * The graph viewer: loads graph.json, keeps the model, the shown view, the
 * positions and the selection, and ties together the layout runner (worker),
 * the renderer, the camera, the controls and the input handlers. graph.js
 * creates one per `[data-bb-graph]` element.
 *
 * @module beliefbase/graph/viewer
 */
import { CameraControl } from './camera.js';
import { buildLocalMarkup, Controls } from './controls.js';
import { formatCount, resolveNodeUrl, role } from './dom.js';
import { attachInput } from './interaction.js';
import { LayoutRunner } from './layout-runner.js';
import { COLOR_KEYS, GraphModel } from './model.js';
import { placeNew } from './placement.js';
import { Renderer } from './renderer.js';
import { NodeSearch } from './search.js';
import { readTheme, watchTheme } from './theme.js';

/** Graphs this small label every node (when the labels do not overlap). */
const LABEL_ALL_BELOW = 60;
/** Graphs this large use the scene worker (layout and base-layer rendering). */
const WORKER_NODES = 300;
const WORKER_EDGES = 2000;
/** Without a worker canvas, graphs this small are redrawn in full every frame. */
const DIRECT_NODES = 3000;
const DIRECT_EDGES = 6000;

/**
 * @typedef {object} ViewerOptions
 * @property {'full' | 'local'} mode
 * @property {string} graphUrl
 * @property {string} [searchIndexUrl]
 * @property {string} [lunrUrl]
 * @property {string} siteRoot
 * @property {string} [nodeId]
 * @property {number} depth
 * @property {string} [graphPageUrl]
 * @property {string} [colorBy]
 * @property {'main' | 'worker'} parseIn  where graph.json is parsed
 */

/**
 * A User Timing mark (visible in the browser's performance panel).
 * @param {string} name
 */
function mark(name) {
  performance.mark?.(`bb-graph:${name}`);
}

/**
 * Colour by schema when enough notes have one (a third), else by folder when
 * there are several, else by whatever there is.
 * @param {GraphModel} model
 * @returns {string}
 */
function defaultColorKey(model) {
  const { schemas, folders, kinds } = model.facets;
  const withSchema = schemas.reduce((sum, [, count]) => sum + count, 0);
  const documents = kinds.find(([kind]) => kind === 'Document')?.[1] ?? 0;
  const topFolders = folders.filter(([folder]) => !folder.includes('/')).length;
  if (schemas.length && withSchema * 3 >= documents) return 'schema';
  if (topFolders > 1) return 'folder';
  return schemas.length ? 'schema' : 'kind';
}

export class GraphView {
  /** @param {HTMLElement} root @param {ViewerOptions} options */
  constructor(root, options) {
    this.root = root;
    this.options = options;
    this.local = options.mode === 'local';
    if (this.local) buildLocalMarkup(root, options);
    root.classList.add('bb-graph', `bb-graph--${options.mode}`);
    this.canvas = /** @type {HTMLCanvasElement} */ (role(root, 'canvas'));
    this.stage = /** @type {HTMLElement} */ (role(root, 'stage') || this.canvas.parentElement);
    this.renderer = new Renderer(this.canvas);
    this.controls = new Controls(root, this);
    this.metrics = {
      start: performance.now(), fetched: 0, modelled: 0, firstPaint: 0, settled: 0,
      lastSearchMs: 0, nodes: 0, edges: 0,
    };
    /** @type {GraphModel | null} */
    this.model = null;
    /** @type {import('./model.js').Filters} */
    this.filters = /** @type {any} */ (null);
    /** @type {import('./model.js').View} */
    this.view = /** @type {any} */ (null);
    this.pos = new Float32Array(0);
    this.placed = new Uint8Array(0);
    this.radius = new Float32Array(0);
    /** @type {string[]} */
    this.titles = [];
    this.colorKey = 'schema';
    /** @type {ReturnType<GraphModel['colorsBy']> | null} */
    this.colors = null;
    this.hover = -1;
    this.focus = -1;
    this.centre = -1;
    /** @type {Uint8Array | null} */
    this.matches = null;
    this.version = 0;
    this.autoFit = true;
    this.dragging = -1;
    this.settled = false;
    /** @type {Int32Array} node index -> index in the running layout, or -1 */
    this.layoutIndex = new Int32Array(0);
    /** @type {Float32Array | null} positions saved when entering neighbourhood mode */
    this.saved = null;
    /** @type {NodeSearch | null} */
    this.searcher = null;
    this._frame = 0;
    this.cam = new CameraControl(this);
    /** Number of the current set of shown nodes and edges (frames of older sets are dropped). */
    this.run = 0;
    this.runner = new LayoutRunner({
      onPositions: (pos, progress, settled) => this._onPositions(pos, progress, settled),
      onFrame: (edges, nodes, view) => {
        this.renderer.acceptFrame(edges, nodes, view, this.run);
        this.requestDraw();
      },
      onFallback: () => this.requestDraw(),
    });
    this._applyTheme();
    this.renderer.resize();
    attachInput(this.canvas, this, { wheelNeedsFocus: this.local });
    root.addEventListener('keydown', (event) => {
      const target = /** @type {HTMLElement} */ (event.target);
      if (event.key === '/' && !target.closest('input, select, textarea') && this.focusSearch()) {
        event.preventDefault();
        event.stopPropagation();
      }
    });
    role(root, 'depth-toggle')?.addEventListener('click', (event) => {
      const button = /** @type {HTMLElement} */ (event.currentTarget);
      const deeper = button.getAttribute('aria-pressed') !== 'true';
      button.setAttribute('aria-pressed', String(deeper));
      this.setDepth(deeper ? 2 : 1);
    });
    this._unwatch = watchTheme(() => this._applyTheme());
    this._resize = new ResizeObserver(() => {
      if (!this.renderer.resize()) return;
      if (this.autoFit && this.view) this.fit(false);
      this.requestDraw();
    });
    this._resize.observe(this.stage);
  }

  /** Fetch graph.json and show it. */
  async load() {
    this.controls.setMessage('Loading the graph…');
    try {
      this.runner.warmUp();
      const url = this.options.graphUrl;
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const buffer = await response.arrayBuffer();
      this.metrics.fetched = performance.now();
      mark('fetch');
      this.model = await this._parse(url, buffer);
      mark('model');
    } catch (err) {
      this.controls.setMessage(`Could not load the graph (${this.options.graphUrl}): ${err}`);
      console.error('beliefbase graph:', err);
      return;
    }
    this.metrics.modelled = performance.now();
    await this._stylesReady();
    this._setup(/** @type {GraphModel} */ (this.model));
  }

  /**
   * Resolve once graph.css applies (the script may start before the page's
   * stylesheets have loaded: colours and sizes come from CSS), or after 3 s.
   * @returns {Promise<void>}
   */
  _stylesReady() {
    const ready = () => getComputedStyle(this.root).getPropertyValue('--bb-graph-bg').trim() !== '';
    if (ready()) return Promise.resolve();
    const until = performance.now() + 3000;
    return new Promise((resolve) => {
      const check = () => {
        if (ready() || performance.now() > until) resolve();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
  }

  /**
   * Build the model from graph.json's bytes. The local graph (on every page,
   * while the reader scrolls) parses in the worker so the page never stutters;
   * the graph page parses here, which shows the graph sooner on a busy CPU.
   * @param {string} url @param {ArrayBuffer} buffer
   * @returns {Promise<GraphModel>}
   */
  async _parse(url, buffer) {
    if (this.options.parseIn === 'worker') {
      try {
        return GraphModel.unpack(await this.runner.load(buffer));
      } catch (err) {
        if (!(/** @type {any} */ (err)).fallback) throw err;
        if (!buffer.byteLength) { // sent to a worker that then failed
          buffer = await (await fetch(url, { credentials: 'same-origin' })).arrayBuffer();
        }
      }
    }
    return new GraphModel(JSON.parse(new TextDecoder().decode(buffer)));
  }

  /** @param {GraphModel} model */
  _setup(model) {
    const n = model.nodes.length;
    this.titles = model.nodes.map((node) => node.title);
    // By the note's links in the whole graph. The local graph packs a note's
    // neighbours on a small ring: smaller nodes leave room for the links and labels.
    const [base, grow, most] = this.local ? [2, 1, 12] : [3, 1.6, 26];
    this.radius = Float32Array.from(model.degree, (d) => Math.min(base + grow * Math.sqrt(d), most));
    this.pos = new Float32Array(2 * n);
    this.placed = new Uint8Array(n);
    this.layoutIndex = new Int32Array(n).fill(-1);
    if (model.hasPositions) {
      model.nodes.forEach((node, i) => {
        if (node.x === undefined) return;
        this.pos[2 * i] = node.x;
        this.pos[2 * i + 1] = /** @type {number} */ (node.y);
        this.placed[i] = 1;
      });
    }
    this.filters = model.defaultFilters();
    if (this.local) {
      const centre = this.options.nodeId !== undefined ? model.index.get(this.options.nodeId) : undefined;
      if (centre === undefined) {
        this.controls.setMessage('This page is not in the graph.');
        return;
      }
      this.filters.focus = centre;
      this.filters.depth = this.options.depth;
    }
    this.colorKey = this.options.colorBy || defaultColorKey(model);
    const select = /** @type {HTMLSelectElement | null} */ (role(this.root, 'color-by'));
    if (select) select.value = this.colorKey;
    this.colors = model.colorsBy(this.colorKey);
    this.controls.setMessage(null);
    // Nodes on screen first; the controls, legend and layout follow a frame later.
    this._computeView();
    mark('view');
    this.renderer.resize();
    this.fit(false);
    this.drawNow();
    mark('first-draw');
    requestAnimationFrame(() => {
      this.metrics.firstPaint = performance.now(); // the first frame is on screen
      this.controls.setup(model, this.filters);
      if (this.root.clientWidth < 600) this.controls.setLegendOpen(false);
      this._afterView(1);
      mark('controls');
      this.root.dataset.bbReady = 'true';
      this.root.dispatchEvent(new CustomEvent('bb-graph-ready', { bubbles: true }));
    });
  }

  /**
   * Recompute the shown nodes and edges, place new nodes, restart the layout.
   * @param {number} alpha  layout energy: 1 from scratch, lower to refine
   */
  _applyView(alpha) {
    this._computeView();
    this._afterView(alpha);
  }

  /** The shown nodes and edges for the current filters, with positions for new nodes. */
  _computeView() {
    const model = /** @type {GraphModel} */ (this.model);
    this.view = model.computeView(this.filters);
    this.run += 1;
    this.renderer.dropBase();
    this.centre = this.local ? this.view.focus : -1;
    if (this.focus >= 0 && !this.view.visible[this.focus]) this.focus = -1;
    if (this.hover >= 0 && !this.view.visible[this.hover]) this.hover = -1;
    placeNew(this.view, model.nodes, this.pos, this.placed);
    this.version += 1;
    this.metrics.nodes = this.view.nodes.length;
    this.metrics.edges = this.view.src.length;
    this._applyTheme(false);
  }

  /**
   * Start the layout (or the worker's rendering) for the view; update legend and status.
   * @param {number} alpha  layout energy: 1 from scratch, lower to refine
   */
  _afterView(alpha) {
    const model = /** @type {GraphModel} */ (this.model);
    const runLayout = (!model.hasPositions || this.filters.focus >= 0) && this.view.nodes.length > 1;
    if (runLayout || this._large()) this._startScene(runLayout ? alpha : 0, runLayout);
    else this.runner.stop();
    if (!runLayout) { this.settled = true; this.controls.setProgress(null); }
    this.controls.renderLegend(/** @type {any} */ (this.colors), /** @type {any} */ (this.colors).color,
      this.view, this.colorKey);
    this._status();
    if (this.autoFit) this.fit(false);
    this.requestDraw();
  }

  /** Whether the shown graph is large enough for the scene worker. */
  _large() {
    return this.view.nodes.length >= WORKER_NODES || this.view.src.length >= WORKER_EDGES;
  }

  /** How the base layer is drawn (see renderer.js). @returns {'direct' | 'worker' | 'cached'} */
  _mode() {
    if (this.runner.rendersFrames || (this._large() && this.runner.canRenderInWorker)) return 'worker';
    const small = this.view.nodes.length <= DIRECT_NODES && this.view.src.length <= DIRECT_EDGES;
    return small ? 'direct' : 'cached';
  }

  /**
   * Read the colours from CSS and pass them on (also after Material's palette
   * toggle). Dense graphs get fainter edges.
   * @param {boolean} [redraw]
   */
  _applyTheme(redraw = true) {
    const m = this.view ? this.view.src.length : 0;
    const density = m > 20000 ? 0.3 : m > 4000 ? 0.45 : m > 500 ? 0.7 : 0.9;
    this.renderer.setTheme(readTheme(this.root), density);
    if (redraw) {
      this.runner.setStyle(/** @type {any} */ (this.renderer.baseStyle));
      this.requestDraw();
    }
  }

  /**
   * Start the layout (and, for large graphs, the worker's rendering) on the shown nodes.
   * @param {number} alpha  layout energy
   * @param {boolean} layout  false: keep the positions (precomputed), only render
   */
  _startScene(alpha, layout) {
    const { nodes, src, dst } = this.view;
    this.layoutIndex.fill(-1);
    const pos = new Float32Array(2 * nodes.length);
    nodes.forEach((i, k) => {
      this.layoutIndex[i] = k;
      pos[2 * k] = this.pos[2 * i];
      pos[2 * k + 1] = this.pos[2 * i + 1];
    });
    // The local graph keeps its page's node in the middle.
    const fixed = this.local && this.centre >= 0 ? [this.layoutIndex[this.centre]] : [];
    for (const k of fixed) { pos[2 * k] = 0; pos[2 * k + 1] = 0; }
    const links = new Int32Array(2 * src.length);
    for (let e = 0; e < src.length; e++) {
      links[2 * e] = this.layoutIndex[src[e]];
      links[2 * e + 1] = this.layoutIndex[dst[e]];
    }
    this._layoutNodes = nodes;
    this.settled = !layout;
    const small = nodes.length < 200;
    this.runner.start({
      pos,
      links,
      layout,
      options: {
        alpha,
        iterations: nodes.length > 2000 ? 200 : 300,
        charge: small ? -90 : -30,
        linkDistance: small ? 45 : 30,
        gravity: small ? 0.08 : 0.04,
        fixed,
      },
      radius: Float32Array.from(nodes, (i) => this.radius[i]),
      color: this._localColors(),
      style: /** @type {any} */ (this.renderer.baseStyle),
      view: null,
      useWorker: this._large(),
    });
    if (layout && !this.local) this.controls.setProgress(0);
  }

  /** Colour indices of the shown nodes, in layout order (for the worker). */
  _localColors() {
    const color = /** @type {any} */ (this.colors).color;
    return Uint8Array.from(/** @type {Int32Array} */ (this._layoutNodes ?? []), (i) => color[i]);
  }

  /** @param {Float32Array} pos @param {number} progress @param {boolean} settled */
  _onPositions(pos, progress, settled) {
    const nodes = /** @type {Int32Array} */ (this._layoutNodes);
    for (let k = 0; k < nodes.length; k++) {
      const i = nodes[k];
      if (i === this.dragging) continue;
      this.pos[2 * i] = pos[2 * k];
      this.pos[2 * i + 1] = pos[2 * k + 1];
    }
    this.version += 1;
    this.settled = settled;
    if (!this.local) this.controls.setProgress(settled ? null : progress);
    if (settled) {
      this.metrics.settled = performance.now();
      this._status();
    }
    if (this.autoFit) this.fit(settled);
    this.requestDraw();
  }

  _status() {
    if (!this.view || !this.model) return;
    const docsOnly = this.filters.kinds.size === 1 && this.filters.kinds.has('Document');
    const parts = [
      `${formatCount(this.view.nodes.length)} ${docsOnly ? 'notes' : 'nodes'}`,
      `${formatCount(this.view.src.length)} links`,
    ];
    if (this.filters.focus >= 0 && !this.local) {
      parts.push(`neighbourhood of “${this.titles[this.filters.focus]}”, depth ${this.filters.depth}`);
    }
    if (!this.settled) parts.push('laying out…');
    this.controls.setStatus(parts.join(' · '));
  }

  /** The data the renderer draws. @returns {import('./renderer.js').Scene} */
  scene() {
    return {
      pos: this.pos,
      view: this.view,
      radius: this.radius,
      color: /** @type {any} */ (this.colors).color,
      titles: this.titles,
      highlight: this.hover >= 0 ? this.hover : this.focus,
      focus: this.focus,
      centre: this.centre,
      matches: this.matches,
      labelAll: this.view.nodes.length <= LABEL_ALL_BELOW,
      version: this.version,
      run: this.run,
      mode: this._mode(),
    };
  }

  requestDraw() {
    if (this._frame || !this.view) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      this.drawNow();
    });
  }

  drawNow() {
    if (!this.view) return;
    const scene = this.scene();
    this.renderer.draw(scene);
    if (scene.mode === 'worker') {
      const wanted = this.renderer.wantedView();
      if (wanted) this.runner.setView(wanted);
    }
  }

  /* ----- camera (see camera.js) ----- */

  /** @param {boolean} animate */
  fit(animate) {
    this.cam.fit(animate);
  }

  /** @param {number} dx @param {number} dy */
  panBy(dx, dy) {
    this.cam.panBy(dx, dy);
  }

  /** @param {number} sx @param {number} sy @param {number} factor */
  zoomAt(sx, sy, factor) {
    this.cam.zoomAt(sx, sy, factor);
  }

  /** @param {number} factor */
  zoomCentre(factor) {
    this.cam.zoomCentre(factor);
  }

  /** @param {string} name  a `data-bb-action` of a toolbar button */
  action(name) {
    if (name === 'zoom-in') this.zoomCentre(1.4);
    else if (name === 'zoom-out') this.zoomCentre(1 / 1.4);
    else if (name === 'fit') { this.autoFit = true; this.fit(true); }
    else if (name === 'fullscreen') this._toggleFullscreen();
  }

  _toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen?.();
    else this.root.requestFullscreen?.().catch(() => {});
  }

  /* ----- nodes: hover, focus, open, drag ----- */

  /** @param {number} sx @param {number} sy */
  hitTest(sx, sy) {
    return this.view ? this.renderer.hitTest(this.scene(), sx, sy) : -1;
  }

  /**
   * @param {number} i  node, or -1
   * @param {number} [sx] @param {number} [sy]  where to show the tooltip
   * @param {boolean} [touch]
   */
  setHover(i, sx = 0, sy = 0, touch = false) {
    if (i !== this.hover) {
      this.hover = i;
      this.canvas.style.cursor = i >= 0 ? 'pointer' : '';
      this.requestDraw();
    }
    if (i < 0) { this.controls.tooltip(null); return; }
    const node = /** @type {GraphModel} */ (this.model).nodes[i];
    const links = this.view.adjStart[i + 1] - this.view.adjStart[i];
    const detail = [node.kind !== 'Document' ? node.kind : '', node.schema || '', node.folder,
      `${formatCount(links)} link${links === 1 ? '' : 's'}`, touch ? 'tap again to open' : '']
      .filter(Boolean).join(' · ');
    this.controls.tooltip(node.title, detail, sx, sy);
  }

  /**
   * Focus a node: highlight it and its neighbours, bring it into view, tell
   * screen readers. Returns false when the node is not shown.
   * @param {number} i
   * @param {{centre?: boolean, zoom?: boolean, quiet?: boolean}} [how]
   */
  focusNode(i, how = {}) {
    if (i < 0 || !this.view || !this.view.visible[i]) return false;
    this.focus = i;
    const x = this.pos[2 * i]; const y = this.pos[2 * i + 1];
    const [sx, sy] = this.renderer.toScreen(x, y);
    const margin = 40;
    const outside = sx < margin || sy < margin
      || sx > this.renderer.width - margin || sy > this.renderer.height - margin;
    if (how.centre || outside) this.cam.centreOn(x, y, how.zoom ? 1.2 : 0);
    if (!how.quiet) {
      const node = /** @type {GraphModel} */ (this.model).nodes[i];
      const links = this.view.adjStart[i + 1] - this.view.adjStart[i];
      this.controls.announce(`${node.title}. ${node.kind}, ${links} link${links === 1 ? '' : 's'}.`
        + (node.url ? ' Press Enter to open.' : ''));
    }
    this.requestDraw();
    return true;
  }

  /**
   * Move the keyboard focus to the nearest node in a direction (0, 0 = the
   * node nearest the middle of the canvas).
   * @param {number} dx @param {number} dy
   */
  moveFocus(dx, dy) {
    if (!this.view || !this.view.nodes.length) return;
    const from = this.focus >= 0 && !(dx === 0 && dy === 0)
      ? this.renderer.toScreen(this.pos[2 * this.focus], this.pos[2 * this.focus + 1])
      : [this.renderer.width / 2, this.renderer.height / 2];
    const first = this.focus < 0 || (dx === 0 && dy === 0);
    let best = -1;
    let bestScore = Infinity;
    for (const i of this.view.nodes) {
      if (i === this.focus && !first) continue;
      const [sx, sy] = this.renderer.toScreen(this.pos[2 * i], this.pos[2 * i + 1]);
      const vx = sx - from[0]; const vy = sy - from[1];
      const dist = Math.hypot(vx, vy);
      let score = dist;
      if (!first) {
        const along = vx * dx + vy * dy;
        if (along <= 0.5) continue;
        const across = Math.abs(vx * dy - vy * dx);
        if (across > along * 2.5) continue; // outside a ~68° half-cone
        score = along + 2 * across;
      }
      if (score < bestScore) { bestScore = score; best = i; }
    }
    if (best >= 0) this.focusNode(best);
  }

  /** @param {number} i @param {boolean} newTab @returns {boolean} opened */
  open(i, newTab) {
    if (i < 0 || !this.model) return false;
    const node = this.model.nodes[i];
    const url = resolveNodeUrl(node.url, this.options.siteRoot, node.kind === 'External');
    if (!url) {
      this.controls.announce(`${node.title} has no page.`);
      this.controls.tooltip(node.title, 'no page to open');
      return false;
    }
    if (newTab) window.open(url, '_blank', 'noopener');
    else window.location.assign(url);
    return true;
  }

  /** @param {number} i */
  dragStart(i) {
    this.dragging = i;
    this.autoFit = false;
    this.cam.stop(); // a glide under way would move the node away from the pointer
    // Drawn as the highlight, the node and its links follow the pointer at
    // once, before the base layer catches up.
    this.hover = i;
    this.controls.tooltip(null);
  }

  /** @param {number} i @param {number} sx @param {number} sy */
  dragMove(i, sx, sy) {
    const [x, y] = this.renderer.toWorld(sx, sy);
    this.pos[2 * i] = x;
    this.pos[2 * i + 1] = y;
    this.version += 1;
    const k = this.layoutIndex[i];
    if (k >= 0) this.runner.pin(k, x, y);
    this.requestDraw();
  }

  /** @param {number} i */
  dragEnd(i) {
    const k = this.layoutIndex[i];
    if (k >= 0) this.runner.unpin(k);
    this.dragging = -1;
    this.hover = -1;
    this.requestDraw();
  }

  clearSelection() {
    this.focus = -1;
    this.setHover(-1);
    this.controls.announce('');
    this.requestDraw();
  }

  focusCanvas() {
    this.canvas.focus({ preventScroll: true });
  }

  focusSearch() {
    return this.controls.focusSearch();
  }

  /* ----- filters, colours, neighbourhood, search ----- */

  /** @param {Partial<import('./model.js').Filters>} change */
  setFilters(change) {
    Object.assign(this.filters, change);
    this.autoFit = true;
    this._applyView(0.3);
    this.controls.syncFilters(this.filters);
    this._remapMatches();
  }

  resetFilters() {
    const focus = this.filters.focus;
    this.filters = /** @type {GraphModel} */ (this.model).defaultFilters();
    if (focus >= 0) this._restore();
    this.autoFit = true;
    this._applyView(0.3);
    this.controls.syncFilters(this.filters);
    this._remapMatches();
  }

  /** Number of filters that differ from the defaults (shown on the Filters button). */
  activeFilterCount() {
    const d = /** @type {GraphModel} */ (this.model).defaultFilters();
    const same = (/** @type {Set<string>} */ a, /** @type {Set<string>} */ b) =>
      a.size === b.size && [...a].every((x) => b.has(x));
    return Number(!same(d.kinds, this.filters.kinds)) + Number(!same(d.types, this.filters.types))
      + Number(this.filters.schema !== null) + Number(this.filters.tag !== null)
      + Number(this.filters.folder !== null);
  }

  /** @param {string} key */
  setColorBy(key) {
    if (!COLOR_KEYS.includes(key) || !this.model) return;
    this.colorKey = key;
    this.colors = this.model.colorsBy(key);
    this.controls.renderLegend(this.colors, this.colors.color, this.view, key);
    this.runner.setStyle(/** @type {any} */ (this.renderer.baseStyle), this._localColors());
    this.renderer.styleVersion += 1;
    this.requestDraw();
  }

  /** Enter or leave neighbourhood mode around the focused (or hovered) node. */
  toggleNeighbourhood() {
    if (this.local || !this.model) return;
    if (this.filters.focus >= 0) {
      this.filters.focus = -1;
      this._restore();
      this.autoFit = true;
      this._applyView(0.05);
    } else {
      const i = this.focus >= 0 ? this.focus : this.hover;
      if (i < 0) {
        this.controls.announce('Pick a node first (click it, or use the arrow keys), then press N.');
        this.controls.setStatus('Pick a node first: click it or use the arrow keys, then choose Neighbourhood.');
        return;
      }
      this.saved = this.pos.slice();
      this.filters.focus = i;
      this.focus = i;
      this.autoFit = true;
      this._applyView(0.8);
    }
    this.controls.syncFilters(this.filters);
    this._remapMatches();
  }

  _restore() {
    if (this.saved) this.pos.set(this.saved);
    this.saved = null;
  }

  /** @param {number} depth 1–3 */
  setDepth(depth) {
    this.filters.depth = Math.min(3, Math.max(1, depth));
    if (this.filters.focus >= 0) {
      this.autoFit = true;
      this._applyView(0.6);
    }
    this.controls.syncFilters(this.filters);
  }

  /**
   * Search the nodes (loads the lunr index on first use). Hits are mapped to
   * the shown node they are folded into.
   * @param {string} text
   * @returns {Promise<{nodes: number[], hidden: number}>}
   */
  async search(text) {
    if (!this.model) return { nodes: [], hidden: 0 };
    this.searcher ??= new NodeSearch(this.model, {
      indexUrl: this.options.searchIndexUrl, lunrUrl: this.options.lunrUrl,
    });
    if (!this.searcher.index && text.trim()) await this.searcher.load();
    this._hits = this.searcher.query(text, 500).map((hit) => hit.index);
    return this._remapMatches();
  }

  clearSearch() {
    this._hits = [];
    this._remapMatches();
  }

  _remapMatches() {
    /** @type {number[]} */
    const nodes = [];
    let hidden = 0;
    const seen = new Set();
    for (const i of this._hits || []) {
      const r = this.view.rep[i];
      if (r < 0) { hidden += 1; continue; }
      if (seen.has(r)) continue;
      seen.add(r);
      nodes.push(r);
    }
    this.matches = nodes.length ? new Uint8Array(this.pos.length >> 1) : null;
    for (const i of nodes) /** @type {Uint8Array} */ (this.matches)[i] = 1;
    this.requestDraw();
    return { nodes, hidden };
  }

  /** Stop the layout and release the worker (the page is going away). */
  dispose() {
    this.runner.dispose();
    this._resize.disconnect();
    this._unwatch();
    cancelAnimationFrame(this._frame);
    this.renderer.dropBase();
  }
}
