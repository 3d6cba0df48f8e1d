// The status page. It draws the referee's snapshot (the JSON of /api/state) and keeps
// it current from the event stream at /events: each event that changes the game makes
// the page fetch the snapshot again, so the page never has to replay rules itself.
// The board is drawn by web/static/draw/<game>.js (window.drawings); a drawing that
// throws shows a small note in its place and never stops the page or the stream.
// Plain JavaScript with no build step: the Pi serves it offline.
"use strict";

(function () {
  const initial = JSON.parse(document.getElementById("initial").textContent);
  const TOKEN_KEY = "referee-admin-token";
  const SOUND_KEY = "referee-sound";
  const RESTORED_MS = 5000;  // how long "board restored" stays up

  const page = {
    snap: initial.snapshot,
    status: initial.status,
    colours: initial.colours,
    seat: initial.seat,            // this phone's seat, on a player link
    seatToken: initial.token,
    table: Boolean(initial.table), // the TV's full-screen table mode
    adminToken: localStorage.getItem(TOKEN_KEY) || "",
    alarm: initial.snapshot.alarm || null,  // the standing camera alarm (who/fix/seen or reason/cells)
    doubt: initial.snapshot.doubt || null,
    restoredUntil: 0,
    notice: null,
    drawError: null,
    events: 0,                     // events received, for a person checking the stream
    clockAt: performance.now(),    // when the snapshot's clock was read (the running side counts down from it)
  };
  window.referee = page;

  const $ = (id) => document.getElementById(id);

  const el = window.drawKit.el;

  function fill(list, items) {
    list.replaceChildren(...items);
  }

  // --- who may act ----------------------------------------------------------------
  function token() {
    return page.seat !== null ? page.seatToken : page.adminToken;
  }

  function canMove() {
    const s = page.snap;
    if (!s.game || s.outcome || page.table) return false;
    if (page.seat !== null) return s.prompt && s.prompt.seat === page.seat;
    return Boolean(page.adminToken);
  }

  // Typing is open to every seated player while the game runs: some actions are made out
  // of turn (a hazard card, an auction bid, a trade offer, the removal after a top-row
  // drop) and the referee says who may act; taps and choice buttons follow the turn.
  function canType() {
    const s = page.snap;
    if (!s.game || s.outcome || page.table) return false;
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
      return {ok: false, error: T("the referee cannot be reached ({why})", {why: err.message})};
    }
    const body = await reply.json().catch(() => ({}));
    return {ok: reply.ok, error: body.error || (reply.ok ? null : reply.status + " " + reply.statusText)};
  }

  // A move typed or tapped here: the referee's answer shows on this phone only (a typo
  // is nobody else's business; the big banner is for what the camera sees). A tap (a
  // doubt's reading, a choice, a space) names the position it answers: if the camera
  // has recorded a move since, the referee refuses it instead of entering it twice.
  async function play(text, typed) {
    const out = $("move-error");
    const r = await post("/api/move", typed ? {text} : {text, position: page.snap.position});
    out.hidden = r.ok;
    out.textContent = r.ok ? "" : "\u26A0 " + T("Not accepted: {why}", {why: r.error});
    if (r.ok) $("move-text").value = "";
  }

  function clearRefusal() {
    $("move-error").hidden = true;
    $("move-error").textContent = "";
  }

  // --- drawing --------------------------------------------------------------------
  function render() {
    const s = page.snap;
    $("title").textContent = s.title || T("No game running");
    $("variant").textContent = s.variant_title || s.variant || "";
    document.title = (s.title || T("Tabletop Referee")) + " - " + T("Tabletop Referee");
    renderBanner();
    renderDoubt();
    renderResult(s);
    $("prompt").textContent = s.prompt ? s.prompt.text :
      T("No game is running. Start one from the referee controls.");
    if (page.seat !== null && $("you")) $("you").textContent = (s.seats || [])[page.seat] || "";
    renderSeats(s);
    renderClocks();
    renderChoices(s);
    $("move-form").hidden = !canType();
    $("move-text").placeholder = (initial.games[s.game] || {}).example || T("a move in the game's notation");
    renderBoard(s);
    renderMoves();
    renderNotice();
    renderStatus();
    renderRulings(s);
    renderCamera();
  }

  // A notice (the die module's, a correction of what the camera read) under the last
  // move until the next move, and in the referee's status.
  function renderNotice() {
    $("notice").hidden = !page.notice;
    $("notice").textContent = page.notice ? "\u2139 " + capital(page.notice) : "";
  }

  function capital(text) {
    return String(text).charAt(0).toUpperCase() + String(text).slice(1);
  }

  // "Luigi: take the chip out of column 5, row 4" when the referee names who and how;
  // the reason alone (older referees) otherwise.
  function alarmWords(a) {
    if (!a) return {who: "", fix: "", why: ""};
    const fix = a.fix || a.reason || T("illegal move");
    return {who: a.who ? a.who + ":" : "", fix, why: a.fix && a.reason ? a.reason : ""};
  }

  function renderBanner() {
    const a = page.alarm, words = alarmWords(a);
    $("alarm").hidden = !a;
    $("alarm-who").textContent = words.who;
    $("alarm-text").textContent = words.fix;
    $("alarm-why").textContent = words.why;
    $("restored").hidden = Boolean(a) || Date.now() > page.restoredUntil;
  }

  function renderDoubt() {
    const d = page.doubt;
    $("doubt").hidden = !d;
    if (!d) return;
    $("doubt-text").textContent = d.text || T("I can't tell what moved.");
    // the next views settle a doubt by themselves; a tap is a shortcut for whoever may
    // enter moves (a watcher gets no buttons)
    fill($("doubt-choices"), canType() ? (d.candidates || []).map((c) => {
      const b = el("button", {type: "button", class: "choice", "data-notation": c.notation}, c.text || c.notation);
      b.addEventListener("click", () => play(c.notation));
      return b;
    }) : []);
    $("doubt-note").hidden = !canType();
  }

  function renderResult(s) {
    const o = s.outcome;
    $("result").hidden = !o;
    if (!o) return;
    $("result-head").textContent = "\u2691 " + (o.winner_name ? T("{name} wins", {name: o.winner_name}) :
      (o.winner === null ? T("Game over") : T("{name} wins", {name: s.seats[o.winner] || T("Seat {n}", {n: o.winner})})));
    $("result-text").textContent = o.reason;
  }

  // The seat chips of the games whose drawing marks a seat (`draw.seatMark`, the
  // two-player games; the others draw a card per player under the board): whose turn
  // from the prompt alone, and the game's words for each seat (Connect 4: whether the
  // blocker is still to play).
  function renderSeats(s) {
    const turn = window.drawKit.toPlay(s);
    const words = (s.state && s.state.seat_words) || [];
    const draw = s.game ? window.drawings[s.game] : null;
    const mark = draw && draw.seatMark;
    fill($("seats"), mark ? (s.seats || []).map((name, i) => {
      const mine = i === page.seat;
      const li = el("li", {class: "seat" + (i === turn ? " turn" : "") + (mine ? " mine" : ""), "data-seat": i});
      li.appendChild(el("span", {class: "swatch", style: "background:" + (page.colours[i] || "#888")},
                        mark(name, i)));
      li.appendChild(document.createTextNode(name + (mine ? " " + T("(you)") : "") + (i === turn ? " \u25B6 " + T("to play") : "")));
      if (words[i]) li.appendChild(el("small", {class: "seat-words"}, words[i]));
      return li;
    }) : []);
  }

  // The chess clock (the snapshot's `clock`, controller/clock.py): each side's time left,
  // the running side counted down here between snapshots (each event brings a new one).
  function clockText(seconds) {
    const s = Math.max(0, seconds);
    if (s < 20) return (Math.floor(s * 10) / 10).toFixed(1);
    const whole = Math.floor(s), h = Math.floor(whole / 3600), m = Math.floor(whole % 3600 / 60), sec = whole % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return h ? h + ":" + pad(m) + ":" + pad(sec) : m + ":" + pad(sec);
  }

  function renderClocks() {
    const c = page.snap.clock;
    $("clocks").hidden = !c;
    if (!c) return;
    const gone = (performance.now() - page.clockAt) / 1000;
    const seats = page.snap.seats || [];
    document.querySelectorAll("#clocks .clock").forEach((box) => {
      const i = Number(box.dataset.seat);
      const left = c.left[i] - (c.running === i ? gone : 0);
      box.classList.toggle("running", c.running === i);
      box.classList.toggle("low", left <= c.low[i]);
      box.classList.toggle("flagged", left <= 0);
      box.querySelector(".clock-name").textContent = seats[i] || "";
      box.title = (seats[i] || "") + (c.running === i ? ": to move, clock running" : "");
      const digits = box.querySelector(".clock-time");
      digits.textContent = clockText(left);
      digits.classList.toggle("long", digits.textContent.length > 5);
    });
    $("clock-note").textContent = c.control + (c.stopped ? ": " + c.stopped : "");
  }
  setInterval(() => { if (page.snap.clock && page.snap.clock.running !== null) renderClocks(); }, 100);

  // A doubt's cells are marked like an alarm's, in the doubt's own colour (the board's
  // "doubting" class): the players see where the camera hesitates.
  function drawOpts(small) {
    const a = page.alarm || (page.doubt ? {cells: page.doubt.cells} : null);
    return {small, seat: page.seat, colours: page.colours,
            alarm: a ? {cells: a.cells || [], seen: a.seen || {}} : null,
            play: canMove() ? play : null};
  }

  function renderBoard(s) {
    const box = $("board");
    const draw = s.game ? window.drawings[s.game] : null;
    page.drawError = null;
    if (!s.game) { box.replaceChildren(); return; }
    if (!draw) {
      const dl = el("dl", {class: "kv generic"});
      for (const [k, v] of Object.entries(s.state || {})) dl.append(el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, JSON.stringify(v)));
      box.replaceChildren(dl);
      return;
    }
    box.classList.toggle("doubting", !page.alarm && Boolean(page.doubt));
    try {
      draw(box, s, drawOpts(false));
      window.drawKit.legible(box);
      watchSize(box);
    } catch (err) {
      // one faulty drawing must not take the page or the stream with it: say so, small
      page.drawError = String(err && err.message || err);
      console.warn("drawing " + s.game + " failed:", err);
      box.replaceChildren(el("p", {class: "draw-error"}, "\u26A0 " + T("The board cannot be drawn ({why}); the game goes on: see the prompt and the moves.", {why: page.drawError})));
    }
  }

  // A turned phone, a resized window, or the TV mode's board growing or shrinking as the
  // texts around it change: the labels that fit change with the drawing's size.
  const sizes = window.ResizeObserver ? new ResizeObserver(() => window.drawKit.legible($("board"))) : null;
  function watchSize(box) {
    if (!sizes) return;
    sizes.disconnect();
    for (const drawing of box.querySelectorAll("svg.drawing")) sizes.observe(drawing);
  }

  // The prompt's options and the claims it allows (a chess draw offer, a resignation):
  // what the page offers comes from the game's prompt alone.
  function renderChoices(s) {
    const p = s.prompt && !s.outcome ? s.prompt : {};
    const actors = p.actors || {};
    // a player's phone offers only what is that player's to do (the referee says whose
    // each option is): the side that offered a draw is not offered to accept it
    const mine = (o) => page.seat === null || !(o in actors) || actors[o] === page.seat;
    const anytime = (p.anytime || []).filter(mine);
    const options = [...(p.options || []), ...(p.claims || []), ...anytime]
      .filter((o, i, all) => all.indexOf(o) === i);
    const active = canMove();
    const words = p.words || {};
    const who = page.seat !== null ? page.seat : p.seat;
    const name = who != null ? (s.seats || [])[who] : null;
    // a watcher gets no player's buttons; a player out of turn keeps what a player may
    // do then (the prompt's `anytime`), the rest greyed until their turn
    fill($("choices"), page.table || !canType() ? [] : options.map((text) => {
      // the option in words, without the name of the player it is asked of
      let label = words[text] || text;
      if (name && label.startsWith(name + " ")) label = label.slice(name.length + 1);
      const b = el("button", {type: "button", class: "choice", "data-notation": text, title: text}, label);
      b.disabled = !active && !anytime.includes(text);
      b.addEventListener("click", () => play(text));
      return b;
    }));
  }

  // The record (web/static/moves.js, shared with the hall) and the last move under the
  // prompt; the notation shows on hover and on a tap.
  function renderMoves() {
    const last = window.moveRecord.fill($("moves"), page.snap);
    $("last-move").hidden = !last;
    $("last-move").classList.toggle("unsure", Boolean(last && last.unsure));
    $("last-move-text").textContent = last ? last.text : "";
    $("last-move-text").title = last ? (last.unsure ? window.moveRecord.UNSURE : last.notation) : "";
  }

  // the last roll in the game's words ("Mario's Cap rolls 4 (black) and 4 (red)")
  function lastRoll() {
    const rolls = (page.snap.record || []).filter((m) => !m.unsure && /^roll\b/i.test(m.notation || ""));
    return rolls.length ? String(rolls[rolls.length - 1].text).split(": ")[0] : null;
  }

  // the camera's and the die module's states as the service says them (vision/watch.py,
  // controller/service.py), in the page's language
  const STATUS_WORDS = {unknown: T("unknown"), off: T("off"), ok: T("ok"), "camera lost": T("camera lost"),
                        "too dark": T("too dark"), frozen: T("frozen"), "no markers in view": T("no markers in view"),
                        "hand over the board": T("hand over the board"),
                        "hand at the board's edge": T("hand at the board's edge")};

  function renderStatus() {
    const st = page.status || {};
    const rows = [["camera", st.camera || "unknown"]];
    if ((initial.games[page.snap.game] || {}).die) rows.push(["die", st.die_module || "unknown"]);
    const roll = lastRoll();
    if (roll) rows.push(["roll", roll]);
    if (st.record && st.record !== "kept") rows.push(["record", st.record]);
    if (page.notice) rows.push(["notice", page.notice]);
    for (const note of st.notes || []) rows.push(["note", note]);
    const heads = {camera: T("Camera"), die: T("Die module"), roll: T("Last roll"), record: T("Record"),
                   notice: T("Notice"), note: T("Note")};
    fill($("status"), rows.flatMap(([k, v]) => {
      // the status's own words are checked in English (the referee's), then shown in the page's language
      const warn = /disconnect|down|lost|missing|error|fail/i.test(v);
      let shown = STATUS_WORDS[v] || v;
      if (k === "die") {
        if (/^(down|disconnected|lost)$/i.test(v)) shown = T("die module disconnected");
        else if (v === "up") shown = T("connected");
      }
      const dd = el("dd", {}, shown);
      if (warn || k === "record") { dd.className = "warn"; dd.textContent = "\u26A0 " + shown; }
      return [el("dt", {}, heads[k]), dd];
    }));
  }

  function renderRulings(s) {
    const rulings = s.rulings || [];
    $("rulings-box").hidden = rulings.length === 0 || page.table;
    fill($("rulings"), rulings.map((r) => el("li", {title: r.key + " = " + JSON.stringify(r.value)}, r.text)));
  }

  // What the camera sees: the latest frame after each event, or the alarm's own frame;
  // asked for only when the status says there is one (the board located).
  let cameraShown = "";
  function renderCamera() {
    const st = page.status || {};
    const on = "picture" in st ? Boolean(st.picture) : Boolean(st.camera && st.camera !== "off");
    $("camera-box").hidden = !on;
    if (!on) return;
    const which = page.alarm ? "alarm" : "live";
    const key = which + ":" + page.events;
    if (key === cameraShown) return;
    cameraShown = key;
    const img = $("camera");
    img.onerror = () => { $("camera-box").hidden = true; };
    img.src = "/api/camera.jpg?which=" + which + "&n=" + page.events;
    // its words over it as text (drawn into the small picture they were 7 px on a phone)
    fetch("/api/camera-caption?which=" + which, {cache: "no-store"})
      .then((r) => (r.ok ? r.json() : {caption: ""}))
      .then((c) => { $("camera-words").textContent = capital(c.caption || ""); })
      .catch(() => {});
    $("camera-caption").textContent = page.alarm ? "\u26A0 " + T("The picture that raised the alarm") : T("The camera's latest picture");
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
        let reply, snap;
        try {
          reply = await fetch(url, {cache: "no-store"});
          if (reply.status === 403 && page.seat !== null) { dropSeat(); again = true; continue; }
          if (!reply.ok) break;
          snap = await reply.json();
          const sr = await fetch("/api/status", {cache: "no-store"});
          if (sr.ok) page.status = await sr.json();
        } catch (err) {
          setLive(false);  // the server is out of reach: the stream will say when it is back
          break;
        }
        page.snap = snap;
        page.clockAt = performance.now();
        // the snapshot's alarm is the standing one; the event may have said more of it.
        // A snapshot asked for before the latest events (`again`) may predate an alarm
        // they raised or cleared: the events' word stands until the next snapshot (else
        // the banner blinks off and on)
        if (!again) {
          const same = snap.alarm && page.alarm && page.alarm.reason === snap.alarm.reason;
          page.alarm = snap.alarm ? Object.assign({}, same ? page.alarm : {}, snap.alarm) : null;
          if ("doubt" in snap) page.doubt = snap.doubt;  // a referee without doubts leaves the event's
        }
        render();  // a drawing's fault is caught inside and never marks the stream down
      } while (again);
    } finally {
      fetching = false;
    }
  }

  function dropSeat() {
    // a link that no longer opens a seat (a game with fewer players): watch instead
    page.seatToken = null;
    page.seat = null;
    const you = document.querySelector(".you");
    if (you) {
      you.className = "you error";
      you.textContent = "\u26A0 " + T("This player link has expired (this game has no such seat): ask for the new one. Until then this page shows the game to watch.");
    }
  }

  async function refreshStatus() {
    try {
      const reply = await fetch("/api/status", {cache: "no-store"});
      if (reply.ok) { page.status = await reply.json(); renderStatus(); renderCamera(); }
    } catch (err) { /* the stream's error handler shows the lost connection */ }
  }

  function apply(event) {
    page.events += 1;
    if (event.clears_alarm) {  // the board is as the game says again (the event says so)
      if (page.alarm && event.type !== "restored") page.restoredUntil = Date.now() + RESTORED_MS;
      page.alarm = null;
    }
    switch (event.type) {
      case "illegal":
        // a typed mistake is answered to the phone that typed it (the HTTP answer)
        if (!event.camera_alarm) return;
        page.alarm = event;
        break;
      case "restored":
        page.restoredUntil = Date.now() + RESTORED_MS;
        setTimeout(renderBanner, RESTORED_MS + 50);
        break;
      case "doubt":
        page.doubt = event;
        break;
      case "doubt_cleared":
        page.doubt = null;
        break;
      case "move": case "undo": case "game_started":
        page.doubt = null;
        page.notice = null;
        clearRefusal();  // an old "Not accepted" was about a turn that is over
        break;
      case "said":  // the voice's words (controller/voice.py), played here when sound is on
        if ($("sound").checked) new Audio("/speech/" + encodeURIComponent(event.wav)).play().catch(() => {});
        return;
      case "repeat":
        return;
      case "link":
        refreshStatus();
        return;
      case "notice":
        page.notice = event.text || null;
        renderStatus();
        renderNotice();
        return;
      case "record":  // the journal cannot keep the record (a full disk, a deleted file), or keeps it again
        page.notice = event.text || null;
        renderNotice();
        refreshStatus();
        return;
      case "corrected":  // the camera took back a provisional reading: said once, then the state
      case "recovered":  // plies found late after the camera lost the board: said once
      case "position_set":  // the admin accepted the board as it stands
        page.notice = event.text || null;
        break;
      case "clock":  // a low-time warning, said once
        page.notice = event.text || null;
        break;
      default:
        break;
    }
    renderBanner();
    refresh();
  }

  function setLive(on, text) {
    const live = $("live");
    live.textContent = text || (on ? "\u25CF " + T("live") : "\u25CB " + T("reconnecting"));
    live.className = on ? "live on" : "live off";
  }

  function connect() {
    const source = new EventSource("/events");
    source.onopen = () => { setLive(true); refresh(); refreshStatus(); };
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED) { setLive(false); return; }
      // refused (too many open pages) or the server is gone: the browser gives up, so
      // try again later; reloading the page also shows the game as it is now
      setLive(false, "\u25CB " + T("not live: reload to update"));
      setTimeout(connect, 30000);
    };
    source.onmessage = (m) => {
      let event;
      try { event = JSON.parse(m.data); } catch (err) { return; }
      setLive(true);  // an event arrived: the stream works, whatever a redraw did
      try { apply(event); } catch (err) { console.warn("event " + event.type + " not shown:", err); }
    };
  }

  // --- the controls ---------------------------------------------------------------
  async function useAdminToken(candidate) {
    const reply = await fetch("/api/player-links", {headers: {Authorization: "Bearer " + candidate}})
      .catch(() => null);
    const ok = Boolean(reply && reply.ok);
    $("admin-state").textContent = ok ? T("Admin controls are on for this browser.") :
      (reply ? T("That is not the admin token.") : T("The referee cannot be reached."));
    if (!ok) {
      $("admin-tools").hidden = true;
      return;
    }
    page.adminToken = candidate;
    localStorage.setItem(TOKEN_KEY, candidate);
    const links = await reply.json();
    fill($("player-links"), links.map((l) => {
      const li = el("li", {class: "link-card"});
      const qr = el("span", {class: "qr", role: "img", "aria-label": T("QR code of {name}'s link", {name: l.name})});
      qr.innerHTML = l.qr_svg;  // segno's SVG, made by the server from the link alone
      li.append(qr, el("strong", {}, l.name), el("a", {href: l.url}, l.url));
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
    $("ng-clock").hidden = !(game && game.clock);  // the games that run a clock (chess)
    if (game && page.snap.game === game.game) $("ng-clock").value = page.snap.clock ? page.snap.clock.control : "";
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
      const li = el("li", {}, `#${g.id} ${g.game} (${g.variant}): ${g.result || T("in play")} `);
      li.appendChild(el("a", {href: `/api/games/${g.id}/export.json`, download: ""}, "JSON"));
      for (const fmt of g.exports || []) {  // the formats of its kind (chess: PGN)
        li.appendChild(document.createTextNode(" "));
        li.appendChild(el("a", {href: `/api/games/${g.id}/export.${fmt}`, download: ""}, fmt.toUpperCase()));
      }
      return li;
    }));
  }

  function wire() {
    $("move-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = $("move-text").value.trim();
      if (text) play(text, true);
    });
    $("token-form").addEventListener("submit", (e) => {
      e.preventDefault();
      useAdminToken($("admin-token").value.trim());
    });
    $("ng-game").addEventListener("change", fillVariants);
    // the voice's words on this phone or TV: off until asked for here, remembered here
    $("sound").checked = localStorage.getItem(SOUND_KEY) === "on";
    $("sound").addEventListener("change", () => localStorage.setItem(SOUND_KEY, $("sound").checked ? "on" : "off"));
    $("say-again").addEventListener("click", () => post("/api/say-again"));
    $("new-game-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const ask = {game: $("ng-game").value, variant: $("ng-variant").value, players: $("ng-players").value};
      if (!$("ng-clock").hidden) ask.clock = $("ng-clock").value.trim() || "off";
      const r = await post("/api/new-game", ask);
      adminResult(r);
      if (r.ok) useAdminToken(page.adminToken);  // a game with other seats has other links
    });
    $("undo").addEventListener("click", async () => adminResult(await post("/api/undo", {position: page.snap.position})));
    $("records").addEventListener("toggle", () => { if ($("records").open) loadRecords(); });
    const full = $("fullscreen");
    if (full) full.addEventListener("click", () => document.documentElement.requestFullscreen().catch(() => {}));
    if (page.adminToken && page.seat === null && !page.table) useAdminToken(page.adminToken);
  }

  wire();
  render();
  connect();
  window.addEventListener("resize", () => window.drawKit.legible($("board")));
})();
