/* Shared helpers of the boardlab pages: API calls, toasts, links. */
(function () {
  "use strict";
  async function api(method, path, body, token) {
    const headers = { "Accept": "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers["Authorization"] = "Bearer " + token;
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try { data = await res.json(); } catch (e) { data = { detail: res.statusText }; }
    if (!res.ok) { const err = new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)); err.status = res.status; throw err; }
    return data;
  }
  function toast(msg, kind) {
    let box = document.getElementById("toasts");
    if (!box) { box = document.createElement("div"); box.id = "toasts"; document.body.appendChild(box); }
    const t = document.createElement("div");
    t.className = "toast " + (kind || "info");
    t.textContent = msg;
    box.appendChild(t);
    setTimeout(() => t.classList.add("gone"), 3800);
    setTimeout(() => t.remove(), 4400);
  }
  function hashParams() {
    const out = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      if (!part) continue;
      const [k, v] = part.split("=");
      out[decodeURIComponent(k)] = decodeURIComponent(v || "");
    }
    return out;
  }
  function absolute(link) { return new URL(link, location.origin).href; }
  async function copy(text) {
    try { await navigator.clipboard.writeText(text); toast("Link copied", "ok"); }
    catch (e) { window.prompt("Copy this link:", text); }
  }
  function matchId() { return decodeURIComponent(location.pathname.split("/").filter(Boolean).pop()); }
  function ago(ts) {
    const s = Math.max(0, Date.now() / 1000 - ts);
    if (s < 60) return "just now";
    if (s < 3600) return Math.floor(s / 60) + " min ago";
    if (s < 86400) return Math.floor(s / 3600) + " h ago";
    return Math.floor(s / 86400) + " d ago";
  }
  function winnersText(match, results) {
    if (!results) return "";
    if (results.truncated) return "The game was stopped by the turn cap: nobody won.";
    const names = (results.winners || []).map(w => (match && match.seats[w] ? match.seats[w].name : "Player " + (w + 1)));
    const who = names.length ? names.join(" and ") + (names.length > 1 ? " win" : " wins") : "Nobody wins";
    return who + (results.reason ? " — " + results.reason : "");
  }
  /* Apply the operations of boardlab.web.push.diff to `doc` in place; returns the (possibly new) root. */
  function applyPatch(doc, ops) {
    for (const op of ops) {
      const kind = op[0], path = op[1];
      if (kind === "s" && path.length === 0) { doc = op[2]; continue; }
      if (kind === "p") {  // splice: remove op[3] items at op[2], insert op[4]
        let target = doc;
        for (const p of path) target = target[p];
        target.splice(op[2], op[3], ...op[4]);
        continue;
      }
      let parent = doc;
      for (let i = 0; i < path.length - 1; i++) parent = parent[path[i]];
      const last = path[path.length - 1];
      if (kind === "s") parent[last] = op[2];
      else if (kind === "d") delete parent[last];
      else throw new Error("unknown patch operation " + kind);
    }
    return doc;
  }
  /* A bot's plain name from its agent spec ("easy" -> "Easy", "persona:mystic" -> "Mystic style"); the
     lobby shows the spec and what it means in a detail (docs/agents.md, "Levels"). */
  const BOT_NAMES = { easy: "Easy", medium: "Medium", hard: "Hard", strong: "Strong", heuristic: "Rule of thumb",
    ismcts: "Deep search", mcts: "Simple search", random: "Random moves", policy: "Quick instinct" };
  function botLabel(spec) {
    const [name, ...rest] = String(spec || "").split(":");
    if (name === "persona" && rest.length) { const p = rest[0].replace(/[-_]/g, " "); return p.charAt(0).toUpperCase() + p.slice(1) + " style"; }
    const base = BOT_NAMES[name] || name;
    return rest.length ? base + " (tuned)" : base;
  }
  window.Boardlab = Object.assign(window.Boardlab || {}, { api, toast, hashParams, absolute, copy, matchId, ago, winnersText, applyPatch, botLabel });
})();
