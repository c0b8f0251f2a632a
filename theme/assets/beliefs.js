// beliefbase: the belief pages' two controls, as a plain ES module (no dependencies).
//
// * [data-bb-asof] on a topic page: "what did we believe on <date>?".  A belief was
//   held on day D when asserted_at <= D and it was not superseded by then (SPEC 6.4:
//   a belief superseded on D is no longer current on D).  Dates are compared as text
//   in their canonical forms (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ); the bound of day D
//   is "D" + "T24", which sorts after every instant of D and before the next day.
//   The chosen date is kept in the URL (?as_of=D) so a view can be linked.
// * [data-bb-belief-search] on the index: loads lunr.js and the prebuilt index
//   (beliefs-search.json) on first use, then searches as you type.
//
// Every string from the data reaches the DOM through textContent, never innerHTML.

/** @param {string} day  YYYY-MM-DD */
export function dayBound(day) {
  return day + "T24";
}

/**
 * Was a belief held at the end of `day`?
 * @param {string} asserted   canonical asserted_at
 * @param {string|null} superseded  canonical effective superseded_at, or null
 * @param {string} day  YYYY-MM-DD
 */
export function heldOn(asserted, superseded, day) {
  const bound = dayBound(day);
  return asserted <= bound && (!superseded || superseded > bound);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** @param {HTMLFormElement} form */
function initAsOf(form) {
  const input = /** @type {HTMLInputElement} */ (form.querySelector("[data-bb-role=date]"));
  const status = form.querySelector("[data-bb-role=status]");
  const root = form.parentElement || document;
  const items = Array.from(root.querySelectorAll("[data-bb-belief]"));
  const empty = root.querySelector("[data-bb-role=empty]");
  const chips = Array.from(form.querySelectorAll("[data-bb-date]"));
  if (!input || !status) return;

  /** @param {string} day */
  function show(day, remember) {
    const valid = DAY.test(day);
    let held = 0;
    for (const item of items) {
      const el = /** @type {HTMLElement} */ (item);
      const on = !valid || heldOn(el.dataset.asserted || "", el.dataset.superseded || null, day);
      el.hidden = !on;
      if (on) held += 1;
    }
    for (const chip of chips) {
      chip.setAttribute("aria-pressed", String(valid && chip.getAttribute("data-bb-date") === day));
    }
    if (empty) empty.hidden = !valid || held > 0;
    status.textContent = valid
      ? `On ${day} we believed ${held} of these ${items.length} statement${items.length === 1 ? "" : "s"}.`
      : `Showing the full history: ${items.length} belief${items.length === 1 ? "" : "s"}.`;
    form.classList.toggle("bb-asof--active", valid);
    if (remember) {
      const url = new URL(window.location.href);
      if (valid) url.searchParams.set("as_of", day);
      else url.searchParams.delete("as_of");
      window.history.replaceState(null, "", url.toString());
    }
  }

  input.addEventListener("change", () => show(input.value, true));
  input.addEventListener("input", () => show(input.value, true));
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("reset", () => setTimeout(() => show("", true), 0));
  form.querySelector("[data-bb-role=today]")?.addEventListener("click", () => {
    input.value = form.dataset.buildDate || "";
    show(input.value, true);
  });
  for (const chip of chips) {
    chip.addEventListener("click", () => {
      input.value = chip.getAttribute("data-bb-date") || "";
      show(input.value, true);
    });
  }
  form.hidden = false;
  const initial = new URL(window.location.href).searchParams.get("as_of") || "";
  if (DAY.test(initial)) input.value = initial;
  show(input.value, false);
}

/**
 * Load a classic script once (lunr.js is a UMD file that sets window.lunr).
 * @param {string} src
 * @returns {Promise<any>}
 */
function loadLunr(src) {
  if (window.lunr) return Promise.resolve(window.lunr);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => (window.lunr ? resolve(window.lunr) : reject(new Error("lunr.js did not load")));
    script.onerror = () => reject(new Error("lunr.js could not be loaded"));
    document.head.appendChild(script);
  });
}

