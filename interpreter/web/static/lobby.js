// The lobby: choose a game (bundled, or a rule file pasted or uploaded and checked by the server), the players,
// the options and each seat's kind; the server makes the table and gives each person seat its private link.
"use strict";

let info = null;          // the chosen game's players, seats and options (from /api/rules)
let pending = null;       // the request for it under way
let checkedText = null;   // the rule file text info belongs to

async function post(url, body) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  let data = {};
  try { data = await r.json(); } catch (e) { data = {error: "the server's answer could not be read"}; }
  return data;
}

function showErrors(errors, kind = "error") {
  const box = $("errors");
  box.replaceChildren();
  for (const e of errors || []) {
    const div = el("div", {class: kind, "data-line": e.line, "data-col": e.col});
    div.append(el("span", {class: "where"}, `line ${e.line}, column ${e.col}: `), el("span", {class: "message"}, e.message));
    if (e.source) div.append(el("pre", {}, e.source + "\n" + e.caret));
    box.append(div);
  }
}

function showProblem(text) {
  showErrors([]);
  $("errors").append(el("div", {class: "problem"}, text));
}

async function loadGames() {
  const games = await (await fetch("/api/games")).json();
  const select = $("game");
  for (const g of games) select.append(el("option", {value: g.name}, `${g.title} (${g.name})`));
  select.append(el("option", {value: "__file__"}, "A rule file of my own…"));
  select.addEventListener("change", chooseGame);
  chooseGame();
}

function chooseGame() {
  const own = $("game").value === "__file__";
  $("own-rules").hidden = !own;
  info = null; checkedText = null;
  showErrors([]);
  if (own) { $("setup").hidden = true; if ($("rules").value.trim()) ensureInfo(); return; }
  ensureInfo();
}

function ensureInfo() {
  const own = $("game").value === "__file__";
  const text = $("rules").value;
  if (info && (!own || checkedText === text)) return Promise.resolve(info);
  const body = own ? {text} : {game: $("game").value};
  if (own && !text.trim()) { showProblem("paste or upload a rule file"); return Promise.resolve(null); }
  const asked = post("/api/rules", body).then((data) => {
    if (pending !== asked) return info;  // a later request took over
    pending = null;
    if (data.errors) { showErrors(data.errors); $("setup").hidden = true; info = null; return null; }
    if (data.error) { showProblem(data.error); $("setup").hidden = true; info = null; return null; }
    showErrors(data.warnings || [], "warning");  // the file plays; what validate warns of, shown all the same
    info = data; checkedText = own ? text : null;
    showSetup();
    return info;
  });
  pending = asked;
  return asked;
}

function showSetup() {
  $("setup").hidden = false;
  $("game-title").textContent = info.title;
  const players = $("players");
  players.replaceChildren(...info.players.map((n) => el("option", {value: n}, `${n} players`)));
  players.onchange = showSeats;
  const options = $("options");
  options.replaceChildren(el("legend", {}, "Options"));
  for (const [name, o] of Object.entries(info.options)) {
    const id = `option-${name}`;
    const row = el("div", {class: "option"});
    let input;
    if (o.choices) {
      input = el("select", {id, dataset: {option: name}});
      for (const c of o.choices) input.append(el("option", {value: String(c)}, String(c)));
      input.value = String(o.default);
    } else if (typeof o.default === "boolean") {
      input = el("input", {id, type: "checkbox", dataset: {option: name}});
      input.checked = o.default;
    } else if (typeof o.default === "number") {
      input = el("input", {id, type: "number", step: "1", dataset: {option: name}});
      input.value = o.default;
    } else {
      input = el("input", {id, type: "text", dataset: {option: name}});
      input.value = o.default ?? "";
    }
    // the option in its description's words; its name in the rule file (what --option takes) as a hint
    const label = el("label", {for: id, title: name}, o.description || name);
    if (input.type === "checkbox") row.append(input, " ", label); else row.append(label, input);
    if (o.description) row.append(el("small", {class: "option-name"}, name));
    options.append(row);
  }
  options.hidden = !Object.keys(info.options).length;
  showSeats();
}

