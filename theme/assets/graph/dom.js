/**
 * DOM helpers for the graph viewer.
 *
 * Every string that comes from graph.json or the search index reaches the DOM
 * through `h()` (text children become Text nodes) or `escapeHtml()`; nothing in
 * this package assigns `innerHTML` from data.
 *
 * @module beliefbase/graph/dom
 */

/**
 * Escape a string for use in HTML text or a quoted attribute value.
 * Same contract as MkDocs' `contrib/search/templates/search/main.js`
 * `escapeHtml`, plus the single quote.
 *
 * @param {unknown} value
 * @returns {string}
 */
export function escapeHtml(value) {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * Create an element. Attributes are set with `setAttribute` (never as HTML);
 * a key starting with `on` adds an event listener; string children become
 * Text nodes.
 *
 * @param {string} tag
 * @param {Record<string, unknown> | null} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    } else if (key === 'hidden' || key === 'checked' || key === 'selected') {
      /** @type {any} */ (el)[key] = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
  }
  return el;
}

/**
 * Find a control inside a viewer root by its `data-bb-role`.
 *
 * @template {Element} T
 * @param {Element} root
 * @param {string} role
 * @returns {T | null}
 */
export function role(root, role) {
  return /** @type {T | null} */ (root.querySelector(`[data-bb-role="${role}"]`));
}

/**
 * Format a count with thousands separators ("12,345"). Not Intl: its first
 * use loads locale data, a cost the first paint should not pay for commas.
 *
 * @param {number} n
 * @returns {string}
 */
export function formatCount(n) {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Resolve a node's `url` against the site root. Only site-relative URLs (and,
 * for External nodes, http(s) URLs) are accepted; anything with another
 * scheme (`javascript:`, `data:`) or protocol-relative is refused.
 *
 * @param {string | null} url  the node's url from graph.json
 * @param {string} siteRoot    the page's `data-site-root` (e.g. `../`)
 * @param {boolean} allowExternal  accept absolute http(s) URLs
 * @returns {string | null}  an absolute URL, or null when it cannot be opened
 */
export function resolveNodeUrl(url, siteRoot, allowExternal) {
  if (typeof url !== 'string' || url === '') return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) {
    if (!allowExternal || !/^https?:\/\//i.test(url)) return null;
    return url;
  }
  const root = new URL(siteRoot || './', window.location.href);
  return new URL(url.replace(/^\/+/, ''), root).href;
}
