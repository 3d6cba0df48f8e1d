// The status page. It draws the referee's snapshot (the JSON of /api/state) and keeps
// it current from the event stream at /events: each event that changes the game makes
// the page fetch the snapshot again, so the page never has to replay rules itself.
// Plain JavaScript with no build step: the Pi serves it offline.
"use strict";

(function () {
  const initial = JSON.parse(document.getElementById("initial").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const TOKEN_KEY = "referee-admin-token";

  const page = {
    snap: initial.snapshot,
    status: initial.status,
    colours: initial.colours,
    seat: initial.seat,            // this phone's seat, on a player link
    seatToken: initial.token,
    adminToken: localStorage.getItem(TOKEN_KEY) || "",
    banner: initial.snapshot.alarm ? initial.snapshot.alarm.reason : null,
    lastRoll: null,
    notice: null,
    events: 0,                     // events received, for a person checking the stream
  };
  window.referee = page;

  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function svg(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function titled(node, text) {
    svg("title", {}, node).textContent = text;
    return node;
  }

  function fill(list, items) {
    list.replaceChildren(...items);
  }

  // --- who may act ----------------------------------------------------------------
  function token() {
    return page.seat !== null ? page.seatToken : page.adminToken;
  }

  function canMove() {
    const s = page.snap;
    if (!s.game || s.outcome) return false;
    if (page.seat !== null) return s.prompt && s.prompt.seat === page.seat;
    return Boolean(page.adminToken);
  }

  // Typing is open to every seated player while the game runs: some actions are made out
  // of turn (a hazard card, an auction bid, a trade offer, the removal after a top-row
  // drop) and the referee says who may act; taps and choice buttons follow the turn.
  function canType() {
    const s = page.snap;
    if (!s.game || s.outcome) return false;
    return page.seat !== null || Boolean(page.adminToken);
  }

  async function post(path, data) {
    const headers = {"Content-Type": "application/json"};
    const t = path === "/api/move" ? token() : page.adminToken;
    if (t) headers.Authorization = "Bearer " + t;
    let reply;
    try {
      reply = await fetch(path, {method: "POST", headers, body: JSON.stringify(data || {})});
    } catch (err) {
      return {ok: false, error: "the referee cannot be reached (" + err.message + ")"};
    }
    const body = await reply.json().catch(() => ({}));
    return {ok: reply.ok, error: body.error || (reply.ok ? null : reply.status + " " + reply.statusText)};
  }

  async function play(text) {
    const out = $("move-error");
    const r = await post("/api/move", {text});
    out.hidden = r.ok;
    out.textContent = r.ok ? "" : r.error;
    if (r.ok) $("move-text").value = "";
  }

  // --- drawing --------------------------------------------------------------------
  function render() {
    const s = page.snap;
    $("title").textContent = s.title || "No game running";
    $("variant").textContent = s.variant || "";
    document.title = (s.title || "Tabletop Referee") + " - Tabletop Referee";
    renderBanner();
    renderResult(s);
    $("prompt").textContent = s.prompt ? s.prompt.text :
      "No game is running. Start one from the referee controls.";
    renderSeats(s);
    renderBoard(s);
    renderChoices(s);
    $("move-form").hidden = !canType();
    $("move-text").placeholder = {connect4: "a column, e.g. 4", chess: "a move, e.g. e2e4 or Nf3"}[s.game] ||
      "a move in the game's notation";
    renderMoves(s);
    renderStatus();
    renderRulings(s);
  }

  function renderBanner() {
    $("alarm").hidden = !page.banner;
    $("alarm-text").textContent = page.banner || "";
  }

  function renderResult(s) {
    const o = s.outcome;
    $("result").hidden = !o;
    if (!o) return;
    $("result-head").textContent = o.winner_name ? o.winner_name + " wins" :
      (o.winner === null ? "Game over" : (s.seats[o.winner] || "Seat " + o.winner) + " wins");
    $("result-text").textContent = o.reason;
  }

  function renderSeats(s) {
    const turn = s.prompt ? s.prompt.seat : null;
    fill($("seats"), (s.seats || []).map((name, i) => {
      const li = el("li", {class: i === turn && !s.outcome ? "seat turn" : "seat"});
      if (s.game === "connect4" || s.game === "chess") {
        li.appendChild(el("span", {class: "swatch", style: "background:" + (page.colours[i] || "#888")}));
      }
      li.appendChild(document.createTextNode(name + (i === turn && !s.outcome ? " to play" : "")));
      return li;
    }));
  }

  // cells the alarm names ("column 4, row 3" / "e4"), to ring them in red
  function alarmCells(s) {
    return new Set(s.alarm && s.alarm.cells ? s.alarm.cells : []);
  }

  function renderBoard(s) {
    const box = $("board");
    const st = s.state || {};
    if (s.game === "connect4" && st.grid) {
      box.replaceChildren(connect4(st.grid, alarmCells(s)));
      renderDetails($("details"), st, ["grid", "turn"]);
    } else if (st.board || st.fen) {
      box.replaceChildren(chessBoard(st, alarmCells(s)));
      renderDetails($("details"), st, ["board", "fen", "rows", "san_moves", "moves", "turn"]);
    } else {
      // no drawing for this game: its whole state, readable, takes the board's place
      const dl = el("dl", {class: "kv generic"});
      box.replaceChildren(dl);
      renderDetails(dl, st, []);
      renderDetails($("details"), {}, []);
    }
  }

  function connect4(grid, bad) {
    const rows = grid.length, cols = grid[0].length, cell = 100, pad = 20;
    const w = cols * cell + 2 * pad, h = rows * cell + 2 * pad;
    const root = svg("svg", {viewBox: `0 0 ${w} ${h + 44}`, class: "c4", role: "img",
                             "aria-label": "Connect 4 grid"});
    svg("rect", {x: 0, y: 0, width: w, height: h, rx: 22, class: "c4-frame"}, root);
    const active = canMove();
    grid.forEach((line, i) => line.forEach((label, c) => {
      const row = rows - i;  // rows counted from 1 at the bottom, as in the notation
      const name = `column ${c + 1}, row ${row}`;
      const cx = pad + c * cell + cell / 2, cy = pad + i * cell + cell / 2;
      // an empty hole under a blocker cannot be reached until the blocker goes
      const dead = label === "empty" && grid.slice(0, i).some((above) => above[c] === "blocker");
      const g = svg("g", {"data-cell": `${c + 1},${row}`, "data-label": label,
                          class: "c4-cell" + (bad.has(name) ? " bad" : "") + (dead ? " dead" : "")}, root);
      titled(g, name + ": " + (dead ? "dead hole (under a blocker)" : describeHole(label)));
      svg("circle", {cx, cy, r: 40, class: "hole"}, g);
      if (label === "p0" || label === "p1") {
        const colour = page.colours[label === "p0" ? 0 : 1];
        svg("circle", {cx, cy, r: 40, fill: colour, class: "chip"}, g);
        svg("circle", {cx, cy, r: 28, fill: "none", class: "chip-ring"}, g);
      } else if (label === "blocker") {
        svg("ellipse", {cx, cy, rx: 44, ry: 25, class: "blocker"}, g);
      }
    }));
    for (let c = 0; c < cols; c++) {
      const x = pad + c * cell;
      svg("text", {x: x + cell / 2, y: h + 32, class: "c4-label"}, root).textContent = c + 1;
      if (active) {
        const hit = svg("rect", {x, y: 0, width: cell, height: h + 44, class: "col-hit",
                                 "data-column": c + 1}, root);
        titled(hit, `drop a chip in column ${c + 1}`);
        hit.addEventListener("click", () => play(String(c + 1)));
      }
    }
    return root;
  }

  function describeHole(label) {
    const names = page.snap.seats || [];
    if (label === "p0") return (names[0] || "first player") + "'s chip";
    if (label === "p1") return (names[1] || "second player") + "'s chip";
    return label;
  }

  // Mario chess names by piece letter: [Mario's team (White), Bowser's team (Black)]
  const CHESS_NAMES = {
    k: ["King Mario", "King Bowser"], q: ["Queen Luigi", "Queen Bowser Jr."],
    b: ["Bishop Peach / Daisy", "Bishop Magikoopa"], n: ["Knight Yoshi", "Knight Birdo"],
    r: ["Rook Toad", "Rook Goomba"], p: ["Pawn Coin", "Pawn Green Shell"],
  };

  function chessBoard(st, bad) {
    const placement = (st.board || st.fen).split(" ")[0];
    const toMove = st.fen ? st.fen.split(" ")[1] : null;
    const pieces = {};  // square name -> FEN letter
    placement.split("/").forEach((rankText, i) => {
      let file = 0;
      for (const ch of rankText) {
        if (/\d/.test(ch)) { file += Number(ch); continue; }
        pieces["abcdefgh"[file] + (8 - i)] = ch;
        file += 1;
      }
    });
    const size = 80, pad = 24, flip = page.seat === 1, span = 8 * size + 2 * pad;
    const root = svg("svg", {viewBox: `0 0 ${span} ${span}`, class: "chess", role: "img",
                             "aria-label": "chess board"});
    const checkKing = st.check === true && toMove ? (toMove === "w" ? "K" : "k") : null;
    for (let file = 0; file < 8; file++) {
      for (let rank = 1; rank <= 8; rank++) {
        const name = "abcdefgh"[file] + rank, piece = pieces[name] || "";
        const x = pad + (flip ? 7 - file : file) * size, y = pad + (flip ? rank - 1 : 8 - rank) * size;
        const g = svg("g", {"data-square": name, "data-piece": piece}, root);
        let cls = "sq " + ((file + rank) % 2 ? "dark" : "light");  // a1 is dark
        if (bad.has(name)) cls += " bad";
        if (piece && (piece === checkKing || name === st.check)) cls += " check";
        svg("rect", {x, y, width: size, height: size, class: cls}, g);
        if (rank === (flip ? 8 : 1)) {
          svg("text", {x: x + size / 2, y: span - 6, class: "coord"}, root).textContent = "abcdefgh"[file];
        }
        if (file === (flip ? 7 : 0)) {
          svg("text", {x: pad / 2, y: y + size / 2 + 6, class: "coord"}, root).textContent = rank;
        }
        if (!piece) continue;
        const white = piece === piece.toUpperCase();
        titled(g, `${name}: ${CHESS_NAMES[piece.toLowerCase()][white ? 0 : 1]} ` +
                  `(${white ? "Mario's" : "Bowser's"} team)`);
        svg("circle", {cx: x + size / 2, cy: y + size / 2, r: 29, class: "piece",
                       fill: page.colours[white ? 0 : 1]}, g);
        svg("text", {x: x + size / 2, y: y + size / 2 + 1, class: "piece-letter"}, g).textContent =
          piece.toUpperCase();
      }
    }
    return root;
  }

  // state fields the board does not draw, as readable key/values (beside a drawing,
  // fields with no value are left out)
  function renderDetails(list, st, drawn) {
    const items = Object.entries(st).filter(([k, v]) => !drawn.includes(k) && (v !== null || !drawn.length));
    if (list === $("details")) $("details-box").hidden = items.length === 0;
    fill(list, items.flatMap(([k, v]) => kv(k, v, 0)));
  }

  function kv(key, value, depth) {
    return [el("dt", {}, key.replace(/_/g, " ")), valueNode(value, depth)];
  }

  function valueNode(value, depth) {
    if (value === null || value === undefined) return el("dd", {}, "-");
    if (typeof value !== "object") return el("dd", {}, String(value));
    const isList = Array.isArray(value);
    if (isList && value.every((v) => v === null || typeof v !== "object")) {
      if (value.join(", ").length <= 40) return el("dd", {}, value.length ? value.join(", ") : "none");
      const dd = el("dd", {}), lines = el("ol", {class: "lines"});  // long items: one a line
      for (const v of value) lines.appendChild(el("li", {}, String(v)));
      dd.appendChild(lines);
      return dd;
    }
    const dd = el("dd", {});
    if (depth >= 3) { dd.appendChild(el("pre", {}, JSON.stringify(value, null, 1))); return dd; }
    const inner = el("dl", {class: "kv nested"});
    for (const [k, v] of Object.entries(value)) inner.append(...kv(isList ? "#" + (Number(k) + 1) : k, v, depth + 1));
    dd.appendChild(inner);
    return dd;
  }

  // The prompt's options, plus for chess the claims a player makes at the table.
  function renderChoices(s) {
    const st = s.state || {};
    let options = s.prompt && !s.outcome ? s.prompt.options || [] : [];
    if (s.game === "chess" && !s.outcome) {
      const extra = [];
      if (st.promotion_square) extra.push("promote q", "promote r", "promote b", "promote n");
      if (st.claimable) extra.push("claim draw");
      if (st.draw_offer) extra.push("accept draw");
      else extra.push("offer draw");
      extra.push("resign");
      options = options.concat(extra.filter((o) => !options.includes(o)));
    }
    const active = canMove();
    fill($("choices"), options.map((text) => {
      const b = el("button", {type: "button", class: "choice"}, text);
      b.disabled = !active;
      b.addEventListener("click", () => play(text));
      return b;
    }));
  }

  function renderMoves(s) {
    const st = s.state || {};
    let items = Array.isArray(st.san_moves) ? st.san_moves : s.moves || [];
    if (s.game === "chess") {  // "e4 e5" pairs, numbered by the list
      const pairs = [];
      for (let i = 0; i < items.length; i += 2) pairs.push(items.slice(i, i + 2).join("  "));
      items = pairs;
    }
    const list = $("moves");
    fill(list, items.map((m) => el("li", {}, m)));
    list.scrollTop = list.scrollHeight;
  }

  function lastRoll() {
    if (page.lastRoll) return page.lastRoll;
    const rolls = (page.snap.moves || []).filter((m) => /^roll\b/i.test(m));
    return rolls.length ? rolls[rolls.length - 1].replace(/^roll\s*/i, "") : null;
  }

  function renderStatus() {
    const st = page.status || {};
    const rows = [["Camera", st.camera || "unknown"], ["Die module", st.die_module || "unknown"]];
    const roll = lastRoll();
    if (roll) rows.push(["Last roll", roll]);
    if (page.notice) rows.push(["Notice", page.notice]);
    for (const note of st.notes || []) rows.push(["Note", note]);
    fill($("status"), rows.flatMap(([k, v]) => {
      let shown = v;
      if (k === "Die module") {
        if (/^(down|disconnected|lost)$/i.test(v)) shown = "die module disconnected";
        else if (v === "up") shown = "connected";
      }
      const dd = el("dd", {}, shown);
      if (/disconnect|down|lost|missing|error|fail/i.test(shown)) dd.className = "warn";
      return [el("dt", {}, k), dd];
    }));
  }

  function renderRulings(s) {
    const rulings = s.rulings || [];
    $("rulings-box").hidden = rulings.length === 0;
    fill($("rulings"), rulings.map((r) => el("li", {title: r.key + " = " + JSON.stringify(r.value)}, r.text)));
  }

  // --- keeping current ------------------------------------------------------------
  let fetching = false, again = false;

  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      do {
        again = false;
        let url = "/api/state";
        if (page.seat !== null) url += `?seat=${page.seat}&token=${encodeURIComponent(page.seatToken)}`;
        const reply = await fetch(url, {cache: "no-store"});
        if (reply.status === 403 && page.seat !== null) {
          // player links belong to one game: a new game has new ones
          page.seatToken = null;
          page.seat = null;
          const you = document.querySelector(".you");
          if (you) {
            you.className = "you error";
            you.textContent = "A new game has started and this player link has expired: ask for " +
              "the new one. Until then this page shows the game to watch.";
          }
          again = true;
          continue;
        }
        if (!reply.ok) break;
        page.snap = await reply.json();
        if (page.snap.alarm) page.banner = page.snap.alarm.reason;
        render();
      } while (again);
    } catch (err) {
      setLive(false);
    } finally {
      fetching = false;
    }
  }

  async function refreshStatus() {
    try {
      const reply = await fetch("/api/status", {cache: "no-store"});
      if (reply.ok) { page.status = await reply.json(); renderStatus(); }
    } catch (err) { /* the stream's error handler shows the lost connection */ }
  }

  function apply(event) {
    page.events += 1;
    switch (event.type) {
      case "illegal":
        page.banner = event.reason || "illegal move";
        break;
      case "restored": case "move": case "undo": case "game_started":
        page.banner = null;
        page.notice = null;
        if (event.type === "game_started") page.lastRoll = null;
        break;
      case "roll":
        page.lastRoll = event.notation || event.text || event.result || null;
        break;
      case "link":
        refreshStatus();
        return;
      case "notice":
        page.notice = event.text || null;
        renderStatus();
        return;
      default:
        break;
    }
    renderBanner();
    refresh();
  }

  function setLive(on, text) {
    const live = $("live");
    live.textContent = text || (on ? "live" : "reconnecting");
    live.className = on ? "live on" : "live off";
  }

  function connect() {
    const source = new EventSource("/events");
    source.onopen = () => { setLive(true); refresh(); refreshStatus(); };
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) { setLive(false); return; }
      // refused (too many open pages) or the server is gone: the browser gives up, so
      // try again later; reloading the page also shows the game as it is now
      setLive(false, "not live: reload to update");
      setTimeout(connect, 30000);
    };
    source.onmessage = (m) => {
      let event;
      try { event = JSON.parse(m.data); } catch (err) { return; }
      apply(event);
    };
  }

  // --- the controls ---------------------------------------------------------------
  async function useAdminToken(candidate) {
    const reply = await fetch("/api/player-links", {headers: {Authorization: "Bearer " + candidate}})
      .catch(() => null);
    const ok = Boolean(reply && reply.ok);
    $("admin-state").textContent = ok ? "Admin controls are on for this browser." :
      (reply ? "That is not the admin token." : "The referee cannot be reached.");
    if (!ok) {
      $("admin-tools").hidden = true;
      return;
    }
    page.adminToken = candidate;
    localStorage.setItem(TOKEN_KEY, candidate);
    const links = await reply.json();
    fill($("player-links"), links.map((l) => {
      const li = el("li", {}, l.name + ": ");
      li.appendChild(el("a", {href: l.url}, l.url));
      return li;
    }));
    await loadCatalogue();
    $("admin-tools").hidden = false;
    render();
  }

  let catalogue = [];
  async function loadCatalogue() {
    if (!catalogue.length) {
      const reply = await fetch("/api/catalogue").catch(() => null);
      catalogue = reply && reply.ok ? await reply.json() : [];
      fill($("ng-game"), catalogue.map((g) => el("option", {value: g.game}, g.title)));
    }
    $("ng-game").value = page.snap.game || (catalogue[0] && catalogue[0].game);
    fillVariants();
  }

  function fillVariants() {
    const game = catalogue.find((g) => g.game === $("ng-game").value);
    fill($("ng-variant"), (game ? game.variants : []).map((v) => el("option", {value: v}, v)));
    if (game && page.snap.game === game.game) $("ng-variant").value = page.snap.variant;
  }

  function adminResult(r) {
    $("admin-error").hidden = r.ok;
    $("admin-error").textContent = r.ok ? "" : r.error;
  }

  async function loadRecords() {
    const reply = await fetch("/api/games").catch(() => null);
    if (!reply || !reply.ok) return;
    const games = await reply.json();
    fill($("records-list"), games.slice().reverse().map((g) => {
      const li = el("li", {}, `#${g.id} ${g.game} (${g.variant}): ${g.result || "in play"} `);
      li.appendChild(el("a", {href: `/api/games/${g.id}/export.json`, download: ""}, "JSON"));
      if (g.game === "chess") {
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("a", {href: `/api/games/${g.id}/export.pgn`, download: ""}, "PGN"));
      }
      return li;
    }));
  }

  function wire() {
    $("move-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("move-text").value.trim();
      if (text) play(text);
    });
    $("token-form").addEventListener("submit", (e) => {
      e.preventDefault();
      useAdminToken($("admin-token").value.trim());
    });
    $("ng-game").addEventListener("change", fillVariants);
    $("new-game-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      adminResult(await post("/api/new-game", {game: $("ng-game").value, variant: $("ng-variant").value}));
      useAdminToken(page.adminToken);  // new game, new player links
    });
    $("undo").addEventListener("click", async () => adminResult(await post("/api/undo")));
    $("records").addEventListener("toggle", () => { if ($("records").open) loadRecords(); });
    if (page.adminToken && page.seat === null) useAdminToken(page.adminToken);
  }

  wire();
  render();
  connect();
})();
