/**
 * beliefbase graph viewer: the interactive graph of the whole knowledge base
 * (the `graph/` page, `data-mode="full"`) and the small local graph on every
 * page (`data-mode="local"`, centred on `data-node-id`). One code path for
 * both; options come from `data-*` attributes on the root element:
 *
 *   data-bb-graph                 marks a viewer root (required)
 *   data-mode="full" | "local"
 *   data-graph-url                graph.json
 *   data-search-index-url         search-index.json (full mode; prebuilt lunr)
 *   data-lunr-url                 lunr.js (loaded on the first search)
 *   data-site-root                the site root relative to this page ("../")
 *   data-node-id                  local mode: the page's node id (BID)
 *   data-depth                    local mode: 1 (default) or 2
 *   data-graph-page-url           local mode: link to the full graph page
 *   data-color-by                 schema | folder | tag | kind
 *   data-parse                    main | worker: where to parse graph.json
 *                                 (default: main on the graph page, worker for the local graph)
 *
 * The module starts every `[data-bb-graph]` on the page by itself (and again
 * after Material's instant navigation); `init(root)` starts one explicitly.
 *
 * @module beliefbase/graph
 */
import { COLOR_KEYS } from './model.js';
import { GraphView } from './viewer.js';

export { GraphView };

/** @param {HTMLElement} root @returns {import('./viewer.js').ViewerOptions} */
export function readOptions(root) {
  const d = root.dataset;
  const graphUrl = d.graphUrl || '_beliefbase/graph.json';
  return {
    mode: d.mode === 'local' ? 'local' : 'full',
    graphUrl,
    searchIndexUrl: d.searchIndexUrl || undefined,
    lunrUrl: d.lunrUrl || undefined,
    // graph.json lives in <site>/_beliefbase/, so its parent's parent is the root.
    siteRoot: d.siteRoot ?? new URL('../', new URL(graphUrl, window.location.href)).href,
    nodeId: d.nodeId || undefined,
    depth: Math.min(3, Math.max(1, Number(d.depth) || 1)),
    graphPageUrl: d.graphPageUrl || undefined,
    colorBy: d.colorBy && COLOR_KEYS.includes(d.colorBy) ? d.colorBy : undefined,
    parseIn: d.parse === 'main' || d.parse === 'worker' ? d.parse
      : d.mode === 'local' ? 'worker' : 'main',
  };
}

/* ----- start-up and the debug hook ----- */

/** @type {GraphView[]} */
const views = [];

/**
 * A small API over a viewer for tests and benchmarks (`window.__bbGraph`).
 * @param {GraphView} v
 */
function debugHook(v) {
  const id = (/** @type {number} */ i) => (i >= 0 && v.model ? v.model.nodes[i].id : null);
  const index = (/** @type {string} */ nodeId) => v.model?.index.get(nodeId) ?? -1;
  return {
    view: v,
    ready: () => v.root.dataset.bbReady === 'true',
    visibleNodeCount: () => (v.view ? v.view.nodes.length : 0),
    visibleEdgeCount: () => (v.view ? v.view.src.length : 0),
    visibleNodeIds: () => (v.view ? [...v.view.nodes].map(id) : []),
    focusedNodeId: () => id(v.focus),
    hoveredNodeId: () => id(v.hover),
    matchedNodeIds: () => (v.matches ? [...v.view.nodes].filter((i) => v.matches?.[i]).map(id) : []),
    isSettled: () => v.settled,
    /** The layout has settled and the camera has stopped moving. */
    isIdle: () => v.settled && !v.renderer.interactive && !v.cam.gliding,
    /**
     * Idle, and the canvas shows the final picture: for large graphs, the base
     * layer (edges, nodes) was drawn for these nodes at this camera.
     */
    isDrawn() {
      if (!v.view || !v.settled || v.renderer.interactive) return false;
      if (v.scene().mode === 'direct') return true;
      const { base, camera } = v.renderer;
      return !!base && base.run === v.run && base.view.camera.x === camera.x
        && base.view.camera.y === camera.y && base.view.camera.k === camera.k;
    },
    camera: () => ({ ...v.renderer.camera }),
    lastFrameMs: () => v.renderer.lastFrameMs,
    metrics: () => ({ ...v.metrics }),
    /** @param {string} nodeId  client coordinates of a node's centre, or null */
    nodeClientPosition(nodeId) {
      const i = index(nodeId);
      if (i < 0 || !v.view?.visible[i]) return null;
      const [sx, sy] = v.renderer.toScreen(v.pos[2 * i], v.pos[2 * i + 1]);
      const rect = v.canvas.getBoundingClientRect();
      return { x: rect.left + sx, y: rect.top + sy };
    },
    stopLayout: () => { v.runner.stop(); v.settled = true; v.controls.setProgress(null); v._status(); },
    panBy: (/** @type {number} */ dx, /** @type {number} */ dy) => v.panBy(dx, dy),
    zoomAt: (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ f) => v.zoomAt(x, y, f),
    drawNow: () => v.drawNow(),
  };
}

/**
 * Start the viewer in `root` (once).
 * @param {HTMLElement} root
 * @returns {GraphView | null}
 */
export function init(root) {
  if (root.dataset.bbStarted) return null;
  root.dataset.bbStarted = 'true';
  const options = readOptions(root);
  const view = new GraphView(root, options);
  views.push(view);
  const w = /** @type {any} */ (window);
  w.__bbGraphs = views.map(debugHook);
  if (options.mode === 'full' || !w.__bbGraph) w.__bbGraph = debugHook(view);
  if (options.mode === 'local' && 'IntersectionObserver' in window) {
    // Fetch the graph only when the local graph scrolls into view.
    const io = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        io.disconnect();
        view.load();
      }
    }, { rootMargin: '200px' });
    io.observe(root);
  } else {
    view.load();
  }
  return view;
}

/** Start every viewer on the page; stop those whose page has gone (instant navigation). */
export function initAll() {
  for (let k = views.length - 1; k >= 0; k--) {
    if (!views[k].root.isConnected) views.splice(k, 1)[0].dispose();
  }
  for (const root of document.querySelectorAll('[data-bb-graph]')) init(/** @type {HTMLElement} */ (root));
}

/** MkDocs-Material's instant navigation swaps the page without a reload. */
function followMaterial() {
  const material = /** @type {any} */ (window).document$;
  if (material && typeof material.subscribe === 'function') material.subscribe(() => initAll());
}

// The templates load this module with `async` right after the viewer's markup,
// so the roots exist already: start now, while the rest of the page (Material's
// scripts) still loads, and look again once the document is complete.
initAll();
if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => { initAll(); followMaterial(); });
} else {
  followMaterial();
}
