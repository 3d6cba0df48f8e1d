// Super Mario Bros. (1988 board game): the World in play with its path (red spaces as
// circles marked "R", yellow ones as squares marked "Y"), blocks and pipes, Mario as a
// big "M", each hazard token as a spiked shape with its first letter; beside it each
// player's coins, lives lost and the number of cards in hand (never the cards).
"use strict";

(function () {
  const {svg, text, titled, root, layout, el, star} = window.drawKit;

  window.drawings.smb = function (host, snap, opts) {
    const o = opts || {}, st = snap.state || {};
    const data = layout(snap, o, () => { try { window.drawings.smb(host, snap, opts); } catch (e) { /* next redraw */ } });
    const parts = [];
    if (!data || !data.worlds) {
      host.replaceChildren(el("p", {class: "muted drawing-wait"}, "drawing World " + (st.world || "") + "..."));
      if (!data) return;
      throw new Error("the layout has no Worlds");
    }
    const world = data.worlds[String(st.world)];
    if (!world) throw new Error("no layout for World " + st.world);
    const [W, H] = world.size;
    const box = root(W, H, "smb", "World " + st.world + " board");
    svg("rect", {x: 0, y: 0, width: W, height: H, class: "smb-sky"}, box);
    svg("rect", {x: 0, y: H - 40, width: W, height: 40, class: "smb-ground"}, box);
    for (const d of world.decor || []) {
      const [x1, y1, x2, y2] = d.rect;
      svg("rect", {x: x1, y: y1, width: x2 - x1, height: y2 - y1, class: "smb-" + d.kind}, box);
    }
    for (const b of world.blocks || []) {
      const [x1, y1, x2, y2] = b.rect;
      svg("rect", {x: x1, y: y1, width: x2 - x1, height: y2 - y1, class: "smb-block"}, box);
      if (!o.small) text(box, (x1 + x2) / 2, (y1 + y2) / 2 + 7, b.kind === "question" ? "?" : "$", "smb-block-mark");
    }
    const at = {};
    for (const s of world.spaces) at[s.id] = s;
    for (const s of world.spaces) {
      for (const n of s.next || []) {
        if (!at[n]) continue;
        svg("line", {x1: s.at[0], y1: s.at[1], x2: at[n].at[0], y2: at[n].at[1], class: "smb-path"}, box);
      }
    }
    const alarm = o.alarm || {}, bad = new Set((alarm.cells || []).map(idOf));
    const targets = new Set(st.targets || []);
    for (const s of world.spaces) {
      const [x, y] = s.at, r = 13;
      const g = svg("g", {class: "smb-space " + s.colour + (targets.has(s.id) ? " target" : ""), "data-space": s.id}, box);
      if (s.colour === "yellow") svg("rect", {x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 3}, g);
      else svg("circle", {cx: x, cy: y, r}, g);
      if (!o.small) text(g, x, y + 5, s.colour === "red" ? "R" : s.colour === "yellow" ? "Y" : "S", "smb-space-mark");
      if (targets.has(s.id)) svg("circle", {cx: x, cy: y, r: r + 6, class: "smb-target-ring"}, g);
      if (bad.has(s.id)) svg("rect", {x: x - r - 7, y: y - r - 7, width: 2 * r + 14, height: 2 * r + 14, class: "bad-box"}, g);
      titled(g, s.name + (s.colour !== "none" ? ", " + s.colour : "") + (targets.has(s.id) ? " (Mario may go here)" : ""));
      if (targets.has(s.id) && o.play && !o.small) {  // tap a ringed space to move Mario there
        g.classList.add("tap");
        g.addEventListener("click", () => o.play("move " + s.id));
      }
    }
    for (const t of st.hazard_tokens || []) {
      const s = at[t.space];
      if (!s) continue;
      const [x, y] = s.at;
      const g = svg("g", {class: "smb-hazard", "data-hazard": t.kind}, box);
      svg("polygon", {points: star(x, y - 20, 14, 8, 6)}, g);
      text(g, x, y - 15, t.kind[0].toUpperCase(), "smb-hazard-mark");
      titled(g, `a ${t.kind} token on ${s.name}`);
    }
    const m = at[st.mario];
    if (m) {
      const g = svg("g", {class: "smb-mario", "data-mario": st.mario}, box);
      svg("circle", {cx: m.at[0], cy: m.at[1] - 26, r: 16}, g);
      text(g, m.at[0], m.at[1] - 19, "M", "smb-mario-mark");
      titled(g, "Mario on " + m.name);
    }
    for (const [id, label] of Object.entries(alarm.seen || {})) {
      const s = at[idOf(id)];
      if (!s || label === "empty") continue;
      const g = svg("g", {class: "faded", "data-seen": label}, box);
      svg("circle", {cx: s.at[0], cy: s.at[1] - 26, r: 16, class: label === "mario" ? "smb-mario-ghost" : "smb-hazard-ghost"}, g);
      text(g, s.at[0], s.at[1] - 19, label === "mario" ? "M" : "!", "smb-mario-mark");
    }
    if (!o.small) text(box, 12, 26, "World " + st.world + (st.bowser_phase ? " - King Bowser" : ""), "smb-title", {"text-anchor": "start"});
    parts.push(box);
    if (!o.small) {
      const list = el("ul", {class: "cards-row"});
      (snap.seats || []).forEach((name, seat) => {
        const li = el("li", {class: "player-card" + (seat === st.turn && !snap.outcome ? " turn" : "")});
        li.append(el("strong", {}, name),
                  el("span", {}, ` \u25CF ${(st.coins || {})[name] || 0} coins · ${(st.cards || {})[name] || 0} cards in hand · ` +
                                 `lives lost ${(st.lives_lost || {})[name] || 0}`));
        list.appendChild(li);
      });
      parts.push(list);
      if (Array.isArray(st.hand) && o.seat !== null && o.seat !== undefined) {
        parts.push(el("p", {class: "secret-card"}, "Your cards (only on your phone): " + (st.hand.join(", ") || "none")));
      }
    }
    host.replaceChildren(...parts);
  };

  // "the pipe top (w1-12)" -> "w1-12"; a bare id stays as it is
  function idOf(name) {
    const m = /\(([^)]+)\)\s*$/.exec(String(name));
    return m ? m[1] : String(name);
  }
})();
