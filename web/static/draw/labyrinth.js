// Super Mario Labyrinth: the 7x7 maze as tiles with their open passages, each treasure as
// its own large mark (its initials, from the snapshot: "KT" for Koopa Troopa) with a
// legend that names them, the twelve push arrows around it (the one that may not be used
// now crossed out), each pawn as a pawn (a head on a body: never a letter, which a
// treasure's mark could share, R for Rosalina and the Red pawn) in its colour with a head
// of its own shape, in a corner of its tile clear of the treasure's disc, coordinates
// a-g and 1-7, the spare tile under the maze; on a player's own phone a card "your next
// treasure" (watchers never get it: the snapshot holds a player's targets only for that
// player's link).
"use strict";

(function () {
  const {svg, text, titled, root, el, playerCard} = window.drawKit;
  const SIZE = 7, T = 80, PAD = 56, FOOT = T + 20;
  const PAWN_FILL = {red: "#d7263d", yellow: "#f2c500", green: "#2e7d32", blue: "#1e63d6"};
  const PAWN_HEAD = {red: "circle", yellow: "diamond", green: "square", blue: "triangle"};
  // a pawn stands in its tile's corner (PAWN_X, PAWN_Y of the tile from the corner's
  // sides), clear of the treasure's disc of radius MARK_R in the middle
  const MARK_R = 19, PAWN_X = 0.14, PAWN_Y = 0.19, PAWN_SCALE = 1.2;

  // A pawn: a body under a head whose shape tells the colour without colour.
  function pawn(parent, x, y, colour) {
    const head = PAWN_HEAD[colour] || "circle", fill = PAWN_FILL[colour] || "#888";
    const g = svg("g", {class: "pawn lab-pawn", "data-head": head,
                        transform: `translate(${x},${y}) scale(${PAWN_SCALE})`}, parent);
    svg("polygon", {points: "-9,12 9,12 4,-1 -4,-1", fill}, g);
    if (head === "circle") svg("circle", {cx: 0, cy: -6, r: 6, fill}, g);
    else if (head === "square") svg("rect", {x: -5.5, y: -11.5, width: 11, height: 11, fill}, g);
    else if (head === "diamond") svg("polygon", {points: "0,-13 7,-6 0,1 -7,-6", fill}, g);
    else svg("polygon", {points: "0,-13 7,-1 -7,-1", fill}, g);
    return g;
  }

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
      svg("circle", {cx: x + c, cy: y + c, r: MARK_R, class: "lab-treasure"}, g);
      text(g, x + c, y + c + 8, treasure.mark, "lab-mark");
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
      const cx = pad + c * T + (k % 2 ? 1 - PAWN_X : PAWN_X) * T, cy = pad + r * T + (k >= 2 ? 1 - PAWN_Y : PAWN_Y) * T;
      const g = pawn(box, cx, cy, p.colour);
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
