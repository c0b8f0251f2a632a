// beliefbase explorer: the folder/note tree in MkDocs-Material's sidebar, built
// from _beliefbase/explorer.json (fetched once, cached by the browser).
// Folders render their children only when first opened, so 5,000 notes cost
// no more than the few folders on the way to the current note.  Plain ES2017,
// no dependencies; every label reaches the DOM as text.
(function () {
  "use strict";

  /** @type {Map<string, Promise<any>>} */
  const loads = new Map();
  const MAX_RESULTS = 200;

  /** @param {string} url */
  function load(url) {
    if (!loads.has(url)) {
      loads.set(url, fetch(url).then(function (r) {
        if (!r.ok) throw new Error("explorer: " + r.status);
        return r.json();
      }));
    }
    return /** @type {Promise<any>} */ (loads.get(url));
  }

  /** Create an element with a class and text. */
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** @param {string} base @param {string} url */
  function href(base, url) {
    return (base ? base.replace(/\/$/, "") + "/" : "") + url;
  }

  /** Does folder node [label, url, children] contain the page at `url`? */
  function contains(node, url) {
    if (node[1] === url) return true;
    const kids = node[2];
    if (!kids) return false;
    for (let i = 0; i < kids.length; i++) {
      if (kids[i].length === 3 ? contains(kids[i], url) : kids[i][1] === url) return true;
    }
    return false;
  }

  function noteItem(node, ctx) {
    const li = el("li", "bb-explorer__note");
    const a = el("a", "bb-explorer__link", node[0]);
    a.href = href(ctx.base, node[1]);
    if (node[1] === ctx.current) {
      a.setAttribute("aria-current", "page");
      ctx.currentLink = a;
    }
    li.appendChild(a);
    return li;
  }

  function folderItem(node, ctx) {
    const li = el("li", "bb-explorer__folder");
    const details = el("details", "bb-explorer__details");
    const summary = el("summary", "bb-explorer__summary");
    if (node[1]) {
      const a = el("a", "bb-explorer__link bb-explorer__link--folder", node[0]);
      a.href = href(ctx.base, node[1]);
      if (node[1] === ctx.current) {
        a.setAttribute("aria-current", "page");
        ctx.currentLink = a;
      }
      summary.appendChild(a);
    } else {
      summary.appendChild(el("span", "bb-explorer__label", node[0]));
    }
    const count = el("span", "bb-explorer__count", String(node[2].length));
    count.setAttribute("aria-label", node[2].length + " items");
    summary.appendChild(count);
    details.appendChild(summary);
    let filled = false;
    const fill = function () {
      if (filled) return;
      filled = true;
      details.appendChild(list(node[2], ctx));
    };
    details.addEventListener("toggle", function () { if (details.open) fill(); });
    if (contains(node, ctx.current)) {
      fill();
      details.open = true;
    }
    li.appendChild(details);
    return li;
  }

  function list(children, ctx) {
    const ul = el("ul", "bb-explorer__list");
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      ul.appendChild(child.length === 3 ? folderItem(child, ctx) : noteItem(child, ctx));
    }
    return ul;
  }

  /** Every note as [label, url, folder path], for the filter. */
  function flatten(node, trail, out) {
    const kids = node[2];
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (k.length === 3) {
        if (k[1]) out.push([k[0], k[1], trail]);
        flatten(k, trail ? trail + " / " + k[0] : k[0], out);
      } else {
        out.push([k[0], k[1], trail]);
      }
    }
    return out;
  }

  function results(all, query, ctx) {
    const ul = el("ul", "bb-explorer__list bb-explorer__results");
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (let i = 0; i < all.length && shown < MAX_RESULTS; i++) {
      const label = all[i][0].toLowerCase();
      if (words.every(function (w) { return label.indexOf(w) >= 0; })) {
        const li = noteItem(all[i], ctx);
        if (all[i][2]) li.appendChild(el("span", "bb-explorer__where", all[i][2]));
        ul.appendChild(li);
        shown++;
      }
    }
    if (!shown) ul.appendChild(el("li", "bb-explorer__empty", "No note matches."));
    return ul;
  }

  function render(container) {
    if (container.dataset.bbReady) return;
    container.dataset.bbReady = "1";
    const ctx = { base: container.dataset.base || ".", current: container.dataset.current || "",
                  currentLink: null };
    load(container.dataset.src).then(function (data) {
      const root = data.root;
      const filter = el("input", "bb-explorer__filter");
      filter.type = "search";
      filter.placeholder = "Filter notes";
      filter.setAttribute("aria-label", "Filter notes by title");
      const tree = list(root[2], ctx);
      const box = el("div", "bb-explorer__body");
      box.appendChild(tree);
      container.insertBefore(filter, container.firstChild);
      container.appendChild(box);
      container.classList.add("bb-explorer--ready");
      let all = null;
      let timer = 0;
      filter.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(function () {
          const q = filter.value.trim();
          box.textContent = "";
          if (!q) { box.appendChild(tree); return; }
          all = all || flatten(root, "", []);
          box.appendChild(results(all, q, ctx));
        }, 80);
      });
      if (ctx.currentLink && ctx.currentLink.scrollIntoView) {
        ctx.currentLink.scrollIntoView({ block: "nearest" });
      }
    }).catch(function () {
      container.dataset.bbReady = "";
    });
  }

  function start() {
    document.querySelectorAll("[data-bb-explorer]").forEach(render);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(start);  // Material's instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
