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
  /* Slots in a box (x0, y0, w, h): the grid of rows and columns that gives the largest pieces, at most
     `rmax` in radius, the last row centred. A square's box starts under its label, so that pieces
     never cover it. */
  function slotsIn(n, x0, y0, w, h, rmax) {
    let best = null;
    for (let rows = 1; rows <= n; rows++) {
      const cols = Math.ceil(n / rows), r = Math.min(rmax, Math.min(w / cols, h / rows) / 2 * 0.92);
      if (!best || r > best.r) best = { rows, cols, r };
    }
    const out = [], { rows, cols, r } = best, cw = w / cols, rh = h / rows;
    for (let i = 0; i < n; i++) {
      const row = Math.floor(i / cols), inRow = row === rows - 1 ? n - row * cols : cols;
      const col = i % cols, off = (cols - inRow) * cw / 2;
      out.push([x0 + off + cw * (col + 0.5), y0 + rh * (row + 0.5), r]);
    }
    return out;
  }

  /* A face-down item is unknown when it carries no text or "?"; otherwise the seat knows it
     (its own secret, a token it has seen) and it is drawn as known, marked as face down. */
  function knownFaceDown(it) { return !!it.face_down && it.text != null && String(it.text) !== "" && String(it.text) !== "?"; }

  /* Sides differ by pattern as well as colour: an item whose colour is a panel's colour (a player's
     side) carries that side's pattern (none, stripes, dots, cross-hatch...), as does the panel's swatch. */
  const SIDE_PATTERNS = ["", "stripes", "dots", "cross", "rings"];
  function sideDefs(defs, uid) {
    const mk = (name, w, draw) => { const p = svg("pattern", { id: `side-${name}-${uid}`, width: w, height: w, patternUnits: "userSpaceOnUse" }, defs); draw(p); };
    mk("stripes", 7, p => { p.setAttribute("patternTransform", "rotate(45)"); svg("rect", { width: 3, height: 7, fill: "rgba(255,255,255,.55)" }, p); });
    mk("dots", 7, p => svg("circle", { cx: 3.5, cy: 3.5, r: 1.7, fill: "rgba(255,255,255,.7)" }, p));
    mk("cross", 8, p => { svg("path", { d: "M0 4H8M4 0V8", stroke: "rgba(255,255,255,.6)", "stroke-width": 1.6 }, p); });
    mk("rings", 9, p => svg("circle", { cx: 4.5, cy: 4.5, r: 2.6, fill: "none", stroke: "rgba(255,255,255,.7)", "stroke-width": 1.3 }, p));
  }

  function drawItem(layer, it, x, y, r, cellClick, ctx) {
    ctx = ctx || {};
    const down = !!it.face_down, known = knownFaceDown(it);
    const side = it.color && ctx.sides ? ctx.sides.get(String(it.color).toLowerCase()) : undefined;
    const g = svg("g", { class: "item" + (down ? " face-down" : "") + (known ? " known" : "") + (side !== undefined ? " side-" + side : ""),
      "data-click": it.id != null ? "item:" + it.id : null, "data-cell": cellClick, "data-side": side }, layer);
    const shape = it.shape || "circle";
    const fill = down && !known ? "#4a4038" : (it.color || "#555");
    const cls = "piece" + (down ? " face-down" : "");
    let outline;
    if (shape === "circle") {
      svg("circle", { cx: x, cy: y + r * 0.08, r: r, class: "shadow" }, g);
      outline = () => svg("circle", { cx: x, cy: y, r: r }, g);
    } else if (shape === "card") {
      outline = () => svg("rect", { x: x - r * 0.72, y: y - r, width: r * 1.44, height: r * 2, rx: r * 0.18 }, g);
    } else if (shape === "token") {
      const pts = [];
      for (let i = 0; i < 6; i++) {
        const a = Math.PI / 3 * i + Math.PI / 6;
        pts.push((x + r * Math.cos(a)).toFixed(1) + "," + (y + r * Math.sin(a)).toFixed(1));
      }
      outline = () => svg("polygon", { points: pts.join(" ") }, g);
    } else {
      outline = () => svg("rect", { x: x - r, y: y - r, width: r * 2, height: r * 2, rx: r * 0.25 }, g);
    }
    const body = outline(); body.setAttribute("fill", fill); body.setAttribute("class", cls);
    if (side && SIDE_PATTERNS[side] && ctx.uid) {
      const pat = outline(); pat.setAttribute("fill", `url(#side-${SIDE_PATTERNS[side]}-${ctx.uid})`); pat.setAttribute("class", "side-mark");
    }
    if (known) {  /* a folded corner: face down, but known to this seat */
      const f = r * 0.55;
      svg("path", { d: `M${x + r * 0.2} ${y - r} h${f} v${f} z`, class: "fold" }, g);
    }
    const label = down && !known ? "?" : (it.text || "");
    const u = ctx.u || 0;
    if (label) {
      const fs = Math.max(u, 9, Math.min(r * 0.9, r * 2.2 / Math.max(1, String(label).length) * 1.1));
      const t = svg("text", { x: x, y: y, class: "item-text", fill: ink(fill) }, g);
      t.style.fontSize = fs.toFixed(1) + "px";
      fitText(t, label, Math.max(2, Math.min(6, Math.floor(r * 2.4 / (fs * 0.62)))));
    }
    /* a stack shows no badges (they covered the other pieces): the piece's name, the key and the
       square's accessible name still say it */
    if (!ctx.stacked && it.badge !== undefined && it.badge !== null && it.badge !== "") {
      const txt = String(it.badge).slice(0, 5);
      const fs = Math.max(8, u, r * 0.5), bh = fs * 1.3, bw = Math.max(bh, fs * 0.62 * txt.length + fs * 0.6);
      const bx = x + r * 0.75, by = y - r * 0.8;
      svg("rect", { x: bx - bw / 2, y: by - bh / 2, width: bw, height: bh, rx: bh / 2, class: "badge" }, g);
      const bt = svg("text", { x: bx, y: by, class: "badge-text" }, g);
      bt.style.fontSize = fs.toFixed(1) + "px";
      bt.textContent = txt;
    }
    const name = it.title || (down ? (known ? it.text + " (face down)" : "face-down, unknown") : it.text);
    title(g, name);
    g.dataset.name = name || "";
    g._item = it;  /* the scene's item, for the enlarged view of a stack (game.js) */
    return g;
  }

  /* ---- grid boards --------------------------------------------------- */
  /* ctx: {u: the smallest font size in board units (so text reads at least ~11 px once the board is
     scaled to the screen), uid: unique per drawing (pattern ids), sides: colour -> side index} */
  /* A cell's description, led by the label drawn on it when the description does not already hold
     it: a name must contain the visible text (axe-core's label-content-name-mismatch; issue 32). */
  function shownBase(el) {
    const base = el.dataset.base || "";
    const shown = [...el.querySelectorAll("text")].map(t => t.textContent.trim()).filter(Boolean).join(" ");
    return shown && !base.includes(shown) ? (base ? shown + ", " + base : shown) : base;
  }
  function cellName(sq, base, items, extra) {
    const bits = [base].concat(items.map(i => i.dataset.name).filter(Boolean));
    let text = bits.filter(Boolean).join(", ");
    /* a square whose label or title repeats its name read "l12: l12: ..." (issue 44) */
    if (sq) { while (text.toLowerCase().startsWith(sq.toLowerCase()) && /^[:,\s]|^$/.test(text.slice(sq.length))) text = text.slice(sq.length).replace(/^[:,\s]+/, ""); }
    return (sq ? sq + ": " : "") + (text || "empty") + (extra || "");
  }

  function drawGrid(board, ctx) {
    ctx = ctx || {};
    const u = ctx.u || 0;
    const cols = board.cols | 0, rows = board.rows | 0, pad = 10;
    const colL = board.col_labels || null, rowL = board.row_labels || null;
    const axFs = Math.max(11, u);
    const ax = colL || rowL ? Math.max(16, Math.ceil(axFs * 1.5)) : 0;  // a margin for the axis labels (square names as the actions use them)
    const ox = pad + ax, oy = pad + ax;
    const W = cols * CELL + 2 * pad + ax, H = rows * CELL + 2 * pad + ax;
    const root = svg("svg", { class: "board grid-board", viewBox: `0 0 ${W} ${H}`, "data-board": board.id, role: "group",
      "aria-label": (board.title || "board") + ` (${cols} by ${rows}; arrow keys move between squares, Enter chooses)`,
      "data-cell-units": CELL }, null);
    const defs = svg("defs", null, root);
    const pat = svg("pattern", { id: "hatch-" + board.id + "-" + ctx.uid, width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    svg("rect", { width: 8, height: 8, fill: "#3d352e" }, pat);
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#574c42", "stroke-width": 4 }, pat);
    sideDefs(defs, ctx.uid);
    svg("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 12, class: "board-frame" }, root);
    const byPos = new Map();
    for (const c of board.cells || []) byPos.set(c.x + "," + c.y, c);
    const cellLayer = svg("g", { class: "cells" }, root);
    const cellEls = new Map();
    const lfs = Math.max(9, u), lchars = Math.max(2, Math.floor((CELL - 8) / (lfs * 0.6)));
    for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
      const c = byPos.get(x + "," + y) || {};
      const px = ox + x * CELL, py = oy + y * CELL;
      const sq = colL && rowL && colL[x] != null && rowL[y] != null ? colL[x] + rowL[y] : null;
      const g = svg("g", { class: "cell" + (c.blocked ? " blocked" : "") + (c.highlight ? " marked" : ""), "data-click": `${board.id}:${x},${y}`,
        "data-square": sq, "data-x": x, "data-y": y, role: "button", tabindex: -1 }, cellLayer);
      svg("rect", { x: px + 1, y: py + 1, width: CELL - 2, height: CELL - 2, rx: 5, class: "bg", fill: c.blocked ? `url(#hatch-${board.id}-${ctx.uid})` : (c.fill || "#efe8da") }, g);
      svg("rect", { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 4, class: "ring" }, g);
      if (c.label) {
        const t = svg("text", { x: px + 5, y: py + 4 + lfs * 0.85, class: "cell-label", fill: ink(c.fill || "#efe8da") === "#ffffff" ? "rgba(255,255,255,.9)" : "rgba(40,30,20,.78)" }, g);
        t.style.fontSize = lfs.toFixed(1) + "px";
        /* a first cut by a pessimistic estimate of the text's width; fitLabels then measures it and
           condenses it down to 65% before it shortens it (issue 44: "Dragon" was cut to "Drag…") */
        fitText(t, c.label, Math.ceil(lchars / 0.65));
      }
      title(g, c.title || c.label);
      g.dataset.base = c.title || c.label || (c.blocked ? "blocked" : "");
      cellEls.set(x + "," + y, g);
    }
    if (ax) {
      const axes = svg("g", { class: "axes", "aria-hidden": "true" }, root);
      /* the coordinates stay in view when the board is zoomed and scrolled (see keepAxes) */
      /* the row numbers under the column letters, and a corner over both, so that a label scrolled
         under the other band is hidden rather than drawn over it (issue 44: a "5" over the letters) */
      const rowG = svg("g", { class: "axes-row" }, axes), colG = svg("g", { class: "axes-col" }, axes);
      if (colL) svg("rect", { x: 0, y: 0, width: W, height: pad + ax, class: "axis-band" }, colG);
      if (rowL) svg("rect", { x: 0, y: 0, width: pad + ax, height: H, class: "axis-band" }, rowG);
      if (colL && rowL) svg("rect", { x: 0, y: 0, width: pad + ax, height: pad + ax, class: "axis-band" }, svg("g", { class: "axes-corner" }, axes));
      root.dataset.axisUnits = pad + ax;
      if (colL) for (let x = 0; x < cols; x++) {
        const t = svg("text", { x: ox + x * CELL + CELL / 2, y: pad + ax - axFs * 0.35, class: "axis-label axis-col", "text-anchor": "middle" }, colG);
        t.textContent = String(colL[x] ?? ""); t.style.fontSize = axFs.toFixed(1) + "px";
      }
      if (rowL) for (let y = 0; y < rows; y++) {
        const t = svg("text", { x: pad + ax - 3, y: oy + y * CELL + CELL / 2 + axFs * 0.35, class: "axis-label axis-row", "text-anchor": "end" }, rowG);
        t.textContent = String(rowL[y] ?? ""); t.style.fontSize = axFs.toFixed(1) + "px";
      }
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
      const lab = (byPos.get(k) || {}).label, px = ox + x * CELL, py = oy + y * CELL, rmax = CELL * 0.34;
      let sl = slotsIn(list.length, px + 3, py + 3, CELL - 6, CELL - 6, rmax);
      if (lab) {  /* under the label, or beside it when that leaves bigger pieces (a short label: "G", "T") */
        const band = 4 + lfs * 1.15, lw = 5 + Math.min(String(lab).length, lchars) * lfs * 0.7 + 2;
        const under = slotsIn(list.length, px + 3, py + band, CELL - 6, CELL - band - 3, rmax);
        const beside = slotsIn(list.length, px + lw, py + 3, CELL - lw - 3, CELL - 6, rmax);
        sl = beside[0][2] > under[0][2] ? beside : under;
      }
      const c2 = list.length > 1 ? Object.assign({}, ctx, { stacked: true }) : ctx;
      const els = list.map((it, i) => drawItem(itemLayer, it, sl[i][0], sl[i][1], sl[i][2], `${board.id}:${x},${y}`, c2));
      const cell = cellEls.get(k);
      if (cell) cell._items = els;
    }
    for (const cell of cellEls.values()) cell.setAttribute("aria-label", cellName(cell.dataset.square, shownBase(cell), cell._items || []));
    const axesEl = root.querySelector(".axes");
    if (axesEl) root.appendChild(axesEl);
    return root;
  }

  /* ---- node boards (tracks, rings, maps) ------------------------------ */
  function nodeGeometry(board) {
    const small = !!board.small;  /* a dial or track drawn beside the main board */
    return { small, W: board.width || (small ? 220 : 640), H: board.height || (small ? 220 : 480), m: small ? 22 : 40, R: small ? 17 : 22 };
  }
  function drawNodes(board, ctx) {
    ctx = ctx || {};
    const u = ctx.u || 0;
    const { small, W, H, m, R } = nodeGeometry(board);
    const root = svg("svg", { class: "board node-board", viewBox: `0 0 ${W} ${H}`, "data-board": board.id, role: "group",
      "aria-label": (board.title || "board") + (small ? "" : " (arrow keys move between spaces, Enter chooses)"), "data-cell-units": 2 * R });
    sideDefs(svg("defs", null, root), ctx.uid);
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
    const tags = [], nodeEls = new Map();
    const base = small ? 15 : 12, nfs = Math.max(base, u);
    for (const n of board.nodes || []) {
      const [x, y] = pos.get(String(n.id));
      const g = svg("g", { class: "node cell" + (n.highlight ? " marked" : ""), "data-click": `${board.id}:${n.id}`, "data-square": n.label || null,
        "data-px": x.toFixed(1), "data-py": y.toFixed(1) }, nodeLayer);
      if (!small) { g.setAttribute("role", "button"); g.setAttribute("tabindex", -1); }
      svg("circle", { cx: x, cy: y, r: R, class: "bg", fill: n.fill || "#efe8da" }, g);
      svg("circle", { cx: x, cy: y, r: R + 5, class: "ring" }, g);
      /* the label sits inside its node (labels under the nodes ran into the next node);
         on an occupied node it becomes a tag on the node's rim, drawn above the pieces */
      if (n.label && !groups.has(String(n.id))) {
        const t = svg("text", { x: x, y: y + nfs * 0.35, class: "node-label" }, g);
        t.style.fontSize = nfs.toFixed(1) + "px";
        fitText(t, n.label, Math.max(2, Math.floor(R * 2.6 / (nfs * 0.6))));
      } else if (n.label) tags.push([x, y, n.label]);
      title(g, n.title || n.label);
      g.dataset.base = n.title || n.label || "";
      nodeEls.set(String(n.id), g);
    }
    const itemLayer = svg("g", { class: "items" }, root);
    for (const [k, list] of groups) {
      const p = pos.get(k);
      if (!p) continue;
      let sl;
      if (list.length === 1) sl = [[p[0], p[1], R * 0.8]];
      else {  /* stacked pieces fan out around their space instead of overlapping */
        const rr = Math.min(R * 0.62, R * 2.4 / list.length + 2), d = R * 0.55 + rr * 0.75;
        sl = list.map((_, i) => { const a = -Math.PI / 2 + 2 * Math.PI * i / list.length; return [p[0] + d * Math.cos(a), p[1] + d * Math.sin(a), rr]; });
      }
      const c2 = list.length > 1 ? Object.assign({}, ctx, { stacked: true }) : ctx;
      const els = list.map((it, i) => drawItem(itemLayer, it, sl[i][0], sl[i][1], sl[i][2], `${board.id}:${k}`, c2));
      const n = nodeEls.get(k);
      if (n) n._items = els;
    }
    const tagLayer = svg("g", { class: "node-tags" }, root);
    for (const [x, y, label] of tags) {
      const t = svg("text", { x: x - R + 2, y: y + R + nfs * 0.4, class: "node-label node-tag" }, tagLayer);
      t.style.fontSize = Math.max(10, u).toFixed(1) + "px";
      fitText(t, label, 5);
    }
    for (const n of nodeEls.values()) n.setAttribute("aria-label", cellName(n.dataset.square, shownBase(n), n._items || []));
    return root;
  }

  /* A game without a board: a slim band with the scene's title (the status bar above says the rest),
     not a big empty frame; render() moves the panels (the hands) into the table column beneath it. */
  function drawPlaceholder(scene) {
    const root = svg("svg", { class: "board placeholder-board", viewBox: "0 0 960 48", role: "img", "aria-label": scene.title || "table" });
    svg("rect", { x: 2, y: 2, width: 956, height: 44, rx: 10, class: "board-frame" }, root);
    fitText(svg("text", { x: 480, y: 32, class: "placeholder-title" }, root), scene.title || "", 70);
    return root;
  }
  /* Board-less: the panels sit in the table column, side by side (the hand at full width), and go back
     to the side column under the actions when the scene has a board (the same element: listeners stay). */
  function placePanels(parts, flat) {
    const layout = parts.boards && parts.boards.closest(".game-layout");
    if (!layout || !parts.panels) return;
    layout.classList.toggle("no-board", flat);
    const after = flat ? (parts.boards.nextElementSibling && parts.boards.nextElementSibling.id === "chooser" ? parts.boards.nextElementSibling : parts.boards)
                       : layout.querySelector(".side .actions-box");
    if (after && after.nextElementSibling !== parts.panels) after.after(parts.panels);
    if (parts.legend && parts.panels.nextElementSibling !== parts.legend) parts.panels.after(parts.legend);
  }

  /* ---- panels (players, hands, decks) --------------------------------- */
  function drawPanel(p, sides) {
    const wide = (p.cards && p.cards.length > 0) || (p.rows || []).some(r => String(r[1]).length > 22 || String(r[0]).length > 18);
    const card = h("section", { class: "panel" + (p.active ? " active" : "") + (wide ? " wide" : ""), "data-seat": p.seat });
    const side = p.color && sides ? sides.get(String(p.color).toLowerCase()) : undefined;
    const head = h("header", null,
      p.color ? h("span", { class: "swatch" + (side !== undefined ? " side-" + side : ""), style: `background-color:${p.color}` }) : null,
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
        const why = c.why_not && !c.face_down ? String(c.why_not) : null;
        hand.appendChild(h("div", { class: "card" + (c.face_down ? " face-down" : "") + (why ? " unplayable" : ""), "data-click": c.id != null ? "card:" + c.id : null,
          title: c.face_down ? "face-down card" : (c.text || c.name || ""), "data-why-not": why },
          c.face_down ? h("span", { class: "card-back", text: "?" }) : [h("strong", { text: c.name || "" }), c.text ? h("small", { text: c.text }) : null,
            why ? h("small", { class: "why-not", text: "Can't play: " + why }) : null]));
      }
      card.appendChild(hand);
    }
    return card;
  }

  /* Sides: each player panel with a colour is a side; items of that colour carry its pattern. */
  function sidesOf(scene) {
    const out = new Map();
    for (const p of scene.panels || []) if (p.color && p.seat !== undefined && p.seat !== null) {
      const k = String(p.color).toLowerCase();
      if (!out.has(k)) out.set(k, out.size);
    }
    return out;
  }

  /* ---- the key: what each kind of piece means (a list on the page: touch screens show no tooltips) */
  function drawLegend(scene, sides) {
    const seen = new Map();
    for (const b of scene.boards || []) for (const it of b.items || []) {
      const name = it.title || (it.face_down && !knownFaceDown(it) ? "face-down, unknown" : it.text);
      if (!name) continue;
      const key = [it.shape, it.color, it.face_down && !knownFaceDown(it) ? "?" : it.text, !!it.face_down].join("|");
      if (!seen.has(key)) seen.set(key, { it, names: new Set() });
      seen.get(key).names.add(String(name));
    }
    const notes = scene.key_notes || [];  /* what the board's words mean (the Labyrinth's "+2/-1", "(stuck)") */
    if (!seen.size && !notes.length) return null;
    const list = h("ul", { class: "legend-list" });
    let n = 0;
    for (const { it, names } of seen.values()) {
      if (n++ >= 30) break;
      const icon = svg("svg", { viewBox: "0 0 40 40", class: "legend-icon", "aria-hidden": "true" });
      const ctx = { u: 14.5, uid: "lg" + n, sides };  /* 40 units drawn 32 px: text at least 11.5 px */
      sideDefs(svg("defs", null, icon), ctx.uid);
      drawItem(icon, Object.assign({}, it, { badge: null, id: null }), 20, 20, 15, null, ctx);
      const arr = [...names];
      const text = arr.length > 3 ? arr.slice(0, 3).join("; ") + ` (and ${arr.length - 3} more)` : arr.join("; ");
      list.appendChild(h("li", null, icon, h("span", { text: text })));
    }
    const sideNames = [];
    for (const p of scene.panels || []) if (p.color && sides.has(String(p.color).toLowerCase())) sideNames.push(p);
    const box = h("details", { class: "legend", open: true }, h("summary", { text: "Key: what the pieces mean" }), list);
    if (sideNames.length > 1) box.appendChild(h("p", { class: "legend-sides" }, sideNames.map(p =>
      h("span", { class: "legend-side" }, h("span", { class: "swatch side-" + sides.get(String(p.color).toLowerCase()), style: `background-color:${p.color}` }),
        " " + String(p.title || "").split(" - ")[0]))));
    if (notes.length) box.appendChild(h("ul", { class: "legend-notes" }, notes.map(t => h("li", { text: t }))));
    return box;
  }

  /* A piece drawn large (`px` across, text at least 11.5 px, its badge shown), for the enlarged view
     of a stack of small pieces. */
  function itemIcon(scene, it, px) {
    /* 1 unit = px/56 px; wide enough for the badge (drawn right of the piece's centre, as on the board) */
    const u = 11.5 * 56 / px, badge = it.badge == null ? "" : String(it.badge).slice(0, 5);
    const right = badge ? Math.max(50, 22 + 18 * 0.75 + (u * 0.62 * badge.length + u * 0.6) / 2 + 2) : 50;
    const icon = svg("svg", { viewBox: `-6 -8 ${(right + 6).toFixed(1)} 56`, width: (px * (right + 6) / 56).toFixed(0), height: px,
      class: "stack-icon", "aria-hidden": "true" });
    const ctx = { u, uid: "st" + (++uidSeq), sides: sidesOf(scene || {}) };
    sideDefs(svg("defs", null, icon), ctx.uid);
    drawItem(icon, Object.assign({}, it, { id: null }), 22, 22, 18, null, ctx);
    return icon;
  }
  /* focus a square (or space) and make it its board's one tab stop */
  function focusCell(el) {
    const b = el && el.closest("svg.board");
    if (b) setRoving(b, el);
    if (el) el.focus({ preventScroll: true });
  }

  /* ---- fitting a board to the screen ------------------------------------
     A board is scaled to its box; when its squares would be smaller than a finger (34 px) it is
     zoomed instead (drawn at that size in a box that scrolls), and its text is redrawn so that it
     reads at least 11 px (10.5 px on a phone) whatever the scale. */
  /* a finger's square: 46 units-wide cells (44 px drawn) on a phone (issue 44), 34 px with a mouse */
  function minTap() { return window.innerWidth < 700 ? 46 : 34; }
  function minTextPx() { return window.innerWidth < 700 ? 11.5 : 11.5; }
  /* boards the player chose to see whole ("Fit to screen"), by board id */
  const fitChosen = new Set();
  function scaleOf(el) {
    const vb = el.viewBox.baseVal, r = el.getBoundingClientRect();
    if (!vb || !vb.width || !r.width) return 0;
    return Math.min(r.width / vb.width, r.height ? r.height / vb.height : Infinity);
  }
  function drawBoard(b, ctx) { return b.kind === "nodes" ? drawNodes(b, ctx) : drawGrid(b, ctx); }
  let uidSeq = 0;
  function placeBoard(wrap, b, sides) {
    const el = drawBoard(b, { u: 0, uid: "b" + (++uidSeq), sides });
    wrap.prepend(el);
    return el;
  }
  /* Wide screens: the main board takes the height left under the status (the warning, the recap) in
     its sticky column, so that it is seen whole at 1280x800 (issue 44, the fresh person's trial:
     Armies' ranks 1-2 were below the fold), but never squares under a mouse's 34 px: then the column
     scrolls, as before. */
  function capHeight(el, b) {
    const col = el.closest(".game-layout .table"), vb = el.viewBox && el.viewBox.baseVal;
    if (b.small || window.innerWidth < 981 || !col || !vb || !vb.height) return;
    const cellUnits = Number(el.dataset.cellUnits) || CELL;
    const lowest = vb.height * minTap() / cellUnits;
    const top = el.getBoundingClientRect().top - col.getBoundingClientRect().top + col.scrollTop;
    const room = window.innerHeight - (parseFloat(getComputedStyle(col).top) || 0) - top - 40;
    el.style.maxHeight = Math.max(lowest, Math.min(window.innerHeight - 176, room)).toFixed(0) + "px";
  }
  /* called once every board of the scene is in the page (a board's scale depends on its neighbours) */
  function fitBoard(el, b, sides) {
    const wrap = el.parentNode;
    capHeight(el, b);
    for (let round = 0; round < 3; round++) {
      let s = Number(el.dataset.scale) && wrap.classList.contains("zoomed") ? Number(el.dataset.scale) : scaleOf(el);
      if (!s) return el;
      const cellUnits = Number(el.dataset.cellUnits) || CELL;
      /* a board held back only by the phone's height cap that fits the width with finger-sized
         squares is drawn whole at that width, not zoomed (issue 44: the Dungeon's Jewel's 7 by 7) */
      if (!b.small && window.innerWidth < 700 && el.viewBox.baseVal) {
        const cs = getComputedStyle(wrap), vb = el.viewBox.baseVal;
        const sw = (wrap.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)) / vb.width;
        if (cellUnits * sw >= minTap() && vb.height * sw <= window.innerHeight * 0.5) {
          wrap.classList.remove("zoomed");
          el.style.maxHeight = "none";
          s = sw;
        }
      }
      if (!b.small && cellUnits * s < minTap() && !fitChosen.has(b.id)) {
        s = minTap() / cellUnits;
        wrap.classList.add("zoomed");
      }
      const u = minTextPx() / s, had = Number(el.dataset.u) || 0;
      if (Math.abs(u * 1.02 - had) > had * 0.01) {
        const el2 = drawBoard(b, { u: u * 1.02, uid: "b" + (++uidSeq), sides });
        if (el.style.maxHeight) el2.style.maxHeight = el.style.maxHeight;
        el.replaceWith(el2);
        el = el2;
        el.dataset.u = (u * 1.02).toFixed(2);
      }
      if (wrap.classList.contains("zoomed")) {
        const vb = el.viewBox.baseVal;
        el.style.width = (vb.width * s).toFixed(0) + "px";
        el.style.maxHeight = "none";
        el.style.maxWidth = "none";
        el.dataset.scale = s.toFixed(3);
        return el;
      }
      el.dataset.scale = s.toFixed(3);
      const now = scaleOf(el);
      if (now >= s * 0.995) return el;  /* a wider axis margin shrank it a little: once more */
    }
    return el;
  }

  /* A square's or space's label must stay inside it (a longer label ran into the next square and was
     cut off there: "TOWE" on a phone). Measured once the board is on the page: too wide, the label is
     drawn lighter, then condensed (down to 65%), then shortened with "…" (its full text stays in the
     square's title and accessible name); never below the minimum text size. */
  function fitLabels(svgEl) {
    for (const t of svgEl.querySelectorAll(".cell-label, .node-label:not(.node-tag)")) {
      const bg = t.closest(".cell") && t.closest(".cell").querySelector(".bg");
      if (!bg || !t.getComputedTextLength) continue;
      const bb = bg.getBBox(), node = t.classList.contains("node-label");
      const avail = node ? bb.width - 4 : bb.x + bb.width - Number(t.getAttribute("x")) - 3;
      if (avail <= 0 || t.getComputedTextLength() <= avail) continue;
      t.classList.add("tight");
      let len = t.getComputedTextLength();
      if (len <= avail) continue;
      const full = t.textContent;
      for (let n = full.length - 1; len * 0.65 > avail && n >= 1; n--) {
        t.textContent = full.slice(0, n).trimEnd() + "…";
        len = t.getComputedTextLength();
      }
      if (len > avail) { t.setAttribute("textLength", avail.toFixed(1)); t.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    }
  }
  function fitted(el, b, sides) { el = fitBoard(el, b, sides); fitLabels(el); boardTools(el, b); keepAxes(el); return el; }

  /* A zoomed board says so, and offers to fit it to the screen (and back): issue 44 */
  function boardTools(el, b) {
    const wrap = el.parentNode;
    if (!wrap || b.small) return;
    /* the bar sits just before the board's box (outside what scrolls) */
    let bar = wrap.previousElementSibling && wrap.previousElementSibling.classList.contains("board-tools") ? wrap.previousElementSibling : null;
    const zoomed = wrap.classList.contains("zoomed"), fit = fitChosen.has(b.id);
    if (!zoomed && !fit) { if (bar) bar.remove(); return; }
    if (!bar) { bar = h("div", { class: "board-tools" }); wrap.before(bar); }
    const name = b.title || "the board";
    bar.replaceChildren(h("span", { class: "board-hint", text: zoomed ? "Zoomed: drag or scroll to see all of " + name : "Fitted to the screen" }),
      h("button", { class: "btn small board-zoom", type: "button", "aria-pressed": fit ? "true" : "false",
        onclick: () => {
          if (fitChosen.has(b.id)) fitChosen.delete(b.id); else fitChosen.add(b.id);
          if (window.Boardlab.refitAll) window.Boardlab.refitAll();
        } }, fit ? "Zoom in" : "Fit to screen"));
  }
  /* the coordinates of a zoomed board move with its scroll, so they stay at its edges */
  function keepAxes(el) {
    const wrap = el.parentNode;
    if (!wrap || !el.querySelector(".axes")) return;
    const move = () => {
      const sc = Number(el.dataset.scale) || 1, zoomed = wrap.classList.contains("zoomed");
      const colG = el.querySelector(".axes-col"), rowG = el.querySelector(".axes-row"), corner = el.querySelector(".axes-corner");
      if (colG) colG.setAttribute("transform", zoomed ? `translate(0 ${(wrap.scrollTop / sc).toFixed(1)})` : "");
      if (rowG) rowG.setAttribute("transform", zoomed ? `translate(${(wrap.scrollLeft / sc).toFixed(1)} 0)` : "");
      if (corner) corner.setAttribute("transform", zoomed ? `translate(${(wrap.scrollLeft / sc).toFixed(1)} ${(wrap.scrollTop / sc).toFixed(1)})` : "");
    };
    if (!wrap.dataset.axes) { wrap.addEventListener("scroll", () => { const s2 = wrap.querySelector("svg.board"); if (s2 && s2._moveAxes) s2._moveAxes(); }, { passive: true }); wrap.dataset.axes = "1"; }
    el._moveAxes = move;
    move();
  }

  /* the layout around a board changes after it is drawn (panels, the action list, a scroll bar):
     a board whose drawn size changes is fitted again */
  const watched = new Map();
  const observer = typeof ResizeObserver === "function" ? new ResizeObserver(entries => {
    for (const en of entries) {
      const el = en.target, rec = watched.get(el);
      if (!rec || !el.isConnected) { observer.unobserve(el); watched.delete(el); continue; }
      const w = en.contentRect.width;
      if (rec.w && Math.abs(w - rec.w) <= rec.w * 0.01) continue;
      if (!rec.w) { rec.w = w; continue; }
      observer.unobserve(el); watched.delete(el);
      if (el.parentNode && el.parentNode.classList.contains("zoomed")) continue;
      requestAnimationFrame(() => {
        if (!el.isConnected) return;
        /* the board is drawn anew: a square that had the focus keeps it */
        const had = el.contains(document.activeElement) ? document.activeElement.getAttribute("data-click") : null;
        const el2 = fitted(el, rec.b, rec.sides);
        watch(el2, rec.b, rec.sides);
        if (had && el2 !== el) focusCell([...el2.querySelectorAll(".cell[data-click]")].find(c => c.getAttribute("data-click") === had));
        if (window.Boardlab.afterRefit) window.Boardlab.afterRefit();  /* the page repaints what can be clicked */
      });
    }
  }) : null;
  function watch(el, b, sides) {
    if (!observer) return;
    watched.set(el, { b, sides, w: 0 });
    observer.observe(el);
  }

  /* Scroll each zoomed board's box (never the page) so that these squares are in it: all of them when
     they fit, else the first; nothing moves when they are already in view. */
  function bringIntoBox(els) {
    const byWrap = new Map();
    for (const el of els) {
      const w = el.closest(".board-wrap.zoomed");
      if (w) { if (!byWrap.has(w)) byWrap.set(w, []); byWrap.get(w).push(el.getBoundingClientRect()); }
    }
    for (const [w, rects] of byWrap) {
      /* the pinned coordinate bands cover the box's top and left edges: squares count as in view
         only beside them (issue 44: the a-file and rank 8 under the labels) */
      const b = w.querySelector("svg.board"), band = b && b.querySelector(".axes") ? (Number(b.dataset.axisUnits) || 0) * (Number(b.dataset.scale) || 1) : 0;
      const box = w.getBoundingClientRect(), cw = w.clientWidth - band, ch = w.clientHeight - band;
      const x0 = box.left + w.clientLeft + band, y0 = box.top + w.clientTop + band;
      const seen = rects.some(r => r.left >= x0 - 1 && r.right <= x0 + cw + 1 && r.top >= y0 - 1 && r.bottom <= y0 + ch + 1);
      if (seen) continue;
      let l = Math.min(...rects.map(r => r.left)), t = Math.min(...rects.map(r => r.top));
      let rr = Math.max(...rects.map(r => r.right)), bb = Math.max(...rects.map(r => r.bottom));
      if (rr - l > cw || bb - t > ch) { l = rects[0].left; t = rects[0].top; rr = rects[0].right; bb = rects[0].bottom; }
      w.scrollLeft += (l + rr) / 2 - (x0 + cw / 2);
      w.scrollTop += (t + bb) / 2 - (y0 + ch / 2);
    }
  }

  /* ---- keyboard: a roving focus over each board's cells ----------------- */
  function focusables(svgEl) { return [...svgEl.querySelectorAll(".cell[role=button]")]; }
  function setRoving(svgEl, el) {
    for (const c of focusables(svgEl)) c.setAttribute("tabindex", c === el ? 0 : -1);
  }
  /* the square each board last had the focus on (by board id): Tab back into a redrawn board lands there,
     not on its first square (the fresh person's trial, issue 44: "back to a1") */
  const lastSquare = new Map();
  document.addEventListener("focusin", ev => {
    const c = ev.target && ev.target.closest ? ev.target.closest("svg.board .cell[role=button]") : null;
    if (c) lastSquare.set(c.closest("svg.board").dataset.board, c.getAttribute("data-click"));
  });
  function initRoving(root) {
    root.querySelectorAll("svg.board").forEach(b => {
      const cells = focusables(b);
      if (!cells.length) return;
      const cur = cells.find(c => c.getAttribute("tabindex") === "0");
      const last = lastSquare.has(b.dataset.board) ? cells.find(c => c.getAttribute("data-click") === lastSquare.get(b.dataset.board)) : null;
      setRoving(b, cells.find(c => c === document.activeElement) || last || b.querySelector(".cell.can-click[role=button]") || cur || cells[0]);
    });
  }
  /* The square that can be chosen nearest to the square with click id ``click`` (itself if it can be),
     so that the focus stays where the player works after a move (a Blackfire token placed on c4: the
     next free square beside it, not b1). */
  function nearestChoosable(click) {
    const from = click ? [...document.querySelectorAll("#boards .cell[role=button]")].find(c => c.getAttribute("data-click") === click) : null;
    if (!from) return null;
    const b = from.closest("svg.board"), can = [...b.querySelectorAll(".cell.can-click[role=button]")];
    if (!can.length) return null;
    if (can.includes(from)) return from;
    const pos = c => c.dataset.x !== undefined ? [Number(c.dataset.x), Number(c.dataset.y)] : [Number(c.dataset.px) / 40, Number(c.dataset.py) / 40];
    const [x0, y0] = pos(from);
    let best = null, bd = Infinity;
    for (const c of can) { const [x, y] = pos(c), d = Math.hypot(x - x0, y - y0); if (d < bd) { bd = d; best = c; } }
    return best;
  }
  function neighbour(el, key) {
    const b = el.closest("svg.board"), cells = focusables(b);
    if (el.dataset.x !== undefined) {
      let x = Number(el.dataset.x), y = Number(el.dataset.y);
      const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
      return b.querySelector(`.cell[data-x="${x + d[0]}"][data-y="${y + d[1]}"]`);
    }
    const px = Number(el.dataset.px), py = Number(el.dataset.py);
    const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    let best = null, bestScore = Infinity;
    for (const c of cells) {
      if (c === el) continue;
      const dx = Number(c.dataset.px) - px, dy = Number(c.dataset.py) - py;
      const along = dx * dir[0] + dy * dir[1], across = Math.abs(dx * dir[1] - dy * dir[0]);
      if (along <= 1) continue;
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = c; }
    }
    return best;
  }
  function onBoardKey(ev) {
    const el = ev.target.closest ? ev.target.closest(".cell[role=button]") : null;
    if (!el) return;
    if (ev.key.startsWith("Arrow")) {
      const n = neighbour(el, ev.key);
      ev.preventDefault();
      if (n) { setRoving(n.closest("svg.board"), n); n.focus(); }
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    } else if (ev.key === "Home" || ev.key === "End") {
      const cells = focusables(el.closest("svg.board")), n = ev.key === "Home" ? cells[0] : cells[cells.length - 1];
      ev.preventDefault(); setRoving(n.closest("svg.board"), n); n.focus();
    }
  }

  /* ---- whole scene ----------------------------------------------------- */
  function render(scene, parts) {
    scene = scene || {};
    if (parts.status) parts.status.textContent = scene.status || "";
    if (parts.prompt) { parts.prompt.textContent = scene.prompt || ""; parts.prompt.hidden = !scene.prompt; }
    if (parts.hint) { parts.hint.textContent = scene.hint || ""; parts.hint.hidden = !scene.hint; }
    /* the scene's warning of what happens without a choice (issue 44), above the board */
    if (parts.alert) {
      parts.alert.replaceChildren(...(scene.alert ? [h("span", { class: "alert-icon", "aria-hidden": "true", text: "⚠" }), " " + scene.alert] : []));
      parts.alert.hidden = !scene.alert;
    }
    /* the key to the board's short codes, under the board: "Mo Monster · Fl Flooded room ..." */
    if (parts.codes) {
      const codes = scene.codes || [];
      parts.codes.replaceChildren(...(codes.length ? [h("strong", { text: "Codes on the board: " })] : []),
        ...codes.flatMap((c, i) => [i ? " · " : "", h("span", { class: "code" }, h("b", { text: String(c[0]) }), " " + String(c[1]))]));
      parts.codes.hidden = !codes.length;
    }
    const sides = sidesOf(scene);
    /* a zoomed board keeps the part the player scrolled to when it is drawn anew (a bot's move) */
    const scrolled = new Map();
    if (parts.boards) for (const w of parts.boards.querySelectorAll(".board-wrap.zoomed")) {
      const b = w.querySelector("svg.board");
      if (b) scrolled.set(b.dataset.board, [w.scrollLeft, w.scrollTop]);
    }
    if (parts.boards) {
      parts.boards.replaceChildren();
      const boards = scene.boards || [];
      for (const b of boards) {
        const wrap = h("figure", { class: "board-wrap" + (b.small ? " small" : "") });
        if (b.title) wrap.appendChild(h("figcaption", { text: b.title }));
        parts.boards.appendChild(wrap);
        placeBoard(wrap, b, sides);
      }
      if (!boards.length) parts.boards.appendChild(h("figure", { class: "board-wrap slim" }, drawPlaceholder(scene)));
      placePanels(parts, !boards.length);
      if (!parts.boards.dataset.keys) { parts.boards.addEventListener("keydown", onBoardKey); parts.boards.dataset.keys = "1"; }
    }
    if (parts.legend) {
      const lg = drawLegend(scene, sides);
      const wasOpen = parts.legend.firstElementChild ? parts.legend.firstElementChild.open : null;
      parts.legend.replaceChildren(...(lg ? [lg] : []));
      if (lg && wasOpen === false) lg.open = false;
      parts.legend.hidden = !lg;
    }
    if (parts.panels) {
      parts.panels.replaceChildren();
      for (const p of scene.panels || []) parts.panels.appendChild(drawPanel(p, sides));
    }
    if (parts.boards) {  /* last: the scale of a board depends on everything around it */
      const boards = scene.boards || [];
      [...parts.boards.querySelectorAll("svg.board:not(.placeholder-board)")].forEach((el, i) => { if (boards[i]) watch(fitted(el, boards[i], sides), boards[i], sides); });
      for (const w of parts.boards.querySelectorAll(".board-wrap.zoomed")) {
        const b = w.querySelector("svg.board"), at = b && scrolled.get(b.dataset.board);
        if (at) { w.scrollLeft = at[0]; w.scrollTop = at[1]; }
      }
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
      if (el.getAttribute("role") === "button") {
        if (el.dataset.label0 === undefined) el.dataset.label0 = el.getAttribute("aria-label") || "";
        el.setAttribute("aria-label", el.dataset.label0 + (picked.has(id) ? ", selected" : next.has(id) ? ", can be chosen" : ""));
      }
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
  /* A log line the scene asks to fold (``log_fold``: patterns a line starts with, such as Armies'
     "Attack 1 against defense 0."): that start, with the rest (the dice) on demand. Else null. */
  function foldLine(text, fold) {
    for (const p of fold || []) {
      let m = null;
      try { m = new RegExp("^(?:" + p + ")").exec(text || ""); } catch (e) { continue; }
      if (m && m[0].length < text.length) {
        return h("details", { class: "log-more" }, h("summary", null, m[0], h("span", { class: "log-more-hint", text: " (details)" })), h("span", { class: "log-detail", text: text.slice(m[0].length).trim() }));
      }
    }
    return null;
  }
  function logItems(list, events, fold) {
    list.replaceChildren();
    let turn = null;
    for (const e of events) {
      if (e.turn !== turn) { turn = e.turn; list.appendChild(h("li", { class: "turn-sep", text: "Turn " + turn })); }
      list.appendChild(h("li", { class: e.private ? "private" : "" }, e.private ? lockIcon() : null, foldLine(e.text, fold) || h("span", { text: e.text })));
    }
    if (!events.length) list.appendChild(h("li", { class: "empty", text: "Nothing has happened yet." }));
    list.scrollTop = list.scrollHeight;
  }

  window.Boardlab = Object.assign(window.Boardlab || {}, { render, Clicker, paintClicks, clickIds, h, logItems, foldLine, initRoving, nearestChoosable, knownFaceDown, itemIcon, focusCell, bringIntoBox });
})();
