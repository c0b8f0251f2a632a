/**
 * Force-directed layout: many-body repulsion approximated with a Barnes–Hut
 * quadtree, spring links, weak gravity towards the origin, velocity Verlet
 * with a cooling `alpha` (the same model and constants as d3-force, so the
 * results look familiar). Pure computation on typed arrays: no DOM, usable in
 * a Web Worker (layout-worker.js) or time-sliced on the main thread.
 *
 * @module beliefbase/graph/layout
 */

/** The simulation is settled when alpha falls below this. */
export const ALPHA_MIN = 0.001;

const THETA2 = 0.81; // Barnes–Hut opening criterion (theta = 0.9), squared
const DISTANCE_MIN2 = 1;
const MAX_DEPTH = 48; // deeper than this, coincident-ish points share a leaf
const VELOCITY_DECAY = 0.4;

/**
 * Initial positions on a sunflower (phyllotaxis) spiral, like d3-force: evenly
 * spread, deterministic, and fast to settle from.
 *
 * @param {number} k  position in the spiral
 * @returns {[number, number]}
 */
export function spiral(k) {
  const r = 10 * Math.sqrt(0.5 + k);
  const a = k * Math.PI * (3 - Math.sqrt(5));
  return [r * Math.cos(a), r * Math.sin(a)];
}

export class ForceLayout {
  /**
   * @param {Float32Array} pos  interleaved x,y per node; updated in place
   * @param {Uint32Array | Int32Array} links  interleaved source,target node indices
   * @param {{alpha?: number, charge?: number, linkDistance?: number,
   *          gravity?: number, iterations?: number, fixed?: number[]}} [options]
   *   `fixed`: nodes that keep their given position
   */
  constructor(pos, links, options = {}) {
    const n = pos.length >> 1;
    this.n = n;
    this.pos = pos;
    this.vel = new Float32Array(2 * n);
    this.links = links;
    this.fixed = new Uint8Array(n);
    for (const i of options.fixed ?? []) if (i >= 0 && i < n) this.fixed[i] = 1;
    this.alpha = options.alpha ?? 1;
    this.alphaTarget = 0;
    this.alphaDecay = 1 - Math.pow(ALPHA_MIN, 1 / (options.iterations ?? 300));
    this.charge = options.charge ?? -30;
    this.linkDistance = options.linkDistance ?? 30;
    this.gravity = options.gravity ?? 0.04;
    this.ticks = 0;
    this._seed = 1;

    const m = links.length >> 1;
    const count = new Float32Array(n);
    for (let e = 0; e < m; e++) {
      count[links[2 * e]] += 1;
      count[links[2 * e + 1]] += 1;
    }
    // d3-force: a link pulls less on a well-connected node (bias), and links
    // between hubs are weaker, so hubs do not collapse onto each other.
    this.bias = new Float32Array(m);
    this.strength = new Float32Array(m);
    for (let e = 0; e < m; e++) {
      const s = count[links[2 * e]];
      const t = count[links[2 * e + 1]];
      this.bias[e] = s / (s + t);
      this.strength[e] = 1 / Math.min(s, t);
    }
    // Hubs repel a little more, which gives their neighbourhoods room.
    this.mass = new Float32Array(n);
    for (let i = 0; i < n; i++) this.mass[i] = 1 + Math.sqrt(count[i]) * 0.25;
    this._allocTree(4 * n + 16);
    this._next = new Int32Array(n);
    this._stack = new Int32Array(4 * MAX_DEPTH + 8);
  }

  /** @param {number} capacity */
  _allocTree(capacity) {
    this.cap = capacity;
    this.cx = new Float64Array(capacity); // cell min corner
    this.cy = new Float64Array(capacity);
    this.size = new Float64Array(capacity);
    this.child = new Int32Array(4 * capacity);
    this.body = new Int32Array(capacity); // leaf: first body in chain; -1 empty; -2 internal
    this.parent = new Int32Array(capacity);
    this.cmass = new Float64Array(capacity);
    this.mx = new Float64Array(capacity);
    this.my = new Float64Array(capacity);
  }

  _grow() {
    const old = this;
    const copy = {
      cx: old.cx, cy: old.cy, size: old.size, child: old.child, body: old.body, parent: old.parent,
    };
    this._allocTree(old.cap * 2);
    this.cx.set(copy.cx);
    this.cy.set(copy.cy);
    this.size.set(copy.size);
    this.child.set(copy.child);
    this.body.set(copy.body);
    this.parent.set(copy.parent);
  }

