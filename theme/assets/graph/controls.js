/**
 * The viewer's DOM controls: search box and result list, colour select,
 * filter panel, neighbourhood toggle, legend, tooltip, progress bar, status
 * and screen-reader announcements. The markup comes from theme/graph.html
 * (overridable); this module finds its parts by `data-bb-role`, fills the
 * parts that depend on the data, and forwards user actions to the viewer.
 * Every data string is inserted as text.
 *
 * @module beliefbase/graph/controls
 */
import { formatCount, h, role } from './dom.js';
import { NONE, OTHER } from './model.js';

const ANY = '*';
const RESULTS_MAX = 12;

/**
 * @typedef {import('./viewer.js').GraphView} GraphView
 * @typedef {import('./model.js').GraphModel} GraphModel
 */

export class Controls {
  /** @param {HTMLElement} root @param {GraphView} view */
  constructor(root, view) {
    this.root = root;
    this.view = view;
    this.el = {
      search: role(root, 'search'),
      results: role(root, 'results'),
      colorBy: role(root, 'color-by'),
      filtersToggle: role(root, 'filters-toggle'),
      filterCount: role(root, 'filter-count'),
      filters: role(root, 'filters'),
      kinds: role(root, 'filter-kinds'),
      types: role(root, 'filter-types'),
      schema: role(root, 'filter-schema'),
      tag: role(root, 'filter-tag'),
      folder: role(root, 'filter-folder'),
      reset: role(root, 'filters-reset'),
      hood: role(root, 'hood-toggle'),
      depth: role(root, 'depth'),
      legend: role(root, 'legend'),
      legendList: role(root, 'legend-list'),
      legendToggle: role(root, 'legend-toggle'),
      tooltip: role(root, 'tooltip'),
      progress: role(root, 'progress'),
      status: role(root, 'status'),
      announce: role(root, 'announce'),
      message: role(root, 'message'),
    };
    /** @type {number[]} node indices in the result list */
    this.resultNodes = [];
    this.active = -1;
    this._bind();
  }

