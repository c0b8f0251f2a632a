/**
 * Search over the graph's nodes with the prebuilt lunr index
 * (`search-index.json`, fields title, aliases, headings, tags; refs are node
 * ids). lunr.js and the index are fetched only when the user first types;
 * until they arrive, and if they cannot be loaded, a plain substring match
 * over titles and aliases answers instead.
 *
 * @module beliefbase/graph/search
 */

/** @type {Map<string, Promise<any>>} one lunr.js load per URL per page */
const lunrScripts = new Map();

/**
 * Load lunr.js as a classic script (it defines `window.lunr`).
 * @param {string} url
 * @returns {Promise<any>}
 */
function loadLunr(url) {
  const w = /** @type {any} */ (window);
  if (w.lunr) return Promise.resolve(w.lunr);
  let promise = lunrScripts.get(url);
  if (!promise) {
    promise = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => (w.lunr ? resolve(w.lunr) : reject(new Error('lunr.js did not load')));
      script.onerror = () => reject(new Error(`could not load ${url}`));
      document.head.append(script);
    });
    lunrScripts.set(url, promise);
  }
  return promise;
}

/**
 * @typedef {object} SearchHit
 * @property {number} index  node index in the model
 * @property {number} score
 */

export class NodeSearch {
  /**
   * @param {import('./model.js').GraphModel} model
   * @param {{indexUrl?: string, lunrUrl?: string}} urls
   */
  constructor(model, urls) {
    this.model = model;
    this.urls = urls;
    /** @type {any} */
    this.index = null;
    /** @type {any} */
    this.lunr = null;
    /** @type {Promise<boolean> | null} */
    this.loading = null;
    /** @type {string | null} why the index is not used, for the status line */
    this.error = null;
    this._haystack = model.nodes.map((node) =>
      [node.title, ...node.aliases].join('\u0000').toLowerCase());
  }

  /** Start loading lunr and the index (once). @returns {Promise<boolean>} loaded */
  load() {
    if (this.loading) return this.loading;
    const { indexUrl, lunrUrl } = this.urls;
    if (!indexUrl || !lunrUrl) {
      this.error = 'no search index configured';
      this.loading = Promise.resolve(false);
      return this.loading;
    }
    this.loading = Promise.all([
      loadLunr(lunrUrl),
      fetch(indexUrl, { credentials: 'same-origin' }).then((r) => {
        if (!r.ok) throw new Error(`${indexUrl}: HTTP ${r.status}`);
        return r.json();
      }),
    ]).then(([lunr, serialized]) => {
      this.lunr = lunr;
      // search-index.json wraps the lunr index in {version, index}; a bare index works too.
      this.index = lunr.Index.load(serialized && serialized.index ? serialized.index : serialized);
      return true;
    }).catch((err) => {
      this.error = String(err && err.message ? err.message : err);
      console.warn(`beliefbase graph: search index unavailable, using title match (${this.error})`);
      return false;
    });
    return this.loading;
  }

  /**
   * Nodes matching `text`, best first. Uses lunr when loaded, else substrings.
   * @param {string} text
   * @param {number} [limit]
   * @returns {SearchHit[]}
   */
  query(text, limit = 50) {
    const q = text.trim();
    if (!q) return [];
    const hits = this.index ? this._lunr(q) : [];
    return (hits.length ? hits : this._substring(q)).slice(0, limit);
  }

  /** @param {string} q @returns {SearchHit[]} */
  _lunr(q) {
    const { lunr } = this;
    // Words only, as the index was built (search-index.json splits titles the same way).
    const tokens = lunr.tokenizer(q.replace(/[^\p{L}\p{N}_]+/gu, ' ')).map(String).filter(Boolean);
    if (!tokens.length) return [];
    /** @type {any[]} */
    let results;
    try {
      // Build the query programmatically: user text with ':' '~' '^' '+' '-'
      // would otherwise be lunr query syntax (and can throw).
      results = this.index.query((/** @type {any} */ query) => {
        tokens.forEach((token, k) => {
          query.term(token, { boost: 10 });
          query.term(token, {
            boost: k === tokens.length - 1 ? 5 : 1,
            usePipeline: false,
            wildcard: lunr.Query.wildcard.TRAILING,
          });
        });
      });
    } catch (err) {
      console.warn('beliefbase graph: search failed', err);
      return [];
    }
    /** @type {SearchHit[]} */
    const hits = [];
    for (const r of results) {
      const index = this.model.index.get(r.ref);
      if (index !== undefined) hits.push({ index, score: r.score });
    }
    return hits;
  }

  /** @param {string} q @returns {SearchHit[]} */
  _substring(q) {
    const needle = q.toLowerCase();
    /** @type {SearchHit[]} */
    const hits = [];
    this._haystack.forEach((hay, index) => {
      const at = hay.indexOf(needle);
      if (at >= 0) hits.push({ index, score: (at === 0 ? 2 : 1) + 1 / (1 + hay.length) });
    });
    return hits.sort((a, b) => b.score - a.score);
  }
}
