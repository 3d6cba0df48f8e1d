// Super Mario Labyrinth: the 7x7 maze as tiles with their open passages, each treasure as
// its own large mark (its initials, from the snapshot: "KT" for Koopa Troopa) with a
// legend that names them, the twelve push arrows around it (the one that may not be used
// now crossed out), each pawn as its colour's letter in a shape of its own, coordinates
// a-g and 1-7, the spare tile under the maze; on a player's own phone a card "your next
// treasure" (watchers never get it: the snapshot holds a player's targets only for that
// player's link).
"use strict";

(function () {
  const {svg, text, titled, root, badge, el, playerCard} = window.drawKit;
  const SIZE = 7, T = 80, PAD = 56, FOOT = T + 20;
  const PAWN_FILL = {red: "#d7263d", yellow: "#f2c500", green: "#2e7d32", blue: "#1e63d6"};
  const PAWN_SEAT = {red: 0, yellow: 2, green: 1, blue: 3};  // the kit's shapes: circle, diamond, square, triangle

  function tile(parent, x, y, sides, treasure, small) {
    const g = svg("g", {class: "lab-tile"}, parent);
    svg("rect", {x, y, width: T, height: T, class: "lab-wall"}, g);
    const c = T / 2, w = T * 0.34;
    svg("rect", {x: x + c - w / 2, y: y + c - w / 2, width: w, height: w, class: "lab-path"}, g);
    if (sides.includes("N")) svg("rect", {x: x + c - w / 2, y, width: w, height: c, class: "lab-path"}, g);
    if (sides.includes("S")) svg("rect", {x: x + c - w / 2, y: y + c, width: w, height: c, class: "lab-path"}, g);
    if (sides.includes("W")) svg("rect", {x, y: y + c - w / 2, width: c, height: w, class: "lab-path"}, g);
    if (sides.includes("E")) svg("rect", {x: x + c, y: y + c - w / 2, width: c, height: w, class: "lab-path"}, g);
    if (treasure && !small) {
      svg("circle", {cx: x + c, cy: y + c, r: 22, class: "lab-treasure"}, g);
      text(g, x + c, y + c + 10, treasure.mark, "lab-mark");
    }
    return g;
  }

  window.drawings.labyrinth = function (host, snap, opts) {
    const o = opts || {}, st = snap.state || {};
    if (!Array.isArray(st.rows) || st.rows.length !== SIZE) throw new Error("no 7x7 maze in the Labyrinth state");
    const treasures = st.treasures || {};
    const named = (t) => (t ? treasures[t] || {name: t, mark: t.slice(0, 2)} : null);
    const pad = o.small ? 0 : PAD, span = SIZE * T + 2 * pad;
    const box = root(span, span + (o.small ? 0 : FOOT), "labyrinth", window.T("the Labyrinth maze"));
    const alarm = o.alarm || {}, bad = new Set(alarm.cells || []);
    const players = st.players || [], seats = snap.seats || [];
    st.rows.forEach((row, r) => row.split(" ").forEach((t, c) => {
      const [sides, treasure] = t.split(":");
      const name = "abcdefg"[c] + (r + 1), found = named(treasure);
      const g = tile(box, pad + c * T, pad + r * T, sides, found, o.small);
      g.setAttribute("data-cell", name);
      if (found) g.setAttribute("data-treasure", found.name);
      titled(g, `${name}` + (found ? `: ${found.name}` : ""));
      if (bad.has(name)) svg("rect", {x: pad + c * T + 3, y: pad + r * T + 3, width: T - 6, height: T - 6, class: "bad-box"}, g);
    }));
    if (!o.small) {
      for (let k = 0; k < SIZE; k++) {
        text(box, pad + k * T + T / 2, 24, "abcdefg"[k], "coord");
        text(box, 16, pad + k * T + T / 2 + 9, String(k + 1), "coord");
      }
      for (const k of [1, 3, 5]) {  // N2 goes in at the top of column b, W2 at the left of row 2, ...
        arrow(box, "N" + (k + 1), pad + k * T + T / 2, pad - 30, 180, st.banned_arrow);
        arrow(box, "S" + (k + 1), pad + k * T + T / 2, pad + SIZE * T + 30, 0, st.banned_arrow);
        arrow(box, "W" + (k + 1), pad - 30, pad + k * T + T / 2, 90, st.banned_arrow);
        arrow(box, "E" + (k + 1), pad + SIZE * T + 30, pad + k * T + T / 2, 270, st.banned_arrow);
      }
      // the spare tile, under the maze
      const sx = pad, sy = span + 4;
      const [sides, treasure] = String(st.spare || "").split(":");
      const g = tile(box, sx, sy, sides || "", named(treasure), false);
      g.setAttribute("data-cell", "spare");
      titled(g, window.T("the spare tile") + (treasure ? ": " + named(treasure).name : ""));
      text(box, sx + T + 14, sy + T / 2 + 9, window.T("the spare tile"), "coord from-left");
    }
    // pawns: several on one tile sit in its corners
    const crowd = {};
    players.forEach((p, seat) => {
      const cell = String(p.cell || ""), c = "abcdefg".indexOf(cell[0]), r = Number(cell.slice(1)) - 1;
      if (c < 0 || !(r >= 0)) return;
      const k = (crowd[cell] = (crowd[cell] || 0) + 1) - 1;
      const cx = pad + c * T + (k % 2 ? 0.74 : 0.26) * T, cy = pad + r * T + (k >= 2 ? 0.74 : 0.26) * T;
      const g = badge(box, cx, cy, 23, PAWN_SEAT[p.colour] || 0, p.colour, PAWN_FILL[p.colour] || "#888");
      g.classList.add("pawn");
      g.setAttribute("data-pawn", p.colour);
      titled(g, window.T("{name}'s pawn on {cell}", {name: seats[seat] || p.colour, cell}));
    });
    if (o.small) { host.replaceChildren(box); return; }
    const parts = [box];
    const me = o.seat !== null && o.seat !== undefined ? players[o.seat] : null;
    if (me && Array.isArray(me.targets) && me.targets.length) {
      const next = named(me.targets[0]);
      const card = el("div", {class: "secret-card", id: "your-target"});
      card.append(el("small", {}, window.T("Your next treasure (only on your phone)")),
                  el("strong", {}, `${next.mark} \u00B7 ${next.name}`),
                  el("small", {}, (st.seat_words || [])[o.seat] || ""));
      parts.unshift(card);
    }
    const legend = el("p", {class: "legend treasures"});
    legend.append(window.T("Treasures:") + " ");
    Object.values(treasures).sort((a, b) => a.mark.localeCompare(b.mark)).forEach((t, k) => {
      if (k) legend.append(" \u00B7 ");
      legend.append(el("b", {}, t.mark), " " + t.name);
    });
    parts.push(legend);
    const list = el("ul", {class: "cards-row"});
    players.forEach((p, seat) => list.appendChild(playerCard(snap, seat, seats[seat] || p.colour,
                                                             (st.seat_words || [])[seat], o)));
    parts.push(list);
    host.replaceChildren(...parts);
  };

  function arrow(box, name, x, y, rot, banned) {
    const g = svg("g", {class: "lab-arrow" + (name === banned ? " banned" : ""), "data-arrow": name,
                        transform: `translate(${x},${y}) rotate(${rot})`}, box);
    svg("polygon", {points: "-13,0 13,0 0,-22", class: "arrow-shape"}, g);
    if (name === banned) {
      svg("line", {x1: -15, y1: -24, x2: 15, y2: 2, class: "ban"}, g);
      svg("line", {x1: 15, y1: -24, x2: -15, y2: 2, class: "ban"}, g);
    }
    titled(g, name === banned ? window.T("may not be used now (it would undo the last push)") : window.T("push the spare tile in here"));
  }
})();