  _bind() {
    const { el, view } = this;
    const input = /** @type {HTMLInputElement | null} */ (el.search);
    input?.addEventListener('input', () => this._search(input.value));
    input?.addEventListener('keydown', (event) => this._searchKey(event));
    // closed a moment after the search loses focus (a click on a result comes first),
    // unless it has it again by then (Tab away and "/" back within the moment)
    input?.addEventListener('blur', () => setTimeout(() => {
      if (document.activeElement !== input) this._closeResults();
    }, 150));
    el.results?.addEventListener('pointerdown', (event) => event.preventDefault());
    el.results?.addEventListener('click', (event) => {
      const li = /** @type {Element} */ (event.target).closest('[data-index]');
      if (li) this._pick(Number(li.getAttribute('data-index')));
    });
    el.colorBy?.addEventListener('change', () => {
      view.setColorBy(/** @type {HTMLSelectElement} */ (el.colorBy).value);
    });
    el.filtersToggle?.addEventListener('click', () => {
      this.setFiltersOpen(el.filters?.hidden ?? false);
    });
    el.filters?.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        this.setFiltersOpen(false);
        /** @type {HTMLElement} */ (el.filtersToggle)?.focus();
      }
    });
    for (const [select, key] of /** @type {const} */ ([
      [el.schema, 'schema'], [el.tag, 'tag'], [el.folder, 'folder']])) {
      select?.addEventListener('change', () => {
        const value = /** @type {HTMLSelectElement} */ (select).value;
        view.setFilters({ [key]: value === ANY ? null : value });
      });
    }
    el.reset?.addEventListener('click', () => view.resetFilters());
    el.legendToggle?.addEventListener('click', () => {
      this.setLegendOpen(el.legendToggle?.getAttribute('aria-expanded') !== 'true');
    });
    el.hood?.addEventListener('click', () => view.toggleNeighbourhood());
    el.depth?.addEventListener('change', () => {
      view.setDepth(Number(/** @type {HTMLSelectElement} */ (el.depth).value));
    });
    for (const button of this.root.querySelectorAll('[data-bb-action]')) {
      button.addEventListener('click', () => view.action(button.getAttribute('data-bb-action') || ''));
    }
  }

  /** @param {boolean} open */
  setFiltersOpen(open) {
    const { filters, filtersToggle } = this.el;
    if (!filters) return;
    filters.hidden = !open;
    filtersToggle?.setAttribute('aria-expanded', String(open));
    if (open) /** @type {HTMLElement | null} */ (filters.querySelector('input, select'))?.focus();
  }

  /** @param {boolean} open */
  setLegendOpen(open) {
    this.el.legendToggle?.setAttribute('aria-expanded', String(open));
    if (this.el.legendList) this.el.legendList.hidden = !open;
  }

  /**
   * Fill the filter panel from the model's facets.
   * @param {GraphModel} model
   * @param {import('./model.js').Filters} filters
   */
  setup(model, filters) {
    const { el } = this;
    const checkboxes = (/** @type {HTMLElement | null} */ box, /** @type {[string, number][]} */ items,
      /** @type {Set<string>} */ on, /** @type {'kinds' | 'types'} */ key) => {
      if (!box) return;
      box.replaceChildren(...items.map(([name, count]) => {
        const input = h('input', { type: 'checkbox', value: name, checked: on.has(name) });
        input.addEventListener('change', () => this._toggle(key, name, /** @type {HTMLInputElement} */ (input).checked));
        return h('label', { class: 'bb-graph__check' }, input, ` ${name} `,
          h('span', { class: 'bb-graph__count' }, formatCount(count)));
      }));
    };
    checkboxes(el.kinds, model.facets.kinds, filters.kinds, 'kinds');
    checkboxes(el.types, model.facets.types, filters.types, 'types');
    const options = (/** @type {HTMLElement | null} */ select, /** @type {[string, number][]} */ items,
      /** @type {string | null} */ noneLabel) => {
      if (!select) return;
      const opts = [h('option', { value: ANY }, 'Any')];
      if (noneLabel) opts.push(h('option', { value: '' }, noneLabel));
      for (const [name, count] of items) {
        opts.push(h('option', { value: name }, `${name} (${formatCount(count)})`));
      }
      select.replaceChildren(...opts);
      /** @type {HTMLSelectElement} */ (select).disabled = items.length === 0;
    };
    options(el.schema, model.facets.schemas, model.facets.schemas.length ? 'No schema' : null);
    options(el.tag, model.facets.tags, null);
    options(el.folder, model.facets.folders.map(([f, c]) => [f || '/', c]), null);
    this.syncFilters(filters);
  }

  /** @param {'kinds' | 'types'} key @param {string} name @param {boolean} on */
  _toggle(key, name, on) {
    const next = new Set(this.view.filters[key]);
    if (on) next.add(name); else next.delete(name);
    this.view.setFilters({ [key]: next });
  }

  /** Reflect the filters in the controls. @param {import('./model.js').Filters} f */
  syncFilters(f) {
    const { el } = this;
    for (const [box, set] of /** @type {const} */ ([[el.kinds, f.kinds], [el.types, f.types]])) {
      for (const input of box?.querySelectorAll('input') || []) {
        /** @type {HTMLInputElement} */ (input).checked = set.has(input.value);
      }
    }
    for (const [select, value] of /** @type {const} */ ([
      [el.schema, f.schema], [el.tag, f.tag], [el.folder, f.folder]])) {
      if (select) /** @type {HTMLSelectElement} */ (select).value = value === null ? ANY : value;
    }
    const active = this.view.activeFilterCount();
    if (el.filterCount) el.filterCount.textContent = active ? String(active) : '';
    const hood = f.focus >= 0;
    el.hood?.setAttribute('aria-pressed', String(hood));
    if (el.depth) /** @type {HTMLSelectElement} */ (el.depth).value = String(f.depth);
  }

  /**
   * @param {{labels: string[]}} colors
   * @param {Uint8Array} color  colour index by node
   * @param {import('./model.js').View} view
   * @param {string} key
   */
  renderLegend(colors, color, view, key) {
    const list = this.el.legendList;
    if (!list) return;
    const counts = new Array(NONE + 1).fill(0);
    for (const i of view.nodes) counts[color[i]] += 1;
    const none = { schema: 'No schema', folder: 'Top level', tag: 'No tag', kind: '—' }[key] || 'None';
    const entries = colors.labels.map((label, k) => [k, label, counts[k]]);
    entries.push([OTHER, 'Other', counts[OTHER]], [NONE, none, counts[NONE]]);
    list.replaceChildren(...entries.filter((e) => e[2] > 0).map(([k, label, count]) =>
      h('div', { class: 'bb-graph__legend-item', role: 'listitem' },
        h('span', { class: `bb-graph__swatch bb-graph__swatch--${k}`, 'aria-hidden': 'true' }),
        h('span', { class: 'bb-graph__legend-label' }, String(label)),
        h('span', { class: 'bb-graph__count' }, formatCount(Number(count))))));
  }

  /** @param {number | null} progress 0..1, or null to hide */
  setProgress(progress) {
    const bar = this.el.progress;
    if (!bar) return;
    bar.hidden = progress === null;
    if (progress === null) return;
    const pct = Math.round(progress * 100);
    bar.setAttribute('aria-valuenow', String(pct));
    bar.style.setProperty('--bb-progress', `${pct}%`);
  }

  /** @param {string} text */
  setStatus(text) {
    if (this.el.status) this.el.status.textContent = text;
  }

  /** @param {string | null} text  a message over the canvas (loading, errors) */
  setMessage(text) {
    const { message } = this.el;
    if (!message) return;
    message.hidden = text === null;
    message.textContent = text ?? '';
  }

  /** @param {string} text  read out by screen readers */
  announce(text) {
    if (this.el.announce) this.el.announce.textContent = text;
  }

  /**
   * @param {string | null} title  null hides the tooltip
   * @param {string} [detail]
   * @param {number} [x]  CSS px within the stage
   * @param {number} [y]
   */
  tooltip(title, detail = '', x = 0, y = 0) {
    const tip = this.el.tooltip;
    if (!tip) return;
    if (title === null) { tip.hidden = true; return; }
    tip.replaceChildren(h('strong', null, title), detail ? h('span', null, detail) : null);
    tip.hidden = false;
    const stage = /** @type {HTMLElement} */ (tip.parentElement);
    const maxX = stage.clientWidth - tip.offsetWidth - 8;
    tip.style.left = `${Math.max(8, Math.min(x + 14, maxX))}px`;
    tip.style.top = `${Math.max(8, y - tip.offsetHeight - 12)}px`;
  }

  /** @param {string} text */
  async _search(text) {
    const started = performance.now();
    const hits = await this.view.search(text);
    if ((/** @type {HTMLInputElement} */ (this.el.search)).value !== text) return; // stale
    this._renderResults(hits.nodes, hits.hidden, text);
    this.view.metrics.lastSearchMs = performance.now() - started;
  }

  /** @param {number[]} nodes @param {number} hidden @param {string} text */
  _renderResults(nodes, hidden, text) {
    const { results, search } = this.el;
    if (!results || !search) return;
    this.resultNodes = nodes.slice(0, RESULTS_MAX);
    this.active = this.resultNodes.length ? 0 : -1;
    const model = this.view.model;
    const items = this.resultNodes.map((i, k) => {
      const node = /** @type {GraphModel} */ (model).nodes[i];
      const where = [node.kind !== 'Document' ? node.kind : '', node.folder].filter(Boolean).join(' · ');
      return h('div', {
        id: `${results.id || 'bb-graph-results'}-${k}`, class: 'bb-graph__result', role: 'option',
        'data-index': i,
        'aria-selected': String(k === this.active),
      }, h('span', { class: 'bb-graph__result-title' }, node.title),
      where ? h('span', { class: 'bb-graph__result-where' }, where) : null);
    });
    if (text.trim() && !items.length) {
      items.push(h('div', { class: 'bb-graph__result-empty', role: 'option', 'aria-disabled': 'true' },
        hidden ? `No match among the shown notes (${hidden} hidden by filters)` : 'No match'));
    } else if (hidden) {
      items.push(h('div', { class: 'bb-graph__result-empty', role: 'option', 'aria-disabled': 'true' },
        `${hidden} more hidden by filters`));
    }
    results.replaceChildren(...items);
    const open = text.trim() !== '';
    results.hidden = !open;
    search.setAttribute('aria-expanded', String(open));
    this._syncActive();
  }

  _syncActive() {
    const { results, search } = this.el;
    if (!results || !search) return;
    results.querySelectorAll('[data-index]').forEach((li, k) => {
      li.setAttribute('aria-selected', String(k === this.active));
      if (k === this.active) li.scrollIntoView?.({ block: 'nearest' });
    });
    const activeId = this.active >= 0 ? `${results.id || 'bb-graph-results'}-${this.active}` : '';
    if (activeId) search.setAttribute('aria-activedescendant', activeId);
    else search.removeAttribute('aria-activedescendant');
  }

  /** @param {KeyboardEvent} event */
  _searchKey(event) {
    const n = this.resultNodes.length;
    if (event.key === 'ArrowDown' && n) {
      this.active = (this.active + 1) % n;
      this._syncActive();
    } else if (event.key === 'ArrowUp' && n) {
      this.active = (this.active - 1 + n) % n;
      this._syncActive();
    } else if (event.key === 'Enter') {
      if (this.active >= 0) this._pick(this.resultNodes[this.active]);
    } else if (event.key === 'Escape') {
      const input = /** @type {HTMLInputElement} */ (this.el.search);
      if (input.value) {
        input.value = '';
        this.view.clearSearch();
        this._closeResults();
      } else {
        this.view.focusCanvas();
      }
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  /** @param {number} i */
  _pick(i) {
    this._closeResults();
    this.view.focusNode(i, { centre: true, zoom: true });
    this.view.focusCanvas();
  }

  _closeResults() {
    const { results, search } = this.el;
    if (results) results.hidden = true;
    search?.setAttribute('aria-expanded', 'false');
  }

  /** Focus the search box (the `/` key). */
  focusSearch() {
    const input = /** @type {HTMLInputElement | null} */ (this.el.search);
    if (!input) return false;
    input.focus();
    input.select();
    return true;
  }
}

/**
 * The local graph's controls, built here because the plugin puts only an
 * empty `<div data-bb-graph data-mode="local">` on each page.
 * @param {HTMLElement} root
 * @param {{graphPageUrl?: string}} options
 */
export function buildLocalMarkup(root, options) {
  if (root.querySelector('[data-bb-role="canvas"]')) return;
  const header = h('div', { class: 'bb-graph__local-bar' },
    h('span', { class: 'bb-graph__local-title' }, root.dataset.title || 'Local graph'),
    h('button', {
      type: 'button', class: 'bb-graph__button', 'data-bb-role': 'depth-toggle',
      'aria-pressed': 'false', title: 'Show notes two links away',
    }, 'Depth 2'),
    options.graphPageUrl
      ? h('a', { class: 'bb-graph__button', href: options.graphPageUrl }, 'Full graph')
      : null);
  const stage = h('div', { class: 'bb-graph__stage', 'data-bb-role': 'stage' },
    h('canvas', {
      'data-bb-role': 'canvas', tabindex: '0', role: 'application',
      'aria-roledescription': 'graph',
      'aria-label': 'Local graph of this page. Arrow keys move between notes, Enter opens one.',
    }),
    h('div', { class: 'bb-graph__tooltip', 'data-bb-role': 'tooltip', hidden: true }),
    h('p', { class: 'bb-graph__message', 'data-bb-role': 'message', hidden: true }));
  root.append(header, stage,
    h('p', { class: 'bb-graph__sr', 'data-bb-role': 'announce', 'aria-live': 'polite' }));
}
