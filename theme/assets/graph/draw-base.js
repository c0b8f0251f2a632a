/**
 * Draw the graph's base layer (background, edges, nodes) into any 2D context:
 * the visible canvas, an offscreen canvas on the main thread, or an
 * OffscreenCanvas in the worker. No DOM access, so the worker can import it.
 *
 * Cost notes (software raster, as in headless Chromium): edges are stroked
 * as one path at exactly one device pixel, which Skia draws as fast
 * hairlines (a wider stroke over tens of thousands of crossing segments is
 * orders of magnitude slower), and in an opaque colour (no blending).
 *
 * @module beliefbase/graph/draw-base
 */

/** Nodes never shrink below this many CSS pixels of radius. */
export const MIN_NODE_PX = 1.4;

/**
 * @typedef {object} BaseStyle
 * @property {string[]} palette  colour per palette index
 * @property {string} edge       opaque edge colour
 * @property {string} bg         background colour
 */

/**
 * @typedef {object} BaseScene
 * @property {Float32Array} pos    interleaved x,y
 * @property {ArrayLike<number> | null} nodes  indices to draw (null: all of pos)
 * @property {ArrayLike<number>} src  edge endpoints (indices into pos)
 * @property {ArrayLike<number>} dst
 * @property {Float32Array} radius  world radius by index
 * @property {Uint8Array} color     palette index by index
 * @property {boolean} [edges]      draw the edges (default true)
 */

/**
 * @typedef {object} BaseView
 * @property {{x: number, y: number, k: number}} camera  screen = world * k + (x, y)
 * @property {number} dpr
 * @property {number} left  CSS px: screen x drawn at the target's left edge
 * @property {number} top
 * @property {number} width   CSS px covered by the target
 * @property {number} height
 */

/**
 * Draw the base layer, or one of its two parts: `edges` (on the background)
 * or `nodes` (on transparency, to lay over the edges).
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {BaseScene} scene
 * @param {BaseStyle} style
 * @param {BaseView} view
 * @param {'all' | 'edges' | 'nodes'} [part]
 */
export function drawBase(ctx, scene, style, view, part = 'all') {
  const { camera, dpr } = view;
  const { k } = camera;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  if (part === 'nodes') {
    ctx.clearRect(0, 0, Math.ceil(view.width * dpr), Math.ceil(view.height * dpr));
  } else {
    ctx.fillStyle = style.bg;
    ctx.fillRect(0, 0, Math.ceil(view.width * dpr), Math.ceil(view.height * dpr));
  }
  // world -> target pixels
  const s = dpr * k;
  const tx = dpr * (camera.x - view.left);
  const ty = dpr * (camera.y - view.top);
  ctx.setTransform(s, 0, 0, s, tx, ty);
  const x0 = (view.left - camera.x) / k;
  const y0 = (view.top - camera.y) / k;
  const x1 = x0 + view.width / k;
  const y1 = y0 + view.height / k;

  const { pos, src, dst } = scene;
  if (part !== 'nodes' && scene.edges !== false && src.length) {
    ctx.beginPath();
    for (let e = 0; e < src.length; e++) {
      const a = 2 * src[e]; const b = 2 * dst[e];
      const ax = pos[a]; const ay = pos[a + 1]; const bx = pos[b]; const by = pos[b + 1];
      // Skip edges wholly on one side of the viewport.
      if ((ax < x0 && bx < x0) || (ax > x1 && bx > x1) || (ay < y0 && by < y0) || (ay > y1 && by > y1)) {
        continue;
      }
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
    }
    ctx.lineWidth = 1 / s; // one device pixel: the hairline fast path
    ctx.strokeStyle = style.edge;
    ctx.stroke();
  }
  if (part !== 'edges') drawNodes(ctx, scene, style.palette, k, [x0, y0, x1, y1]);
}

/**
 * Fill nodes, one path per colour. Expects a world transform on `ctx`.
 * @param {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D} ctx
 * @param {{pos: Float32Array, nodes: ArrayLike<number> | null, radius: Float32Array,
 *          color: Uint8Array}} scene
 * @param {string[]} palette
 * @param {number} k  camera zoom
 * @param {number[]} box  visible world rectangle x0, y0, x1, y1
 */
export function drawNodes(ctx, scene, palette, k, box) {
  const { pos, nodes, radius, color } = scene;
  const count = nodes ? nodes.length : pos.length >> 1;
  const minR = MIN_NODE_PX / k;
  const pad = 30 / k;
  const [x0, y0, x1, y1] = [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad];
  /** @type {number[][]} */
  const groups = palette.map(() => []);
  for (let n = 0; n < count; n++) {
    const i = nodes ? nodes[n] : n;
    const x = pos[2 * i]; const y = pos[2 * i + 1];
    if (x < x0 || x > x1 || y < y0 || y > y1) continue;
    (groups[color[i]] || groups[groups.length - 1]).push(i);
  }
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g];
    if (!group.length) continue;
    ctx.beginPath();
    for (const i of group) {
      const r = Math.max(radius[i], minR);
      ctx.moveTo(pos[2 * i] + r, pos[2 * i + 1]);
      ctx.arc(pos[2 * i], pos[2 * i + 1], r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = palette[g];
    ctx.fill();
  }
}
