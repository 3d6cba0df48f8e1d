// The record of a game as the status page and the hall show it, from the snapshot's
// `record`: each ply with its notation, its words and its seat, as the server folded them
// from the journal (controller/record.py), never matched up here. Each move reads as the game's describer words it ("Luigi drops a chip in
// column 5", the player's name in bold, never an action under another's name); chess
// reads as a club writes it, in standard notation by move number ("15. Nf3 Re8") with
// the Mario words as the detail (hover, or a tap on the row). The last `unsure` moves of
// the snapshot are the camera's provisional reading: drawn lighter with a "?".
"use strict";

window.moveRecord = (function () {
  const UNSURE = T("not yet sure: the next moves will tell");
  const NOT_A_MOVE = /^(resign|offer|accept|draw|claim|promote|flag)\b/i;

  const el = (...args) => window.drawKit.el(...args);  // the drawings' kit, once it is loaded
  // a game whose drawing says so (chess) is recorded by move number, in pairs of plies
  const paired = (snap) => Boolean(window.drawings && (window.drawings[snap.game] || {}).pairedRecord);

  // [{notation, text, name, unsure}] of the snapshot's record
  function entries(snap) {
    return (snap.record || []).map((m) => ({notation: String(m.notation), text: m.text || String(m.notation),
                                            name: m.name || null, unsure: Boolean(m.unsure)}));
  }

  // the words with who in front, in bold: the describer's text begins with the name
  // ("Luigi drops ..."); a text that does not gets "Name: " before it
  function said(m) {
    const span = el("span", {class: "move-words"});
    if (m.name && m.text.startsWith(m.name)) {
      span.append(el("b", {}, m.name), m.text.slice(m.name.length));
    } else if (m.name) {
      span.append(el("b", {}, m.name + ":"), " " + m.text);
    } else {
      span.append(m.text);
    }
    return span;
  }

  function mark(node, m) {
    if (!m.unsure) return node;
    node.classList.add("unsure");
    node.title = UNSURE;
    node.append(el("span", {class: "unsure-mark", "aria-label": UNSURE}, "?"));
    return node;
  }

  // chess: rows of [number, white's ply, black's ply], other actions as rows of their own
  function chessRows(snap, list) {
    const first = (snap.state && snap.state.first_move) || [1, "white"];
    let number = first[0], black = first[1] === "black", row = null;
    const rows = [];
    for (const m of list) {
      if (NOT_A_MOVE.test(m.notation)) {
        rows.push({words: m});
        row = null;
        continue;
      }
      if (!black || !row) {
        row = {number, plies: black ? [null, m] : [m]};
        rows.push(row);
      } else {
        row.plies.push(m);
      }
      if (black) number += 1;
      black = !black;
      if (!black) row = null;
    }
    return rows;
  }

  function chessPly(m) {
    const ply = mark(el("span", {class: "ply", title: m.text, tabindex: "0"}, m.notation), m);
    return ply;
  }

  // fill `list` (an <ol>/<ul>) with the record; returns the last move as {text, notation}
  function fill(list, snap) {
    const all = entries(snap);
    const chess = paired(snap);
    list.classList.toggle("chess-record", chess);
    if (chess) {
      list.replaceChildren(...chessRows(snap, all).map((r) => {
        if (r.words) return mark(el("li", {class: "record-note"}, r.words.text), r.words);
        const li = el("li", {class: "record-row", tabindex: "0"});
        li.append(el("span", {class: "num"}, r.number + "."));
        for (const m of r.plies) li.append(m ? chessPly(m) : el("span", {class: "ply"}, "..."));
        li.append(el("span", {class: "detail"}, r.plies.filter(Boolean).map((m) => m.text).join(" \u00B7 ")));
        li.addEventListener("click", () => li.classList.toggle("open"));
        return li;
      }));
    } else {
      list.replaceChildren(...all.map((m) => {
        const li = el("li", {title: m.notation, tabindex: "0"});
        li.append(said(m), el("code", {class: "notation"}, m.notation));
        li.addEventListener("click", () => li.classList.toggle("open"));
        return mark(li, m);
      }));
    }
    list.scrollTop = list.scrollHeight;
    return last(snap, all);
  }

  // the last move for the line under the prompt: chess "15... Re8 (Rook Goomba moves ...)"
  function last(snap, all) {
    const m = all[all.length - 1];
    if (!m) return null;
    let text = m.name && !m.text.startsWith(m.name) ? m.name + ": " + m.text : m.text;
    if (paired(snap) && !NOT_A_MOVE.test(m.notation)) {
      const rows = chessRows(snap, all), r = rows[rows.length - 1];
      const lead = r.plies && r.plies.length === 2 && r.plies[1] === m ? `${r.number}... ` : `${r.number}. `;
      text = `${lead}${m.notation} (${m.text})`;
    }
    return {text: text + (m.unsure ? " ?" : ""), notation: m.notation, unsure: m.unsure};
  }

  return {fill, UNSURE};
})();
