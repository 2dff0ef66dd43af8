/* boardlab scene renderer: one generic SVG/HTML renderer for every game.
 *
 * A scene (see boardlab/engine/scene.py) has a status line, a prompt, boards
 * ("grid" or "nodes") with cells, walls, items, panels with rows and cards,
 * and clickable targets.  Every clickable element gets a data-click id
 * ("main:3,2", "ring:r0", "item:p1", "card:c3"); items also carry the id of
 * the cell or node they stand on (data-cell), so a click on a piece can
 * select its square.  The Clicker keeps the clicks made so far and tells
 * which elements extend them.
 */
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const CELL = 64;

  function svg(tag, attrs, parent) {
    const el = document.createElementNS(SVGNS, tag);
    if (attrs) for (const k in attrs) if (attrs[k] !== undefined && attrs[k] !== null) el.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(el);
    return el;
  }
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    if (attrs) for (const k in attrs) {
      const v = attrs[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "style") el.style.cssText = v;  // CSSOM: allowed by the page's CSP (no inline style attributes)
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false)
      el.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid);
    return el;
  }
  function title(el, text) { if (text) svg("title", null, el).textContent = text; }

  function luminance(color) {
    const c = document.createElement("canvas").getContext("2d");
    c.fillStyle = "#000"; c.fillStyle = color || "#888";
    const m = /^#([0-9a-f]{6})$/i.exec(c.fillStyle);
    if (!m) return 0.5;
    const n = parseInt(m[1], 16), r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255;
  }
  const lumCache = new Map();
  function ink(color) {
    if (!lumCache.has(color)) lumCache.set(color, luminance(color));
    return lumCache.get(color) > 0.62 ? "#1f1a14" : "#ffffff";
  }
  function fitText(el, text, max) {
    const s = String(text == null ? "" : text);
    el.textContent = s.length > max ? s.slice(0, max - 1) + "…" : s;
  }

  /* ---- items (pieces, tokens, cards on a board) ---------------------- */
  function slots(n, cx, cy, size) {
    if (n <= 1) return [[cx, cy, size * 0.34]];
    if (n <= 4) {
      const o = size * 0.21, r = size * 0.18;
      return [[cx - o, cy - o, r], [cx + o, cy - o, r], [cx - o, cy + o, r], [cx + o, cy + o, r]].slice(0, n);
    }
    const out = [], k = Math.ceil(Math.sqrt(n)), step = size * 0.8 / k, r = step * 0.44;
    for (let i = 0; i < n; i++) {
      const col = i % k, row = Math.floor(i / k);
      out.push([cx - size * 0.4 + step * (col + 0.5), cy - size * 0.4 + step * (row + 0.5), r]);
    }
    return out;
  }

  function drawItem(layer, it, x, y, r, cellClick) {
    const g = svg("g", { class: "item", "data-click": it.id != null ? "item:" + it.id : null, "data-cell": cellClick }, layer);
    const shape = it.shape || "circle";
    const down = !!it.face_down;
    const fill = down ? "#4a4038" : (it.color || "#555");
    if (shape === "circle") {
      svg("circle", { cx: x, cy: y + r * 0.08, r: r, class: "shadow" }, g);
      svg("circle", { cx: x, cy: y, r: r, fill: fill, class: "piece" }, g);
    } else if (shape === "card") {
      svg("rect", { x: x - r * 0.72, y: y - r, width: r * 1.44, height: r * 2, rx: r * 0.18, fill: fill, class: "piece" }, g);
    } else if (shape === "token") {
      const pts = [];
      for (let i = 0; i < 6; i++) {
        const a = Math.PI / 3 * i + Math.PI / 6;
        pts.push((x + r * Math.cos(a)).toFixed(1) + "," + (y + r * Math.sin(a)).toFixed(1));
      }
      svg("polygon", { points: pts.join(" "), fill: fill, class: "piece" + (down ? " face-down" : "") }, g);
    } else {
      svg("rect", { x: x - r, y: y - r, width: r * 2, height: r * 2, rx: r * 0.25, fill: fill, class: "piece" }, g);
    }
    const label = down ? "?" : (it.text || "");
    if (label) {
      const t = svg("text", { x: x, y: y, class: "item-text", fill: ink(fill), "font-size": Math.max(9, Math.min(r * 0.9, r * 2.2 / Math.max(1, String(label).length) * 1.1)) }, g);
      fitText(t, label, 6);
    }
    if (it.badge !== undefined && it.badge !== null && it.badge !== "") {
      const txt = String(it.badge).slice(0, 5);
      const fs = Math.max(8, r * 0.5), bh = fs * 1.35, bw = Math.max(bh, fs * 0.62 * txt.length + fs * 0.7);
      const bx = x + r * 0.75, by = y - r * 0.8;
      svg("rect", { x: bx - bw / 2, y: by - bh / 2, width: bw, height: bh, rx: bh / 2, class: "badge" }, g);
      svg("text", { x: bx, y: by, class: "badge-text", "font-size": fs }, g).textContent = txt;
    }
    title(g, it.title || (down ? "face-down" : it.text));
    return g;
  }

  /* ---- grid boards --------------------------------------------------- */
  function drawGrid(board) {
    const cols = board.cols | 0, rows = board.rows | 0, pad = 10;
    const colL = board.col_labels || null, rowL = board.row_labels || null;
    const ax = colL || rowL ? 16 : 0;  // a margin for the axis labels (square names as the actions use them)
    const ox = pad + ax, oy = pad + ax;
    const W = cols * CELL + 2 * pad + ax, H = rows * CELL + 2 * pad + ax;
    const root = svg("svg", { class: "board grid-board", viewBox: `0 0 ${W} ${H}`, "data-board": board.id, role: "img", "aria-label": board.title || board.id });
    const defs = svg("defs", null, root);
    const pat = svg("pattern", { id: "hatch-" + board.id, width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    svg("rect", { width: 8, height: 8, fill: "#3d352e" }, pat);
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#574c42", "stroke-width": 4 }, pat);
    svg("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 12, class: "board-frame" }, root);
    const byPos = new Map();
    for (const c of board.cells || []) byPos.set(c.x + "," + c.y, c);
    const cellLayer = svg("g", { class: "cells" }, root);
    for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
      const c = byPos.get(x + "," + y) || {};
      const px = ox + x * CELL, py = oy + y * CELL;
      const g = svg("g", { class: "cell" + (c.blocked ? " blocked" : "") + (c.highlight ? " marked" : ""), "data-click": `${board.id}:${x},${y}`,
        "data-square": colL && rowL && colL[x] != null && rowL[y] != null ? colL[x] + rowL[y] : null }, cellLayer);
      svg("rect", { x: px + 1, y: py + 1, width: CELL - 2, height: CELL - 2, rx: 5, class: "bg", fill: c.blocked ? `url(#hatch-${board.id})` : (c.fill || "#efe8da") }, g);
      svg("rect", { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 4, class: "ring" }, g);
      if (c.label) {
        const t = svg("text", { x: px + 5, y: py + 12, class: "cell-label", fill: ink(c.fill || "#efe8da") === "#ffffff" ? "rgba(255,255,255,.85)" : "rgba(40,30,20,.62)" }, g);
        fitText(t, c.label, 9);
      }
      title(g, c.title || c.label);
    }
    if (ax) {
      const axes = svg("g", { class: "axes", "aria-hidden": "true" }, root);
      if (colL) for (let x = 0; x < cols; x++)
        svg("text", { x: ox + x * CELL + CELL / 2, y: pad + ax - 4, class: "axis-label axis-col", "text-anchor": "middle" }, axes).textContent = String(colL[x] ?? "");
      if (rowL) for (let y = 0; y < rows; y++)
        svg("text", { x: pad + ax - 4, y: oy + y * CELL + CELL / 2 + 4, class: "axis-label axis-row", "text-anchor": "end" }, axes).textContent = String(rowL[y] ?? "");
    }
    const wallLayer = svg("g", { class: "walls" }, root);
    for (const w of board.walls || []) {
      const px = ox + w.x * CELL, py = oy + w.y * CELL;
      const seg = { N: [px, py, px + CELL, py], S: [px, py + CELL, px + CELL, py + CELL], W: [px, py, px, py + CELL], E: [px + CELL, py, px + CELL, py + CELL] }[w.side];
      if (!seg) continue;
      svg("line", { x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3], class: "wall", stroke: w.color || "#2b211b" }, wallLayer);
    }
    const itemLayer = svg("g", { class: "items" }, root);
    const groups = new Map();
    for (const it of board.items || []) {
      const k = it.x + "," + it.y;
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(it);
    }
    for (const [k, list] of groups) {
      const [x, y] = k.split(",").map(Number);
      const cx = ox + x * CELL + CELL / 2, cy = oy + y * CELL + CELL / 2;
      const sl = slots(list.length, cx, cy, CELL);
      list.forEach((it, i) => drawItem(itemLayer, it, sl[i][0], sl[i][1], sl[i][2], `${board.id}:${x},${y}`));
    }
    return root;
  }

  /* ---- node boards (tracks, rings, maps) ------------------------------ */
  function drawNodes(board) {
    const small = !!board.small;  /* a dial or track drawn beside the main board */
    const W = board.width || (small ? 220 : 640), H = board.height || (small ? 220 : 480), m = small ? 22 : 40, R = small ? 17 : 22;
    const root = svg("svg", { class: "board node-board", viewBox: `0 0 ${W} ${H}`, "data-board": board.id, role: "img", "aria-label": board.title || board.id });
    svg("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 14, class: "board-frame" }, root);
    const pos = new Map();
    for (const n of board.nodes || []) pos.set(String(n.id), [m + n.x * (W - 2 * m), m + n.y * (H - 2 * m)]);
    const edgeLayer = svg("g", { class: "edges" }, root);
    for (const e of board.edges || []) {
      const a = pos.get(String(e[0])), b = pos.get(String(e[1]));
      if (a && b) svg("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "edge" }, edgeLayer);
    }
    const groups = new Map();
    for (const it of board.items || []) {
      const k = String(it.node);
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(it);
    }
    const nodeLayer = svg("g", { class: "nodes" }, root);
    const tags = [];
    for (const n of board.nodes || []) {
      const [x, y] = pos.get(String(n.id));
      const g = svg("g", { class: "node cell" + (n.highlight ? " marked" : ""), "data-click": `${board.id}:${n.id}`, "data-square": n.label || null }, nodeLayer);
      svg("circle", { cx: x, cy: y, r: R, class: "bg", fill: n.fill || "#efe8da" }, g);
      svg("circle", { cx: x, cy: y, r: R + 5, class: "ring" }, g);
      /* the label sits inside its node (labels under the nodes ran into the next node);
         on an occupied node it becomes a tag on the node's rim, drawn above the pieces */
      if (n.label && !groups.has(String(n.id))) fitText(svg("text", { x: x, y: y + 4, class: "node-label" }, g), n.label, 5);
      else if (n.label) tags.push([x, y, n.label]);
      title(g, n.title || n.label);
    }
    const itemLayer = svg("g", { class: "items" }, root);
    for (const [k, list] of groups) {
      const p = pos.get(k);
      if (!p) continue;
      const sl = slots(list.length, p[0], p[1], R * 2.2);
      list.forEach((it, i) => drawItem(itemLayer, it, sl[i][0], sl[i][1], Math.min(sl[i][2], R * 0.8), `${board.id}:${k}`));
    }
    const tagLayer = svg("g", { class: "node-tags" }, root);
    for (const [x, y, label] of tags) fitText(svg("text", { x: x - R + 2, y: y + R + 1, class: "node-label node-tag" }, tagLayer), label, 5);
    return root;
  }

  function drawPlaceholder(scene) {
    const root = svg("svg", { class: "board placeholder-board", viewBox: "0 0 480 120", role: "img", "aria-label": "table" });
    svg("rect", { x: 2, y: 2, width: 476, height: 116, rx: 14, class: "board-frame" }, root);
    fitText(svg("text", { x: 240, y: 52, class: "placeholder-title" }, root), scene.title || "", 40);
    fitText(svg("text", { x: 240, y: 82, class: "placeholder-sub" }, root), scene.status || "", 60);
    return root;
  }

  /* ---- panels (players, hands, decks) --------------------------------- */
  function drawPanel(p) {
    const wide = (p.cards && p.cards.length > 0) || (p.rows || []).some(r => String(r[1]).length > 22 || String(r[0]).length > 18);
    const card = h("section", { class: "panel" + (p.active ? " active" : "") + (wide ? " wide" : ""), "data-seat": p.seat });
    const head = h("header", null,
      p.color ? h("span", { class: "swatch", style: `background:${p.color}` }) : null,
      h("span", { class: "panel-title", text: p.title || "" }),
      p.active ? h("span", { class: "turn-dot", title: "to act" }) : null);
    card.appendChild(head);
    if (p.rows && p.rows.length) {
      const dl = h("dl", { class: "rows" });
      for (const r of p.rows) { dl.appendChild(h("dt", { text: String(r[0]) })); dl.appendChild(h("dd", { text: String(r[1]) })); }
      card.appendChild(dl);
    }
    if (p.cards && p.cards.length) {
      const hand = h("div", { class: "hand" });
      for (const c of p.cards) {
        hand.appendChild(h("div", { class: "card" + (c.face_down ? " face-down" : ""), "data-click": c.id != null ? "card:" + c.id : null, title: c.face_down ? "face-down card" : (c.text || c.name || "") },
          c.face_down ? h("span", { class: "card-back", text: "?" }) : [h("strong", { text: c.name || "" }), c.text ? h("small", { text: c.text }) : null]));
      }
      card.appendChild(hand);
    }
    return card;
  }

  /* ---- whole scene ----------------------------------------------------- */
  function render(scene, parts) {
    scene = scene || {};
    if (parts.status) parts.status.textContent = scene.status || "";
    if (parts.prompt) { parts.prompt.textContent = scene.prompt || ""; parts.prompt.hidden = !scene.prompt; }
    if (parts.boards) {
      parts.boards.replaceChildren();
      const boards = scene.boards || [];
      for (const b of boards) {
        const wrap = h("figure", { class: "board-wrap" + (b.small ? " small" : "") });
        wrap.appendChild(b.kind === "nodes" ? drawNodes(b) : drawGrid(b));
        if (b.title) wrap.appendChild(h("figcaption", { text: b.title }));
        parts.boards.appendChild(wrap);
      }
      if (!boards.length) parts.boards.appendChild(h("figure", { class: "board-wrap" }, drawPlaceholder(scene)));
    }
    if (parts.panels) {
      parts.panels.replaceChildren();
      for (const p of scene.panels || []) parts.panels.appendChild(drawPanel(p));
    }
  }

  /* ---- multi-click selection ------------------------------------------ */
  class Clicker {
    constructor(targets) { this.targets = targets || []; this.picked = []; }
    candidates() {
      const n = this.picked.length;
      return this.targets.filter(t => t.clicks && t.clicks.length >= n && this.picked.every((c, i) => t.clicks[i] === c));
    }
    next() {
      const n = this.picked.length, out = new Set();
      for (const t of this.candidates()) if (t.clicks.length > n) out.add(t.clicks[n]);
      return out;
    }
    /* Returns {done: [targets fully matched]} when the clicks pick actions, else null. */
    click(ids) {
      let next = this.next();
      let id = ids.find(i => i && next.has(i));
      if (!id && this.picked.length) { this.picked = []; next = this.next(); id = ids.find(i => i && next.has(i)); }
      if (!id) { this.picked = []; return { reset: true }; }
      this.picked.push(id);
      const cands = this.candidates();
      const full = cands.filter(t => t.clicks.length === this.picked.length);
      if (full.length && full.length === cands.length) return { done: full };
      return { more: true };
    }
    reset() { this.picked = []; }
  }

  function paintClicks(root, clicker, hintClicks) {
    const next = clicker ? clicker.next() : new Set();
    const picked = new Set(clicker ? clicker.picked : []);
    const hint = new Set(hintClicks || []);
    root.querySelectorAll("[data-click]").forEach(el => {
      const id = el.getAttribute("data-click");
      el.classList.toggle("can-click", next.has(id));
      el.classList.toggle("picked", picked.has(id));
      el.classList.toggle("hint", hint.has(id));
    });
    root.querySelectorAll(".item[data-cell]").forEach(el => {
      if (!el.classList.contains("can-click") && next.has(el.getAttribute("data-cell"))) el.classList.add("via-cell");
      else el.classList.remove("via-cell");
    });
  }

  function clickIds(ev) {
    const el = ev.target.closest ? ev.target.closest("[data-click],[data-cell]") : null;
    if (!el) return [];
    return [el.getAttribute("data-click"), el.getAttribute("data-cell")].filter(Boolean);
  }

  function lockIcon() {
    const el = svg("svg", { viewBox: "0 0 12 12", class: "lock", "aria-label": "private" });
    svg("rect", { x: 1.5, y: 5, width: 9, height: 6.5, rx: 1.2 }, el);
    svg("path", { d: "M3.5 5V3.6a2.5 2.5 0 0 1 5 0V5", fill: "none", stroke: "currentColor", "stroke-width": 1.4 }, el).style.stroke = "var(--accent-2)";
    title(el, "Not public: seen only by the players it was shown to, not by spectators");
    return el;
  }
  function logItems(list, events) {
    list.replaceChildren();
    let turn = null;
    for (const e of events) {
      if (e.turn !== turn) { turn = e.turn; list.appendChild(h("li", { class: "turn-sep", text: "Turn " + turn })); }
      list.appendChild(h("li", { class: e.private ? "private" : "" }, e.private ? lockIcon() : null, h("span", { text: e.text })));
    }
    if (!events.length) list.appendChild(h("li", { class: "empty", text: "Nothing has happened yet." }));
    list.scrollTop = list.scrollHeight;
  }

  window.Boardlab = Object.assign(window.Boardlab || {}, { render, Clicker, paintClicks, clickIds, h, logItems });
})();