  /** Deterministic tiny offset for coincident points (d3's "jiggle"). */
  _jiggle() {
    this._seed = (this._seed * 1664525 + 1013904223) >>> 0;
    return (this._seed / 4294967296 - 0.5) * 1e-6;
  }

  /**
   * @param {number} x @param {number} y @param {number} size @param {number} parent
   * @returns {number}
   */
  _cell(x, y, size, parent) {
    if (this.cells >= this.cap) this._grow();
    const c = this.cells++;
    this.cx[c] = x;
    this.cy[c] = y;
    this.size[c] = size;
    this.body[c] = -1;
    this.parent[c] = parent;
    this.child.fill(-1, 4 * c, 4 * c + 4);
    return c;
  }

  /** Child cell of `c` for quadrant `q`, created on demand. */
  _childCell(c, q) {
    let k = this.child[4 * c + q];
    if (k < 0) {
      const half = this.size[c] / 2;
      k = this._cell(this.cx[c] + (q & 1 ? half : 0), this.cy[c] + (q & 2 ? half : 0), half, c);
      this.child[4 * c + q] = k;
    }
    return k;
  }

  _buildTree() {
    const { pos, n } = this;
    let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = pos[2 * i]; const y = pos[2 * i + 1];
      if (x < x0) x0 = x; if (x > x1) x1 = x;
      if (y < y0) y0 = y; if (y > y1) y1 = y;
    }
    const size = Math.max(x1 - x0, y1 - y0, 1) * 1.0001 + 1;
    this.cells = 0;
    const root = this._cell(x0 - 0.5, y0 - 0.5, size, -1);
    for (let i = 0; i < n; i++) this._insert(root, i);
    this._accumulate();
  }

  /** @param {number} root @param {number} i */
  _insert(root, i) {
    const { pos } = this;
    const x = pos[2 * i]; const y = pos[2 * i + 1];
    let c = root;
    for (let depth = 0; ; depth++) {
      const b = this.body[c];
      if (b === -1) { this.body[c] = i; this._next[i] = -1; return; }
      if (b >= 0) {
        const bx = pos[2 * b]; const by = pos[2 * b + 1];
        if ((bx === x && by === y) || depth >= MAX_DEPTH) {
          this._next[i] = b; this.body[c] = i; return; // share the leaf
        }
        // Split: push the resident chain one level down, then retry here.
        this.body[c] = -2;
        const half = this.size[c] / 2;
        const qb = (bx >= this.cx[c] + half ? 1 : 0) | (by >= this.cy[c] + half ? 2 : 0);
        const k = this._childCell(c, qb);
        this.body[k] = b;
      }
      const half = this.size[c] / 2;
      const q = (x >= this.cx[c] + half ? 1 : 0) | (y >= this.cy[c] + half ? 2 : 0);
      c = this._childCell(c, q);
    }
  }

  /** Mass and centre of mass of every cell (children always have higher indices). */
  _accumulate() {
    const { pos, mass, cmass, mx, my } = this;
    cmass.fill(0, 0, this.cells);
    mx.fill(0, 0, this.cells);
    my.fill(0, 0, this.cells);
    for (let c = this.cells - 1; c >= 0; c--) {
      for (let b = this.body[c]; b >= 0; b = this._next[b]) {
        cmass[c] += mass[b]; mx[c] += pos[2 * b] * mass[b]; my[c] += pos[2 * b + 1] * mass[b];
      }
      const p = this.parent[c];
      if (p >= 0) { cmass[p] += cmass[c]; mx[p] += mx[c]; my[p] += my[c]; }
    }
    for (let c = 0; c < this.cells; c++) {
      if (cmass[c] > 0) { mx[c] /= cmass[c]; my[c] /= cmass[c]; }
    }
  }

  _manyBody() {
    const { pos, vel, mass, cmass, mx, my, size, child, body, _stack: stack, _next: next } = this;
    const strength = this.charge * this.alpha;
    for (let i = 0; i < this.n; i++) {
      const xi = pos[2 * i]; const yi = pos[2 * i + 1];
      let fx = 0; let fy = 0;
      let top = 0;
      stack[top++] = 0;
      while (top > 0) {
        const c = stack[--top];
        if (cmass[c] === 0) continue;
        let dx = mx[c] - xi; let dy = my[c] - yi;
        let d2 = dx * dx + dy * dy;
        const w = size[c];
        if (w * w < THETA2 * d2) {
          if (d2 < DISTANCE_MIN2) d2 = Math.sqrt(DISTANCE_MIN2 * d2);
          const f = (strength * cmass[c]) / d2;
          fx += dx * f; fy += dy * f;
          continue;
        }
        if (body[c] === -2) {
          for (let q = 0; q < 4; q++) {
            const k = child[4 * c + q];
            if (k >= 0) stack[top++] = k;
          }
          continue;
        }
        for (let b = body[c]; b >= 0; b = next[b]) {
          if (b === i) continue;
          dx = pos[2 * b] - xi; dy = pos[2 * b + 1] - yi;
          if (dx === 0) dx = this._jiggle();
          if (dy === 0) dy = this._jiggle();
          d2 = dx * dx + dy * dy;
          if (d2 < DISTANCE_MIN2) d2 = Math.sqrt(DISTANCE_MIN2 * d2);
          const f = (strength * mass[b]) / d2;
          fx += dx * f; fy += dy * f;
        }
      }
      vel[2 * i] += fx * mass[i];
      vel[2 * i + 1] += fy * mass[i];
    }
  }

  _springs() {
    const { pos, vel, links, bias, strength } = this;
    const m = links.length >> 1;
    for (let e = 0; e < m; e++) {
      const s = links[2 * e]; const t = links[2 * e + 1];
      let x = pos[2 * t] + vel[2 * t] - pos[2 * s] - vel[2 * s] || this._jiggle();
      let y = pos[2 * t + 1] + vel[2 * t + 1] - pos[2 * s + 1] - vel[2 * s + 1] || this._jiggle();
      let l = Math.sqrt(x * x + y * y);
      l = ((l - this.linkDistance) / l) * this.alpha * strength[e];
      x *= l; y *= l;
      const b = bias[e];
      vel[2 * t] -= x * b; vel[2 * t + 1] -= y * b;
      vel[2 * s] += x * (1 - b); vel[2 * s + 1] += y * (1 - b);
    }
  }

  /** One simulation step. @returns {number} the new alpha */
  tick() {
    this.alpha += (this.alphaTarget - this.alpha) * this.alphaDecay;
    if (this.n > 1) {
      this._buildTree();
      this._manyBody();
    }
    this._springs();
    const { pos, vel, n } = this;
    const g = this.gravity * this.alpha;
    for (let i = 0; i < n; i++) {
      if (this.fixed[i]) { vel[2 * i] = 0; vel[2 * i + 1] = 0; continue; }
      vel[2 * i] = (vel[2 * i] - pos[2 * i] * g) * (1 - VELOCITY_DECAY);
      vel[2 * i + 1] = (vel[2 * i + 1] - pos[2 * i + 1] * g) * (1 - VELOCITY_DECAY);
      pos[2 * i] += vel[2 * i];
      pos[2 * i + 1] += vel[2 * i + 1];
    }
    this.ticks += 1;
    return this.alpha;
  }

  /** @returns {boolean} */
  get settled() {
    return this.alpha < ALPHA_MIN && this.alphaTarget < ALPHA_MIN;
  }

  /** Share of the cooling done, 0..1, for a progress bar. */
  get progress() {
    const done = Math.log(Math.max(this.alpha, ALPHA_MIN)) / Math.log(ALPHA_MIN);
    return Math.min(1, Math.max(0, done));
  }

  /**
   * Pin a node (while it is dragged) or release it (x = null).
   * @param {number} i @param {number | null} x @param {number} [y]
   */
  pin(i, x, y = 0) {
    if (i < 0 || i >= this.n) return;
    if (x === null) { this.fixed[i] = 0; return; }
    this.fixed[i] = 1;
    this.pos[2 * i] = x;
    this.pos[2 * i + 1] = y;
  }

  /**
   * Run ticks until `budgetMs` has passed or the layout settles.
   * @param {number} budgetMs
   * @param {() => number} now  a clock (performance.now)
   * @returns {boolean} whether the layout has settled
   */
  runFor(budgetMs, now) {
    const end = now() + budgetMs;
    while (!this.settled && now() < end) this.tick();
    return this.settled;
  }
}
