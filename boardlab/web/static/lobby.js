/* The lobby: choose a game, variant, player count and seats; create; share links. */
(function () {
  "use strict";
  const B = window.Boardlab;
  const $ = id => document.getElementById(id);
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const k in attrs || {}) {
      const v = attrs[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.className = v; else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v); else if (k === "style") el.style.cssText = v; else el.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid != null && kid !== false) el.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid);
    return el;
  }
  let games = [], game = null, players = 2, seats = [];
  const MINE = "boardlab.seats";
  function mine() { try { return JSON.parse(localStorage.getItem(MINE) || "{}"); } catch (e) { return {}; } }

  async function load() {
    try { games = (await B.api("GET", "/api/games")).games; }
    catch (e) { $("games").replaceChildren(h("p", { class: "empty", text: e.message })); return; }
    const list = $("games");
    list.replaceChildren();
    for (const g of games) {
      const tags = [`${g.min_players === g.max_players ? g.min_players : g.min_players + "–" + g.max_players} players`];
      if (g.hidden_information) tags.push("hidden information");
      if (g.chance) tags.push("dice & chance");
      list.appendChild(h("button", { class: "game-card", type: "button", "data-game": g.id, onclick: ev => {
          select(g.id);
          /* Enter or Space on a card (a click with no pointer) goes on to its setup form (issue 44) */
          if (ev.detail === 0 && !$("setup").hidden) { $("setup").scrollIntoView({ block: "start" }); $("setup-title").focus({ preventScroll: true }); }
        } },
        h("strong", { text: g.name }),
        h("span", { class: "game-desc", text: g.summary || g.description }),
        h("span", { class: "tags" }, tags.map(t => h("span", { class: "tag", text: t })))));
    }
    const want = new URLSearchParams(location.search).get("game");
    const back = history.state && history.state.created;
    select(back && games.some(g => g.id === back.match.game) ? back.match.game : want && games.some(g => g.id === want) ? want : games.length ? games[0].id : null);
    if (back) showCreated(back);
    recent();
  }

  function select(id) {
    game = games.find(g => g.id === id) || null;
    document.querySelectorAll(".game-card").forEach(el => el.classList.toggle("selected", el.dataset.game === id));
    $("created").hidden = true;
    $("setup").hidden = !game;
    if (!game) return;
    $("setup-title").textContent = "New game of " + game.name;
    $("setup-summary").textContent = game.summary || game.description;
    $("setup-rules").href = "/rules/" + encodeURIComponent(game.id);
    const v = $("variant");
    v.replaceChildren(...game.variants.map(x => h("option", { value: x.name, text: x.name })));
    v.onchange = () => { variantInfo(); renderOptions(); };
    variantInfo();
    players = game.default_players;
    const seg = $("players");
    seg.replaceChildren();
    for (let n = game.min_players; n <= game.max_players; n++) {
      seg.appendChild(h("button", { type: "button", role: "radio", class: "seg", "data-n": n, onclick: () => { players = n; renderSeats(); } }, String(n)));
    }
    seats = [];
    renderBotHelp();
    renderSeats();
    renderOptions();
  }
  function variantInfo() {
    const x = game.variants.find(x => x.name === $("variant").value);
    $("variant-desc").textContent = x ? x.description : "";
  }
  function defaultAgent() { return ["easy", "heuristic", "random"].find(a => game.agents.includes(a)) || game.agents[0]; }

  /* The seats' role names for `n` players (Wizard, Hero 1, White, Black, Player 1 (top left)...). */
  function roles(n) { return (game.seat_names && game.seat_names[String(n)]) || Array.from({ length: n }, (_, i) => "Player " + (i + 1)); }
  function agentDetail(a) { return (game.agent_details && game.agent_details[a]) || a; }
  /* The quick start's "Seats:" line (docs/rules/<game>.md), shown under the seat rows. */
  function seatsNote() {
    if (!game.quick_start) return "";
    const t = document.createElement("template");
    t.innerHTML = game.quick_start;  // rendered server-side from the rules document, raw HTML escaped
    for (const li of t.content.querySelectorAll("li")) {
      const head = li.querySelector("strong");
      if (head && /^seats/i.test(head.textContent)) return li.textContent.replace(/^\s*Seats:\s*/i, "");
    }
    return "";
  }
  function renderSeats() {
    document.querySelectorAll("#players .seg").forEach(b => { const on = Number(b.dataset.n) === players; b.classList.toggle("on", on); b.setAttribute("aria-checked", on); });
    /* a newcomer gets the game's easiest seat (the Labyrinth: Hero 1, not the Wizard; issue 44) */
    const first = game.newcomer_seat && game.newcomer_seat < players ? game.newcomer_seat : 0;
    while (seats.length < players) seats.push(seats.length === first ? { kind: "human" } : { kind: "bot", agent: defaultAgent() });
    seats.length = players;
    const names = roles(players);
    const you = seats.findIndex(s => s.kind === "human");
    const box = $("seats");
    box.replaceChildren();
    seats.forEach((s, i) => {
      const agentSel = h("select", { class: "agent", "aria-label": `Bot for ${names[i]}`, "aria-describedby": "bot-help-summary",
        onchange: e => { s.agent = e.target.value; e.target.title = agentDetail(s.agent); renderYou(); }, title: agentDetail(s.agent || defaultAgent()) },
        game.agents.map(a => h("option", { value: a, text: B.botLabel(a), title: agentDetail(a), selected: a === (s.agent || defaultAgent()) })));
      agentSel.hidden = s.kind !== "bot";
      const kindBtn = k => h("button", { type: "button", class: "seg" + (s.kind === k ? " on" : ""), "data-kind": k, "aria-pressed": s.kind === k ? "true" : "false", onclick: () => { s.kind = k; if (k === "bot" && !s.agent) s.agent = defaultAgent(); renderSeats(); } }, k === "human" ? "Human" : "Bot");
      const who = s.kind === "bot" ? "bot" : (i === you ? "you" : "another person");
      box.appendChild(h("div", { class: "seat-row", "data-seat": i },
        h("span", { class: "seat-num", text: String(i + 1), "aria-hidden": "true" }),
        h("span", { class: "seat-role" }, h("strong", { class: "role", text: names[i] }), h("span", { class: "seat-who " + who.replace(" ", "-"), text: who === "you" ? "you" : who })),
        h("input", { class: "seat-name", type: "text", maxlength: "40", placeholder: names[i], "aria-label": `Name for ${names[i]} (optional)`, value: s.name || "", oninput: e => { s.name = e.target.value; } }),
        h("div", { class: "segmented small", role: "group", "aria-label": `Who plays ${names[i]}` }, kindBtn("human"), kindBtn("bot")),
        agentSel));
    });
    const note = seatsNote();
    $("seats-note").textContent = note.charAt(0).toUpperCase() + note.slice(1);
    $("seats-note").hidden = !note;
    /* why the default seat is not seat 1, while the human seat is still the one given by default */
    const nn = $("newcomer-note");
    nn.textContent = game.newcomer_note || "";
    nn.hidden = !game.newcomer_note || you !== first;
    renderYou();
  }
  /* One line above Create: which seat you take, who the others are. */
  function renderYou() {
    const names = roles(players);
    const humans = seats.map((s, i) => s.kind === "human" ? i : -1).filter(i => i >= 0);
    const bots = seats.map((s, i) => s.kind === "bot" ? `${names[i]} (${B.botLabel(s.agent || defaultAgent())} bot)` : null).filter(Boolean);
    let text = humans.length ? `You play ${names[humans[0]]} (seat ${humans[0] + 1})` : "Bots only: you watch";
    if (humans.length > 1) text += `; ${humans.slice(1).map(i => names[i]).join(", ")} ${humans.length > 2 ? "are" : "is"} played by other people (on this screen or from their own link)`;
    if (bots.length) text += `. Bots: ${bots.join(", ")}`;
    $("you-play").textContent = text + ".";
    $("clock-field").hidden = humans.length < 2;
  }

  /* What each bot name means, with its agent spec: one fold under the seats. */
  function renderBotHelp() {
    $("bot-help-list").replaceChildren(...game.agents.flatMap(a => [h("dt", { text: B.botLabel(a) }), h("dd", { text: agentDetail(a) })]));
  }

  function renderOptions() {
    const box = $("options");
    box.replaceChildren();
    const variant = game.variants.find(x => x.name === $("variant").value) || { overrides: {} };
    for (const o of game.options) {
      const val = o.name in variant.overrides ? variant.overrides[o.name] : o.default;
      let input;
      if (o.kind === "bool") input = h("input", { type: "checkbox", checked: !!val });
      else if (o.choices) input = h("select", null, o.choices.map(c => h("option", { value: c, text: c, selected: c === val })));
      else if (o.kind === "int" || o.kind === "float") input = h("input", { type: "number", step: o.kind === "int" ? "1" : "any", min: o.low ?? undefined, max: o.high ?? undefined, value: val });
      else input = h("input", { type: "text", value: val });
      input.dataset.option = o.name; input.dataset.kind = o.kind; input.dataset.initial = JSON.stringify(val);
      input.id = "opt-" + o.name;
      box.appendChild(h("div", { class: "option-row" }, h("label", { for: input.id, title: o.description }, o.name, h("small", { text: o.description })), input));
    }
  }
  function optionValues() {
    const out = {};
    document.querySelectorAll("#options [data-option]").forEach(el => {
      let v;
      if (el.dataset.kind === "bool") v = el.checked;
      else if (el.dataset.kind === "int") v = parseInt(el.value, 10);
      else if (el.dataset.kind === "float") v = parseFloat(el.value);
      else v = el.value;
      if (JSON.stringify(v) !== el.dataset.initial) out[el.dataset.option] = v;
    });
    return out;
  }

  async function create(ev) {
    ev.preventDefault();
    const body = {
      game: game.id, players: players, variant: $("variant").value, options: optionValues(),
      seats: seats.map(s => s.kind === "bot" ? { kind: "bot", agent: s.agent || defaultAgent(), name: s.name || null } : { kind: "human", name: s.name || null }),
    };
    const seed = $("seed").value.trim();
    if (seed !== "") body.seed = Number(seed);
    const clock = Number($("clock").value || 0);
    if (clock && seats.filter(s => s.kind === "human").length >= 2) body.clock = clock;
    $("create").disabled = true;
    try {
      const r = await B.api("POST", "/api/matches", body);
      showCreated(r);
    } catch (e) { B.toast(e.message, "error"); }
    finally { $("create").disabled = false; }
  }

  const SUMMARY = $("created-summary") ? $("created-summary").textContent : "";
  function showCreated(r) {
    const store = mine();
    store[r.match.id] = { game: r.match.game_name, links: r.seats.filter(s => s.link).map(s => ({ name: s.name, link: s.link })), hotseat: r.hotseat_link, at: Date.now() };
    try { localStorage.setItem(MINE, JSON.stringify(store)); } catch (e) { /* private mode */ }
    $("setup").hidden = true;
    $("created").hidden = false;
    const box = $("links");
    box.replaceChildren();
    const names = roles(r.seats.length);
    for (const s of r.seats) {
      const role = names[s.seat] && names[s.seat] !== s.name ? ` (${names[s.seat]})` : "";
      if (s.kind === "bot") { box.appendChild(h("div", { class: "link-row bot", "data-seat": s.seat }, h("span", { class: "seat-num", text: String(s.seat + 1), "aria-hidden": "true" }), h("strong", { text: s.name + role }), h("span", { class: "muted", title: agentDetail(s.agent), text: `Bot · ${B.botLabel(s.agent)}` }))); continue; }
      const url = B.absolute(s.link);
      box.appendChild(h("div", { class: "link-row", "data-seat": s.seat },
        h("span", { class: "seat-num", text: String(s.seat + 1), "aria-hidden": "true" }), h("strong", { text: s.name + role }),
        h("input", { class: "link", readonly: true, value: url, "aria-label": `Private link for ${s.name}`, onfocus: e => e.target.select() }),
        h("button", { class: "btn", type: "button", onclick: () => B.copy(url) }, "Copy"),
        h("a", { class: "btn primary open-seat", href: s.link }, "Open")));
    }
    /* "Open" plays in this tab: the browser's Back comes back here, to this panel */
    try { history.replaceState({ created: r }, ""); } catch (e) { /* too large: the panel is simply not restored */ }
    $("hotseat").href = r.hotseat_link;
    $("spectate").href = r.spectator_link;
    /* one person against bots (issue 44): no links to hand out, so one plain "Play now" */
    const humans = r.seats.filter(s => s.kind !== "bot");
    const solo = humans.length === 1;
    $("created").classList.toggle("solo", solo);
    $("hotseat").textContent = solo ? "Play now" : "Play all human seats on this screen";
    $("created-summary").textContent = solo
      ? `You play ${humans[0].name} against ${r.seats.length - 1 === 1 ? "a bot" : (r.seats.length - 1) + " bots"}: press Play now. The link beside your seat is its private link, to come back to this game later or from another device. You keep every link and the seed.`
      : SUMMARY;
    // the ready panel may open below the fold: bring it into view and put focus on it
    const panel = $("created");
    panel.scrollIntoView({ block: "start", behavior: "auto" });
    $("created-title").focus({ preventScroll: true });
    recent();
  }

  async function recent() {
    let list;
    try { list = (await B.api("GET", "/api/matches?limit=20")).matches; } catch (e) { return; }
    const box = $("recent");
    if (!list.length) { box.replaceChildren(h("p", { class: "empty", text: "No games yet." })); return; }
    const store = mine();
    const rows = list.map(m => {
      const mineHere = store[m.id];
      const nh = m.seats.filter(s => s.kind === "human").length, nb = m.seats.filter(s => s.kind === "bot").length;
      const result = m.status === "over" ? B.winnersText(m, m.results) : `${nh} ${nh === 1 ? "person" : "people"}, ${nb} ${nb === 1 ? "bot" : "bots"}`;
      const acts = [];
      if (m.status === "over") acts.push(h("a", { class: "btn small", href: "/replay/" + m.id }, "Replay"));
      else {
        if (mineHere && mineHere.hotseat) acts.push(h("a", { class: "btn small primary", href: mineHere.hotseat }, "Resume"));
        acts.push(h("a", { class: "btn small", href: "/game/" + m.id }, "Watch"));
      }
      return h("tr", null,
        h("td", { "data-label": "Game" }, h("strong", { text: m.game_name })), h("td", { text: m.variant }),
        h("td", null, h("span", { class: "status-pill " + m.status, text: m.status === "over" ? "finished" : "playing" })),
        h("td", { class: "muted", text: result }), h("td", { class: "muted", text: B.ago(m.updated_at) }), h("td", { class: "row-actions" }, acts));
    });
    box.replaceChildren(h("table", { class: "table-list" }, h("thead", null, h("tr", null, ["Game", "Variant", "Status", "Players / result", "Updated", ""].map(t => h("th", { text: t })))), h("tbody", null, rows)));
  }

  $("form").addEventListener("submit", create);
  $("again").addEventListener("click", () => { $("created").hidden = true; $("setup").hidden = false; $("setup-title").focus(); });
  load();
})();
