/**
 * Camera control for a viewer: fit the shown nodes, glide to a node, pan and
 * zoom (clamped), and tell the renderer when the camera moved so that it
 * blits until the camera rests.
 *
 * @module beliefbase/graph/camera
 */
import { SETTLE_MS } from './renderer.js';

const MIN_ZOOM = 0.003;
const MAX_ZOOM = 12;
const FIT_MAX_ZOOM = 2.5;

/**
 * @typedef {{x: number, y: number, k: number}} CameraState
 * @typedef {import('./viewer.js').GraphView} GraphView
 */

export class CameraControl {
  /** @param {GraphView} viewer */
  constructor(viewer) {
    this.viewer = viewer;
    this._anim = 0;
    this._idle = 0;
    /** a glide (``animate``) is under way */
    this.gliding = false;
  }

  /** Stop a glide where it is. */
  stop() {
    cancelAnimationFrame(this._anim);
    this.gliding = false;
  }

  get renderer() {
    return this.viewer.renderer;
  }

  /** A user moved the camera: blit until it rests, then draw (or ask for) a fresh base. */
  moved() {
    this.renderer.lastCameraChange = performance.now();
    clearTimeout(this._idle);
    this._idle = window.setTimeout(() => this.viewer.requestDraw(), SETTLE_MS + 10);
    this.viewer.requestDraw();
  }

  /** Bounding box of the shown nodes. @returns {[number, number, number, number]} */
  bounds() {
    const { view, pos, radius } = this.viewer;
    let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
    for (const i of view.nodes) {
      const x = pos[2 * i]; const y = pos[2 * i + 1]; const r = radius[i];
      x0 = Math.min(x0, x - r); x1 = Math.max(x1, x + r);
      y0 = Math.min(y0, y - r); y1 = Math.max(y1, y + r);
    }
    return Number.isFinite(x0) ? [x0, y0, x1, y1] : [-10, -10, 10, 10];
  }

  /** Fit the shown nodes into the canvas. @param {boolean} animate */
  fit(animate) {
    const v = this.viewer;
    if (!v.view) return;
    let box = this.bounds();
    if (v.local && v.centre >= 0) {
      // Keep the page's own node in the middle of the local graph.
      const cx = v.pos[2 * v.centre]; const cy = v.pos[2 * v.centre + 1];
      const rx = Math.max(cx - box[0], box[2] - cx); const ry = Math.max(cy - box[1], box[3] - cy);
      box = [cx - rx, cy - ry, cx + rx, cy + ry];
    }
    // On a phone the zoom buttons take the right edge: leave room for them and the labels.
    const pad = v.local ? 24 : this.renderer.width < 600 ? 60 : 40;
    const target = this.renderer.fitCamera(box, pad, FIT_MAX_ZOOM);
    // A programmatic fit (while the layout spreads out) is not a user's
    // camera move: the base layer keeps being redrawn for it.
    if (animate) this.animate(target);
    else Object.assign(this.renderer.camera, target);
    v.requestDraw();
  }

  /** Glide to a camera. @param {CameraState} target @param {number} [ms] */
  animate(target, ms = 350) {
    this.stop();
    const { renderer } = this;
    const from = { ...renderer.camera };
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    if (reduce || ms <= 0) {
      Object.assign(renderer.camera, target);
      this.moved();
      return;
    }
    const t0 = performance.now();
    const step = () => {
      const t = Math.min(1, (performance.now() - t0) / ms);
      const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
      // Interpolate the zoom geometrically, and the centre in world space.
      const k = from.k * (target.k / from.k) ** e;
      const w = renderer.width / 2; const h = renderer.height / 2;
      const cx = (w - from.x) / from.k + ((w - target.x) / target.k - (w - from.x) / from.k) * e;
      const cy = (h - from.y) / from.k + ((h - target.y) / target.k - (h - from.y) / from.k) * e;
      Object.assign(renderer.camera, { k, x: w - cx * k, y: h - cy * k });
      renderer.lastCameraChange = performance.now();
      this.viewer.drawNow();
      if (t < 1) this._anim = requestAnimationFrame(step);
      else {
        this.gliding = false;
        this.moved();
      }
    };
    this.gliding = true;
    this._anim = requestAnimationFrame(step);
  }

  /** Centre a world point, optionally zooming in to at least `minK`. @param {number} x @param {number} y @param {number} [minK] */
  centreOn(x, y, minK = 0) {
    const { renderer } = this;
    const k = Math.max(renderer.camera.k, minK);
    this.viewer.autoFit = false;
    this.animate({ k, x: renderer.width / 2 - x * k, y: renderer.height / 2 - y * k });
  }

  /** @param {number} dx @param {number} dy  CSS pixels */
  panBy(dx, dy) {
    this.stop();
    this.viewer.autoFit = false;
    this.renderer.camera.x += dx;
    this.renderer.camera.y += dy;
    this.moved();
  }

  /** Zoom about a screen point. @param {number} sx @param {number} sy @param {number} factor */
  zoomAt(sx, sy, factor) {
    this.stop();
    this.viewer.autoFit = false;
    const cam = this.renderer.camera;
    const k = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, cam.k * factor));
    cam.x = sx - ((sx - cam.x) * k) / cam.k;
    cam.y = sy - ((sy - cam.y) * k) / cam.k;
    cam.k = k;
    this.moved();
  }

  /** Zoom about the focused node, or the middle of the canvas. @param {number} factor */
  zoomCentre(factor) {
    const v = this.viewer;
    const [sx, sy] = v.focus >= 0
      ? this.renderer.toScreen(v.pos[2 * v.focus], v.pos[2 * v.focus + 1])
      : [this.renderer.width / 2, this.renderer.height / 2];
    this.zoomAt(sx, sy, factor);
  }
}
