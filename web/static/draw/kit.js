// Shared parts of the board drawings (web/static/draw/<game>.js). Each drawing registers
// `window.drawings[game] = function (el, snapshot, opts)` and draws that game's board into
// `el` from the /api/state snapshot; the status page, the TV's table mode and the hall's
// table cards all call the same function. opts (all optional):
//   small   a thumbnail: no labels, no buttons
//   seat    the seat of this phone (null for a watcher)
//   colours the chip/army colours configured for the camera ([seat 0, seat 1])
//   alarm   {cells: [cell names], seen: {cell name: label as read}} of a camera alarm
//   play    function(text) that submits a move, or null when this viewer may not move
//   base    URL prefix for /api/layout (the page's own server by default)
// Every signal drawn in colour also carries a letter, a shape or a word.
"use strict";

window.drawings = window.drawings || {};

window.drawKit = (function () {
  const SVG = "http://www.w3.org/2000/svg";

  function svg(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function text(parent, x, y, words, cls, extra) {
    const t = svg("text", Object.assign({x, y, class: cls || ""}, extra || {}), parent);
    t.textContent = words;
    return t;
  }

  // a hover title (desktop) that is also the node's accessible name
  function titled(node, words) {
    svg("title", {}, node).textContent = words;
    node.setAttribute("aria-label", words);
    return node;
  }

  function el(tag, attrs, words) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (words !== undefined && words !== null) node.textContent = words;
    return node;
  }

  function root(viewW, viewH, cls, label) {
    return svg("svg", {viewBox: `0 0 ${viewW} ${viewH}`, class: "drawing " + cls, role: "img",
                       "aria-label": label});
  }

  // Static board layouts (the Super Mario Bros. Worlds, the Monopoly ring) come from
  // /api/layout once per game and board file; the drawing redraws itself into `host`
  // when they arrive, its labels then fitted to the screen like any drawing's.
  const layouts = {}, waiting = {};
  function layout(snapshot, opts, host, redraw) {
    const key = (opts.base || "") + ":" + snapshot.game + ":" + snapshot.game_id;
    if (layouts[key]) return layouts[key];
    if (!waiting[key]) {
      waiting[key] = [];
      fetch((opts.base || "") + "/api/layout?game_id=" + encodeURIComponent(snapshot.game_id || ""))
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error("layout " + r.status))))
        .then((data) => { layouts[key] = data; for (const f of waiting[key]) f(); })
        .catch((err) => { for (const f of waiting[key]) f(err); })
        .finally(() => { delete waiting[key]; });
    }
    waiting[key].push((err) => {
      redraw(err);
      if (host.isConnected) legible(host);
    });
    return null;
  }

  // one player's letter badge: the first letter of the name in a shape of its own
  const SHAPES = ["circle", "square", "diamond", "triangle"];
  function badge(parent, x, y, r, seat, name, fill) {
    const g = svg("g", {class: "badge seat" + seat}, parent);
    const shape = SHAPES[seat % SHAPES.length];
    if (shape === "circle") svg("circle", {cx: x, cy: y, r, fill}, g);
    else if (shape === "square") svg("rect", {x: x - r * .9, y: y - r * .9, width: r * 1.8, height: r * 1.8, rx: r * .2, fill}, g);
    else if (shape === "diamond") svg("polygon", {points: `${x},${y - r * 1.15} ${x + r * 1.15},${y} ${x},${y + r * 1.15} ${x - r * 1.15},${y}`, fill}, g);
    else svg("polygon", {points: `${x},${y - r * 1.2} ${x + r * 1.1},${y + r * .8} ${x - r * 1.1},${y + r * .8}`, fill}, g);
    text(g, x, y + r * .38, initial(name), "badge-letter", {"font-size": r * 1.1});
    return g;
  }

  function initial(name) {
    const words = String(name || "?").replace(/^(the|king|queen)\s+/i, "").trim();
    return (words[0] || "?").toUpperCase();
  }

  // a spiked star's points (hazard tokens, Bowser): a shape no player's token has
  function star(cx, cy, outer, inner, points) {
    const out = [];
    for (let k = 0; k < points * 2; k++) {
      const r = k % 2 ? inner : outer, a = Math.PI * k / points - Math.PI / 2;
      out.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
    }
    return out.join(" ");
  }

  const SEAT_FILLS = ["#d7263d", "#2e7d32", "#f2c500", "#1e63d6"];  // red, green, yellow, blue

  // The seat to play, from the prompt alone: the seat chips, the cards and the prompt
  // can then never name two players at once (null when the game is over or nobody is).
  function toPlay(snap) {
    return snap.outcome || !snap.prompt ? null : snap.prompt.seat ?? null;
  }

  // One player's card under a board: the name, "to play" on the seat the prompt names,
  // then `words` (the game's own line for that seat, snapshot.state.seat_words).
  function playerCard(snap, seat, name, words, opts) {
    const o = opts || {}, mine = o.seat === seat, turn = seat === toPlay(snap);
    const li = el("li", {class: "player-card" + (turn ? " turn" : "") + (mine ? " mine" : ""), "data-seat": seat});
    const head = el("strong", {}, name + (mine ? " " + T("(you)") : ""));
    li.append(head);
    if (turn) li.append(el("span", {class: "to-play"}, " \u25B6 " + T("to play")));
    if (words) li.append(el("span", {class: "seat-words"}, words));
    return li;
  }

  // No text smaller than MIN_PX on the screen: once a drawing is on the page, each of its
  // texts drawn smaller than that at the size shown is hidden (a phone shows fewer,
  // larger labels; zooming in or a larger screen brings the rest back).
  const MIN_PX = 11;
  function legible(host) {
    for (const box of host.querySelectorAll("svg.drawing")) {
      const m = box.getScreenCTM();
      if (!m) continue;
      const scale = Math.hypot(m.a, m.b);
      let hidden = 0;
      for (const t of box.querySelectorAll("text")) {
        t.style.display = "";
        const small = parseFloat(getComputedStyle(t).fontSize) * scale < MIN_PX;
        if (small) { t.style.display = "none"; hidden += 1; }
      }
      box.dataset.hiddenLabels = hidden;
      const hint = box.parentNode && box.parentNode.querySelector(".zoom-hint");
      if (hint) hint.hidden = hidden === 0 && !zoomed[box.dataset.zoom];
    }
  }

  // Tap to zoom: a tap on a board too fine for the screen shows the region around the
  // tap ZOOM times larger, with the labels that region can now show; a second tap shows
  // the whole board again. The zoom outlives the redraws (kept per drawing).
  const ZOOM = 2.5, zoomed = {};
  function zoomable(box, key, w, h) {
    box.dataset.zoom = key;
    const z = zoomed[key];
    if (z) box.setAttribute("viewBox", `${z.x} ${z.y} ${w / ZOOM} ${h / ZOOM}`);
    box.classList.add("zoomable");
    const hint = el("p", {class: "zoom-hint legend"});
    const say = () => { hint.textContent = zoomed[key] ? T("Tap the board to see all of it.") :
      T("Tap the board to zoom in and read its names."); };
    say();
    box.addEventListener("click", (ev) => {
      if (ev.defaultPrevented) return;  // a tap that played a move
      if (zoomed[key]) {
        delete zoomed[key];
        box.setAttribute("viewBox", `0 0 ${w} ${h}`);
      } else {
        const m = box.getScreenCTM();
        const p = m ? new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse()) : {x: w / 2, y: h / 2};
        const zw = w / ZOOM, zh = h / ZOOM;
        zoomed[key] = {x: Math.min(Math.max(p.x - zw / 2, 0), w - zw), y: Math.min(Math.max(p.y - zh / 2, 0), h - zh)};
        box.setAttribute("viewBox", `${zoomed[key].x} ${zoomed[key].y} ${zw} ${zh}`);
      }
      say();
      legible(box.parentNode);
    });
    return hint;
  }

  return {svg, text, titled, el, root, layout, badge, initial, star, SEAT_FILLS, toPlay, playerCard, legible,
          zoomable};
})();
