/**
 * The graph model: graph.json (or the slimmer graph-view.json, whose edges
 * are index triples) normalised into typed arrays, the facets the filters
 * offer, and the *view* (which nodes and edges are shown for a given set of
 * filters).
 *
 * Sections and blocks are folded into their document unless the user shows
 * their kind: an edge from a section counts as an edge from its document.
 * Nothing here touches the DOM.
 *
 * @module beliefbase/graph/model
 */

/** Kinds folded into their structural parent when their kind is not shown. */
export const FOLDED_KINDS = new Set(['Section', 'Block']);

/** Kinds shown when the viewer opens. */
export const DEFAULT_KINDS = ['Document'];

/** Structural rank, used to tell child from parent on a Subsection edge. */
const KIND_RANK = /** @type {Record<string, number>} */ ({
  Network: 0, Document: 1, Section: 2, Block: 3,
});

/** Category keys the nodes can be coloured by. */
export const COLOR_KEYS = ['schema', 'folder', 'tag', 'kind'];

/** Number of distinct category colours before the rest become "other". */
export const PALETTE_SIZE = 10;
/** Colour index of categories past PALETTE_SIZE. */
export const OTHER = PALETTE_SIZE;
/** Colour index of nodes with no value (no schema, no tag). */
export const NONE = PALETTE_SIZE + 1;

/**
 * @typedef {object} GraphNode
 * @property {string} id
 * @property {string} kind
 * @property {string | null} schema
 * @property {string} title
 * @property {string | null} url
 * @property {string | null} path
 * @property {string[]} tags
 * @property {string} folder
 * @property {string[]} aliases
 * @property {string[]} headings
 * @property {number} [x]  precomputed position, if the build laid the graph out
 * @property {number} [y]
 */

/**
 * @typedef {object} Filters
 * @property {Set<string>} kinds   node kinds to show
 * @property {Set<string>} types   edge types to show
 * @property {string | null} schema  null = any; '' = nodes without a schema
 * @property {string | null} tag     null = any
 * @property {string | null} folder  null = any; a folder includes its subfolders
 * @property {number} focus        node index for neighbourhood mode, -1 = off
 * @property {number} depth        neighbourhood depth (1–3)
 */

/**
 * @typedef {object} View
 * @property {Uint8Array} visible  1 for every shown node (index = node index)
 * @property {Int32Array} nodes    shown node indices, by decreasing degree
 * @property {Int32Array} src      shown edges (undirected, deduplicated)
 * @property {Int32Array} dst
 * @property {Int32Array} adjStart CSR adjacency of the shown edges
 * @property {Int32Array} adj
 * @property {Int32Array} rep      node index -> the shown node it is folded into, or -1
 * @property {number} focus        the neighbourhood centre as a shown node, or -1
 */

/** @param {unknown} v @returns {string[]} */
function stringList(v) {
  if (!Array.isArray(v)) return [];
  for (const x of v) if (typeof x !== 'string') return v.filter((y) => typeof y === 'string');
  return v;
}

