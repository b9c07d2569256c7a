// The table page: draws the felt from the seat-filtered events the
// server pushes over the WebSocket, and offers only the legal actions.
"use strict";

const TABLE_ID = parseInt(location.pathname.split("/").pop(), 10);
const CHIPS = [100, 500, 2500, 10000, 50000];
const AMOUNT_ACTIONS = ["double", "insurance", "double_down"];
let state = null;
let chip = 500;
let pickedLow = null;

function showError(msg) {
  document.getElementById("error").textContent = msg || "";
}

async function call(method, path, body) {
  showError("");
  try {
    const s = await Croupier.api(method, path, body);
    if (s && s.table) render(s);
    return s;
  } catch (e) {
    showError(e.message);
    return null;
  }
}

// -- hands from events ------------------------------------------------------
function handsFrom(events) {
  const hands = {};          // label -> {hand index -> [card|null]}
  const order = [];
  for (const ev of events) {
    if (ev.type === "card_dealt") {
      const label = ev.to;
      if (!hands[label]) { hands[label] = {}; order.push(label); }
      const h = ev.hand || 0;
      (hands[label][h] = hands[label][h] || []).push(ev.card);
    } else if (ev.type === "card_exposed") {
      const byHand = hands[ev.to];
      if (!byHand) continue;
      for (const h of Object.keys(byHand)) {
        const i = byHand[h].indexOf(null);
        if (i >= 0) { byHand[h][i] = ev.card; break; }
      }
    }
  }
  return {hands, order};
}

function seatOf(label) {
  const m = /^seat (\d+)/.exec(label);
  return m ? parseInt(m[1], 10) : null;
}

function cardsRow(cards, pickable) {
  const row = Croupier.el("div", "cards" + (pickable ? " pickable" : ""));
  for (const c of cards) {
    const el = Croupier.cardEl(c);
    if (pickable && c) {
      if (c === pickedLow) el.classList.add("picked");
      el.addEventListener("click", () => { pickedLow = c; render(state); });
    }
    row.appendChild(el);
  }
  return row;
}

function totalsIn(view) {
  // Totals the game reports, whatever the shape of its view.
  const out = [];
  const walk = (obj, path) => {
    if (!obj || typeof obj !== "object") return;
    for (const [k, v] of Object.entries(obj)) {
      if (typeof v === "number" && /total|count/.test(k) &&
          !/cards/.test(k)) {
        out.push([path.concat(k).join(" "), v]);
      } else if (typeof v === "object" && path.length < 3) {
        walk(v, path.concat(isNaN(k) ? k : []));
      }
    }
  };
  walk(view, []);
  return out;
}

// -- rendering -----------------------------------------------------------------
function render(s) {
  state = s;
  const t = s.table, you = s.you, rnd = s.round;
  document.title = "croupier — " + t.name;
  document.getElementById("title").textContent = t.name;
  document.getElementById("section").innerHTML =
    '<span class="ref">§ ' + t.section + "</span> · limits " +
    Croupier.money(t.min_bet) + "–" + Croupier.money(t.max_bet);
  document.getElementById("who").textContent = you ? you.name : "spectator";
  document.getElementById("balance").textContent =
    you ? Croupier.money(you.balance) : "";
  document.getElementById("legend").textContent = t.title;

  const betting = rnd && rnd.status === "betting";
  const shown = betting && s.last ? s.last : rnd;
  const {hands, order} = handsFrom(shown ? shown.events : []);
  const mySeat = you ? you.seat : null;
  const pending = rnd ? rnd.pending : null;
  const myTurn = pending && mySeat && pending.seat === mySeat;
  const legal = myTurn ? pending.legal : [];

  // dealer / banker / player areas
  const drow = document.getElementById("dealer-row");
  drow.innerHTML = "";
  for (const label of order) {
    if (seatOf(label) !== null) continue;
    const area = Croupier.el("div", "area");
    area.dataset.label = label;
    area.appendChild(Croupier.el("div", "label", label));
    for (const h of Object.keys(hands[label])) {
      area.appendChild(cardsRow(hands[label][h], false));
    }
    drow.appendChild(area);
  }

  // seats along the arc; seat 1 is on the dealer's left (our right)
  const felt = document.getElementById("felt");
  for (const old of felt.querySelectorAll(".seat")) old.remove();
  const n = t.seat_count;
  const stakes = rnd ? rnd.stakes : [];
  const results = shown ? shown.settlements : [];
  for (let seat = 1; seat <= n; seat++) {
    const theta = Math.PI * (0.1 + 0.8 * (seat - 1) / Math.max(1, n - 1));
    const x = 50 + 41 * Math.cos(theta);
    const y = 26 + 30 * Math.sin(theta);
    const box = Croupier.el("div", n > 7 ? "seat narrow" : "seat");
    box.style.left = x + "%";
    box.style.top = y + "%";
    box.dataset.seat = seat;
    const owner = t.seats.find((o) => o.seat === seat);
    if (seat === mySeat) box.classList.add("mine");
    if (pending && pending.seat === seat) box.classList.add("to-act");
    const labels = order.filter((l) => seatOf(l) === seat);
    for (const label of labels) {
      for (const h of Object.keys(hands[label])) {
        const pick = seat === mySeat && legal.includes("set");
        box.appendChild(cardsRow(hands[label][h], pick));
      }
    }
    const spot = Croupier.el("div", "spot");
    for (const st of stakes.filter((x) => x.seat === seat)) {
      const c = Croupier.chipEl(st.amount);
      c.title = st.wager + " " + Croupier.money(st.amount);
      spot.appendChild(c);
    }
    if (!spot.childNodes.length) spot.textContent = "seat " + seat;
    box.appendChild(spot);
    for (const r of results.filter((x) => x.seat === seat)) {
      const sign = r.net >= 0 ? "+" : "";
      box.appendChild(Croupier.el("div", "result " + r.outcome,
        r.wager + " " + r.outcome + " " + sign + Croupier.money(r.net)));
    }
    if (owner) {
      box.appendChild(Croupier.el("div", "who", owner.name));
    } else if (you && !mySeat) {
      const sit = Croupier.el("button", "btn secondary", "Sit here");
      sit.dataset.sit = seat;
      sit.addEventListener("click", () =>
        call("POST", "/tables/" + TABLE_ID + "/seats", {seat}));
      box.appendChild(sit);
    }
    felt.appendChild(box);
  }

  // status and totals
  const status = document.getElementById("status");
  if (!rnd) status.textContent = "No round.";
  else if (pending) {
    status.innerHTML = "Seat " + pending.seat + " to act (" +
      '<span class="ref">§ ' + pending.ref + "</span>): " +
      pending.legal.join(", ");
  } else {
    status.textContent = betting
      ? "Place your wagers, then call the deal."
      : "Phase: " + rnd.phase.replace(/_/g, " ");
  }
  const info = document.getElementById("info");
  info.innerHTML = "";
  for (const [k, v] of totalsIn(shown ? shown.view : {})) {
    info.appendChild(Croupier.el("div", "", k + ": " + v));
  }
  document.getElementById("status-panel").dataset.status =
    rnd ? rnd.status : "";

  renderBetting(t, you, rnd, mySeat, betting);
  renderActions(rnd, mySeat, legal, pending);

  // narration with the § of every step
  const nar = document.getElementById("narration");
  nar.innerHTML = "";
  const evs = [].concat(betting && s.last ? s.last.events : [],
                        rnd ? rnd.events : []);
  for (const ev of evs) {
    const line = Croupier.el("div");
    line.innerHTML = ev.ref ? '<span class="ref">§ ' + ev.ref + "</span> " : "";
    line.appendChild(document.createTextNode(Croupier.describe(ev)));
    nar.appendChild(line);
  }
  nar.scrollTop = nar.scrollHeight;
}

