// Monopoly Super Mario Bros. Movie: the 40-space ring (GO at the bottom right, as on the
// box's board) with each location's set colour, the deed's side (a tick for Continue, a
// cross and hatching for Game Over) and its owner's letter; the tokens as each player's
// letter in a shape of their own and Bowser as a black spiked "B". Under it, one card per
// player: where the token stands, coins, jail, and the deeds as colour chips.
"use strict";

(function () {
  const {svg, text, titled, root, layout, badge, el, initial, star, SEAT_FILLS} = window.drawKit;
  const SET_FILL = {brown: "#8b5a2b", "light blue": "#8fd3f4", pink: "#e05fa8", orange: "#f39c34", red: "#d7263d",
                    yellow: "#f2d600", green: "#2e9d4f", "dark blue": "#1f3f9a"};
  const KIND_MARK = {go: "GO", question_block: "?", bowser_fury: "!", piranha_plant: "P", warp_pipe: "W",
                     super_star: "\u2605", jail: "J", free_parking: "P", go_to_jail: "\u2192J"};
  const C = 90, N = 11, SPAN = C * N;

  function cellAt(i) {  // -> [col, row] on the 11x11 ring
    if (i <= 10) return [10 - i, 10];
    if (i <= 20) return [0, 10 - (i - 10)];
    if (i <= 30) return [i - 20, 0];
    return [10, i - 30];
  }

  window.drawings.monopoly = function (host, snap, opts) {
    const o = opts || {}, st = snap.state || {};
    const data = layout(snap, o, () => { try { window.drawings.monopoly(host, snap, opts); } catch (e) { /* next redraw */ } });
    if (!data || !Array.isArray(data.spaces)) {
      host.replaceChildren(el("p", {class: "muted drawing-wait"}, "drawing the board..."));
      if (!data) return;
      throw new Error("the layout has no spaces");
    }
    const seats = snap.seats || [];
    const seatOf = (owner) => (typeof owner === "number" ? owner : seats.indexOf(owner));
    const deeds = {};
    for (const d of st.deeds || []) deeds[d.space] = d;
    const alarm = o.alarm || {}, bad = new Set(alarm.cells || []);
    const box = root(SPAN, SPAN, "monopoly", "the Monopoly board");
    const defs = svg("defs", {}, box);
    const pat = svg("pattern", {id: "game-over-hatch", width: 10, height: 10, patternUnits: "userSpaceOnUse",
                                patternTransform: "rotate(45)"}, defs);
    svg("rect", {width: 4, height: 10, class: "hatch"}, pat);
    svg("rect", {x: 0, y: 0, width: SPAN, height: SPAN, class: "mono-table"}, box);
    const where = {};  // space -> tokens standing there
    (st.players || []).forEach((p, k) => { if (!p.bankrupt) (where[p.space] = where[p.space] || []).push(["p", p.seat ?? k, p.name]); });
    if (st.bowser && st.bowser.space !== null && st.bowser.space !== undefined) (where[st.bowser.space] = where[st.bowser.space] || []).push(["bowser"]);
    for (const s of data.spaces) {
      const [col, row] = cellAt(s.index), x = col * C, y = row * C;
      const g = svg("g", {class: "mono-space " + s.kind, "data-space": s.index}, box);
      svg("rect", {x, y, width: C, height: C, class: "mono-cell"}, g);
      const d = deeds[s.index];
      let words = s.name;
      if (s.kind === "location") {
        svg("rect", {x, y, width: C, height: 18, fill: SET_FILL[s.set] || "#999", class: "mono-band"}, g);
        if (d && d.side === "Game Over") {
          svg("rect", {x, y: y + 18, width: C, height: C - 18, fill: "url(#game-over-hatch)"}, g);
          if (!o.small) text(g, x + C - 12, y + 15, "\u2717", "mono-side over");
        } else if (!o.small && d && d.owner !== null && d.owner !== undefined) {
          text(g, x + C - 12, y + 15, "\u2713", "mono-side");
        }
        if (d && d.owner !== null && d.owner !== undefined) {
          const seat = seatOf(d.owner);
          if (!o.small) badge(g, x + 12, y + 9, 8, seat, seats[seat] || d.owner, "#fff");
          words += `, ${seats[seat] || d.owner}'s deed` + (d.side === "Game Over" ? " (Game Over side)" : " (Continue side)");
        } else {
          words += `, for sale at ${s.price}`;
        }
      } else if (!o.small) {
        text(g, x + C / 2, y + 30, KIND_MARK[s.kind] || "", "mono-kind");
      }
      if (!o.small) {
        const parts = shortName(s.name);
        parts.forEach((line, k) => text(g, x + C / 2, y + 48 + k * 13, line, "mono-name"));
      }
      if (bad.has(s.name)) svg("rect", {x: x + 3, y: y + 3, width: C - 6, height: C - 6, class: "bad-box"}, g);
      titled(g, `${s.index}: ${words}`);
      (where[s.index] || []).forEach((t, k) => {
        const tx = x + 20 + (k % 3) * 25, ty = y + C - 18 - Math.floor(k / 3) * 30;
        if (t[0] === "bowser") {
          const b = svg("g", {class: "mono-bowser", "data-token": "bowser"}, box);
          svg("polygon", {points: star(tx, ty, 19, 11, 8)}, b);
          text(b, tx, ty + 5, "B", "mono-bowser-mark");
          titled(b, "Bowser on " + s.name);
        } else {
          const b = badge(box, tx, ty, 14, t[1], t[2], SEAT_FILLS[t[1] % 4]);
          b.classList.add("mono-token");
          b.setAttribute("data-token", "p" + t[1]);
          titled(b, `${t[2]} on ${s.name}`);
        }
      });
    }
    if (!o.small) {
      text(box, SPAN / 2, SPAN / 2 - 30, "Bank: " + (st.bank ?? "?") + " coins", "mono-centre");
      if (st.bowser) text(box, SPAN / 2, SPAN / 2 + 10, "Bowser: " + (st.bowser.space_name || "?"), "mono-centre small");
      (st.news || []).slice(-2).forEach((line, k) =>
        text(box, SPAN / 2, SPAN / 2 + 50 + k * 26, line.length > 60 ? line.slice(0, 58) + "..." : line, "mono-news"));
    }
    if (o.small) { host.replaceChildren(box); return; }
    const cards = el("ul", {class: "cards-row mono-cards"});
    (st.players || []).forEach((p, k) => {
      const seat = p.seat ?? k;
      const li = el("li", {class: "player-card" + (seat === st.turn && !snap.outcome ? " turn" : "") +
                                  (o.seat === seat ? " mine" : ""), "data-seat": seat});
      li.append(el("strong", {}, `${initial(p.name)} · ${p.name}` + (o.seat === seat ? " (you)" : "")),
                el("span", {class: "coins"}, ` \u25CF ${p.coins} coins`));
      // where the token stands, in words: the ring's names are small on a phone
      if (p.space_name && !p.in_jail) li.append(el("span", {class: "where"}, ` \u2023 on ${p.space_name}`));
      if (p.in_jail) li.append(el("span", {class: "jail"}, " \u25A6 in Jail"));
      if (p.bankrupt) li.append(el("span", {class: "jail"}, " out of the game"));
      if (p.jail_cards) li.append(el("span", {}, ` · ${p.jail_cards} get-out card(s)`));
      const chips = el("span", {class: "deed-chips"});
      for (const d of p.deeds || []) {
        const chip = el("span", {class: "deed-chip" + (d.side === "Game Over" ? " over" : ""),
                                 title: `${d.name} (${d.set}): ${d.side} side`});
        chip.append(el("i", {style: "background:" + (SET_FILL[d.set] || "#999")}),
                    document.createTextNode((d.side === "Game Over" ? "\u2717 " : "\u2713 ") + d.name));
        chips.appendChild(chip);
      }
      li.append(chips);
      cards.appendChild(li);
    });
    host.replaceChildren(box, cards);
  };

  function shortName(name) {
    const words = String(name).split(" ");
    const lines = [""];
    for (const w of words) {
      if ((lines[lines.length - 1] + " " + w).trim().length > 11 && lines[lines.length - 1]) lines.push(w);
      else lines[lines.length - 1] = (lines[lines.length - 1] + " " + w).trim();
    }
    return lines.slice(0, 3);
  }
})();
