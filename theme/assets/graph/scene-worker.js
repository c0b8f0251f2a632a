/**
 * Web Worker for large graphs: runs the force layout and rasterises the base
 * layer (edges and nodes) into an OffscreenCanvas, so neither ever blocks the
 * page. The main thread blits the frames it receives and draws only the
 * light overlays (labels, highlights) itself.
 *
 * main -> worker
 *   {type: 'load', id, buffer}   graph.json's bytes: parse them and build the model
 *       here, so a large graph.json never blocks the page (-> 'loaded')
 *   {type: 'start', run, pos, links, layout, options, radius, color, style, view}
 *       pos/links/radius/color are indexed by position in the shown-node list;
 *       layout false keeps the given positions (precomputed in graph.json)
 *   {type: 'style', run, style, color?}   new colours (theme switch, colour-by)
 *   {type: 'view', run, view}             render for this camera and size
 *   {type: 'pin', run, i, x, y} | {type: 'unpin', run, i} | {type: 'stop', run}
 * worker -> main
 *   {type: 'loaded', id, payload} | {type: 'load-error', id, message}
 *   {type: 'positions', run, pos, progress, settled}
 *   {type: 'frame', run, edges, nodes, view}   two ImageBitmaps: edges on the
 *       background, nodes on transparency (so the main thread can redraw the
 *       nodes sharply when zoomed in before the next frame arrives)
 *
 * `run` numbers a start; messages of an older run are ignored on both sides.
 *
 * @module beliefbase/graph/scene-worker
 */
import { drawBase } from './draw-base.js';
import { ForceLayout } from './layout.js';
import { GraphModel } from './model.js';

/** Milliseconds of simulation between two position messages. */
const SLICE_MS = 30;
/** While the layout moves, render at most this often (and never more than a third of the time). */
const MIN_RENDER_INTERVAL_MS = 120;

const canRender = typeof OffscreenCanvas !== 'undefined';

/** @type {any} */
let job = null;
let run = 0;
/** @type {ReturnType<typeof setTimeout> | null} */
let timer = null;

function schedule(delay = 0) {
  if (timer === null) timer = setTimeout(step, delay);
}

function step() {
  timer = null;
  if (!job) return;
  const { sim } = job;
  const moving = sim !== null && !sim.settled;
  if (moving) {
    const settled = sim.runFor(SLICE_MS, () => performance.now());
    const pos = sim.pos.slice();
    self.postMessage({ type: 'positions', run, pos, progress: sim.progress, settled }, [pos.buffer]);
    job.dirty = true;
  }
  let wait = 0;
  if (job.dirty && canRender && job.view && job.style) {
    const interval = sim && !sim.settled ? Math.max(MIN_RENDER_INTERVAL_MS, 3 * job.renderCost) : 0;
    wait = job.lastRender + interval - performance.now();
    if (wait <= 0) render();
  }
  if (sim && !sim.settled) schedule(0);
  else if (job.dirty && canRender && job.view && job.style) schedule(Math.max(0, wait));
}

/**
 * The OffscreenCanvas for one part of the base layer, at this size. The nodes
 * part must keep its alpha channel: it is laid over the edges, and on an
 * opaque canvas its cleared background would be black and hide them.
 * @param {'edges' | 'nodes'} part
 * @param {number} w @param {number} h
 */
function context(part, w, h) {
  let canvas = job.canvas[part];
  if (!canvas || canvas.width !== w || canvas.height !== h) {
    canvas = new OffscreenCanvas(w, h);
    job.canvas[part] = canvas;
  }
  return canvas.getContext('2d', { alpha: part === 'nodes' });
}

function render() {
  const { view } = job;
  const w = Math.max(1, Math.ceil(view.width * view.dpr));
  const h = Math.max(1, Math.ceil(view.height * view.dpr));
  const scene = {
    pos: job.sim ? job.sim.pos : job.pos, nodes: null, src: job.src, dst: job.dst,
    radius: job.radius, color: job.color,
  };
  const t0 = performance.now();
  drawBase(context('edges', w, h), scene, job.style, view, 'edges');
  drawBase(context('nodes', w, h), scene, job.style, view, 'nodes');
  const edges = job.canvas.edges.transferToImageBitmap();
  const nodes = job.canvas.nodes.transferToImageBitmap();
  job.renderCost = performance.now() - t0;
  job.lastRender = performance.now();
  job.dirty = false;
  self.postMessage({ type: 'frame', run, edges, nodes, view }, [edges, nodes]);
}

/** @param {Int32Array} links */
function split(links) {
  const m = links.length >> 1;
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    src[e] = links[2 * e];
    dst[e] = links[2 * e + 1];
  }
  return { src, dst };
}

/** @param {{id: number, buffer: ArrayBuffer}} msg */
function load(msg) {
  try {
    const model = new GraphModel(JSON.parse(new TextDecoder().decode(msg.buffer)));
    const { payload, transfer } = model.pack();
    self.postMessage({ type: 'loaded', id: msg.id, payload }, transfer);
  } catch (err) {
    self.postMessage({ type: 'load-error', id: msg.id, message: String(err) });
  }
}

self.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === 'load') {
    load(msg);
    return;
  }
  if (msg.type === 'start') {
    run = msg.run;
    const sim = msg.layout ? new ForceLayout(msg.pos, msg.links, msg.options) : null;
    job = {
      sim, pos: msg.pos, ...split(msg.links), radius: msg.radius, color: msg.color,
      style: msg.style, view: msg.view, dirty: true, lastRender: 0, renderCost: 0,
      canvas: { edges: null, nodes: null },
    };
    schedule();
    return;
  }
  if (!job || msg.run !== run) return;
  switch (msg.type) {
    case 'style':
      job.style = msg.style;
      if (msg.color) job.color = msg.color;
      job.dirty = true;
      break;
    case 'view':
      job.view = msg.view;
      job.dirty = true;
      break;
    case 'pin':
      if (job.sim) {
        job.sim.pin(msg.i, msg.x, msg.y);
        job.sim.alphaTarget = 0.1;
        if (job.sim.alpha < 0.1) job.sim.alpha = 0.1;
      } else {
        job.pos[2 * msg.i] = msg.x;
        job.pos[2 * msg.i + 1] = msg.y;
        job.dirty = true;
      }
      break;
    case 'unpin':
      if (job.sim) {
        job.sim.pin(msg.i, null);
        job.sim.alphaTarget = 0;
      }
      break;
    case 'stop':
      if (job.sim) job.sim = null;
      job.dirty = true;
      break;
    default:
      return;
  }
  schedule();
};
