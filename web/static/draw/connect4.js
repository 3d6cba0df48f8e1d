// Connect 4 with Blocker: the 7x6 grid; each player's chips carry their letter and a
// shape of their own (circle ring / square), so the players differ by more than colour;
// the winning four are ringed and joined by a line drawn behind the chips (never over
// their letters); a chip the camera saw where none may be is drawn faded with a dashed
// red ring.
"use strict";

(function () {

window.drawings.connect4 = function (el, snap, opts) {
  const {svg, text, titled, root} = window.drawKit;
  const o = opts || {}, st = snap.state || {}, grid = st.grid;
  if (!Array.isArray(grid) || !grid.length) throw new Error("no grid in the Connect 4 state");
  const names = snap.seats || [T("first player"), T("second player")];
  const colours = o.colours || window.drawKit.SEAT_FILLS.slice(0, 2);  // the config's red and green
  const rows = grid.length, cols = grid[0].length, cell = 100, pad = 20;
  const w = cols * cell + 2 * pad, h = rows * cell + 2 * pad, foot = o.small ? 0 : 44;
  const box = root(w, h + foot, "c4", T("Connect 4 grid"));
  svg("rect", {x: 0, y: 0, width: w, height: h, rx: 22, class: "c4-frame"}, box);
  const alarm = o.alarm || {}, bad = new Set(alarm.cells || []), seen = alarm.seen || {};
  const wins = winningFour(grid, snap.outcome);
  const xy = (c, i) => [pad + c * cell + cell / 2, pad + i * cell + cell / 2];
  if (wins.size === 4) {  // behind the chips: it shows between them, never over a letter
    const pts = [...wins].map((k) => k.split(",").map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const [x1, y1] = xy(...pts[0]), [x2, y2] = xy(...pts[pts.length - 1]);
    svg("line", {x1, y1, x2, y2, class: "win-line"}, box);
  }

  function chip(g, label, cx, cy, faded) {
    const seat = label === "p0" ? 0 : 1;
    const cg = svg("g", {class: "chip-g" + (faded ? " faded" : "")}, g);
    svg("circle", {cx, cy, r: 40, fill: colours[seat], class: "chip"}, cg);
    if (seat === 0) svg("circle", {cx, cy, r: 29, fill: "none", class: "chip-mark"}, cg);
    else svg("rect", {x: cx - 26, y: cy - 26, width: 52, height: 52, fill: "none", class: "chip-mark"}, cg);
    if (!o.small) text(cg, cx, cy + 12, window.drawKit.initial(names[seat]), "chip-letter");
  }

  grid.forEach((line, i) => line.forEach((label, c) => {
    const row = rows - i;  // rows counted from 1 at the bottom, as in the notation
    const name = T("column {col}, row {row}", {col: c + 1, row});
    const [cx, cy] = xy(c, i);
    const dead = label === "empty" && grid.slice(0, i).some((above) => above[c] === "blocker");
    const g = svg("g", {"data-cell": `${c + 1},${row}`, "data-label": label,
                        class: "c4-cell" + (bad.has(name) ? " bad" : "") + (dead ? " dead" : "") +
                               (wins.has(`${c},${i}`) ? " win" : "")}, box);
    svg("circle", {cx, cy, r: 40, class: "hole"}, g);
    if (label === "p0" || label === "p1") chip(g, label, cx, cy, false);
    else if (label === "blocker") {
      svg("ellipse", {cx, cy, rx: 44, ry: 25, class: "blocker"}, g);
      if (!o.small) text(g, cx, cy + 9, T("BLOCK"), "blocker-word");
    }
    const what = dead ? T("dead hole (under a blocker)") :
      label === "p0" || label === "p1" ? T("{name}'s chip", {name: names[label === "p0" ? 0 : 1]}) : label;
    if (seen[name] && seen[name] !== label) {
      if (seen[name] === "p0" || seen[name] === "p1") chip(g, seen[name], cx, cy, true);
      else if (seen[name] === "blocker") svg("ellipse", {cx, cy, rx: 44, ry: 25, class: "blocker faded"}, g);
      g.setAttribute("data-seen", seen[name]);
    }
    if (bad.has(name)) svg("circle", {cx, cy, r: 47, class: "bad-ring"}, g);
    titled(g, name + ": " + what + (seen[name] && seen[name] !== label ? " " + T("(the camera sees {what})", {what: seen[name]}) : ""));
  }));
  if (o.small) { el.replaceChildren(box); return; }
  for (let c = 0; c < cols; c++) {
    const x = pad + c * cell;
    text(box, x + cell / 2, h + 32, String(c + 1), "c4-label");
    if (o.play) {
      const hit = svg("rect", {x, y: 0, width: cell, height: h + foot, class: "col-hit", "data-column": c + 1}, box);
      titled(hit, T("drop a chip in column {col}", {col: c + 1}));
      hit.addEventListener("click", () => o.play(String(c + 1)));
    }
  }
  el.replaceChildren(box);
};
// the seat chips beside the board (app.js): each player's initial on their chip colour
window.drawings.connect4.seatMark = (name) => window.drawKit.initial(name);

// The four (or more) in a line of the winner's chips, as "column,rowIndex" keys.
function winningFour(grid, outcome) {
  const out = new Set();
  if (!outcome || outcome.winner === null || outcome.winner === undefined) return out;
  const label = "p" + outcome.winner, rows = grid.length, cols = grid[0].length;
  for (const [dc, di] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    for (let i = 0; i < rows; i++) {
      for (let c = 0; c < cols; c++) {
        const run = [];
        for (let k = 0; k < 4; k++) {
          const ii = i + di * k, cc = c + dc * k;
          if (ii < 0 || ii >= rows || cc >= cols || grid[ii][cc] !== label) break;
          run.push(`${cc},${ii}`);
        }
        if (run.length === 4) run.forEach((key) => out.add(key));
      }
    }
  }
  return out;
}
})();