function renderBetting(t, you, rnd, mySeat, betting) {
  const pick = document.getElementById("chip-pick");
  pick.innerHTML = "";
  for (const v of CHIPS) {
    if (v < t.min_bet || v > t.max_bet) continue;
    const c = Croupier.chipEl(v);
    if (v === chip) c.classList.add("sel");
    c.addEventListener("click", () => { chip = v; render(state); });
    pick.appendChild(c);
  }
  const wb = document.getElementById("wager-buttons");
  wb.innerHTML = "";
  const deal = document.getElementById("deal-box");
  deal.innerHTML = "";
  if (!you) {
    wb.textContent = "Get chips in the lobby to play.";
    return;
  }
  if (!mySeat) {
    wb.textContent = "Take a seat at the table.";
    return;
  }
  if (!betting) return;
  for (const w of t.wagers) {
    const lim = t.wager_limits[w] || [t.min_bet, t.max_bet];
    const amount = Math.min(Math.max(chip, lim[0]), lim[1]);
    const b = Croupier.el("button", "btn secondary",
      w.replace(/_/g, " ") + " " + Croupier.money(amount));
    b.dataset.wager = w;
    b.addEventListener("click", () =>
      call("POST", "/tables/" + TABLE_ID + "/wagers",
           {seat: mySeat, wager: w, amount}));
    wb.appendChild(b);
  }
  const mine = rnd.stakes.some((x) => x.seat === mySeat);
  const d = Croupier.el("button", "btn", "Deal");
  d.id = "deal";
  d.disabled = !mine;
  d.addEventListener("click", () =>
    call("POST", "/tables/" + TABLE_ID + "/deal"));
  deal.appendChild(d);
}

function renderActions(rnd, mySeat, legal, pending) {
  const box = document.getElementById("actions");
  box.innerHTML = "";
  if (!legal.length) {
    box.textContent = pending ? "Waiting for seat " + pending.seat + "." :
      "Nothing to decide.";
    return;
  }
  const main = rnd.stakes.find((x) => x.seat === mySeat);
  let input = null;
  if (legal.some((a) => AMOUNT_ACTIONS.includes(a))) {
    input = Croupier.el("input", "field");
    input.type = "number";
    input.id = "amount";
    input.placeholder = "amount (optional)";
    input.style.width = "9em";
  }
  for (const a of legal) {
    const b = Croupier.el("button", "btn", a.replace(/_/g, " "));
    b.dataset.action = a;
    b.addEventListener("click", () => {
      const body = {seat: mySeat, action: a};
      if (AMOUNT_ACTIONS.includes(a) && input && input.value) {
        body.amount = parseInt(input.value, 10);
      } else if (a === "insurance" && main) {
        body.amount = Math.floor(main.amount / 2);
      }
      if (a === "set") {
        if (!pickedLow) { showError("Click the card for your low hand."); return; }
        body.low = pickedLow;
      }
      pickedLow = null;
      call("POST", "/tables/" + TABLE_ID + "/actions", body);
    });
    box.appendChild(b);
  }
  if (input) box.appendChild(input);
  if (legal.includes("set")) {
    box.appendChild(Croupier.el("div", "",
      "To set your own hands, click your low-hand card, then “set”."));
  }
}

// -- live updates ----------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const token = Croupier.token();
  const url = proto + "//" + location.host + "/ws/tables/" + TABLE_ID +
    (token ? "?token=" + encodeURIComponent(token) : "");
  const ws = new WebSocket(url);
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "table") render(msg.data);
  };
  ws.onclose = () => setTimeout(connect, 1500);
}

document.getElementById("recall-link").href = "/recall?table=" + TABLE_ID;
connect();