/**
 * Search with the query API, never the query syntax: a user's ":", "*", "~" or "^"
 * is text.  Every word must match (exactly after stemming, or as a prefix while
 * typing); stop words, which the index left out, are skipped.
 * @returns {{ref: string, score: number}[]}
 */
export function searchIndex(lunr, index, text) {
  // The index's trimmer (belief_search.py) strips non-word characters at both ends, in
  // Unicode; lunr.trimmer would strip only ASCII word characters' complement.
  const tokens = lunr.tokenizer(text)
    .map((t) => t.update((s) => s.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, "")))
    .filter((t) => t.toString());
  /** @type {Map<string, number>|null} */
  let scores = null;
  for (const token of tokens) {
    if (!lunr.stopWordFilter(token.clone())) continue;
    const word = token.toString().toLowerCase();
    let hits = [];
    try {
      hits = index.query((q) => {
        q.term(word, { boost: 10 });
        q.term(word, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING });
      });
    } catch (error) {
      hits = [];
    }
    const found = new Map(hits.map((h) => [h.ref, h.score]));
    scores = scores === null
      ? found
      : new Map(Array.from(scores).filter(([ref]) => found.has(ref))
        .map(([ref, score]) => [ref, score + (found.get(ref) || 0)]));
  }
  if (scores === null) return [];
  return Array.from(scores, ([ref, score]) => ({ ref, score })).sort((a, b) => b.score - a.score);
}

/** @param {HTMLElement} box */
function initSearch(box) {
  const input = /** @type {HTMLInputElement} */ (box.querySelector("[data-bb-role=query]"));
  const status = box.querySelector("[data-bb-role=status]");
  const list = box.querySelector("[data-bb-role=results]");
  if (!input || !status || !list) return;
  const root = box.dataset.siteRoot || "./";
  /** @type {Promise<{lunr: any, index: any, beliefs: Record<string, any>}>|null} */
  let ready = null;

  function load() {
    if (!ready) {
      status.textContent = "Loading the belief index…";
      ready = Promise.all([
        loadLunr(box.dataset.lunrUrl || ""),
        fetch(box.dataset.indexUrl || "").then((r) => {
          if (!r.ok) throw new Error(`HTTP ${r.status}`);
          return r.json();
        }),
      ]).then(([lunr, data]) => ({ lunr, index: lunr.Index.load(data.index), beliefs: data.beliefs }));
      ready.then(() => { status.textContent = ""; render(); })
        .catch(() => { status.textContent = "The belief index could not be loaded."; });
    }
    return ready;
  }

  function render() {
    if (!ready) return;
    ready.then(({ lunr, index, beliefs }) => {
      const text = input.value.trim();
      list.replaceChildren();
      if (!text) { status.textContent = ""; return; }
      const hits = searchIndex(lunr, index, text).filter((h) => beliefs[h.ref]);
      status.textContent = hits.length
        ? `${hits.length} belief${hits.length === 1 ? "" : "s"} found${hits.length > 20 ? ", showing 20" : ""}.`
        : "No belief matches.";
      for (const hit of hits.slice(0, 20)) list.appendChild(resultItem(beliefs[hit.ref], root));
    }).catch(() => {});
  }

  input.addEventListener("focus", load, { once: true });
  input.addEventListener("input", () => { load(); render(); });
  box.hidden = false;
  if (input.value) { load(); }
}

/** @param {{statement: string, topic: string, status: string, url: string}} belief */
function resultItem(belief, root) {
  const li = document.createElement("li");
  li.className = "bb-belief-search__result";
  const link = document.createElement("a");
  link.href = root + belief.url;
  link.textContent = belief.statement;
  const meta = document.createElement("span");
  meta.className = "bb-belief-search__meta";
  const badge = document.createElement("span");
  badge.className = `bb-badge bb-badge--${belief.status === "current" ? "current" : "superseded"}`;
  badge.textContent = belief.status;
  meta.append(badge, " ", belief.topic);
  li.append(link, meta);
  return li;
}

for (const form of document.querySelectorAll("form[data-bb-asof]")) initAsOf(/** @type {HTMLFormElement} */ (form));
for (const box of document.querySelectorAll("[data-bb-belief-search]")) initSearch(/** @type {HTMLElement} */ (box));
