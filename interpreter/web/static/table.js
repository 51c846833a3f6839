// A seat at the table: the server sends this seat's own view after every change (its observation, its own legal
// choices, its narration); a click sends {type: "act", seq, label}, seq naming the decision the click was for.
"use strict";

const parts = location.pathname.split("/");          // /table/T/S
const TABLE = parts[2], SEAT = parts[3];
const TOKEN = new URLSearchParams(location.search).get("token") || "";
let faces = {};
let view = null;
let socket = null;
let retry = 500;
let logLines = 0;

// one card: its face (SVG from the server) or, without one, a box with its label
function card(label, attrs) {
  const c = el("div", Object.assign({class: "card", "data-label": label}, attrs || {}));
  const face = faces[label];
  if (face) {
    c.innerHTML = face;
    c.setAttribute("aria-label", label);
    c.setAttribute("role", "img");
  } else {
    c.classList.add("text-card");
    c.append(el("span", {}, label));
  }
  return c;
}

function connect() {
  const url = new URL(`/ws/${TABLE}/${SEAT}?token=${encodeURIComponent(TOKEN)}`, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url.href);
  socket.onopen = () => { retry = 500; setConnection(true); };
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "view") show(msg);
    else if (msg.type === "refused") showRefused(msg.reason);
  };
  socket.onclose = (event) => {
    setConnection(false);
    if (event.code === 4404) { $("turn").textContent = "This link is not a seat at any table (check the link)."; return; }
    if (event.code === 4409) { $("turn").textContent = SEAT === "watch" ? "This table is watched in many windows: reload to watch here." : "This seat was opened in more windows: reload to play here."; return; }
    if (event.code === 4410) { $("turn").textContent = "This table's time is up: it has been taken away."; return; }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

function setConnection(up) {
  const c = $("connection");
  c.textContent = up ? "connected" : "reconnecting";
  c.className = up ? "connected" : "reconnecting";
}

function act(label) {
  if (!view || !socket || socket.readyState !== WebSocket.OPEN) return;
  $("refused").textContent = "";
  socket.send(JSON.stringify({type: "act", seq: view.seq, label}));
}

function showRefused(reason) {
  $("refused").textContent = `Not taken: ${reason}`;
}

function show(v) {
  if (v.faces) faces = v.faces;
  if (v.log_from === 0) { $("log").replaceChildren(); logLines = 0; }
  view = v;
  const who = v.watching ? "watching" : `you are ${v.seat_name}`;  // the watch link: the public view, no seat
  document.title = `${v.title}: ${v.watching ? "watching" : v.seat_name}`;
  $("title").textContent = `${v.title}: ${who}`;
  $("mine").hidden = !!v.watching;
  $("round").textContent = `round ${v.round}${v.step ? ` (${v.step})` : ""}`;
  $("stopped").hidden = !v.stopped;
  $("stopped-why").textContent = v.stopped || "";
  $("turn").textContent = v.stopped ? "The table has stopped." : v.over ? "The game is over." : turnText(v);
  $("turn").className = v.your_turn ? "mine" : "";
  showSeats(v);
  showBoard(v);
  showTrick(v);
  showHand(v);
  showZones(v);
  $("status").replaceChildren(...v.status.map(([title, text]) => el("div", {class: "status-line"}, `${title}: ${text}`)));
  showTricksWon(v);
  showScores(v);
  const log = $("log");
  for (const line of v.log) log.append(el("div", {class: "log-line"}, line));
  logLines += v.log.length;
  log.scrollTop = log.scrollHeight;
  const over = $("game-over");
  over.hidden = !v.over;
  if (v.over) {
    $("winners").textContent = `Winner${v.winners.length === 1 ? "" : "s"}: ${v.winners.join(", ")} (totals: ` +
      Object.entries(v.totals).map(([s, t]) => `${s} ${t}`).join(", ") + ")";
    $("record").href = `/table/${TABLE}/${SEAT}/record?token=${encodeURIComponent(TOKEN)}`;
  }
}

// whose turn: in a step whose choices are made together everyone chooses at once, and a seat that has chosen
// waits for the others (never told what they pick before all have chosen)
function turnText(v) {
  const prompt = v.prompt ? `: ${v.prompt}` : "";
  if (v.together) {
    if (v.your_turn) return `Your turn, everyone chooses at once${prompt}`;
    const chose = v.chosen.length ? `You chose ${v.chosen.join(", ")}. ` : "";
    return chose + (v.waiting.length ? `Waiting for ${v.waiting.join(", ")}` : "Everyone has chosen");
  }
  return v.your_turn ? `Your turn${prompt}` : v.to_act ? `${v.to_act} to act` : "Dealing…";
}

function showSeats(v) {
  const row = $("seats-row");
  row.replaceChildren(...v.seats.map((name, i) => {
    const acting = v.together ? v.waiting.includes(name) : name === v.to_act;
    const d = el("div", {class: "seat-box" + (acting ? " to-act" : "") + (i === v.seat ? " me" : ""),
                         "data-seat": name});
    d.append(el("strong", {}, name + (i === v.seat ? " (you)" : "")),
             el("span", {}, ` ${v.kinds[i] === "person" ? "" : v.kinds[i]}`.trimEnd()),
             el("span", {class: "total"}, ` total ${v.totals[name]}`));
    if (name === v.dealer) d.append(el("span", {class: "dealer"}, " dealer"));
    return d;
  }));
}

function showTrick(v) {
  $("leader").textContent = v.leader ? (v.leader === v.seat_name ? "You lead" : `${v.leader} leads`) : "";
  $("trick").replaceChildren(...v.trick.map(([seat, label]) => {
    const wrap = el("figure", {class: "played"});
    wrap.append(card(label, {"data-seat": seat}), el("figcaption", {}, seat));
    return wrap;
  }));
  const last = v.last_trick;
  $("last-trick").textContent = last && !v.trick.length
    ? `Last trick: ${last.cards.map(([s, c]) => `${s} ${c}`).join(", ")}${last.winner ? ` (${last.winner} won it)` : ""}` : "";
}

function showHand(v) {
  $("hand-title").textContent = v.hand_zone ? `Your ${v.hand_zone}` : "Your hand";
  $("hand").replaceChildren(...v.hand.map((c) => {
    const e = card(c.label, c.legal ? {tabindex: "0"} : {title: c.why});
    // dimmed: refused in a choice of cards; idle: no card is chosen now (readable, not clickable)
    e.classList.add(c.legal ? "legal" : v.hand_choice ? "dimmed" : "idle");
    if (c.legal) {
      e.addEventListener("click", () => act(c.label));
      e.addEventListener("keydown", (k) => { if (k.key === "Enter" || k.key === " ") { k.preventDefault(); act(c.label); } });
    } else if (c.why) {  // a tap says why (a phone shows no hover title)
      e.addEventListener("click", () => { $("refused").textContent = `Not now: ${c.label}: ${c.why}`; });
    }
    return e;
  }));
  $("actions").replaceChildren(...v.actions.map((label) => {
    const b = el("button", {class: "action", type: "button", "data-label": label}, label);
    b.addEventListener("click", () => act(label));
    return b;
  }));
}

// a board step: its rows of spaces as declared, each covered space marked with who covered it, what each row
// has left; the spaces this seat may cover now are buttons
function showBoard(v) {
  const box = $("board");
  box.hidden = !v.board;
  box.replaceChildren(...(v.board || []).map((row) => {
    const r = el("div", {class: "board-row", "data-row": row.row});
    const spaces = el("div", {class: "board-spaces"});
    spaces.append(...row.spaces.map((s) => {
      if (s.action) {
        const b = el("button", {class: "action space", type: "button", "data-label": s.action}, s.label);
        b.addEventListener("click", () => act(s.action));
        return b;
      }
      const d = el("span", {class: "space " + (s.open ? "open" : "covered"), "data-space": s.label});
      d.append(el("span", {class: "space-label"}, s.label));
      if (!s.open) {
        const who = s.by === null ? "covered before play" : s.by === v.seat_name ? "you" : s.by;
        d.append(el("span", {class: "marker", "data-by": s.by === null ? "" : s.by}, who));
        d.setAttribute("title", `${s.label}: covered ${s.by === null ? "before play" : `by ${s.by}`}`);
      }
      return d;
    }));
    r.append(el("span", {class: "board-title"}, row.title), spaces,
             el("span", {class: "board-left"}, `${row.left} left`));
    return r;
  }));
}

function showZones(v) {
  $("zones").replaceChildren(...v.zones.map((z) => {
    const d = el("div", {class: "zone"});
    const whose = z.seat === null ? "" : z.seat === v.seat_name ? "your " : `${z.seat}'s `;
    d.append(el("span", {class: "zone-name"}, `${whose}${z.zone}: `));
    if (z.cards) {
      const row = el("div", {class: "zone-cards"});
      row.append(...z.cards.map((label) => card(label)));
      d.append(row);
    } else {
      d.append(el("span", {}, `${z.count} card${z.count === 1 ? "" : "s"}`));
    }
    return d;
  }));
}

function showTricksWon(v) {
  const names = Object.keys(v.counters);
  const box = $("tricks-won");
  if (!names.length) { box.replaceChildren(); return; }
  const table = el("table");
  const head = el("tr");
  head.append(el("th", {}, ""), ...names.map((n) => el("th", {}, n)));
  table.append(head);
  for (const seat of v.seats) {
    const tr = el("tr", {"data-seat": seat});
    tr.append(el("th", {}, seat), ...names.map((n) => el("td", {}, String(v.counters[n][seat] ?? ""))));
    table.append(tr);
  }
  box.replaceChildren(table);
}

function showScores(v) {
  $("scores").replaceChildren(...v.scores.map((r) => {
    const d = el("div", {class: "round-score", "data-round": r.round});
    d.append(el("strong", {}, `Round ${r.round}: `),
             el("span", {}, Object.entries(r.scores).map(([s, n]) => `${s} ${n >= 0 ? "+" : ""}${n}`).join(", ")),
             el("span", {class: "totals"}, ` (totals ${Object.entries(r.totals).map(([s, n]) => `${s} ${n}`).join(", ")})`));
    if (r.lines.length) {
      const ul = el("ul");
      ul.append(...r.lines.map((line) => el("li", {}, line)));
      d.append(ul);
    }
    return d;
  }).reverse());
}

connect();
