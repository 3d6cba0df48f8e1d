// The hall page: one card per table, the alarm list, one table opened in full.
// It starts from the overview the page carries and follows the hall's event stream
// (/hall/events). A card is drawn by the game's page drawing (static/draw/<game>.js,
// window.drawings[game](el, snapshot, {small: true})) when there is one, else as text.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const initial = JSON.parse($("initial").textContent);
  const tables = new Map(initial.tables.map((t) => [t.table, t]));
  let alarms = initial.alarms.slice();
  let opened = null;
  // the admin token is typed once and kept in this browser, never put in a URL (a URL
  // lands in the history, and a printed one in the system log)
  const TOKEN_KEY = "referee-hall-token";
  let token = localStorage.getItem(TOKEN_KEY) || "";
  let dropped = initial.dropped || {};

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // base: where the drawing fetches the table's board layout (SMB Worlds, the Monopoly ring)
  function draw(into, table, snap, small) {
    into.textContent = "";
    const drawing = window.drawings && snap && window.drawings[snap.game];
    if (drawing) {
      const base = "/tables/" + encodeURIComponent(table);
      try {
        // the table's own chip colours (its state carries them), so a card looks like the table's page
        drawing(into, snap, { small: small, base: base, seat: null, play: null, colours: snap.colours });
        if (into.isConnected) window.drawKit.legible(into);  // a new card: once it is on the page (renderCard)
        return;
      } catch (e) { console.error(e); }
      into.textContent = "";
    }
    const moves = (snap && snap.moves) || [];
    into.appendChild(el("pre", "summary", moves.length ? moves.slice(-8).join(" ") : T("no moves yet")));
  }

  function status(snap) {
    if (!snap || !snap.game) return T("No game running");
    if (snap.outcome) return (snap.outcome.winner_name ? T("{name} wins", {name: snap.outcome.winner_name}) : T("Game over")) +
      ": " + snap.outcome.reason;
    return snap.prompt ? snap.prompt.text : "";
  }

  function card(t) {
    const snap = t.state || {};
    const c = el("article", "card" + (t.online === "offline" ? " offline" : ""));
    c.tabIndex = 0;
    c.dataset.table = t.table;
    const h = el("h3");
    h.appendChild(el("span", "", t.table));
    if (snap.alarm) h.appendChild(el("span", "badge alarm-badge", "illegal move"));
    if (snap.doubt) h.appendChild(el("span", "badge", "in doubt"));
    if (dropped[t.table]) h.appendChild(el("span", "badge dropped", dropped[t.table] + " dropped"));
    h.appendChild(el("span", "badge" + (t.online === "online" ? " on" : ""), t.online || "?"));
    c.appendChild(h);
    c.appendChild(el("div", "muted", (snap.title || "") + (snap.variant ? " (" + snap.variant + ")" : "")));
    c.appendChild(el("div", "players", (snap.seats || []).join(" - ")));
    const thumb = el("div", "thumb");
    c.appendChild(thumb);
    draw(thumb, t.table, snap, true);
    c.appendChild(el("p", "status", status(snap)));
    const n = (snap.moves || []).length;
    const when = t.last_move ? ", the last at " + new Date(t.last_move * 1000).toLocaleTimeString() : "";
    c.appendChild(el("div", "muted", n + (n === 1 ? " move" : " moves") + when));
    c.addEventListener("click", () => open(t.table));
    c.addEventListener("keydown", (e) => { if (e.key === "Enter") open(t.table); });
    return c;
  }

  // One card is redrawn when its table changes (fifty tables report every few seconds).
  function renderCard(name) {
    const cards = $("cards");
    const fresh = card(tables.get(name));
    const old = cards.querySelector('.card[data-table="' + CSS.escape(name) + '"]');
    if (old) {
      old.replaceWith(fresh);
    } else {
      const after = [...cards.children].find((c) => c.dataset.table.localeCompare(name) > 0);
      cards.insertBefore(fresh, after || null);
    }
    if (window.drawKit) window.drawKit.legible(fresh);  // a thumbnail's letters too small for it are not shown
    $("no-tables").hidden = tables.size > 0;
  }

  // Each alarm with who and how to put it right, marked once its table went on from it;
  // a mistake typed on a phone was only refused (nothing to put right on the table).
  function renderAlarms() {
    const list = $("alarms");
    list.textContent = "";
    for (const a of alarms.slice(0, 50)) {
      const camera = a.source === "camera";
      const li = el("li", (camera ? "camera" : "typed") + (a.fixed ? " fixed" : ""));
      li.appendChild(el("strong", "", a.table + ": "));
      const how = camera && a.fix ? (a.who ? a.who + ": " : "") + a.fix + " (" + a.reason + ")" : a.reason;
      li.appendChild(document.createTextNode(how));
      li.appendChild(el("span", "state", camera ? (a.fixed ? " \u2713 put right" : " \u26A0 waiting to be put right")
                                                : " (typed, refused)"));
      li.appendChild(el("span", "muted", " " + new Date(a.t * 1000).toLocaleTimeString()));
      list.appendChild(li);
    }
    $("no-alarms").hidden = alarms.length > 0;
  }

  function renderWarnings(warnings) {
    $("warnings").textContent = "";
    for (const w of warnings) $("warnings").appendChild(el("li", "", w));
    $("warnings").hidden = warnings.length === 0;
  }

  function renderConflicts(conflicts) {
    $("conflicts").textContent = "";
    for (const c of conflicts) {
      const li = el("li");
      li.appendChild(el("strong", "", c.table + " seq " + c.seq + ": "));
      li.appendChild(document.createTextNode("kept " + (c.kept ? describe(c.kept) : "?") + "; refused " + describe(c.refused)));
      $("conflicts").appendChild(li);
    }
    $("conflicts-box").hidden = conflicts.length === 0;
  }

  function renderNotes(notes) {
    $("notes").textContent = "";
    for (const n of notes.slice(-10)) $("notes").appendChild(el("li", "", n));
  }

  function renderRounds(rounds) {
    $("rounds").textContent = "";
    for (const [n, t] of Object.entries(rounds)) {
      const li = el("li", "", T("Round {n} from {time}", {n, time: new Date(t * 1000).toLocaleString(window.pageLang)}) + ": ");
      for (const kind of initial.formats) {  // the formats the games are written in (the registry's)
        const a = el("a", "", kind.toUpperCase() + " ");
        a.href = "/api/hall/export/round-" + n + "." + kind;
        li.appendChild(a);
      }
      $("rounds").appendChild(li);
    }
  }

  // an event of the table's journal in words, for the opened table's event list
  function describe(e, snap) {
    const seats = (snap && snap.seats) || [];
    const who = Number.isInteger(e.seat) && seats[e.seat] ? seats[e.seat] : "";
    const said = (text) => (who && text && !text.startsWith(who) ? who + ": " + text : text);
    switch (e.type) {
      case "move": return said(e.text || e.notation);
      case "illegal": return T("Illegal move") + ": " + (e.fix ? said(e.fix) + " (" + e.reason + ")" : e.reason) +
        (e.source && e.source !== "camera" ? " " + T("(typed, refused)") : "");
      case "restored": return T("Board restored.") + " " + (e.text || T("Play on."));
      case "game_started": return T("New game") + (snap && snap.title ? ": " + snap.title : "") +
        (e.variant && e.variant !== "standard" ? " (" + e.variant + ")" : "");
      case "game_over": return T("Game over") + ": " + e.reason;
      case "undo": return T("Undone: {move}", {move: e.notation});
      case "doubt": return T("Not sure") + ": " + (e.text || "");
      case "doubt_cleared": return T("Settled: {text}", {text: e.text || ""});
      case "corrected": return T("Corrected: {text}", {text: String(e.text || "").replace(/^corrected: /, "")}) +
        (e.retracted && e.retracted.length ? " " + T("(taken back: {plies})", {plies: e.retracted.join(", ")}) : "");
      default: return (e.type.charAt(0).toUpperCase() + e.type.slice(1)).replace(/_/g, " ") + (e.text ? ": " + e.text : "");
    }
  }

  function renderFull(detail) {
    const snap = detail.state || {};
    $("full").hidden = false;
    $("full-title").textContent = detail.table + ": " + (snap.title || T("No game running"));
    $("full-prompt").textContent = status(snap);
    draw($("full-board"), detail.table, snap, false);
    // the plies that stand, in words, as the hall's journal holds them (the server's record)
    window.moveRecord.fill($("full-moves"), Object.assign({}, snap, {record: detail.record || []}));
    $("full-events").textContent = "";
    for (const e of detail.events || []) {
      const li = el("li", "", describe(e, snap));
      if (e.notation) li.title = e.notation;  // as typed, on hover
      $("full-events").appendChild(li);
    }
  }

  async function open(name) {
    opened = name;
    const r = await fetch("/api/hall/tables/" + encodeURIComponent(name));
    if (r.ok && opened === name) renderFull(await r.json());
  }

  $("full-close").addEventListener("click", () => { opened = null; $("full").hidden = true; });

  async function useToken(candidate) {
    const r = await fetch("/api/hall/admin", { headers: { Authorization: "Bearer " + candidate } });
    const ok = r.ok;
    if (ok) { token = candidate; localStorage.setItem(TOKEN_KEY, candidate); }
    $("token-state").textContent = ok ? T("Organiser controls are on in this browser.")
      : ((await r.json()).error || T("That is not the admin token."));
    $("admin").hidden = !ok;
    if (ok) renderRounds(initial.rounds);
  }
  $("token-form").addEventListener("submit", (ev) => { ev.preventDefault(); useToken($("admin-token").value.trim()); });
  if (token) useToken(token);
  $("round-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const r = await fetch("/api/hall/round", {
      method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer " + token },
      body: JSON.stringify({ round: Number($("round-number").value) }),
    });
    const answer = await r.json();
    if (r.ok) renderRounds(answer.rounds); else alert(answer.error);
  });

  for (const name of tables.keys()) renderCard(name);
  $("no-tables").hidden = tables.size > 0;
  renderAlarms();
  renderWarnings(initial.warnings || []);
  renderConflicts(initial.conflicts || []);
  const notes = initial.notes.slice();
  renderNotes(notes);
  const broker = (up) => { $("broker").textContent = initial.broker + (up ? "" : " (not connected: tables may lag)"); };
  broker(initial.connected);

  async function refresh() {
    const r = await fetch("/api/hall");
    if (!r.ok) return;
    const o = await r.json();
    dropped = o.dropped || {};
    renderWarnings(o.warnings || []);
    renderConflicts(o.conflicts || []);
    for (const name of Object.keys(dropped)) if (tables.has(name)) renderCard(name);
  }

  const live = $("live");
  const source = new EventSource("/hall/events");
  source.onopen = () => { live.textContent = "live"; live.className = "live on"; };
  source.onerror = () => { live.textContent = "reconnecting"; live.className = "live off"; };
  source.onmessage = (msg) => {
    const m = JSON.parse(msg.data);
    const t = m.table && (tables.get(m.table) || { table: m.table, online: "", state: null });
    if (m.type === "hall_state") {
      t.state = m.state;
      tables.set(m.table, t);
      renderCard(m.table);
      if (opened === m.table) open(m.table);
    } else if (m.type === "hall_online") {
      t.online = m.online;
      tables.set(m.table, t);
      renderCard(m.table);
    } else if (m.type === "hall_note") {
      notes.push(m.text);
      renderNotes(notes);
      refresh();  // a note comes with a drop, a conflict or a fault: the counts and warnings change
    } else if (m.type === "hall_warnings") {
      renderWarnings(m.warnings);
    } else if (m.type === "hall_link") {
      broker(m.state === "up");
    } else if (m.type === "hall_event" && m.event.type === "move") {
      t.last_move = m.event.t;  // shown with the state that follows it
      tables.set(m.table, t);
    } else if (m.type === "hall_event" && m.event.type === "illegal") {
      alarms.unshift({ ...m.event, table: m.table, fixed: false });
      renderAlarms();
    }
    if (m.type === "hall_event" && m.event.clears_alarm) {  // the hall's receiver asks controller/events.py
      let changed = false;  // the table went on: its standing alarms are put right
      for (const a of alarms) if (a.table === m.table && !a.fixed) { a.fixed = true; changed = true; }
      if (changed) renderAlarms();
    }
  };
})();