/** @param {unknown} v @returns {string | null} */
function stringOrNull(v) {
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * Check one node of graph.json, fixing what is malformed in place (the JSON
 * was parsed for us alone). In place, because copying thousands of objects is
 * a noticeable part of the first paint.
 * @param {any} raw
 * @returns {GraphNode}
 */
function normalizeNode(raw) {
  if (typeof raw.kind !== 'string') raw.kind = 'Document';
  if (raw.schema !== null) raw.schema = stringOrNull(raw.schema);
  if (typeof raw.title !== 'string' || raw.title === '') raw.title = raw.id;
  if (raw.url !== null) raw.url = stringOrNull(raw.url);
  if (raw.path !== null) raw.path = stringOrNull(raw.path);
  raw.tags = stringList(raw.tags);
  raw.aliases = stringList(raw.aliases);
  raw.headings = stringList(raw.headings);
  if (typeof raw.folder !== 'string') raw.folder = '';
  else if (raw.folder.startsWith('/') || raw.folder.endsWith('/')) {
    raw.folder = raw.folder.replace(/^\/+|\/+$/g, '');
  }
  if (raw.x !== undefined && !(Number.isFinite(raw.x) && Number.isFinite(raw.y))) {
    delete raw.x;
    delete raw.y;
  }
  return raw;
}

/**
 * Distinct undirected pairs among (a[e], b[e]), self-pairs dropped: sorting
 * numeric keys is much faster than a Set of them.
 * @param {ArrayLike<number>} a @param {ArrayLike<number>} b @param {number} count
 * @param {number} n  number of nodes
 * @returns {{src: Int32Array, dst: Int32Array}}
 */
function uniquePairs(a, b, count, n) {
  const keys = new Float64Array(count);
  let m = 0;
  for (let e = 0; e < count; e++) {
    const s = a[e]; const t = b[e];
    if (s === t) continue;
    keys[m++] = s < t ? s * n + t : t * n + s;
  }
  const sorted = keys.subarray(0, m).sort();
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  let u = 0;
  for (let k = 0; k < m; k++) {
    if (k > 0 && sorted[k] === sorted[k - 1]) continue;
    const lo = Math.floor(sorted[k] / n);
    src[u] = lo;
    dst[u] = sorted[k] - lo * n;
    u += 1;
  }
  return { src: src.slice(0, u), dst: dst.slice(0, u) };
}

/**
 * @param {Map<string, number>} map
 * @param {string} key
 */
function bump(map, key) {
  map.set(key, (map.get(key) || 0) + 1);
}

/** @param {Map<string, number>} map @returns {[string, number][]} */
function byCount(map) {
  return [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

export class GraphModel {
  /**
   * @param {any} json  the parsed graph.json
   */
  constructor(json) {
    if (!json || typeof json !== 'object' || !Array.isArray(json.nodes)) {
      throw new Error('graph.json has no "nodes" array');
    }
    /** @type {GraphNode[]} */
    this.nodes = [];
    /** @type {Map<string, number>} */
    this.index = new Map();
    /** position in json.nodes -> node index (-1: skipped), for compact numeric edge ends */
    const positions = new Int32Array(json.nodes.length).fill(-1);
    json.nodes.forEach((/** @type {any} */ raw, k) => {
      if (!raw || typeof raw.id !== 'string' || this.index.has(raw.id)) return;
      positions[k] = this.nodes.length;
      this.index.set(raw.id, this.nodes.length);
      this.nodes.push(normalizeNode(raw));
    });
    if (Array.isArray(json.types) && Array.isArray(json.edges)) {
      this._readTriples(json.edges, json.types, positions);
    } else {
      this._readEdges(Array.isArray(json.edges) ? json.edges : [], positions);
    }
    this._readParents();
    this._readFacets();
    this.degree = this._globalDegree();
  }

  /**
   * The model as a structured-clone payload and its transferable buffers, so
   * the worker can parse graph.json and build the model off the main thread.
   * @returns {{payload: object, transfer: ArrayBuffer[]}}
   */
  pack() {
    const payload = {
      nodes: this.nodes, types: this.types, facets: this.facets, hasPositions: this.hasPositions,
      droppedEdges: this.droppedEdges, edgeSrc: this.edgeSrc.slice(), edgeDst: this.edgeDst.slice(),
      edgeType: this.edgeType.slice(), edgeStructural: this.edgeStructural.slice(),
      parent: this.parent, degree: this.degree,
    };
    const transfer = [payload.edgeSrc, payload.edgeDst, payload.edgeType, payload.edgeStructural,
      payload.parent, payload.degree].map((a) => /** @type {ArrayBuffer} */ (a.buffer));
    return { payload, transfer };
  }

  /**
   * Rebuild a model from `pack()`'s payload.
   * @param {any} payload
   * @returns {GraphModel}
   */
  static unpack(payload) {
    const model = /** @type {GraphModel} */ (Object.create(GraphModel.prototype));
    Object.assign(model, payload);
    model.index = new Map();
    model.nodes.forEach((node, i) => model.index.set(node.id, i));
    return model;
  }

  /** @param {any[]} edges @param {Int32Array} positions */
  _readEdges(edges, positions) {
    const n = edges.length;
    const src = new Int32Array(n);
    const dst = new Int32Array(n);
    const type = new Uint16Array(n);
    const structural = new Uint8Array(n);
    /** @type {Map<string, number>} */
    const typeIndex = new Map();
    /** @type {string[]} */
    this.types = [];
    let m = 0;
    /** @param {unknown} end  a node id, or (compact files) a node's position in "nodes" */
    const lookup = (end) => {
      if (typeof end !== 'number') return this.index.get(/** @type {string} */ (end));
      const i = Number.isInteger(end) && end >= 0 ? positions[end] : -1;
      return i >= 0 ? i : undefined;
    };
    for (const e of edges) {
      const s = e ? lookup(e.source) : undefined;
      const t = e ? lookup(e.target) : undefined;
      if (s === undefined || t === undefined) continue;
      const name = typeof e.type === 'string' && e.type !== '' ? e.type : 'links_to';
      let ti = typeIndex.get(name);
      if (ti === undefined) {
        ti = this.types.length;
        typeIndex.set(name, ti);
        this.types.push(name);
      }
      src[m] = s;
      dst[m] = t;
      type[m] = ti;
      structural[m] = e.weight_kind === 'Subsection' ? 1 : 0;
      m += 1;
    }
    this.edgeSrc = src.subarray(0, m);
    this.edgeDst = dst.subarray(0, m);
    this.edgeType = type.subarray(0, m);
    this.edgeStructural = structural.subarray(0, m);
    this.droppedEdges = n - m;
  }

  /**
   * Edges of the viewer's own file (graph-view.json): one flat list of
   * `source, target, type` triples, ends as positions in "nodes", type as an
   * index into `types`. Sections are folded into documents there already.
   * @param {unknown[]} flat @param {unknown[]} typeNames @param {Int32Array} positions
   */
  _readTriples(flat, typeNames, positions) {
    const count = Math.floor(flat.length / 3);
    const src = new Int32Array(count);
    const dst = new Int32Array(count);
    const type = new Uint16Array(count);
    /** @type {Map<string, number>} */
    const typeIndex = new Map();
    /** @type {string[]} */
    this.types = [];
    /** @type {number[]} file type index -> model type index */
    const remap = typeNames.map((raw) => {
      const name = typeof raw === 'string' && raw !== '' ? raw : 'links_to';
      let ti = typeIndex.get(name);
      if (ti === undefined) {
        ti = this.types.length;
        typeIndex.set(name, ti);
        this.types.push(name);
      }
      return ti;
    });
    const n = positions.length;
    let m = 0;
    for (let e = 0; e < count; e++) {
      const a = /** @type {number} */ (flat[3 * e]);
      const b = /** @type {number} */ (flat[3 * e + 1]);
      const k = /** @type {number} */ (flat[3 * e + 2]);
      const s = Number.isInteger(a) && a >= 0 && a < n ? positions[a] : -1;
      const t = Number.isInteger(b) && b >= 0 && b < n ? positions[b] : -1;
      const ti = Number.isInteger(k) ? remap[k] : undefined;
      if (s < 0 || t < 0 || ti === undefined) continue;
      src[m] = s;
      dst[m] = t;
      type[m] = ti;
      m += 1;
    }
    this.edgeSrc = src.subarray(0, m);
    this.edgeDst = dst.subarray(0, m);
    this.edgeType = type.subarray(0, m);
    this.edgeStructural = new Uint8Array(m);
    this.droppedEdges = count - m;
  }

  /** Structural parent of every node, from Subsection edges (child = deeper kind). */
  _readParents() {
    const n = this.nodes.length;
    this.parent = new Int32Array(n).fill(-1);
    for (let e = 0; e < this.edgeSrc.length; e++) {
      if (!this.edgeStructural[e]) continue;
      const a = this.edgeSrc[e];
      const b = this.edgeDst[e];
      const ra = KIND_RANK[this.nodes[a].kind] ?? 9;
      const rb = KIND_RANK[this.nodes[b].kind] ?? 9;
      // Equal ranks (a section under a section) follow `child_of`: source is the child.
      const child = ra > rb || (ra === rb && this.types[this.edgeType[e]] === 'child_of') ? a : b;
      const parent = child === a ? b : a;
      if (this.parent[child] < 0) this.parent[child] = parent;
    }
    // A section whose structural edge is missing still belongs to its file's document.
    /** @type {Map<string, number>} */
    const docByPath = new Map();
    this.nodes.forEach((node, i) => {
      if (node.kind === 'Document' && node.path) docByPath.set(node.path, i);
    });
    this.nodes.forEach((node, i) => {
      if (FOLDED_KINDS.has(node.kind) && this.parent[i] < 0 && node.path) {
        this.parent[i] = docByPath.get(node.path) ?? -1;
      }
    });
  }

  _readFacets() {
    /** @type {Map<string, number>} */ const kinds = new Map();
    /** @type {Map<string, number>} */ const schemas = new Map();
    /** @type {Map<string, number>} */ const tags = new Map();
    /** @type {Map<string, number>} */ const folders = new Map();
    /** @type {Map<string, number>} */ const ownFolders = new Map();
    let positioned = 0;
    let placeable = 0;
    for (const node of this.nodes) {
      bump(kinds, node.kind);
      if (FOLDED_KINDS.has(node.kind)) continue;
      placeable += 1;
      if (node.x !== undefined) positioned += 1;
      if (node.schema !== null) bump(schemas, node.schema);
      node.tags.forEach((tag, k) => { if (node.tags.indexOf(tag) === k) bump(tags, tag); });
      if (node.folder) bump(ownFolders, node.folder);
    }
    // A folder filter includes subfolders, so every ancestor folder is an option.
    for (const [folder, count] of ownFolders) {
      const parts = folder.split('/');
      for (let i = 1; i <= parts.length; i++) {
        const prefix = parts.slice(0, i).join('/');
        folders.set(prefix, (folders.get(prefix) || 0) + count);
      }
    }
    /** @type {Map<string, number>} */ const types = new Map();
    for (let e = 0; e < this.edgeType.length; e++) bump(types, this.types[this.edgeType[e]]);
    this.facets = {
      kinds: byCount(kinds),
      schemas: byCount(schemas),
      tags: byCount(tags),
      folders: [...folders].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      types: byCount(types),
    };
    this.hasPositions = placeable > 0 && positioned === placeable;
  }

  /** Distinct linked neighbours of every node, sections folded into documents. */
  _globalDegree() {
    const n = this.nodes.length;
    const top = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      let j = i;
      for (let d = 0; d < 16 && FOLDED_KINDS.has(this.nodes[j].kind) && this.parent[j] >= 0; d++) {
        j = this.parent[j];
      }
      top[i] = j;
    }
    const m = this.edgeSrc.length;
    const a = new Int32Array(m);
    const b = new Int32Array(m);
    let count = 0;
    for (let e = 0; e < m; e++) {
      if (this.edgeStructural[e]) continue;
      a[count] = top[this.edgeSrc[e]];
      b[count] = top[this.edgeDst[e]];
      count += 1;
    }
    const pairs = uniquePairs(a, b, count, n);
    const degree = new Int32Array(n);
    for (let e = 0; e < pairs.src.length; e++) {
      degree[pairs.src[e]] += 1;
      degree[pairs.dst[e]] += 1;
    }
    return degree;
  }

  /** @returns {Filters} the filters the viewer opens with */
  defaultFilters() {
    const present = new Set(this.facets.kinds.map(([k]) => k));
    const kinds = new Set(DEFAULT_KINDS.filter((k) => present.has(k)));
    if (kinds.size === 0) {
      for (const [k] of this.facets.kinds) if (!FOLDED_KINDS.has(k)) kinds.add(k);
    }
    return {
      kinds,
      types: new Set(this.types),
      schema: null,
      tag: null,
      folder: null,
      focus: -1,
      depth: 1,
    };
  }

  /**
   * Whether node `i` passes the kind/schema/tag/folder filters on its own.
   * @param {number} i
   * @param {Filters} f
   */
  passes(i, f) {
    const node = this.nodes[i];
    if (!f.kinds.has(node.kind)) return false;
    if (f.schema !== null && (node.schema ?? '') !== f.schema) return false;
    if (f.tag !== null && !node.tags.includes(f.tag)) return false;
    if (f.folder !== null && node.folder !== f.folder && !node.folder.startsWith(`${f.folder}/`)) {
      return false;
    }
    return true;
  }

  /**
   * Compute which nodes and edges are shown.
   * @param {Filters} f
   * @returns {View}
   */
  computeView(f) {
    const n = this.nodes.length;
    const pass = new Uint8Array(n);
    for (let i = 0; i < n; i++) pass[i] = this.passes(i, f) ? 1 : 0;
    const rep = this._representatives(pass);

    const typeOn = this.types.map((t) => f.types.has(t));
    const m = this.edgeSrc.length;
    const a = new Int32Array(m);
    const b = new Int32Array(m);
    let count = 0;
    for (let e = 0; e < m; e++) {
      if (!typeOn[this.edgeType[e]]) continue;
      const s = rep[this.edgeSrc[e]];
      const t = rep[this.edgeDst[e]];
      if (s < 0 || t < 0) continue;
      a[count] = s;
      b[count] = t;
      count += 1;
    }
    let { src: es, dst: ed } = uniquePairs(a, b, count, n);
    let visible = pass;
    let focus = f.focus >= 0 && f.focus < n ? rep[f.focus] : -1;
    if (f.focus >= 0) {
      visible = focus >= 0 ? this._ball(focus, f.depth, es, ed, n) : new Uint8Array(n);
      let kept = 0;
      for (let e = 0; e < es.length; e++) {
        if (visible[es[e]] && visible[ed[e]]) { es[kept] = es[e]; ed[kept] = ed[e]; kept += 1; }
      }
      es = es.slice(0, kept);
      ed = ed.slice(0, kept);
    } else {
      focus = -1;
    }
    const nodes = [];
    for (let i = 0; i < n; i++) if (visible[i]) nodes.push(i);
    nodes.sort((a, b) => this.degree[b] - this.degree[a] || a - b);
    for (let i = 0; i < n; i++) if (rep[i] >= 0 && !visible[rep[i]]) rep[i] = -1;
    const { adjStart, adj } = csr(n, es, ed);
    return { visible, nodes: Int32Array.from(nodes), src: es, dst: ed, adjStart, adj, rep, focus };
  }

  /**
   * Fold every node that is not shown into the nearest shown structural ancestor.
   * @param {Uint8Array} pass
   */
  _representatives(pass) {
    const n = pass.length;
    const rep = new Int32Array(n).fill(-2);
    for (let i = 0; i < n; i++) {
      const chain = [];
      let j = i;
      let found = -1;
      for (let d = 0; d < 64; d++) {
        if (rep[j] !== -2) { found = rep[j]; break; }
        if (pass[j]) { found = j; break; }
        chain.push(j);
        if (!FOLDED_KINDS.has(this.nodes[j].kind) || this.parent[j] < 0) break;
        j = this.parent[j];
      }
      for (const c of chain) rep[c] = found;
      if (pass[i]) rep[i] = i;
    }
    return rep;
  }

  /**
   * Nodes within `depth` links of `centre` (breadth-first, undirected).
   * @param {number} centre
   * @param {number} depth
   * @param {Int32Array} src
   * @param {Int32Array} dst
   * @param {number} n
   */
  _ball(centre, depth, src, dst, n) {
    const { adjStart, adj } = csr(n, src, dst);
    const dist = new Int8Array(n).fill(-1);
    const visible = new Uint8Array(n);
    dist[centre] = 0;
    visible[centre] = 1;
    let frontier = [centre];
    for (let d = 1; d <= depth && frontier.length; d++) {
      const next = [];
      for (const u of frontier) {
        for (let k = adjStart[u]; k < adjStart[u + 1]; k++) {
          const v = adj[k];
          if (dist[v] >= 0) continue;
          dist[v] = d;
          visible[v] = 1;
          next.push(v);
        }
      }
      frontier = next;
    }
    return visible;
  }

  /**
   * Colour index (0..PALETTE_SIZE-1, OTHER or NONE) of every node, and the
   * category label of each index, for one colour key.
   * @param {string} key  one of COLOR_KEYS
   * @returns {{color: Uint8Array, labels: string[], category: (i: number) => string | null}}
   */
  colorsBy(key) {
    /** @type {(i: number) => string | null} */
    const category = (i) => {
      const node = this.nodes[i];
      if (key === 'schema') return node.schema;
      if (key === 'folder') return node.folder.split('/')[0] || null;
      if (key === 'tag') return node.tags[0] ?? null;
      return node.kind;
    };
    /** @type {Map<string, number>} */
    const counts = new Map();
    this.nodes.forEach((node, i) => {
      if (FOLDED_KINDS.has(node.kind) && key !== 'kind') return;
      const c = category(i);
      if (c !== null) bump(counts, c);
    });
    const ranked = byCount(counts).map(([c]) => c);
    const slot = new Map(ranked.slice(0, PALETTE_SIZE).map((c, k) => [c, k]));
    const color = new Uint8Array(this.nodes.length);
    for (let i = 0; i < this.nodes.length; i++) {
      const c = category(i);
      color[i] = c === null ? NONE : slot.get(c) ?? OTHER;
    }
    return { color, labels: ranked.slice(0, PALETTE_SIZE), category };
  }
}

/**
 * Compressed sparse rows of an undirected edge list.
 * @param {number} n
 * @param {Int32Array} src
 * @param {Int32Array} dst
 */
export function csr(n, src, dst) {
  const adjStart = new Int32Array(n + 1);
  for (let e = 0; e < src.length; e++) {
    adjStart[src[e] + 1] += 1;
    adjStart[dst[e] + 1] += 1;
  }
  for (let i = 0; i < n; i++) adjStart[i + 1] += adjStart[i];
  const fill = adjStart.slice(0, n);
  const adj = new Int32Array(adjStart[n]);
  for (let e = 0; e < src.length; e++) {
    adj[fill[src[e]]++] = dst[e];
    adj[fill[dst[e]]++] = src[e];
  }
  return { adjStart, adj };
}
