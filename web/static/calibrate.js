// The calibration view: the admin clicks the playing area's four corners on the
// camera's latest frame; they go to the referee as camera pixels (the "corners" command).
"use strict";

(function () {
  const TOKEN_KEY = "referee-admin-token";
  const $ = (id) => document.getElementById(id);
  const img = $("frame"), marks = $("marks");
  let token = localStorage.getItem(TOKEN_KEY) || "";
  let points = [];

  async function load() {
    $("cal-state").textContent = T("Loading the camera picture...");
    const reply = await fetch("/api/frame.jpg?t=" + Date.now(), {headers: {Authorization: "Bearer " + token}})
      .catch(() => null);
    if (!reply || !reply.ok) {
      const body = reply ? await reply.json().catch(() => ({})) : {};
      $("frame-box").hidden = true;
      $("cal-state").textContent = body.error || T("The referee cannot be reached.");
      return;
    }
    localStorage.setItem(TOKEN_KEY, token);
    img.src = URL.createObjectURL(await reply.blob());
    await img.decode().catch(() => null);
    $("frame-box").hidden = false;
    $("cal-state").textContent = T("Picture {w} x {h} px. Click corner {n}.", {w: img.naturalWidth, h: img.naturalHeight, n: 1});
    draw();
  }

  function draw() {
    marks.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`);
    const NS = "http://www.w3.org/2000/svg";
    const parts = [];
    if (points.length > 1) {
      const poly = document.createElementNS(NS, "polygon");
      poly.setAttribute("points", points.map((p) => p.join(",")).join(" "));
      parts.push(poly);
    }
    points.forEach(([x, y], i) => {
      const c = document.createElementNS(NS, "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", 10);
      const t = document.createElementNS(NS, "text");
      t.setAttribute("x", x + 14); t.setAttribute("y", y - 10); t.textContent = i + 1;
      parts.push(c, t);
    });
    marks.replaceChildren(...parts);
    $("points").textContent = points.map((p, i) => `${i + 1}: ${p[0]},${p[1]}`).join("   ");
    $("send").disabled = points.length !== 4;
  }

  img.addEventListener("click", (e) => {
    if (points.length >= 4) return;
    const box = img.getBoundingClientRect();
    const x = Math.round((e.clientX - box.left) * img.naturalWidth / box.width);
    const y = Math.round((e.clientY - box.top) * img.naturalHeight / box.height);
    points.push([x, y]);
    $("cal-state").textContent = points.length < 4 ? T("Click corner {n}.", {n: points.length + 1}) :
      T("Four corners set: use them, or start again.");
    draw();
  });
  $("reset").addEventListener("click", () => { points = []; draw(); });
  $("reload").addEventListener("click", load);
  $("send").addEventListener("click", async () => {
    const reply = await fetch("/api/corners", {
      method: "POST",
      headers: {"Content-Type": "application/json", Authorization: "Bearer " + token},
      body: JSON.stringify({points}),
    }).catch(() => null);
    const body = reply ? await reply.json().catch(() => ({})) : {};
    $("cal-state").textContent = reply && reply.ok ? T("The referee now uses these corners.") :
      T("Not accepted: {why}", {why: body.error || T("the referee cannot be reached")});
  });
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    token = $("admin-token").value.trim();
    load();
  });
  if (token) load();
})();