function showSeats() {
  const seats = info.seats[$("players").value];
  const box = $("seats");
  box.replaceChildren(el("legend", {}, "Seats"));
  seats.names.forEach((name, i) => {
    const row = el("div", {class: "seat"});
    row.append(el("span", {class: "seat-name"}, name));
    if (seats.automatic.includes(i)) {
      row.append(el("span", {class: "automatic"}, " plays by the rules (automatic)"));
    } else {
      const kind = el("select", {class: "seat-kind", "aria-label": `${name} is`, dataset: {seat: i}});
      kind.append(el("option", {value: "person"}, "a person"));
      for (const [v, about] of Object.entries(info.agents)) kind.append(el("option", {value: v, title: about}, `${v} bot`));
      kind.value = i === 0 ? "person" : info.default_agent;  // trickbook play's default too
      const its = el("input", {class: "seat-iterations", type: "number", min: "1", max: "5000", step: "1",
                              value: "50", title: "ismcts: samples searched a move", "aria-label": `${name}: iterations`,
                              dataset: {seat: i}});
      const showIts = () => { its.hidden = kind.value !== "ismcts"; };
      kind.addEventListener("change", showIts);
      showIts();
      row.append(kind, its);
    }
    box.append(row);
  });
}

async function create() {
  const button = $("create");
  button.disabled = true;
  try {
    const got = await ensureInfo();
    if (!got) return;
    const n = Number($("players").value);
    const kinds = [], iterations = [];
    for (let i = 0; i < info.seats[n].names.length; i++) {
      const kind = document.querySelector(`select.seat-kind[data-seat="${i}"]`);
      const its = document.querySelector(`input.seat-iterations[data-seat="${i}"]`);
      kinds.push(kind ? kind.value : "automatic");
      iterations.push(its && its.value ? Number(its.value) : 50);
    }
    const options = {};
    for (const input of document.querySelectorAll("#options [data-option]")) {
      const o = info.options[input.dataset.option];
      options[input.dataset.option] = input.type === "checkbox" ? input.checked
        : typeof o.default === "number" ? Number(input.value) : input.value;
      if (o.choices && typeof o.default === "number") options[input.dataset.option] = Number(input.value);
    }
    const seed = $("seed").value.trim();
    const made = await post("/api/tables", {rules: info.rules, players: n, options, kinds, iterations,
                                            seed: seed === "" ? null : Number(seed)});
    if (made.error) { showProblem(made.error); return; }
    showLinks(made);
  } finally {
    button.disabled = false;
  }
}

function showLinks(made) {
  $("links").hidden = false;
  const list = $("link-list");
  list.replaceChildren();
  for (const link of made.links) {
    const href = new URL(link.href, location.href).href;
    const li = el("li");
    li.append(el("a", {class: "join", href, target: "_blank", rel: "noopener noreferrer", dataset: {seat: link.seat}},
                  `${link.name}: ${href}`));
    list.append(li);
  }
  if (!made.links.length) list.append(el("li", {}, `${made.title}: bots only; the game plays itself (its record is kept).`));
  const watch = new URL(made.watch, location.href).href;  // the public view: for onlookers, never a hand
  const li = el("li", {class: "watch"});
  li.append("Watch (the table as everyone sees it, no hand; share it with onlookers): ",
            el("a", {class: "watch", id: "watch-link", href: watch, target: "_blank", rel: "noopener noreferrer"}, watch));
  list.append(li);
}

$("rules").addEventListener("input", () => {
  clearTimeout(window.rulesTimer);
  info = null;
  window.rulesTimer = setTimeout(ensureInfo, 400);
});
$("rules-file").addEventListener("change", async () => {
  const file = $("rules-file").files[0];
  if (!file) return;
  if (file.size > 1000000) { showProblem("the rule file is larger than 1,000,000 bytes"); return; }
  $("rules").value = await file.text();
  info = null;
  ensureInfo();
});
$("create").addEventListener("click", create);
$("table-form").addEventListener("submit", (e) => e.preventDefault());
loadGames();
