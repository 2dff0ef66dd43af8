/* The game page: one seat's view (or the spectator's), live over a WebSocket. */
(function () {
  "use strict";
  const B = window.Boardlab, h = B.h;
  const mid = B.matchId();
  const hp = seatLink();
  const hotseat = !!hp.host;
  const token = hp.host || hp.token || null;
  let seat = !hotseat && hp.seat !== undefined && hp.seat !== "" && token ? Number(hp.seat) : null;
  /* The seat's secret leaves the address bar once the page has it (issue 45): the fragment
     "#seat=K&token=T" becomes "#seat=K" ("#hotseat" for "#host=H") and the secret is kept in this tab's
     sessionStorage, so a reload still plays the seat, while a shared screen, a screenshot or the
     browser's history shows no secret. Without sessionStorage (a locked-down browser) the fragment stays. */
  function seatLink() {
    const p = B.hashParams(), key = k => "boardlab.link." + mid + "." + k;
    try {
      if (p.host) { sessionStorage.setItem(key("host"), p.host); history.replaceState(history.state, "", location.pathname + location.search + "#hotseat"); return p; }
      if (p.token && p.seat !== undefined) { sessionStorage.setItem(key("seat" + p.seat), p.token); history.replaceState(history.state, "", location.pathname + location.search + "#seat=" + encodeURIComponent(p.seat)); return p; }
      if ("hotseat" in p) { const h = sessionStorage.getItem(key("host")); return h ? { host: h } : {}; }
      if (p.seat !== undefined && p.seat !== "") { const t = sessionStorage.getItem(key("seat" + p.seat)); return t ? { seat: p.seat, token: t } : { lost: p.seat }; }
    } catch (e) { /* no sessionStorage: the secret stays in the fragment */ }
    return p;
  }
  /* the link with its secret, for the rematch (the same seat link plays it) */
  function secretFragment() { return hotseat ? "#host=" + encodeURIComponent(token) : (seat !== null && token ? "#seat=" + seat + "&token=" + encodeURIComponent(token) : ""); }
  // a seat link opened in a tab already showing this match (only the #fragment changes): take it up
  window.addEventListener("hashchange", () => location.reload());
  let snap = null, clicker = null, ws = null, busy = false, passing = false, retry = 0;
  const $ = id => document.getElementById(id);
  const parts = { status: $("status"), prompt: $("prompt"), boards: $("boards"), panels: $("panels") };
  /* made here rather than in game.html: the decision's one-line hint under the prompt, the answer to
     "why not?" when something unusable is clicked, the key to the pieces, and a live region that
     announces what happens (bot moves) to screen readers */
  parts.hint = h("p", { id: "hint", class: "hint-line", hidden: true });
  parts.prompt.after(parts.hint);
  const whyBox = h("p", { id: "whynot", class: "whynot", hidden: true });
  parts.hint.after(whyBox);
  /* above the board, where the player looks (issue 44): the scene's warning of what happens without a
     choice (Blackfire's archer and Death tokens, an Armies General under attack), what happened since
     this seat's last move (kills, a turn that ended by itself), and a suggested choice to accept with S */
  parts.alert = h("p", { id: "alert", class: "alert-line", hidden: true });
  whyBox.after(parts.alert);
  const recap = h("div", { id: "recap", class: "recap", hidden: true });
  parts.alert.after(recap);
  /* a seat knocked out while the others play on (Summoner's Quest) is told so, with the way out */
  const outBox = h("div", { id: "out-note", class: "out-note", role: "status", hidden: true });
  parts.alert.before(outBox);
  const suggestBox = h("div", { id: "suggest", class: "suggest", hidden: true });
  recap.after(suggestBox);
  /* under the board: the key to its short codes (the Dungeon's Jewel's Mo, Fl, Qu...) */
  parts.codes = h("p", { id: "codes", class: "board-codes", hidden: true });
  parts.boards.after(parts.codes);
  /* on a phone the board is pinned at the top while the side column scrolls under it: a button
     scrolled into view (focus, the arrow keys, a tap) must come out below it, not under it, where a
     tap lands on a board square (the second fresh trial, issue 44). The pinned height is kept in
     --pinned-board, which app.css gives the side column's controls as their scroll-margin-top. */
  const pinnedHeight = () => {
    const b = parts.boards, pinned = getComputedStyle(b).position === "sticky" && window.innerWidth <= 860;
    document.documentElement.style.setProperty("--pinned-board", pinned ? Math.ceil(b.getBoundingClientRect().height) + "px" : "0px");
  };
  if (typeof ResizeObserver === "function") new ResizeObserver(pinnedHeight).observe(parts.boards);
  window.addEventListener("resize", pinnedHeight);
  parts.legend = h("div", { id: "legend", class: "legend-box", hidden: true });
  parts.panels.after(parts.legend);  /* in the side column: on a phone the board above stays short */
  const live = h("div", { id: "announce", class: "sr-only", "aria-live": "polite", role: "status" });
  document.body.appendChild(live);
  let lastEvents = null, lastEventsSeat = null, focusNext = false;
  function announce(text) {
    live.textContent = "";
    setTimeout(() => { if (!passing) live.textContent = text; }, 30);
  }
  function explain(text) {
    whyBox.textContent = text;
    whyBox.hidden = !text;
    if (text) announce(text);
  }

  function seatName(s) { return snap && snap.match && snap.match.seats[s] ? snap.match.seats[s].name : "Player " + (s + 1); }
  function isHuman(s) { return snap && snap.match && snap.match.seats[s] && snap.match.seats[s].kind === "human"; }
  function myTurn() { return snap && seat !== null && snap.acting === seat && !snap.over; }

  /* ---- live connection ------------------------------------------------ */
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/api/matches/${encodeURIComponent(mid)}/ws`);
    ws.onopen = () => { retry = 0; $("conn").className = "conn on"; $("conn").title = "Live"; hello(); };
    ws.onmessage = ev => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "snapshot") { if (msg.seat === seat || (hotseat && passing)) onSnapshot(msg); }
      else if (msg.type === "update") { if (msg.seat === seat || (hotseat && passing)) onUpdate(msg); }
      else if (msg.type === "error") {
        B.toast(msg.detail, "error");
        if (msg.status === 404 || msg.status === 401 || msg.status === 403) fatal(msg.detail);
      }
    };
    ws.onclose = ev => {
      $("conn").className = "conn off"; $("conn").title = "Reconnecting…";
      // 4009: a watched match nobody plays was unloaded to make room; 4429: over a limit (too many
      // sockets or messages from this address). Reconnecting at once would only repeat it.
      // 4010: the match is over and was unloaded to save memory: the final position stays on the page.
      if (ev.code === 4010) {
        $("conn").title = "The game is over: no longer live";
        B.toast("This game is over; the live connection was closed to save the server's memory. Reload the page to see it again.", "info");
        $("status").textContent += " · No longer live: reload the page to see it again.";
        return;
      }
      if (ev.code === 4009 || ev.code === 4429) {
        $("conn").title = "Disconnected";
        if (ev.code === 4009) { fatal("Nobody is playing this match right now, so the server let it go. Reload the page to watch again."); return; }
        B.toast(ev.reason || "Too many connections or messages from this address; retrying in a while.", "error");
        if (!document.body.classList.contains("fatal")) setTimeout(connect, 15000);
        return;
      }
      if (!document.body.classList.contains("fatal")) setTimeout(connect, Math.min(5000, 500 * ++retry));
    };
  }
  function hello() { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "hello", seat: seat, token: seat === null ? null : token })); }
  function fatal(text) {
    document.body.classList.add("fatal");
    $("crumb").textContent = "Game unavailable";
    document.title = "Game unavailable · boardlab";
    $("status").textContent = text;
    parts.boards.replaceChildren(h("div", { class: "empty big", text: "This game cannot be shown: " + text }));
  }

  /* ---- snapshots ------------------------------------------------------- */
  function onSnapshot(s) {
    const epochOf = x => (x && x.match ? x.match.epoch || 0 : 0);
    if (snap && snap.seat === s.seat && s.state_id < snap.state_id && epochOf(s) === epochOf(snap)) return;  // an older message
    if (snap && epochOf(s) !== epochOf(snap)) { lastEvents = null; if (hist) closeHistory(false); }
    const events = s.events || [];  // announce what happened since the last view (bot moves)
    if (lastEvents !== null && lastEventsSeat === s.seat && events.length > lastEvents) {
      const fresh = events.slice(lastEvents).map(e => e.text).filter(Boolean);
      if (fresh.length) announce(fresh.slice(-4).map(t => t.trim().replace(/[.\s]+$/, "")).join(". ") + ".");
    }
    lastEvents = events.length; lastEventsSeat = s.seat;
    snap = s;
    // hot-seat with one human: that seat is yours from the first snapshot, even while bots act first
    if (hotseat && seat === null && s.match) {
      const humans = s.match.seats.filter(x => x.kind === "human");
      if (humans.length === 1) { seat = humans[0].seat; passing = false; hello(); return; }
    }
    if (hotseat && !s.over && s.acting !== null && isHuman(s.acting) && s.acting !== seat) {
      const humans = s.match.seats.filter(x => x.kind === "human").length;
      if (seat === null && humans === 1) { seat = s.acting; hello(); return; }
      showPass(s.acting);
      return;
    }
    render();
  }

  /* An update holds what changed since state `from` (see boardlab/web/push.py); on a gap, ask for a snapshot. */
  function onUpdate(u) {
    if (!snap || snap.seat !== u.seat) return;
    if (u.state_id <= snap.state_id) return;  // already shown (e.g. from the answer to our own move)
    if (u.from !== snap.state_id) { hello(); return; }
    const events = u.events_new ? snap.events.concat(u.events_new) : u.events;
    delete snap.events;
    let next;
    try { next = B.applyPatch(snap, u.patch); } catch (e) { hello(); return; }
    next.events = events;
    snap = null;  // onSnapshot compares with the previous snapshot; this one is already patched
    onSnapshot(next);
  }

  /* a dialog (the hand-over screen, the rules drawer) blocks the page behind it: nothing there takes focus */
  function setInert(on, except) {
    for (const el of [document.querySelector(".topbar"), document.querySelector(".game-layout")]) {
      if (!el || el === except) continue;
      if (on) el.setAttribute("inert", ""); else el.removeAttribute("inert");
    }
  }
  function showPass(next) {
    passing = true;
    document.body.dataset.turn = "pass";
    // Remove the previous seat's view from the page, not just from sight (an enlarged stack too).
    closeStack(false);
    parts.boards.replaceChildren(); parts.panels.replaceChildren();
    parts.legend.replaceChildren(); parts.legend.hidden = true; parts.hint.textContent = ""; parts.hint.hidden = true;
    explain(""); live.textContent = ""; lastEvents = null;
    $("actions").replaceChildren(); $("log").replaceChildren(); $("status").textContent = ""; $("prompt").hidden = true;
    $("pass-name").textContent = seatName(next); $("pass-name2").textContent = seatName(next);
    $("pass").hidden = false;
    setInert(true);
    $("pass-go").focus();
    $("pass-go").onclick = () => { $("pass").hidden = true; setInert(false); passing = false; seat = next; focusNext = true; hello(); };
  }

  /* Where the focus is, in terms that survive a redraw: a square of the board (the square of an
     enlarged stack), or an action by its label. */
  function focusKey(el) {
    if (!el || el === document.body) return null;
    if (stackBox.contains(el)) return stackCell ? { cell: stackCell } : null;
    if (parts.boards.contains(el) && el.getAttribute("data-click")) return { cell: el.getAttribute("data-click") };
    if ($("actions").contains(el) && el.classList.contains("action")) return { action: el.textContent };
    return null;
  }
  function refocus(key) {
    let el = null;
    if (key.cell) el = cellEl(key.cell);
    else if (key.action) el = [...$("actions").querySelectorAll(".action")].find(b => b.textContent === key.action) || null;
    if (el && el.classList.contains("cell")) B.focusCell(el);
    else if (el) el.focus({ preventScroll: true });
  }

  function render() {
    if (hist) { $("hist-range").max = String(snap.state_id); $("hist-label").textContent = `After move ${hist.step} of ${snap.state_id}`; return; }
    const s = snap, m = s.match;
    /* a redraw that is not a new decision for this seat (a bot's move, a reconnection, a new width)
       leaves the focus where the user put it */
    const wasTurn = document.body.dataset.turn, wasState = document.body.dataset.stateId;
    const keep = focusKey(document.activeElement);
    closeStack(false);
    const mineNow = myTurn();
    document.title = (mineNow ? "▶ Your turn · " : (s.over ? "Game over · " : "")) + `${m.game_name} · boardlab`;
    $("crumb").textContent = `${m.game_name} · ${m.variant} · ${m.players} players`;
    const who = $("who");
    if (seat === null && hotseat) { who.textContent = "Hot-seat · waiting for a human seat's turn"; who.className = "chip seat-chip"; }
    else if (seat === null) { who.textContent = "Spectator"; who.className = "chip muted"; }
    else {
      /* one person against bots is not a hot-seat game: only two or more humans share this screen */
      const shared = hotseat && m.seats.filter(x => x.kind === "human").length > 1;
      who.textContent = (shared ? "Hot-seat · " : "You are ") + seatName(seat) + ` (seat ${seat + 1})`; who.className = "chip seat-chip";
    }
    /* what sits above the board first: the board then takes the height left under it (wide screens) */
    renderTools(); renderOver(); renderRecap(); renderSuggest();
    B.render(s.scene, parts);
    if (mineNow) parts.status.prepend(h("strong", { class: "your-turn", text: "Your turn" }), " ");
    const out = seat !== null && !s.over && s.scene && s.scene.out;
    if (out) parts.status.prepend(h("strong", { class: "you-are-out", text: "You are out" }), " · ");
    outBox.hidden = !out;
    outBox.replaceChildren(...(out ? [h("strong", { text: "You are out: " }), s.scene.out + " Keep watching the game, or go back to the lobby. ",
      h("a", { class: "btn", href: "/", text: "Back to the lobby" })] : []));
    if (seat !== null) for (const t of parts.panels.querySelectorAll(`.panel[data-seat="${seat}"] .panel-title`)) t.append(h("span", { class: "you-tag", text: " (you)" }));
    if (mineNow && wasTurnGlobal !== "mine") notifyTurn();
    wasTurnGlobal = mineNow ? "mine" : "other";
    renderTools();
    explain("");
    document.body.dataset.stateId = s.state_id;
    document.body.dataset.turn = s.over ? "over" : (myTurn() ? "mine" : "wait");
    // status: add who is thinking
    if (!s.over && s.acting !== null && !myTurn()) {
      const st = m.seats[s.acting];
      parts.status.appendChild(h("span", { class: "thinking", text: st.kind === "bot" ? ` · ${st.name} (${B.botLabel(st.agent)} bot) thinking` : (seat === null ? "" : ` · waiting for ${st.name}`) }));
    }
    clicker = new B.Clicker(myTurn() ? (s.scene.targets || []) : []);
    $("chooser").hidden = true;
    paint();
    B.initRoving(document.querySelector(".table"));
    renderActions();
    renderLog();
    renderOver();
    renderRecap();
    renderSuggest();
    autoRoll();
    /* after a move (ours, or the bots' answer to it) focus goes to the next decision: the first
       square that can be chosen, else the first action; never left on <body> */
    const lost = !document.activeElement || document.activeElement === document.body || !document.activeElement.isConnected;
    const decision = myTurn() && (focusNext || wasTurn !== "mine" || wasState !== String(s.state_id));
    /* a page that nothing on it has had the focus yet (just opened by "Play now" in the lobby) counts
       as the game's: its first decision takes the focus rather than leaving it on <body> */
    if (decision && (focusNext || (lost && (lastFocusWasGame || !everFocused)))) {
      focusNext = false;
      /* the square that can be chosen nearest to where the player was on the board (their last square),
         else the first one, else the first action */
      const near = keep && keep.cell ? B.nearestChoosable(keep.cell) : null;
      const target = near || document.querySelector(".table .cell.can-click[role=button]") || $("actions").querySelector(".action");
      if (target && target.classList.contains("cell")) B.focusCell(target);
      else if (target) target.focus({ preventScroll: true });
    } else if (s.over && (focusNext || (lost && lastFocusWasGame))) {
      focusNext = false;
      const go = $("gameover").querySelector("a, button");
      if (go) go.focus({ preventScroll: true });
    } else if (keep && lost) refocus(keep);
    /* on a phone a big board is zoomed in a box that scrolls: a new decision brings its squares into
       the box, and the end brings the squares that decided it (the scene's marked squares) */
    if (decision) B.bringIntoBox([...document.querySelectorAll("#boards .cell.can-click, #boards .item.can-click")]);
    else if (s.over && wasTurn !== "over") B.bringIntoBox([...document.querySelectorAll("#boards .cell.marked")]);
  }
  let lastFocusWasGame = false, everFocused = false;
  document.addEventListener("focusin", ev => { everFocused = true; lastFocusWasGame = !!(ev.target.closest && ev.target.closest(".game-layout")); });

  B.refitAll = () => { if (snap && !passing && !hist) render(); };
  B.afterRefit = () => { if (snap && !passing) { paint(); B.initRoving(document.querySelector(".table")); } };
  function paint(hint) { B.paintClicks(document.querySelector(".table"), clicker, hint); B.paintClicks(parts.panels, clicker, hint); }

  /* an action's label, or the scene's own for it: what only this seat's view can say (the Labyrinth's
     loot choice names the offered card to a hero, where the shared label reads "card 1 to Hero 1") */
  function labelOf(a) { const own = snap && snap.scene && snap.scene.action_labels; return (own && own[a.index]) || a.label; }

  function renderActions() {
    const box = $("actions"), title = $("actions-title"), filter = $("filter");
    box.replaceChildren();
    const s = snap;
    box.parentElement.hidden = !!s.over;
    if (s.over) return;
    if (!myTurn()) {
      filter.hidden = true;
      title.textContent = seat === null ? "Spectating" : "Waiting";
      box.appendChild(h("p", { class: "empty", text: s.acting === null ? "" : `${seatName(s.acting)} is to act.` }));
      return;
    }
    title.textContent = "Your move";
    /* a new decision starts with an empty filter (text left from the last one hid every action:
       issue 44); a filter holding text is never hidden */
    const key = s.state_id + ":" + (snap.match ? snap.match.epoch : 0) + ":" + seat;
    if (filter.dataset.decision !== key) { filter.dataset.decision = key; filter.value = ""; }
    filter.hidden = s.actions.length < 12 && !filter.value && filter.dataset.opened !== key;
    const q = filter.value.trim().toLowerCase();
    const byAction = new Map((s.scene.targets || []).map(t => [t.action, t]));
    const shown = s.actions.filter(a => !q || labelOf(a).toLowerCase().includes(q));
    if (q && !shown.length) {
      box.appendChild(h("p", { class: "empty no-match", role: "status" }, `No action matches “${filter.value.trim()}”. `,
        h("button", { class: "btn small", type: "button", id: "filter-clear", onclick: () => { filter.value = ""; renderActions(); filter.focus(); } }, "Clear the filter")));
    }
    /* many actions that start with the same card and go on to the board (Summoner's Quest's trap: one
       per space) are one entry that picks the card, then the board shows where it can go; "List all"
       opens them (issue 44, the fresh person's trial). A filter shows the matches one by one. */
    const groups = new Map();
    if (!q) for (const a of s.actions) {
      const t = byAction.get(a.index);
      if (t && t.clicks && t.clicks.length >= 2 && t.clicks[0].startsWith("card:")) {
        if (!groups.has(t.clicks[0])) groups.set(t.clicks[0], []);
        groups.get(t.clicks[0]).push(a);
      }
    }
    for (const [k, v] of [...groups]) if (v.length < GROUP_MIN || listedGroups.has(key + "|" + k)) groups.delete(k);
    const drawn = new Set();
    for (const a of s.actions) {
      if (q && !labelOf(a).toLowerCase().includes(q)) continue;
      const t = byAction.get(a.index);
      const g = t && t.clicks && groups.get(t.clicks[0]);
      if (g) {
        if (!drawn.has(t.clicks[0])) { drawn.add(t.clicks[0]); box.appendChild(groupEntry(t.clicks[0], g, key)); }
        continue;
      }
      const btn = h("button", { class: "action" + (t ? " has-target" : ""), type: "button", "data-index": a.index, onclick: () => act(a.index) },
        h("span", { class: "action-label", text: labelOf(a) }), t ? h("span", { class: "pin", title: "Also clickable on the board", text: "◎" }) : null);
      if (t) {  /* pointing at or focusing an action highlights its square */
        btn.addEventListener("mouseenter", () => paint(t.clicks));
        btn.addEventListener("mouseleave", () => paint());
        btn.addEventListener("focus", () => paint(t.clicks));
        btn.addEventListener("blur", () => paint());
      }
      box.appendChild(btn);
    }
  }

  const GROUP_MIN = 8;
  const listedGroups = new Set();  /* decision|first click: the groups the player opened */
  function groupEntry(first, acts, key) {
    const labels = acts.map(labelOf);
    let pre = labels.reduce((p, l) => { let i = 0; while (i < p.length && p[i] === l[i]) i++; return p.slice(0, i); });
    pre = pre.slice(0, pre.lastIndexOf(" ") + 1).trim() || labels[0];
    const pick = h("button", { class: "group-pick", type: "button", "data-first": first, onclick: () => {
      if (!clicker) return;
      clicker.reset(); clicker.click([first]); paint();
      explain(`Now pick one of the ${acts.length} places marked on the board.`);
      const cell = document.querySelector("#boards .can-click[role=button]");
      if (cell) { B.bringIntoBox([...document.querySelectorAll("#boards .can-click")]); B.focusCell(cell); }
    } }, h("span", { class: "action-label", text: `${pre} … (${acts.length} choices: pick one on the board)` }), h("span", { class: "pin", text: "◎" }));
    const list = h("button", { class: "btn small group-list", type: "button", onclick: () => { listedGroups.add(key + "|" + first); renderActions(); } }, `List all ${acts.length}`);
    return h("div", { class: "action-group" }, pick, list);
  }

  /* the log names this page's seat "<name> (you)", as "You draw" reads beside "Player 1 equips" */
  function renderLog() {
    let events = snap.events;
    if (seat !== null && !hotseatMany()) {
      const name = seatName(seat), re = new RegExp("(^|[^\\w])" + name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "(?![\\w]| \\(you\\))", "g");
      events = events.map(e => e.text && !e.private ? Object.assign({}, e, { text: e.text.replace(re, `$1${name} (you)`) }) : e);
    }
    B.logItems($("log"), events, snap.scene && snap.scene.log_fold);
  }
  function hotseatMany() { return hotseat && snap && snap.match && snap.match.seats.filter(x => x.kind === "human").length > 1; }

  function renderOver() {
    const box = $("gameover");
    if (!snap.over) { box.hidden = true; return; }
    box.hidden = false;
    const r = snap.results;
    const won = seat !== null && r && r.winners.includes(seat);
    $("gameover-title").textContent = r && r.truncated ? "Game stopped" : (seat === null ? "Game over" : (won ? "You won!" : "Game over"));
    $("gameover-text").textContent = B.winnersText(snap.match, r);
    /* the scene may say in plain words why the game ended (the Labyrinth's tower taken without a fight) */
    const note = (snap.scene && snap.scene.over_note) || "";
    $("gameover-note").textContent = note;
    $("gameover-note").hidden = !note;
    $("replay-link").href = "/replay/" + encodeURIComponent(mid) + (seat !== null ? "#seat=" + seat : "");
    const rb = $("rematch-btn");
    rb.hidden = !token;
    rb.textContent = snap.match.rematch ? "Join the rematch" : "Rematch";
  }

  /* ---- fewer clicks that choose nothing, and saying what happens (issue 44, items 5 and 6) ------ */
  const END_RE = /\bend (the|your) turn\b/i;
  const KILL_RE = /\b(kills?|killed|dies|destroyed|loses|lost|wins|shoots?)\b/i;
  const recapAt = {};  /* per seat: where in its log its last move started */
  /* What happened since this seat's last move, above the board: the newest lines of its log (kills and
     losses marked), and when its turn ended without its ending it, that it ended by itself. */
  function renderRecap() {
    const at = seat !== null ? recapAt[seat] : null, events = snap.events || [];
    if (!at || at.epoch !== (snap.match ? snap.match.epoch : 0) || events.length <= at.from || hist) { recap.hidden = true; recap.replaceChildren(); return; }
    const fresh = events.slice(at.from).filter(e => e.text);
    /* this seat's own results come first (its roll, loot, damage, "starts over", "is defeated"), so
       the other seats' turns after it cannot push them into the log; then the newest of the rest */
    const own = e => !!e.private || /^You\b/.test(e.text) || !!(e.data && (e.data.seat === seat || e.data.eliminated === seat));
    const mine = fresh.filter(own), rest = fresh.filter(e => !own(e));
    const shownMine = mine.slice(-4), shownRest = rest.slice(-4);
    const line = (e, yours) => {
      const bad = KILL_RE.test(e.text);
      return h("li", { class: [bad ? "bad" : "", yours ? "own" : ""].join(" ").trim(), "data-own": yours ? "1" : null }, bad ? h("span", { "aria-hidden": "true", text: "⚠ " }) : null,
        B.foldLine(e.text, snap.scene && snap.scene.log_fold) || e.text);
    };
    const lines = shownMine.map(e => line(e, true)).concat(shownRest.map(e => line(e, false)));
    if (at.ended) lines.unshift(h("li", { class: "ended" }, "Your turn ended by itself: after your last move there was nothing left to do but end it."));
    if (!lines.length) { recap.hidden = true; return; }
    const shown = shownMine.length + shownRest.length, all = fresh.length;
    recap.replaceChildren(h("strong", { class: "recap-title", text: "Since your last move" + (all > shown ? ` (${shown} of ${all}${shownMine.length ? ", yours first" : ""}; the rest is in the log)` : (shownMine.length && shownRest.length ? " (yours first)" : "")) + ":" }), h("ul", null, lines));
    recap.hidden = false;
  }
  /* The scene's suggested choice (Armies' skill split): one button, or the S key. */
  function renderSuggest() {
    const sg = snap.scene && snap.scene.suggest;
    const a = sg && myTurn() && !hist ? snap.actions.find(x => x.index === sg.action) : null;
    if (!a) { suggestBox.hidden = true; suggestBox.replaceChildren(); return; }
    suggestBox.replaceChildren(h("span", { class: "suggest-text", text: "Suggested: " + (sg.label || a.label) + (sg.why ? " (" + sg.why + ")." : ".") + " " }),
      h("button", { class: "btn small primary", type: "button", id: "suggest-btn", "aria-keyshortcuts": "S", onclick: () => act(a.index) }, "Accept (S)"));
    suggestBox.hidden = false;
  }
  /* Auto-roll: a per-seat setting (this browser, this game) that takes a decision whose only legal
     action is a roll, as the rules leave nothing to choose there; the log and the notice above the board
     say what it rolled. Ending a turn or any real choice is never taken for the player. */
  const autoKey = () => `boardlab.autoroll.${snap && snap.match ? snap.match.game : ""}.${seat}`;
  function autoOn() { try { return localStorage.getItem(autoKey()) === "1"; } catch (e) { return false; } }
  function loneRoll() { return myTurn() && !hist && !passing && snap.actions.length === 1 && /\broll/i.test(snap.actions[0].label) ? snap.actions[0] : null; }
  function showAutoBtn() {
    const b = $("autoroll-btn"), on = seat !== null && autoOn();
    b.hidden = seat === null || !isHuman(seat) || (!on && !loneRoll());
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.textContent = on ? "Auto-roll: on" : "Auto-roll: off";
  }
  let autoTimer = null;
  function autoRoll() {
    showAutoBtn();
    clearTimeout(autoTimer);
    const r = loneRoll();
    if (!r || !autoOn()) return;
    const at = snap.state_id;
    autoTimer = setTimeout(() => {
      if (!snap || snap.state_id !== at || !autoOn() || !loneRoll()) return;
      document.body.dataset.autoRolled = String(Number(document.body.dataset.autoRolled || 0) + 1);
      announce("Auto-roll: " + r.label);
      act(r.index);
    }, 500);
  }
  $("autoroll-btn").addEventListener("click", () => {
    const on = !autoOn();
    try { localStorage.setItem(autoKey(), on ? "1" : "0"); } catch (e) { /* private mode */ }
    B.toast(on ? "Auto-roll is on: a roll with nothing to choose is taken for you (in this browser, for this game and seat)." : "Auto-roll is off: you click every roll.", "info");
    autoRoll();
  });

  /* ---- a game site's conventions (issue 44) -------------------------------- */
  let wasTurnGlobal = null, hist = null, clockTimer = null, clockAt = 0;
  const ALERT = "boardlab.alert";
  function alertsOn() { try { return localStorage.getItem(ALERT) === "1"; } catch (e) { return false; } }
  function showAlertBtn() { const b = $("alert-btn"), on = alertsOn(); b.setAttribute("aria-pressed", on ? "true" : "false"); b.textContent = on ? "Alerts on" : "Alert me"; }
  $("alert-btn").addEventListener("click", async () => {
    const on = !alertsOn();
    try { localStorage.setItem(ALERT, on ? "1" : "0"); } catch (e) { /* private mode */ }
    if (on && "Notification" in window && Notification.permission === "default") { try { await Notification.requestPermission(); } catch (e) { /* refused */ } }
    showAlertBtn();
    B.toast(on ? "You will hear a sound and get a notification when it becomes your turn while this tab is in the background." : "Turn alerts are off.", "info");
  });
  showAlertBtn();
  /* when it becomes your turn while the tab is in the background: a short tone and a notification */
  function notifyTurn() {
    document.body.dataset.turnAlerts = String(Number(document.body.dataset.turnAlerts || 0) + 1);
    if (!alertsOn() || !document.hidden) return;
    try {
      const ctx = new (window.AudioContext || window.webkitAudioContext)(), o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = 660; g.gain.value = 0.08; o.connect(g); g.connect(ctx.destination); o.start(); o.stop(ctx.currentTime + 0.25);
    } catch (e) { /* no audio */ }
    try { if ("Notification" in window && Notification.permission === "granted") new Notification("Your turn", { body: `${snap.match.game_name}: ${snap.scene.prompt || "your move"}` }); } catch (e) { /* none */ }
  }

  function renderTools() {
    const s = snap, m = s.match, tools = $("tools");
    const person = seat !== null && isHuman(seat);
    tools.hidden = s.over || !person || !!hist;
    $("takeback-btn").hidden = !person || s.state_id === 0;
    const others = m.seats.some(x => x.kind === "human" && x.seat !== seat) && !hotseat;
    $("takeback-btn").textContent = others ? "Ask to take back" : "Take back";
    $("back-btn").hidden = s.state_id === 0;
    // a take-back asked by another person: accept or refuse it
    const ask = $("undo-ask"), req = m.undo_request;
    if (req && !s.over && person && req.seat !== seat) {
      ask.replaceChildren(h("span", { text: `${seatName(req.seat)} asks to take back their last move. ` }),
        h("button", { class: "btn small primary", type: "button", id: "undo-accept", onclick: () => answerUndo(true) }, "Allow"),
        h("button", { class: "btn small", type: "button", id: "undo-refuse", onclick: () => answerUndo(false) }, "Refuse"));
      ask.hidden = false;
    } else if (req && req.seat === seat && !s.over) {
      ask.replaceChildren(h("span", { text: "You asked to take back your last move: waiting for the answer." })); ask.hidden = false;
    } else { ask.hidden = true; ask.replaceChildren(); }
    renderClocks();
  }
  function fmtClock(sec) { sec = Math.max(0, Math.ceil(sec)); return Math.floor(sec / 60) + ":" + String(sec % 60).padStart(2, "0"); }
  function renderClocks() {
    const c = snap && snap.match && snap.match.clocks, box = $("clocks");
    if (!c) { box.hidden = true; return; }
    clockAt = performance.now();
    const draw = () => {
      const since = (performance.now() - clockAt) / 1000;
      box.replaceChildren(...c.left.map((left, i) => left === null ? null : h("span", {
        class: "clock" + (c.running === i && !snap.over ? " running" : "") + (left - (c.running === i ? since : 0) < 30 ? " low" : ""), "data-seat": i,
        text: `${i === seat ? "You" : seatName(i)} ${fmtClock(left - (c.running === i && !snap.over ? since : 0))}` })).filter(Boolean));
    };
    draw();
    box.hidden = false;
    clearInterval(clockTimer);
    if (c.running !== null && !snap.over) clockTimer = setInterval(draw, 1000);
  }
  async function post(path, body) {
    return B.api("POST", `/api/matches/${encodeURIComponent(mid)}/${path}`, body, token);
  }
  $("resign-btn").addEventListener("click", async () => {
    if (!snap || snap.over || !window.confirm("Resign this game? It ends now and the other side wins.")) return;
    try { focusNext = true; onSnapshot(await post("resign", { seat: seat })); } catch (e) { B.toast(e.message, "error"); }
  });
  $("takeback-btn").addEventListener("click", async () => {
    try {
      const r = await post("takeback", { seat: seat });
      if (r.pending) { B.toast("Asked the other players to let you take back your last move.", "info"); return; }
      focusNext = true;
      snap = null; lastEvents = null;
      onSnapshot(r.snapshot);
      announce("Your last move was taken back.");
    } catch (e) { explain(e.message.charAt(0).toUpperCase() + e.message.slice(1) + (/[.!]$/.test(e.message) ? "" : ".")); }
  });
  async function answerUndo(yes) {
    try { await post("takeback/answer", { seat: seat, accept: yes }); } catch (e) { B.toast(e.message, "error"); }
  }
  $("rematch-btn").addEventListener("click", async () => {
    try {
      const r = await post("rematch", { seat: seat });
      location.assign("/game/" + encodeURIComponent(r.match.id) + secretFragment());
    } catch (e) { B.toast(e.message, "error"); }
  });

  /* ---- earlier positions during play: a move list to step back through ------------------------- */
  async function showHistory(step) {
    const total = snap.state_id;
    step = Math.max(0, Math.min(step, total));
    if (step === total) { closeHistory(true); return; }
    let d;
    try {
      d = await B.api("GET", `/api/matches/${encodeURIComponent(mid)}/history?step=${step}` + (seat !== null ? `&seat=${seat}` : ""), undefined, seat !== null ? token : null);
    } catch (e) { B.toast(e.message, "error"); return; }
    hist = { step: d.step, steps: d.steps };
    document.body.dataset.history = String(d.step);
    closeStack(false);
    B.render(d.scene, parts);
    parts.status.prepend(h("strong", { class: "hist-tag", text: "Earlier position" }), " ");
    clicker = new B.Clicker([]);
    paint();
    B.initRoving(document.querySelector(".table"));
    $("actions").replaceChildren(h("p", { class: "empty", text: "You are looking at an earlier position: go back to the game to move." }));
    $("filter").hidden = true;
    const r = $("hist-range");
    r.max = String(d.steps); r.value = String(d.step);
    $("hist-label").textContent = `After move ${d.step} of ${d.steps}` + (d.last_action ? `: ${d.last_action.label}` : " (the start)");
    $("history").hidden = false;
    $("tools").hidden = true;
    $("hist-prev").disabled = d.step === 0;
  }
  function closeHistory(redraw) {
    hist = null;
    delete document.body.dataset.history;
    $("history").hidden = true;
    if (redraw && snap) { render(); $("back-btn").focus(); }
  }
  $("back-btn").addEventListener("click", () => showHistory(snap.state_id - 1).then(() => { if (hist) $("hist-prev").focus(); }));
  $("hist-prev").addEventListener("click", () => hist && showHistory(hist.step - 1));
  $("hist-next").addEventListener("click", () => hist && showHistory(hist.step + 1));
  $("hist-range").addEventListener("change", e => showHistory(Number(e.target.value)));
  $("hist-close").addEventListener("click", () => closeHistory(true));

  /* ---- acting ----------------------------------------------------------- */
  async function act(index) {
    if (busy || !myTurn()) return;
    busy = true;
    focusNext = true;
    const chosen = snap.actions.find(a => a.index === index);
    recapAt[seat] = { from: (snap.events || []).length, epoch: snap.match ? snap.match.epoch : 0,
      canEnd: !!(snap.scene && snap.scene.turn_ends_by_itself) && !(chosen && END_RE.test(chosen.label)), ended: false };
    document.body.classList.add("busy");
    try {
      const s = await B.api("POST", `/api/matches/${encodeURIComponent(mid)}/actions`, { seat: seat, state_id: snap.state_id, index: index }, token);
      const at = recapAt[seat];  /* the game ended this seat's turn after its move, without its choosing to */
      if (at && at.canEnd && !s.over && s.acting !== seat) at.ended = true;
      onSnapshot(s);
    } catch (e) {
      B.toast(e.message, "error");
      if (e.status === 409) hello();
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  /* What was clicked, in words: a piece's or card's name, else its square's. */
  function nameOf(ev) {
    const el = ev.target.closest ? ev.target.closest("[data-click],[data-cell]") : null;
    if (!el) return "";
    if (el.dataset.name) return el.dataset.name;
    if (el.classList.contains("card")) { const n = el.querySelector("strong"); return n ? n.textContent : "that card"; }
    return el.dataset.label0 || el.getAttribute("aria-label") || el.dataset.square || "";
  }
  /* "Why not?": the scene's reason for something that cannot be used now (see engine/scene.py). */
  function whyNot(ids, ev) {
    const reasons = (snap && snap.scene && snap.scene.why_not) || {};
    let why = null;
    for (const id of ids) if (reasons[id]) { why = reasons[id]; break; }
    if (!why) {
      const card = ev.target.closest ? ev.target.closest("[data-why-not]") : null;
      if (card) why = card.dataset.whyNot;
    }
    if (!why) why = !snap || snap.over ? "the game is over" : (seat === null ? "you are watching this game"
      : (!myTurn() ? "it is not your turn" : "it is not a choice you can make now (the choices glow on the board and are listed under Your move)"));
    const name = nameOf(ev).split(": ").slice(0, 2).join(": ");
    return (name ? name + ": " : "") + "can't use this now, because " + why + ".";
  }

  /* ---- a stack, enlarged ------------------------------------------------------------------------
     Several pieces on one square are drawn small (they share it). A tap on such a square (or Enter on
     it) opens the stack enlarged beside it: every piece large, with its name and badge, as a button
     of at least 44 px; the ones that can be picked now are marked and pick the piece. Esc, the close
     button or a tap elsewhere closes it, and focus goes back to the square. */
  const stackBox = h("div", { id: "stack", class: "stack-view", role: "dialog", hidden: true });
  $("chooser").after(stackBox);
  let stackPick = false, stackCell = null;
  function itemsOn(cell) { return [...document.querySelectorAll("#boards .item[data-cell]")].filter(e => e.dataset.cell === cell); }
  function cellEl(cell) { return [...document.querySelectorAll("#boards .cell[data-click]")].find(e => e.dataset.click === cell) || null; }
  function closeStack(refocus) {
    if (stackBox.hidden) return;
    stackBox.hidden = true;
    stackBox.replaceChildren();
    const c = stackCell && cellEl(stackCell);
    stackCell = null;
    if (refocus && c) B.focusCell(c);
  }
  function placeStack() {
    const c = stackCell && cellEl(stackCell);
    if (stackBox.hidden || !c) return;
    const r = c.getBoundingClientRect(), w = stackBox.offsetWidth, hgt = stackBox.offsetHeight, m = 8;
    let top = r.bottom + 6;
    if (top + hgt > innerHeight - m) top = r.top - 6 - hgt;  /* above the square when there is no room below */
    top = Math.max(m, Math.min(top, innerHeight - hgt - m));
    const left = Math.max(m, Math.min(r.left + r.width / 2 - w / 2, document.documentElement.clientWidth - w - m));
    stackBox.style.top = top.toFixed(0) + "px";
    stackBox.style.left = left.toFixed(0) + "px";
  }
  function openStack(cell, els, next) {
    const c = cellEl(cell), sq = c ? c.dataset.square || "" : "";
    const head = h("div", { class: "stack-head" }, h("strong", { class: "stack-title", text: (sq ? sq + ": " : "") + els.length + " pieces here" }),
      h("button", { class: "btn ghost stack-close", type: "button", "aria-label": "Close", onclick: () => closeStack(true) }, "✕"));
    const list = h("div", { class: "stack-list" });
    for (const e of els) {
      const can = next.has(e.dataset.click), name = e.dataset.name || "a piece";
      const btn = h("button", { class: "stack-piece" + (can ? " can-click" : ""), type: "button", "aria-label": name + (can ? ", can be chosen" : "") },
        h("span", { class: "stack-icon-box" }, B.itemIcon(snap.scene, e._item || {}, 56)), h("span", { class: "stack-name", text: name }));
      btn.addEventListener("click", () => {
        const back = cellEl(stackCell);
        closeStack(false);
        stackPick = true;
        try { e.dispatchEvent(new MouseEvent("click", { bubbles: true })); } finally { stackPick = false; }
        if (back && back.isConnected && !focusNext) B.focusCell(back);
      });
      list.appendChild(btn);
    }
    stackBox.setAttribute("aria-label", (sq ? sq + ": " : "") + els.length + " pieces");
    stackBox.replaceChildren(head, list);
    if (next.size && els.some(e => next.has(e.dataset.click))) stackBox.appendChild(h("p", { class: "stack-hint", text: "Pick the piece to use." }));
    stackCell = cell;
    stackBox.hidden = false;
    placeStack();
    (list.querySelector(".can-click") || list.querySelector("button")).focus({ preventScroll: true });
  }
  /* the arrow keys (and Home/End) move between the pieces of the enlarged stack (issue 44, the fresh
     person's trial: they did nothing there) */
  stackBox.addEventListener("keydown", ev => {
    const list = [...stackBox.querySelectorAll(".stack-piece")], i = list.indexOf(document.activeElement);
    if (!list.length || i < 0) return;
    const j = { ArrowDown: i + 1, ArrowRight: i + 1, ArrowUp: i - 1, ArrowLeft: i - 1, Home: 0, End: list.length - 1 }[ev.key];
    if (j === undefined) return;
    ev.preventDefault();
    list[(j + list.length) % list.length].focus();
  });
  window.addEventListener("scroll", placeStack, true);
  document.addEventListener("pointerdown", ev => { if (!stackBox.hidden && !stackBox.contains(ev.target)) closeStack(false); }, true);

  function onBoardClick(ev) {
    let ids = B.clickIds(ev);
    if (!ids.length) return;
    const cell = ids.find(i => !i.startsWith("item:") && !i.startsWith("card:"));
    const fromStack = stackPick, stack = cell && !fromStack ? itemsOn(cell) : [];
    if (!clicker || !myTurn()) {
      if (stack.length > 1) { openStack(cell, stack, new Set()); return; }  /* to read it */
      explain(whyNot(ids, ev)); return;
    }
    let next = clicker.next();
    /* a stack opens enlarged, unless its square is the choice itself, or a mouse hit a piece that can
       be picked right on it */
    const exact = ev.pointerType === "mouse" && ids[0].startsWith("item:") && next.has(ids[0]);
    if (stack.length > 1 && !next.has(cell) && !exact) {
      if (clicker.picked.length && !stack.some(e => next.has(e.dataset.click))) { clicker.reset(); paint(); next = clicker.next(); }
      explain("");
      openStack(cell, stack, next);
      return;
    }
    /* a tap on a square picks the one piece on it that can be picked (small pieces need not be hit exactly) */
    if (!fromStack && !ids.some(i => next.has(i))) {
      const on = cell ? itemsOn(cell).filter(e => next.has(e.dataset.click)) : [];
      if (on.length === 1) ids = [on[0].dataset.click];
    }
    const r = clicker.click(ids);
    explain(r.reset ? whyNot(ids, ev) : "");
    $("chooser").hidden = true;
    if (r.done) {
      if (r.done.length === 1) { clicker.reset(); act(r.done[0].action); return; }
      const ch = $("chooser");
      ch.replaceChildren(h("span", { class: "chooser-title", text: "Which one?" }));
      for (const t of r.done) {
        const a = snap.actions[t.action];
        ch.appendChild(h("button", { class: "btn", type: "button", onclick: () => { clicker.reset(); act(t.action); } }, t.label || (a ? a.label : "action " + t.action)));
      }
      ch.appendChild(h("button", { class: "btn ghost", type: "button", onclick: () => { clicker.reset(); ch.hidden = true; paint(); } }, "Cancel"));
      ch.hidden = false;
    }
    paint();
  }

  /* ---- rules drawer ------------------------------------------------------ */
  /* the drawer holds the focus while open (the page behind is inert) and gives it back when closed */
  let drawerFrom = null;
  function closeRules() {
    const d = $("drawer");
    if (d.hidden) return;
    d.hidden = true;
    setInert(false);
    const back = drawerFrom && drawerFrom.isConnected ? drawerFrom : $("rules-btn");
    drawerFrom = null;
    back.focus({ preventScroll: true });
  }
  async function openRules() {
    const d = $("drawer");
    if (!d.hidden) { closeRules(); return; }
    drawerFrom = document.activeElement && document.activeElement !== document.body ? document.activeElement : $("rules-btn");
    d.hidden = false;
    setInert(true);
    $("drawer-close").focus();
    if (!snap) return;
    $("rules-tab").href = "/rules/" + encodeURIComponent(snap.match.game);
    if (!$("drawer-doc").dataset.loaded) {
      try {
        const r = await B.api("GET", `/api/games/${encodeURIComponent(snap.match.game)}/rules`);
        $("drawer-doc").innerHTML = r.html;  // rendered server-side with raw HTML escaped
        $("drawer-doc").dataset.loaded = "1";
      } catch (e) { $("drawer-doc").textContent = e.message; }
    }
  }

  document.querySelector(".table").addEventListener("click", onBoardClick);
  parts.panels.addEventListener("click", onBoardClick);
  $("filter").addEventListener("input", renderActions);
  /* Enter in the filter with exactly one match moves the focus to it (a second Enter plays it); with
     none or several it does nothing (the "no match" note says why) */
  $("filter").addEventListener("keydown", ev => {
    if (ev.key !== "Enter") return;
    ev.preventDefault();
    const found = [...$("actions").querySelectorAll("button.action")];
    if (found.length === 1) found[0].focus();
  });
  $("rules-btn").addEventListener("click", openRules);
  $("drawer-close").addEventListener("click", closeRules);
  /* Tab stays in the open drawer (its first and last controls wrap around) */
  $("drawer").addEventListener("keydown", ev => {
    if (ev.key !== "Tab") return;
    const f = [...$("drawer").querySelectorAll("a[href], button, [tabindex='0'], summary")].filter(e => e.offsetParent !== null);
    if (!f.length) return;
    if (ev.shiftKey && document.activeElement === f[0]) { ev.preventDefault(); f[f.length - 1].focus(); }
    else if (!ev.shiftKey && document.activeElement === f[f.length - 1]) { ev.preventDefault(); f[0].focus(); }
  });
  /* the hand-over screen has one control: Tab stays on it */
  $("pass").addEventListener("keydown", ev => { if (ev.key === "Tab") { ev.preventDefault(); $("pass-go").focus(); } });
  /* the action list: arrow keys move between the choices, Home/End to the ends */
  $("actions").addEventListener("keydown", ev => {
    const list = [...$("actions").querySelectorAll("button")];
    const i = list.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (ev.key === "ArrowDown" || ev.key === "ArrowRight") j = Math.min(list.length - 1, i + 1);
    else if (ev.key === "ArrowUp" || ev.key === "ArrowLeft") j = Math.max(0, i - 1);
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = list.length - 1;
    if (j === null) return;
    ev.preventDefault();
    list[j].focus();
  });
  document.addEventListener("keydown", ev => {
    if (ev.key === "Escape") {
      if (!stackBox.hidden) { closeStack(true); return; }  /* first Esc: the enlarged stack only */
      if (!$("drawer").hidden) { closeRules(); return; }
      if (hist) { closeHistory(true); return; }
      if (clicker) { clicker.reset(); paint(); } $("chooser").hidden = true; explain("");
      return;
    }
    /* shortcuts, outside text fields: A the first action, / the filter */
    const t = ev.target, typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
    if (typing || ev.ctrlKey || ev.metaKey || ev.altKey || passing || !$("drawer").hidden) return;
    if ((ev.key === "s" || ev.key === "S") && !suggestBox.hidden && $("suggest-btn")) {
      ev.preventDefault(); $("suggest-btn").click();
    } else if (ev.key === "a" || ev.key === "A") {
      const first = $("actions").querySelector("button");
      if (first) { ev.preventDefault(); first.focus(); }
    } else if (ev.key === "/") {
      if (!$("filter").hidden || (snap && myTurn())) { ev.preventDefault(); $("filter").dataset.opened = $("filter").dataset.decision || ""; $("filter").hidden = false; $("filter").focus(); }
    }
  });
  /* a new width redraws the boards at the new scale (text sizes and zoom depend on it) */
  let lastWidth = window.innerWidth, resizeTimer = null;
  window.addEventListener("resize", () => {
    if (window.innerWidth === lastWidth) return;
    lastWidth = window.innerWidth;
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (snap && !passing) render(); }, 150);
  });
  /* a touch screen has no "/" key to press: the filter's placeholder says only what it is (issue 44) */
  if (window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches) $("filter").placeholder = "Filter actions";
  /* an invited player is told plainly who else holds the keys (issue 45) */
  if (seat !== null && !hotseat) $("creator-note").hidden = false;
  if (hp.lost !== undefined) B.toast(`This tab does not hold the private link of seat ${Number(hp.lost) + 1}: you are watching. Open the link you were sent to play.`, "info");
  if (hotseat) passing = true;  // wait for the first snapshot to pick the seat
  connect();
})();
