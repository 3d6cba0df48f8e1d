// Super Mario Bros. (1988 board game): the World in play with its path (red spaces as
// circles, yellow ones as squares), each space labelled as the referee's words name it
// ("space 12": the printed boards number no space), blocks and pipes, Mario as a big "M",
// each hazard token as a spiked shape with its first letter; the spaces Mario may go to
// ringed, and their labels, Mario's and the tokens' drawn large where a phone can read
// them (the others come back when the board is tapped to zoom). Beside it each player's
// card in the game's words (coins, cards in hand, lives lost: never the cards).
"use strict";

(function () {
  const {svg, text, titled, root, layout, el, star, playerCard, zoomable} = window.drawKit;

  window.drawings.smb = function (host, snap, opts) {
    const o = opts || {}, st = snap.state || {};
    const data = layout(snap, o, host, () => { try { window.drawings.smb(host, snap, opts); } catch (e) { /* next redraw */ } });
    if (!data || !data.worlds) {
      host.replaceChildren(el("p", {class: "muted drawing-wait"}, T("drawing World {n}...", {n: st.world || ""})));
      if (!data) return;
      throw new Error("the layout has no Worlds");
    }
    const world = data.worlds[String(st.world)];
    if (!world) throw new Error("no layout for World " + st.world);
    const [W, H] = world.size;
    const box = root(W, H, "smb", T("World {n} board", {n: st.world}));
    svg("rect", {x: 0, y: 0, width: W, height: H, class: "smb-sky"}, box);
    svg("rect", {x: 0, y: H - 40, width: W, height: 40, class: "smb-ground"}, box);
    for (const d of world.decor || []) {
      const [x1, y1, x2, y2] = d.rect;
      svg("rect", {x: x1, y: y1, width: x2 - x1, height: y2 - y1, class: "smb-" + d.kind}, box);
    }
    for (const b of world.blocks || []) {
      const [x1, y1, x2, y2] = b.rect;
      svg("rect", {x: x1, y: y1, width: x2 - x1, height: y2 - y1, class: "smb-block"}, box);
      if (!o.small) text(box, (x1 + x2) / 2, (y1 + y2) / 2 + 8, b.kind === "question" ? "?" : "$", "smb-block-mark");
    }
    const at = {};
    for (const s of world.spaces) at[s.id] = s;
    for (const s of world.spaces) {
      for (const n of s.next || []) {
        if (!at[n]) continue;
        svg("line", {x1: s.at[0], y1: s.at[1], x2: at[n].at[0], y2: at[n].at[1], class: "smb-path"}, box);
      }
    }
    const alarm = o.alarm || {}, bad = new Set((alarm.cells || []).map((name) => idOf(world, name)));
    const targets = new Set(st.targets || []);
    const tokens = new Set((st.hazard_tokens || []).map((t) => t.space));
    const big = new Set([...targets, ...tokens, ...bad, st.mario]);  // the spaces that matter now
    const labels = svg("g", {class: "smb-labels"});
    for (const s of world.spaces) {
      const [x, y] = s.at, r = 13;
      const g = svg("g", {class: "smb-space " + s.colour + (targets.has(s.id) ? " target" : ""), "data-space": s.id}, box);
      if (s.colour === "yellow") svg("rect", {x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 3}, g);
      else svg("circle", {cx: x, cy: y, r}, g);
      if (targets.has(s.id)) svg("circle", {cx: x, cy: y, r: r + 6, class: "smb-target-ring"}, g);
      if (bad.has(s.id)) svg("rect", {x: x - r - 7, y: y - r - 7, width: 2 * r + 14, height: 2 * r + 14, class: "bad-box"}, g);
      titled(g, s.name + (s.colour !== "none" ? ", " + s.colour : "") + (targets.has(s.id) ? " " + T("(Mario may go here)") : ""));
      if (!o.small) {
        // the label as the words name the space: large under the spaces that matter now
        const words = s.label || s.name, half = (big.has(s.id) ? 24 : 13) * 0.33 * words.length + 3;
        const label = text(labels, Math.min(Math.max(x, half), W - half), big.has(s.id) ? y + r + 25 : y + 5, words,
                           big.has(s.id) ? "smb-label big" : "smb-label", {"data-label": words});
        if (s.id === st.mario) label.classList.add("mario-here");
      }
      if (targets.has(s.id) && o.play && !o.small) {  // tap a ringed space to move Mario there
        g.classList.add("tap");
        g.addEventListener("click", (ev) => { ev.preventDefault(); o.play("move " + s.id); });
      }
    }
    for (const t of st.hazard_tokens || []) {
      const s = at[t.space];
      if (!s) continue;
      const [x, y] = s.at;
      const g = svg("g", {class: "smb-hazard", "data-hazard": t.kind}, box);
      svg("polygon", {points: star(x, y - 24, 19, 11, 6)}, g);
      text(g, x, y - 17, (t.name || t.kind)[0].toUpperCase(), "smb-hazard-mark");
      titled(g, `a ${t.name || t.kind} token on ${t.space_name || s.name}`);
    }
    const m = at[st.mario];
    if (m) {
      const g = svg("g", {class: "smb-mario", "data-mario": st.mario}, box);
      svg("circle", {cx: m.at[0], cy: m.at[1] - 30, r: 19}, g);
      text(g, m.at[0], m.at[1] - 22, "M", "smb-mario-mark");
      titled(g, T("Mario on {space}", {space: m.name}));
    }
    for (const [name, label] of Object.entries(alarm.seen || {})) {
      const s = at[idOf(world, name)];
      if (!s || label === "empty") continue;
      const g = svg("g", {class: "faded", "data-seen": label}, box);
      svg("circle", {cx: s.at[0], cy: s.at[1] - 30, r: 19, class: label === "mario" ? "smb-mario-ghost" : "smb-hazard-ghost"}, g);
      text(g, s.at[0], s.at[1] - 22, label === "mario" ? "M" : "!", "smb-mario-mark");
    }
    box.appendChild(labels);  // over everything: a label is never hidden under a token
    if (o.small) { host.replaceChildren(box); return; }
    text(box, 12, 30, T("World {n}", {n: st.world}) + (st.bowser_phase ? " - " + T("King Bowser") : ""), "smb-title", {"text-anchor": "start"});
    // the players' cards (coins, lives) first: in view on a laptop's screen too
    const list = el("ul", {class: "cards-row"});
    (snap.seats || []).forEach((name, seat) => list.appendChild(playerCard(snap, seat, name, (st.seat_words || [])[seat], o)));
    const parts = [list, box, zoomable(box, "smb", W, H)];
    parts.push(el("p", {class: "legend"}, T("\u25CF red space, \u25A0 yellow space, numbered as the referee names them; M Mario; a spiked star is a hazard token (its first letter); the ringed spaces are where Mario may go.")));
    if (Array.isArray(st.hand) && o.seat !== null && o.seat !== undefined) {
      parts.push(el("p", {class: "secret-card"}, T("Your cards (only on your phone): {cards}", {cards: st.hand.join(", ") || T("none")})));
    }
    host.replaceChildren(...parts);
  };

  // a space named in an alarm ("space 12 on the pipe top") -> its id, by the names the
  // layout gives (a bare id stays as it is)
  function idOf(world, name) {
    const s = world.spaces.find((x) => x.name === name || x.id === name);
    return s ? s.id : String(name);
  }
})();
