/**
 * Runs the layout (and, for large graphs, the base-layer rendering) in the
 * scene worker, or the layout time-sliced on the main thread when the graph
 * is small or workers are unavailable (some browsers refuse module workers
 * for pages opened from `file://`). Either way the main thread never
 * simulates for more than a few milliseconds at a time.
 *
 * @module beliefbase/graph/layout-runner
 */
import { ForceLayout } from './layout.js';

/** Main-thread simulation budget per slice, in milliseconds. */
const MAIN_SLICE_MS = 8;

/**
 * @typedef {object} SceneJob
 * @property {Float32Array} pos     interleaved x,y (copied)
 * @property {Int32Array} links     interleaved source,target (indices into pos)
 * @property {boolean} layout       run the force layout (false: keep positions)
 * @property {object} options       ForceLayout options
 * @property {Float32Array} radius  by index (worker rendering)
 * @property {Uint8Array} color     by index (worker rendering)
 * @property {import('./draw-base.js').BaseStyle} style
 * @property {import('./draw-base.js').BaseView | null} view
 * @property {boolean} useWorker    large graph: simulate and render in the worker
 */

export class LayoutRunner {
  /**
   * @param {{
   *   onPositions: (pos: Float32Array, progress: number, settled: boolean) => void,
   *   onFrame: (edges: ImageBitmap, nodes: ImageBitmap,
   *             view: import('./draw-base.js').BaseView) => void,
   *   onFallback: () => void,
   * }} callbacks
   */
  constructor(callbacks) {
    this.callbacks = callbacks;
    this.run = 0;
    /** @type {Worker | null} */
    this.worker = null;
    this.workerFailed = false;
    /** @type {ForceLayout | null} main-thread simulation */
    this.sim = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.running = false;
    this.inWorker = false;
    /** @type {SceneJob | null} */
    this.job = null;
    this._loadId = 0;
    /** @type {Map<number, {resolve: (payload: any) => void, reject: (err: Error) => void}>} */
    this._loads = new Map();
  }

  /**
   * Parse graph.json's bytes and build the model in the worker. Rejects with
   * `err.fallback = true` when there is no worker; `buffer` is then still
   * usable if it was never sent (`byteLength > 0`).
   * @param {ArrayBuffer} buffer
   * @returns {Promise<any>} the payload for GraphModel.unpack
   */
  load(buffer) {
    if (!this._ensureWorker()) {
      return Promise.reject(Object.assign(new Error('no worker'), { fallback: true }));
    }
    const id = ++this._loadId;
    return new Promise((resolve, reject) => {
      this._loads.set(id, { resolve, reject });
      /** @type {Worker} */ (this.worker).postMessage({ type: 'load', id, buffer }, [buffer]);
    });
  }

  /** Start the worker early, so it is ready when graph.json has arrived. */
  warmUp() {
    this._ensureWorker();
  }

  /** Whether the worker could render frames (before a job has started). */
  get canRenderInWorker() {
    return !this.workerFailed && typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined';
  }

  /** Whether base-layer frames come from the worker (else the main thread draws them). */
  get rendersFrames() {
    return this.inWorker && typeof OffscreenCanvas !== 'undefined';
  }

  /** Start (or restart) a job. @param {SceneJob} job */
  start(job) {
    this.stop();
    this.run += 1;
    this.job = job;
    this.running = job.layout;
    this.inWorker = job.useWorker && this._ensureWorker();
    if (this.inWorker) {
      const pos = job.pos.slice();
      /** @type {Worker} */ (this.worker).postMessage({
        type: 'start', run: this.run, pos, links: job.links, layout: job.layout,
        options: job.options, radius: job.radius, color: job.color, style: job.style,
        view: job.view,
      }, [pos.buffer]);
    } else if (job.layout) {
      this._startMain();
    }
  }

