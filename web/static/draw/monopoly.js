// Monopoly Super Mario Bros. Movie: the 40-space ring (GO at the bottom right, as on the
// box's board) with each location's set colour, the deed's side (a tick for Continue, a
// cross and hatching for Game Over) and its owner's letter; the tokens as each player's
// letter in a shape of their own and Bowser as a black spiked "B", each where it stands
// on the table (snapshot state.on_table); where the prompt asks a token to go, a dashed
// ring and the token's faded shape. The space names are drawn as large as a cell allows;
// a phone, too small for them, shows the marks and tokens and zooms in on a tap. Under
// it, one card per player in the game's words, with the deeds as colour chips.
"use strict";

(function () {
  const {svg, text, titled, root, layout, badge, el, star, SEAT_FILLS, playerCard, zoomable} = window.drawKit;
  const SET_FILL = {brown: "#8b5a2b", "light blue": "#8fd3f4", pink: "#e05fa8", orange: "#f39c34", red: "#d7263d",
                    yellow: "#f2d600", green: "#2e9d4f", "dark blue": "#1f3f9a"};
  const KIND_MARK = {go: "GO", question_block: "?", bowser_fury: "!", piranha_plant: "P", warp_pipe: "W",
                     super_star: "\u2605", jail: "J", free_parking: "P", go_to_jail: "\u2192J"};
  const C = 90, N = 11, SPAN = C * N, TOKEN_R = 32;

  function cellAt(i) {  // -> [col, row] on the 11x11 ring
    if (i <= 10) return [10 - i, 10];
    if (i <= 20) return [0, 10 - (i - 10)];
    if (i <= 30) return [i - 20, 0];
    return [10, i - 30];
  }

  // where the k-th token on space i stands: beside its space, in the board's empty
  // middle, one behind the other towards the centre: never over the space's name
  function tokenAt(i, k) {
    const [col, row] = cellAt(i), cx = col * C + C / 2, cy = row * C + C / 2;
    const dx = SPAN / 2 - cx, dy = SPAN / 2 - cy, d = Math.hypot(dx, dy) || 1;
    const ux = dx / d, uy = dy / d;
    // out of the cell: to its inner side (a side's space), or past its inner corner (a corner)
    const out = C / 2 / Math.max(Math.abs(ux), Math.abs(uy)) + TOKEN_R * 1.25 + 2;
    return [cx + ux * (out + k * (2 * TOKEN_R + 8)), cy + uy * (out + k * (2 * TOKEN_R + 8))];
  }

  function token(parent, snap, t, space, k, cls) {
    const [x, y] = tokenAt(space, k);
    if (t.token === "bowser") {
      const b = svg("g", {class: "mono-bowser " + cls, "data-token": "bowser", "data-on": space}, parent);
      svg("polygon", {points: star(x, y, TOKEN_R + 4, TOKEN_R - 10, 8)}, b);
      text(b, x, y + 12, "B", "mono-bowser-mark");
      return b;
    }
    const seat = Number(t.token.slice(1));
    const b = badge(parent, x, y, TOKEN_R, seat, (snap.seats || [])[seat], SEAT_FILLS[seat % 4]);
    b.classList.add("mono-token");
    if (cls) b.classList.add(cls);
    b.setAttribute("data-token", t.token);
    b.setAttribute("data-on", space);
    return b;
  }

  window.drawings.monopoly = function (host, snap, opts) {
    const o = opts || {}, st = snap.state || {};
    const data = layout(snap, o, host, () => { try { window.drawings.monopoly(host, snap, opts); } catch (e) { /* next redraw */ } });
    if (!data || !Array.isArray(data.spaces)) {
      host.replaceChildren(el("p", {class: "muted drawing-wait"}, T("drawing the board...")));
      if (!data) return;
      throw new Error("the layout has no spaces");
    }
    const seats = snap.seats || [];
    const seatOf = (owner) => (typeof owner === "number" ? owner : seats.indexOf(owner));
    const deeds = {};
    for (const d of st.deeds || []) deeds[d.space] = d;
    const alarm = o.alarm || {}, bad = new Set(alarm.cells || []);
    const box = root(SPAN, SPAN, "monopoly", T("the Monopoly board"));
    const defs = svg("defs", {}, box);
    const pat = svg("pattern", {id: "game-over-hatch", width: 10, height: 10, patternUnits: "userSpaceOnUse",
                                patternTransform: "rotate(45)"}, defs);
    svg("rect", {width: 4, height: 10, class: "hatch"}, pat);
    svg("rect", {x: 0, y: 0, width: SPAN, height: SPAN, class: "mono-table"}, box);
    const names = {};
    for (const s of data.spaces) {
      names[s.index] = s.name;
      const [col, row] = cellAt(s.index), x = col * C, y = row * C;
      const g = svg("g", {class: "mono-space " + s.kind, "data-space": s.index}, box);
      svg("rect", {x, y, width: C, height: C, class: "mono-cell"}, g);
      const d = deeds[s.index];
      let words = s.name;
      if (s.kind === "location") {
        svg("rect", {x, y, width: C, height: 18, fill: SET_FILL[s.set] || "#999", class: "mono-band"}, g);
        if (d && d.side === "Game Over") {
          svg("rect", {x, y: y + 18, width: C, height: C - 18, fill: "url(#game-over-hatch)"}, g);
          if (!o.small) text(g, x + C - 14, y + C - 8, "\u2717", "mono-side over");
        } else if (!o.small && d && d.owner !== null && d.owner !== undefined) {
          text(g, x + C - 14, y + C - 8, "\u2713", "mono-side");
        }
        if (d && d.owner !== null && d.owner !== undefined) {
          const seat = seatOf(d.owner);
          if (!o.small) badge(g, x + 19, y + C - 20, 17, seat, seats[seat] || d.owner, "#fff");
          words += ", " + (d.side === "Game Over" ? T("{name}'s deed (Game Over side)", {name: seats[seat] || d.owner})
                                                  : T("{name}'s deed (Continue side)", {name: seats[seat] || d.owner}));
        } else {
          words += ", " + T("for sale at {n}", {n: s.price});
        }
      } else if (!o.small) {
        text(g, x + C / 2, y + 34, KIND_MARK[s.kind] || "", "mono-kind");
      }
      const top = s.kind === "location" ? 38 : 56;  // under the set's band, or under the big mark
      if (!o.small) shortName(s.name).slice(0, s.kind === "location" ? 3 : 2)
        .forEach((line, k) => text(g, x + C / 2, y + top + k * 17, line, "mono-name"));
      if (bad.has(s.name)) svg("rect", {x: x + 3, y: y + 3, width: C - 6, height: C - 6, class: "bad-box"}, g);
      titled(g, words);
    }
    // where the prompt asks a token to go: a dashed ring and its faded shape
    const going = st.to_put || [];
    for (const t of going) {
      if (t.space === null || t.space === undefined) continue;
      const [col, row] = cellAt(t.space);
      svg("rect", {x: col * C + 5, y: row * C + 5, width: C - 10, height: C - 10, class: "mono-to-put"}, box);
      titled(token(box, snap, t, t.space, 0, "faded"), T("{name}: to be put on {space}", {name: t.name, space: t.space_name}));
    }
    // the tokens where they stand on the table
    const here = {};
    for (const [tok, space] of Object.entries(st.on_table || legacyTable(st))) (here[space] = here[space] || []).push(tok);
    for (const [space, toks] of Object.entries(here)) {
      toks.sort().forEach((tok, k) => {
        const seat = tok === "bowser" ? null : Number(tok.slice(1));
        const name = seat === null ? "Bowser" : seats[seat] || tok;
        titled(token(box, snap, {token: tok}, Number(space), k, ""), T("{name} on {space}", {name, space: names[space] || space}));
      });
    }
    if (o.small) { host.replaceChildren(box); return; }
    text(box, SPAN / 2, SPAN / 2 - 60, st.bank_words || "", "mono-centre");
    (st.news || []).slice(-3).forEach((line, k) =>
      text(box, SPAN / 2, SPAN / 2 + k * 28, line.length > 52 ? line.slice(0, 50) + "..." : line, "mono-news"));
    const cards = el("ul", {class: "cards-row mono-cards"});
    (st.players || []).forEach((p, k) => {
      const seat = p.seat ?? k;
      const li = playerCard(snap, seat, `${p.name}`, (st.seat_words || [])[seat], o);
      const chips = el("span", {class: "deed-chips"});
      for (const d of p.deeds || []) {
        const chip = el("span", {class: "deed-chip" + (d.side === "Game Over" ? " over" : ""),
                                 title: `${d.name} (${d.set}): ` + (d.side === "Game Over" ? T("Game Over side") : T("Continue side"))});
        chip.append(el("i", {style: "background:" + (SET_FILL[d.set] || "#999")}),
                    document.createTextNode((d.side === "Game Over" ? "\u2717 " : "\u2713 ") + d.name));
        chips.appendChild(chip);
      }
      li.append(chips);
      cards.appendChild(li);
    });
    // the players' cards (their coins and deeds) first: in view on a laptop's screen too
    host.replaceChildren(cards, box, zoomable(box, "monopoly", SPAN, SPAN));
  };

  // a snapshot from before on_table: the players' spaces and Bowser's
  function legacyTable(st) {
    const out = {};
    (st.players || []).forEach((p, k) => { if (!p.bankrupt && p.space !== null) out["p" + (p.seat ?? k)] = p.space; });
    if (st.bowser && st.bowser.space !== null && st.bowser.space !== undefined) out.bowser = st.bowser.space;
    return out;
  }

  function shortName(name) {
    const words = String(name).split(" ");
    const lines = [""];
    for (const w of words) {
      if ((lines[lines.length - 1] + " " + w).trim().length > 9 && lines[lines.length - 1]) lines.push(w);
      else lines[lines.length - 1] = (lines[lines.length - 1] + " " + w).trim();
    }
    return lines.slice(0, 3);
  }
})();
