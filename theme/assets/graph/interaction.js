/**
 * Pointer, wheel and keyboard input on the graph canvas: hover, click to
 * open, drag a node, drag the background to pan, wheel or pinch to zoom, and
 * the keyboard map (arrows, Enter, + / -, 0, /, N, Escape).
 *
 * @module beliefbase/graph/interaction
 */

/** Pointer travel (CSS px) before a press becomes a drag rather than a click. */
const DRAG_SLOP = { mouse: 4, pen: 6, touch: 10 };
const KEY_PAN_PX = 60;
const KEY_ZOOM = 1.3;

/**
 * @typedef {import('./viewer.js').GraphView} GraphView
 */

/**
 * @param {HTMLCanvasElement} canvas
 * @param {GraphView} view
 * @param {{wheelNeedsFocus: boolean}} options  the local graph sits in a
 *   scrolling page: there the wheel zooms only once the canvas has focus (or
 *   with Ctrl), so scrolling past it still scrolls the page.
 */
export function attachInput(canvas, view, options) {
  /** @type {Map<number, {x: number, y: number}>} */
  const pointers = new Map();
  /** @type {{id: number, x0: number, y0: number, x: number, y: number, node: number,
   *          moved: boolean, type: string} | null} */
  let press = null;
  /** @type {{dist: number, x: number, y: number} | null} */
  let pinch = null;

  /** @param {MouseEvent} event @returns {[number, number]} */
  const local = (event) => {
    const rect = canvas.getBoundingClientRect();
    return [event.clientX - rect.left, event.clientY - rect.top];
  };

  const pinchState = () => {
    const [a, b] = [...pointers.values()];
    return { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0 && event.button !== 1) return;
    const [x, y] = local(event);
    canvas.setPointerCapture?.(event.pointerId);
    pointers.set(event.pointerId, { x, y });
    if (pointers.size === 2) {
      if (press?.moved && press.node >= 0) view.dragEnd(press.node);
      press = null;
      pinch = pinchState();
      return;
    }
    if (pointers.size > 2) return;
    press = { id: event.pointerId, x0: x, y0: y, x, y, node: view.hitTest(x, y), moved: false,
      type: event.pointerType };
    if (event.button === 1) event.preventDefault(); // no autoscroll on middle click
  });

  canvas.addEventListener('pointermove', (event) => {
    const [x, y] = local(event);
    if (pointers.has(event.pointerId)) pointers.set(event.pointerId, { x, y });
    if (pinch && pointers.size >= 2) {
      const next = pinchState();
      view.zoomAt(next.x, next.y, next.dist / pinch.dist);
      view.panBy(next.x - pinch.x, next.y - pinch.y);
      pinch = next;
      return;
    }
    if (press && press.id === event.pointerId) {
      const slop = DRAG_SLOP[/** @type {keyof typeof DRAG_SLOP} */ (press.type)] ?? 4;
      if (!press.moved && Math.hypot(x - press.x0, y - press.y0) > slop) {
        press.moved = true;
        if (press.node >= 0) view.dragStart(press.node);
        else view.setHover(-1);
      }
      if (press.moved) {
        if (press.node >= 0) view.dragMove(press.node, x, y);
        else view.panBy(x - press.x, y - press.y);
      }
      press.x = x;
      press.y = y;
      return;
    }
    if (event.pointerType !== 'touch' && pointers.size === 0) {
      view.setHover(view.hitTest(x, y), x, y);
    }
  });

  /** @param {PointerEvent} event @param {boolean} cancelled */
  const release = (event, cancelled) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (!press || press.id !== event.pointerId) return;
    const done = press;
    press = null;
    if (done.moved) {
      if (done.node >= 0) view.dragEnd(done.node);
      return;
    }
    if (cancelled) return;
    if (done.node < 0) {
      view.clearSelection();
      return;
    }
    const newTab = event.ctrlKey || event.metaKey || event.button === 1;
    if (done.type === 'touch' && view.hover !== done.node) {
      // No hover on touch screens: the first tap shows the node, the second opens it.
      view.setHover(done.node, done.x, done.y, true);
      view.focusNode(done.node, { centre: false, quiet: true });
      return;
    }
    view.open(done.node, newTab);
  };
  canvas.addEventListener('pointerup', (event) => release(event, false));
  canvas.addEventListener('pointercancel', (event) => release(event, true));
  canvas.addEventListener('pointerleave', (event) => {
    if (event.pointerType === 'mouse' && !press) view.setHover(-1);
  });
  canvas.addEventListener('auxclick', (event) => event.preventDefault());

  canvas.addEventListener('wheel', (event) => {
    if (options.wheelNeedsFocus && document.activeElement !== canvas
        && !event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    const [x, y] = local(event);
    const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
    // Trackpad pinch arrives as ctrl+wheel with small deltas: zoom faster.
    const speed = event.ctrlKey ? 0.01 : 0.0018;
    view.zoomAt(x, y, Math.exp(-event.deltaY * unit * speed));
  }, { passive: false });

  canvas.addEventListener('keydown', (event) => {
    if (event.altKey) return;
    if (handleKey(view, event)) {
      event.preventDefault();
      event.stopPropagation(); // keep Material's own shortcuts (/, f, s, n, p) out of the graph
    }
  });
  canvas.addEventListener('blur', () => view.setHover(-1));
}

/**
 * @param {GraphView} view
 * @param {KeyboardEvent} event
 * @returns {boolean} handled
 */
function handleKey(view, event) {
  /** @type {Record<string, [number, number]>} */
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const dir = arrows[event.key];
  if (dir) {
    if (event.shiftKey) view.panBy(-dir[0] * KEY_PAN_PX, -dir[1] * KEY_PAN_PX);
    else view.moveFocus(dir[0], dir[1]);
    return true;
  }
  if (event.ctrlKey || event.metaKey) {
    if (event.key === 'Enter') { view.open(view.focus, true); return true; }
    return false;
  }
  switch (event.key) {
    case 'Enter':
      if (view.focus >= 0) view.open(view.focus, false);
      else view.moveFocus(0, 0);
      return true;
    case '+': case '=':
      view.zoomCentre(KEY_ZOOM);
      return true;
    case '-': case '_':
      view.zoomCentre(1 / KEY_ZOOM);
      return true;
    case '0':
      view.action('fit');
      return true;
    case '/':
      return view.focusSearch();
    case 'n': case 'N':
      view.toggleNeighbourhood();
      return true;
    case 'Escape':
      if (view.focus < 0 && view.hover < 0) return false;
      view.clearSelection();
      return true;
    default:
      return false;
  }
}