  _ensureWorker() {
    if (this.worker) return true;
    if (this.workerFailed || typeof Worker === 'undefined') return false;
    try {
      const url = new URL('./scene-worker.js', import.meta.url);
      this.worker = new Worker(url, { type: 'module', name: 'beliefbase-graph' });
    } catch {
      this.workerFailed = true;
      return false;
    }
    this.worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === 'loaded' || msg.type === 'load-error') {
        const pending = this._loads.get(msg.id);
        this._loads.delete(msg.id);
        if (msg.type === 'loaded') pending?.resolve(msg.payload);
        else pending?.reject(new Error(msg.message));
        return;
      }
      if (msg.run !== this.run) {
        msg.edges?.close();
        msg.nodes?.close();
        return;
      }
      if (msg.type === 'positions') {
        if (msg.settled) this.running = false;
        this.callbacks.onPositions(msg.pos, msg.progress, msg.settled);
      } else if (msg.type === 'frame') {
        this.callbacks.onFrame(msg.edges, msg.nodes, msg.view);
      }
    };
    this.worker.onerror = (event) => {
      // The worker could not load or crashed: finish the job on the main thread.
      event.preventDefault?.();
      console.warn('beliefbase graph: worker unavailable, laying out on the main thread');
      this.worker?.terminate();
      this.worker = null;
      this.workerFailed = true;
      this.inWorker = false;
      for (const pending of this._loads.values()) {
        pending.reject(Object.assign(new Error('worker failed'), { fallback: true }));
      }
      this._loads.clear();
      if (this.job?.layout && this.running) this._startMain();
      this.callbacks.onFallback();
    };
    return true;
  }

  _startMain() {
    if (!this.job) return;
    this.sim = new ForceLayout(this.job.pos.slice(), this.job.links, this.job.options);
    this._wake();
  }

  /** Schedule main-thread slices until the simulation settles. */
  _wake() {
    if (!this.sim || this.timer !== null) return;
    this.running = true;
    const run = this.run;
    const step = () => {
      this.timer = null;
      if (!this.sim || run !== this.run) return;
      const settled = this.sim.runFor(MAIN_SLICE_MS, () => performance.now());
      if (settled) this.running = false;
      this.callbacks.onPositions(this.sim.pos, this.sim.progress, settled);
      if (!settled) this.timer = setTimeout(step, 0);
    };
    this.timer = setTimeout(step, 0);
  }

  /**
   * New colours for the worker's frames.
   * @param {import('./draw-base.js').BaseStyle} style @param {Uint8Array} [color]
   */
  setStyle(style, color) {
    if (this.inWorker) this.worker?.postMessage({ type: 'style', run: this.run, style, color });
  }

  /** Ask the worker for a frame at this camera. @param {import('./draw-base.js').BaseView} view */
  setView(view) {
    if (this.inWorker) this.worker?.postMessage({ type: 'view', run: this.run, view });
  }

  /**
   * Pin node `i` at (x, y) while the user drags it; the layout keeps running
   * around it.
   * @param {number} i @param {number} x @param {number} y
   */
  pin(i, x, y) {
    if (this.inWorker) {
      if (this.job?.layout) this.running = true;
      this.worker?.postMessage({ type: 'pin', run: this.run, i, x, y });
    } else if (this.sim) {
      this.sim.pin(i, x, y);
      this.sim.alphaTarget = 0.1;
      if (this.sim.alpha < 0.1) this.sim.alpha = 0.1;
      this._wake();
    }
  }

  /** @param {number} i */
  unpin(i) {
    if (this.inWorker) {
      this.worker?.postMessage({ type: 'unpin', run: this.run, i });
    } else if (this.sim) {
      this.sim.pin(i, null);
      this.sim.alphaTarget = 0;
      this._wake();
    }
  }

  /** Stop the layout; positions stay where they are (frames keep coming on request). */
  stop() {
    this.running = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.sim = null;
    if (this.inWorker) this.worker?.postMessage({ type: 'stop', run: this.run });
  }

  /** Stop and release the worker. */
  dispose() {
    this.stop();
    this.worker?.terminate();
    this.worker = null;
  }
}
