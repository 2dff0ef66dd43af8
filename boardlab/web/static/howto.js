/* How to play (issue 32): at a player's first game of a title, the game's quick start (the
   "## Quick start" section of docs/rules/<game>.md: the goal, what a turn is, how to win) opens
   at the top of the side column (on a phone: at the top of the page). "Got it" dismisses it for good (localStorage, per game); the Rules drawer
   starts with the same text. */
(function () {
  "use strict";
  const B = window.Boardlab;
  const KEY = "boardlab.howto.";
  function seen(game) { try { return localStorage.getItem(KEY + game) === "1"; } catch (e) { return false; } }
  function remember(game) { try { localStorage.setItem(KEY + game, "1"); } catch (e) { /* private mode */ } }

  /* The title as a button that opens and folds the quick start (phones); returns set(folded). */
  function h2Button(title, body, actions) {
    const text = title.textContent;
    let btn = null;
    return folded => {
      if (folded && !btn) {
        btn = document.createElement("button");
        btn.type = "button"; btn.className = "howto-toggle"; btn.id = "howto-toggle";
        btn.setAttribute("aria-expanded", "false");
        btn.textContent = text + " (first game: tap to read)";
        btn.addEventListener("click", () => {
          const open = btn.getAttribute("aria-expanded") !== "true";
          btn.setAttribute("aria-expanded", String(open));
          btn.textContent = text + (open ? "" : " (first game: tap to read)");
          body.hidden = actions.hidden = !open;
        });
        title.replaceChildren(btn);
        body.hidden = actions.hidden = true;
      } else if (!folded && btn) {
        title.replaceChildren(text);
        btn = null;
        body.hidden = actions.hidden = false;
      }
    };
  }

  async function start() {
    let match, info;
    try { match = await B.api("GET", `/api/matches/${encodeURIComponent(B.matchId())}`); } catch (e) { return; }
    const game = match.game;
    if (seen(game)) return;
    try { info = await B.api("GET", `/api/games/${encodeURIComponent(game)}`); } catch (e) { return; }
    if (!info.quick_start) return;
    const box = document.createElement("section");
    box.className = "howto";
    box.id = "howto";
    box.setAttribute("aria-labelledby", "howto-title");
    const title = document.createElement("h2");
    title.id = "howto-title";
    title.textContent = `How to play ${info.name}`;
    const body = document.createElement("div");
    body.className = "howto-body";
    body.innerHTML = info.quick_start;  // rendered server-side from the rules document, raw HTML escaped
    const actions = document.createElement("div");
    actions.className = "howto-actions";
    const ok = document.createElement("button");
    ok.type = "button"; ok.className = "btn primary"; ok.id = "howto-ok"; ok.textContent = "Got it";
    ok.addEventListener("click", () => { remember(game); box.remove(); });
    const more = document.createElement("button");
    more.type = "button"; more.className = "btn ghost"; more.textContent = "All the rules";
    more.addEventListener("click", () => { const b = document.getElementById("rules-btn"); if (b) b.click(); });
    actions.append(ok, more);
    box.append(title, body, actions);
    // wide screens: first in the side column, so the board's column stays as it is (sticky, in view);
    // a phone (one column): first on the page, before the status and the board, so that it is read
    // first (issue 44, the fresh person's trial: it came after the board and the long status box)
    const narrow = window.matchMedia ? window.matchMedia("(max-width: 860px)") : null;
    // on a phone it starts folded to its title (a button), so that the board still shows on the first screen
    const fold = h2Button(title, body, actions);
    const place = () => {
      const side = document.querySelector(".game-layout .side"), table = document.querySelector(".game-layout .table");
      const phone = !!(narrow && narrow.matches && table);
      if (phone) table.prepend(box);
      else if (side) side.prepend(box);
      else document.body.append(box);
      fold(phone);
    };
    place();
    if (narrow && narrow.addEventListener) narrow.addEventListener("change", () => { if (box.isConnected) place(); });
  }
  start();
})();
