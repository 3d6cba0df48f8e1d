// The treasure enrolment view: the admin names each picture the referee does not know
// yet (POST /api/enrol). The list follows the referee through the event stream: every
// event (a notice that pictures wait, the game starting) fetches /api/enrol again.
"use strict";

(function () {
  const TOKEN_KEY = "referee-admin-token";  // shared with the status page and calibration
  const $ = (id) => document.getElementById(id);
  $("admin-token").value = localStorage.getItem(TOKEN_KEY) || "";
  let names = [], printed = {};

  function figure(picture) {
    const fig = document.createElement("figure");
    fig.className = "picture";
    fig.dataset.id = picture.id;
    const img = document.createElement("img");
    img.src = picture.png;
    img.alt = T("the picture on {cell}", {cell: picture.cell});
    const caption = document.createElement("figcaption");
    caption.textContent = "on " + picture.cell;
    const select = document.createElement("select");
    select.name = picture.id;
    select.setAttribute("aria-label", "the name of the picture on " + picture.cell);
    for (const name of ["", ...names]) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = name ? printed[name] || name : "choose...";
      select.append(option);
    }
    fig.append(img, caption, select);
    return fig;
  }

  function render(view) {
    names = view.names;
    printed = view.printed || {};
    $("enrol-state").textContent = view.message;
    $("enrol-state").dataset.state = view.state;
    const box = $("pictures");
    const chosen = {};  // keep what the admin already picked for pictures still shown
    box.querySelectorAll("select").forEach((s) => { chosen[s.name] = s.value; });
    box.replaceChildren(...view.pictures.map(figure));
    box.querySelectorAll("select").forEach((s) => { if (chosen[s.name]) s.value = chosen[s.name]; });
    $("save").disabled = view.pictures.length === 0;
    $("known").textContent = view.known.map((name) => printed[name] || name).join(", ") || T("none yet");
  }

  async function refresh() {
    const reply = await fetch("/api/enrol").catch(() => null);
    if (reply && reply.ok) render(await reply.json());
  }

  $("enrol-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const token = $("admin-token").value.trim();
    const picked = {};
    $("pictures").querySelectorAll("select").forEach((s) => { if (s.value) picked[s.name] = s.value; });
    if (!Object.keys(picked).length) {
      $("enrol-result").textContent = T("Choose a name for at least one picture.");
      return;
    }
    const reply = await fetch("/api/enrol", {
      method: "POST",
      headers: {"Content-Type": "application/json", Authorization: "Bearer " + token},
      body: JSON.stringify({names: picked}),
    }).catch(() => null);
    const body = reply ? await reply.json().catch(() => ({})) : {};
    if (!reply) {
      $("enrol-result").textContent = T("The referee cannot be reached.");
    } else if (!reply.ok) {
      $("enrol-result").textContent = body.error || T("The names were refused.");
    } else {
      localStorage.setItem(TOKEN_KEY, token);
      $("enrol-result").textContent = body.event ? T("Named. The game has started.") : T("Named.") + " " + (body.waiting || "");
    }
    refresh();
  });

  const events = new EventSource("/events");
  events.onmessage = refresh;
  events.onopen = refresh;  // catch up after a reconnection
})();
