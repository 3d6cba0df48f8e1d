// Mario chess: the board with chess symbols, Mario's team outlined on a light disc and
// Bowser's team filled on a dark disc (so the armies differ by shape and shade, not only
// by the configured colours); the last move as an arrow, the king in check ringed and
// marked "+"; a legend gives each symbol its Mario figure.
"use strict";

(function () {

window.drawings.chess = function (el, snap, opts) {
  const {svg, text, titled, root} = window.drawKit;
  const o = opts || {}, st = snap.state || {};
  if (typeof st.fen !== "string") throw new Error("no FEN in the chess state");
  const [placement, toMove] = st.fen.split(" ");
  const pieces = {};  // square -> FEN letter
  placement.split("/").forEach((rankText, i) => {
    let file = 0;
    for (const ch of rankText) {
      if (/\d/.test(ch)) { file += Number(ch); continue; }
      pieces["abcdefgh"[file] + (8 - i)] = ch;
      file += 1;
    }
  });
  const colours = o.colours || window.drawKit.SEAT_FILLS.slice(0, 2);
  const size = 80, pad = o.small ? 0 : 32, flip = o.seat === 1, span = 8 * size + 2 * pad;
  const box = root(span, span, "chess", T("chess board"));
  const alarm = o.alarm || {}, bad = new Set(alarm.cells || []), seen = alarm.seen || {};
  const checkKing = st.check === true && toMove ? (toMove === "w" ? "K" : "k") : null;
  const last = typeof st.last_move === "string" ? [st.last_move.slice(0, 2), st.last_move.slice(2, 4)] : [];
  const at = (name) => {
    const file = "abcdefgh".indexOf(name[0]), rank = Number(name[1]);
    return [pad + (flip ? 7 - file : file) * size, pad + (flip ? rank - 1 : 8 - rank) * size];
  };
  // three layers: the squares, the last move's arrow, then the pieces and marks over it,
  // so the arrow never covers a piece
  const squares = svg("g", {class: "squares"}, box), arrows = svg("g", {class: "arrows"}, box);
  const pieceLayer = svg("g", {class: "pieces"}, box);
  for (let file = 0; file < 8; file++) {
    for (let rank = 1; rank <= 8; rank++) {
      const name = "abcdefgh"[file] + rank, piece = pieces[name] || "";
      const [x, y] = at(name);
      const g = svg("g", {"data-square": name, "data-piece": piece}, squares);
      let cls = "sq " + ((file + rank) % 2 ? "dark" : "light");  // a1 is dark
      if (last.includes(name)) cls += " last";
      svg("rect", {x, y, width: size, height: size, class: cls}, g);
      if (!o.small && rank === (flip ? 8 : 1)) text(box, x + size / 2, span - 7, "abcdefgh"[file], "coord");
      if (!o.small && file === (flip ? 7 : 0)) text(box, pad / 2, y + size / 2 + 9, String(rank), "coord");
      const p = svg("g", {"data-on": name}, pieceLayer);
      if (piece) {
        const white = piece === piece.toUpperCase();
        titled(g, `${name}: ${CHESS_NAMES[piece.toLowerCase()][white ? 0 : 1]} (${white ? T("Mario's team") : T("Bowser's team")})`);
        svg("circle", {cx: x + size / 2, cy: y + size / 2, r: 34, class: "piece " + (white ? "white" : "black"),
                       stroke: colours[white ? 0 : 1]}, p);
        text(p, x + size / 2, y + size / 2 + 17, GLYPH[piece.toLowerCase()][white ? 0 : 1], "glyph " + (white ? "white" : "black"));
      } else {
        titled(g, name + ": " + T("empty"));
      }
      if (piece && piece === checkKing) {
        svg("circle", {cx: x + size / 2, cy: y + size / 2, r: 38, class: "check-ring"}, p);
        if (!o.small) text(p, x + size - 12, y + 24, "+", "check-mark");
        g.classList.add("check");
      }
      if (seen[name] && seen[name] !== "empty" && !piece) {
        svg("circle", {cx: x + size / 2, cy: y + size / 2, r: 30, class: "piece faded " + (seen[name] === "p0" ? "white" : "black")}, p);
        g.setAttribute("data-seen", seen[name]);
      }
      if (bad.has(name)) svg("rect", {x: x + 4, y: y + 4, width: size - 8, height: size - 8, class: "bad-box"}, p);
    }
  }
  if (last.length === 2 && !o.small) {
    const [x1, y1] = at(last[0]), [x2, y2] = at(last[1]);
    svg("line", {x1: x1 + size / 2, y1: y1 + size / 2, x2: x2 + size / 2, y2: y2 + size / 2, class: "last-arrow",
                 "marker-end": "url(#arrow-head)"}, arrows);
    const defs = svg("defs", {}, box);
    const m = svg("marker", {id: "arrow-head", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4,
                             orient: "auto-start-reverse"}, defs);
    svg("path", {d: "M0,0 L10,5 L0,10 z", class: "arrow-tip"}, m);
  }
  if (o.small) { el.replaceChildren(box); return; }
  const legend = window.drawKit.el("p", {class: "legend"});
  legend.textContent = Object.keys(GLYPH).map((k) =>
    `${GLYPH[k][0]}/${GLYPH[k][1]} ${CHESS_NAMES[k][0]} / ${CHESS_NAMES[k][1]}`
  ).join(" · ") + ". " + T("Outlined: Mario's team; filled: Bowser's team.");
  el.replaceChildren(box, legend);
};
// the seat chips beside the board (app.js): each team by its king
window.drawings.chess.seatMark = (name, seat) => GLYPH.k[seat];
// the record is written as chess players write it: numbered pairs of plies (moves.js)
window.drawings.chess.pairedRecord = true;

// Mario chess names by piece letter: [Mario's team (White), Bowser's team (Black)], each
// said in the page's language (the same catalogue messages as controller/games/chess/cast.py)
const CHESS_NAMES = {
  k: [T("King Mario"), T("King Bowser")], q: [T("Queen Luigi"), T("Queen Bowser Jr.")],
  b: [T("Bishop Peach / Daisy"), T("Bishop Magikoopa")], n: [T("Knight Yoshi"), T("Knight Birdo")],
  r: [T("Rook Toad"), T("Rook Goomba")], p: [T("Pawn Coin"), T("Pawn Green Shell")],
};
const GLYPH = {k: ["\u2654", "\u265A"], q: ["\u2655", "\u265B"], r: ["\u2656", "\u265C"],
               b: ["\u2657", "\u265D"], n: ["\u2658", "\u265E"], p: ["\u2659", "\u265F"]};
})();
