/**
 * Canvas colours from CSS: graph.css maps MkDocs-Material's palette variables
 * (`--md-default-fg-color`, `--md-default-bg-color`, `--md-accent-fg-color`)
 * onto `--bb-graph-*` variables, which a site can override. The canvas reads
 * the resolved values, and reads them again when Material switches between
 * light and dark (`data-md-color-scheme` on <body>).
 *
 * @module beliefbase/graph/theme
 */
import { PALETTE_SIZE } from './model.js';

/**
 * @param {Element} el  the viewer root (inherits the palette)
 * @returns {import('./renderer.js').Theme}
 */
export function readTheme(el) {
  const style = getComputedStyle(el);
  /** @param {string} name @param {string} fallback */
  const v = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const palette = [];
  for (let k = 0; k < PALETTE_SIZE; k++) palette.push(v(`--bb-graph-c${k}`, '#4e79a7'));
  palette.push(v('--bb-graph-other', '#9a9a9a'));
  palette.push(v('--bb-graph-none', '#c4c4c4'));
  return {
    fg: v('--bb-graph-fg', '#222'),
    bg: v('--bb-graph-bg', '#fff'),
    muted: v('--bb-graph-label', '#555'),
    edge: v('--bb-graph-edge', 'rgba(0,0,0,.3)'),
    accent: v('--bb-graph-accent', '#526cfe'),
    focus: v('--bb-graph-focus', '#526cfe'),
    palette,
    font: style.fontFamily || 'sans-serif',
  };
}

/**
 * Call `onChange` when the colour scheme changes (Material's palette toggle
 * or the OS preference).
 * @param {() => void} onChange
 * @returns {() => void} stop watching
 */
export function watchTheme(onChange) {
  const observer = new MutationObserver(onChange);
  for (const el of [document.documentElement, document.body]) {
    observer.observe(el, {
      attributes: true,
      attributeFilter: ['data-md-color-scheme', 'data-md-color-primary', 'data-md-color-accent'],
    });
  }
  const media = window.matchMedia?.('(prefers-color-scheme: dark)');
  media?.addEventListener?.('change', onChange);
  return () => {
    observer.disconnect();
    media?.removeEventListener?.('change', onChange);
  };
}
