/**
 * Initial positions for nodes shown for the first time: near their already
 * placed neighbours if they have any, else in one cluster per top-level
 * folder (most links stay inside a folder, so the layout starts close to its
 * result and the first frame already shows some structure).
 *
 * @module beliefbase/graph/placement
 */
import { spiral } from './layout.js';

/**
 * @param {import('./model.js').View} view     the shown nodes and their adjacency
 * @param {import('./model.js').GraphNode[]} nodes  all nodes (for their folders)
 * @param {Float32Array} pos   positions by node index, written for new nodes
 * @param {Uint8Array} placed  1 for nodes that have a position; updated
 */
export function placeNew(view, nodes, pos, placed) {
  const { adjStart, adj } = view;
  /** @type {Map<string, number[]>} */
  const clusters = new Map();
  let placedBefore = 0;
  for (let k = 0; k < view.nodes.length; k++) {
    const i = view.nodes[k];
    if (placed[i]) { placedBefore += 1; continue; }
    let sx = 0; let sy = 0; let c = 0;
    for (let e = adjStart[i]; e < adjStart[i + 1]; e++) {
      const j = adj[e];
      if (placed[j]) { sx += pos[2 * j]; sy += pos[2 * j + 1]; c += 1; }
    }
    if (c > 0) {
      const [jx, jy] = spiral(k % 50);
      pos[2 * i] = sx / c + jx * 0.5;
      pos[2 * i + 1] = sy / c + jy * 0.5;
      placed[i] = 1;
    } else {
      const folder = nodes[i].folder.split('/')[0];
      const list = clusters.get(folder);
      if (list) list.push(i); else clusters.set(folder, [i]);
    }
  }
  // Clusters on a sunflower, biggest in the middle, each a sunflower itself.
  let slot = placedBefore;
  [...clusters.values()].sort((a, b) => b.length - a.length).forEach((members, g) => {
    const angle = g * Math.PI * (3 - Math.sqrt(5));
    const r = 10 * Math.sqrt(slot + members.length / 2) * 1.3;
    const cx = r * Math.cos(angle); const cy = r * Math.sin(angle);
    members.forEach((i, k) => {
      const [dx, dy] = spiral(k);
      pos[2 * i] = cx + dx;
      pos[2 * i + 1] = cy + dy;
      placed[i] = 1;
    });
    slot += members.length;
  });
}
