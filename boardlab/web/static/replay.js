/* The replay page: step through a finished game from any seat's point of view. */
(function () {
  "use strict";
  const B = window.Boardlab, h = B.h;
  const $ = id => document.getElementById(id);
  const mid = B.matchId();
  const hp = B.hashParams();
  const parts = { status: $("status"), prompt: $("prompt"), boards: $("boards"), panels: $("panels") };
  let seat = hp.seat !== undefined && hp.seat !== "" ? Number(hp.seat) : null;
  let step = hp.step !== undefined ? Number(hp.step) : null, steps = 0, timer = null, match = null, loading = 0;

  async function show(n) {
    const ticket = ++loading;
    const q = `step=${n}` + (seat === null ? "" : `&seat=${seat}`);
    let r;
    try { r = await B.api("GET", `/api/matches/${encodeURIComponent(mid)}/replay?${q}`); }
    catch (e) { stop(); B.toast(e.message, "error"); if (!match) parts.boards.replaceChildren(h("div", { class: "empty big", text: e.message })); return; }
    if (ticket !== loading) return;
    match = r.match; step = r.step; steps = r.steps;
    document.title = `${match.game_name} replay · boardlab`;
    $("crumb").textContent = `${match.game_name} · ${match.variant} · replay`;
    $("rules-link").href = "/rules/" + encodeURIComponent(match.game);
    const pov = $("pov");
    if (!pov.options.length) {
      pov.appendChild(h("option", { value: "", text: "Spectator (public)" }));
      match.seats.forEach(s => pov.appendChild(h("option", { value: String(s.seat), text: s.name + (s.kind === "bot" ? ` (bot)` : "") })));
      pov.value = seat === null ? "" : String(seat);
    }
    $("slider").max = steps; $("slider").value = step;
    $("stepno").textContent = `${step} / ${steps}`;
    const la = r.last_action;
    $("last-action").replaceChildren(la ? h("span", null, h("span", { class: "muted", text: `Step ${step}: ` }), h("strong", { text: match.seats[la.seat] ? match.seats[la.seat].name : "" }), ` — ${la.label}`) : h("span", { class: "muted", text: "The starting position" }));
    B.render(r.scene, parts);
    B.logItems($("log"), r.events, r.scene && r.scene.log_fold);
    $("result").hidden = !r.over;
    if (r.over) $("result-text").textContent = B.winnersText(match, r.results);
    history.replaceState(null, "", "#" + (seat === null ? "" : `seat=${seat}&`) + `step=${step}`);
  }
  function go(n) { show(Math.max(0, Math.min(steps, n))); }
  function stop() { if (timer) clearInterval(timer); timer = null; $("play").textContent = "Play"; }
  function play() {
    if (timer) { stop(); return; }
    if (step >= steps) go(0);
    $("play").textContent = "Pause";
    timer = setInterval(() => { if (step >= steps) stop(); else go(step + 1); }, 700);
  }
  $("first").onclick = () => { stop(); go(0); };
  $("prev").onclick = () => { stop(); go(step - 1); };
  $("next").onclick = () => { stop(); go(step + 1); };
  $("last").onclick = () => { stop(); go(steps); };
  $("play").onclick = play;
  $("slider").oninput = e => { stop(); go(Number(e.target.value)); };
  $("pov").onchange = e => { seat = e.target.value === "" ? null : Number(e.target.value); show(step); };
  document.addEventListener("keydown", ev => {
    if (ev.target.tagName === "SELECT" || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") { stop(); go(step - 1); }
    else if (ev.key === "ArrowRight") { stop(); go(step + 1); }
    else if (ev.key === "Home") { stop(); go(0); }
    else if (ev.key === "End") { stop(); go(steps); }
    else if (ev.key === " ") { ev.preventDefault(); play(); }
  });
  // open at the end (the result), unless a step is in the link
  (async () => { await show(step === null ? 0 : step); if (step === 0 && hp.step === undefined && steps) go(steps); })();
})();
