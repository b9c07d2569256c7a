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

// -- the felt ------------------------------------------------------------------
const AREA_NAMES = {
  "player hand": "Player", "banker hand": "Banker",
  player: "Player", banker: "Banker", dealer: "Dealer",
};

function cardsRow(cards, opts) {
  // A row of cards; a face-down stack (no card known) is drawn squared up.
  const o = opts || {};
  const allBacks = cards.length > 2 && cards.every((c) => !c.card);
  const row = Croupier.el("div", "cards" + (o.pickable ? " pickable" : "") +
                          (allBacks ? " stack" : ""));
  for (const c of cards) {
    const el = Croupier.cardEl(c.card, c.purpose);
    if (o.pickable && c.card) {
      if (c.card === pickedLow) el.classList.add("picked");
      el.title = "Click to make this your low hand";
      el.addEventListener("click", () => { pickedLow = c.card; render(state); });
    }
    row.appendChild(el);
  }
  return row;
}

function setHands(set) {
  // A pai gow position's set hands: the high five and the low one.
  const box = Croupier.el("div", "set-hands");
  const high = Croupier.el("div", "set-high");
  high.appendChild(cardsRow(set.high.map((card) => ({card}))));
  high.appendChild(Croupier.el("div", "caption", "High: " + set.desc));
  const low = Croupier.el("div", "set-low");
  low.appendChild(cardsRow([{card: set.low}]));
  low.appendChild(Croupier.el("div", "caption", "Low"));
  box.appendChild(high);
  box.appendChild(low);
  return box;
}

function totalText(game, pos, h, view) {
  // The total a player would be told for a hand, if the game has one.
  const cards = h.cards;
  if (game === "double-back-jack") {
    if (!cards.some((c) => c.card)) return "";
    const t = Croupier.bjTotal(cards);
    const hidden = cards.some((c) => !c.card);
    const sc = cards.some((c) => c.purpose === "second chance");
    if (hidden) return "showing " + t.value;
    if (!sc && cards.length === 2 && t.value === 21 && pos.hands.length === 1 &&
        pos.seat !== null) return "Blackjack";
    if (t.value > 21) return t.value + " \u00b7 bust";
    return (t.soft ? "soft " : "") + t.value + (sc ? " after Second Chance" : "");
  }
  if (!view) return "";
  if (game === "21-baccarat") {
    const side = view[pos.label.split(" ")[0]];
    if (!side || typeof side.total !== "number") return "";
    let txt = (side.soft ? "soft " : "") + side.total;
    if (side.total > 21) txt += " \u00b7 bust";
    if (side.natural) txt += " \u00b7 natural";
    return txt;
  }
  const count = view[pos.label + "_count"];
  return typeof count === "number" ? String(count) : "";
}

function handBox(game, pos, h, idx, view, opts) {
  const o = opts || {};
  const box = Croupier.el("div", "hand" + (h.final ? " final" : "") +
                          (o.acting ? " acting" : ""));
  box.dataset.hand = idx;
  if (pos.hands.length > 1 && pos.seat !== null) {
    box.appendChild(Croupier.el("div", "caption", "hand " + (idx + 1)));
  }
  const main = h.cards.filter((c) => c.purpose !== "bonus only");
  const bonus = h.cards.filter((c) => c.purpose === "bonus only");
  const line = Croupier.el("div", "hand-line");
  line.appendChild(cardsRow(main, {pickable: o.pickable}));
  if (bonus.length) {
    const b = Croupier.el("div", "bonus-row");
    b.appendChild(cardsRow(bonus));
    b.appendChild(Croupier.el("div", "caption", "Bonus only"));
    b.title = "Dealt for the Bonus Wager only: not part of the hand's total";
    line.appendChild(b);
  }
  box.appendChild(line);
  const total = totalText(game, pos, h, view);
  if (total) box.appendChild(Croupier.el("div", "total", total));
  return box;
}

function positionBoxes(game, pos, view, opts) {
  // The hands still on the felt at a position (discarded ones are gone).
  const out = [];
  if (pos.set && pos.hands.some((h) => !h.gone)) {
    const hand = Croupier.el("div", "hand" +
      (pos.hands.every((h) => h.final || h.gone) ? " final" : ""));
    hand.appendChild(setHands(pos.set));
    return [hand];
  }
  pos.hands.forEach((h, i) => {
    if (h.gone || !h.cards.length) return;
    out.push(handBox(game, pos, h, i, view, {
      pickable: opts.pickable,
      acting: opts.actingHand === i,
    }));
  });
  return out;
}

function betRow(st, result, cls) {
  const row = Croupier.el("div", "bet " + (cls || ""));
  row.dataset.wager = st.wager;
  const chip = Croupier.chipEl(st.amount);
  chip.classList.add("mini");
  row.appendChild(chip);
  row.appendChild(Croupier.el("span", "name",
    Croupier.wagerName(st.wager) + (st.hand ? " (hand " + (st.hand + 1) + ")" : "")));
  if (result) {
    const sign = result.net > 0 ? "+" : "";
    const word = {win: "won", lose: "lost", push: "push", void: "void"}[
      result.outcome] || result.outcome;
    const r = Croupier.el("span", "result " + result.outcome,
      result.net || result.outcome === "win" || result.outcome === "lose"
        ? word + " " + sign + Croupier.money(result.net) : word);
    if (result.commission) {
      r.title = "after " + Croupier.money(result.commission) + " commission";
    }
    row.appendChild(r);
  } else {
    row.appendChild(Croupier.el("span", "amount", Croupier.money(st.amount)));
  }
  return row;
}

function seatXY(seat, n) {
  // Seats evenly spaced along the rail, curving down towards the middle;
  // seat 1 is on the dealer's left (the right side of the screen), as at
  // a real table.
  const t = n > 1 ? (seat - 1) / (n - 1) : 0.5;
  return [88 - 76 * t, 28 + 22 * Math.sin(Math.PI * (0.1 + 0.8 * t))];
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
  const showingLast = Boolean(betting && s.last);
  const shown = showingLast ? s.last : rnd;
  const finished = showingLast || Boolean(rnd && rnd.status === "over");
  const felt0 = Croupier.feltFrom(shown ? shown.events : [], finished);
  const view = shown ? shown.view : null;
  const mySeat = you ? you.seat : null;
  const pending = rnd ? rnd.pending : null;
  const myTurn = pending && mySeat && pending.seat === mySeat;
  const legal = myTurn ? pending.legal : [];

  const felt = document.getElementById("felt");
  felt.classList.toggle("last-round", showingLast);
  felt.dataset.game = t.game;

  // dealer / banker / player areas
  const drow = document.getElementById("dealer-row");
  drow.innerHTML = "";
  for (const pos of felt0.positions) {
    if (pos.seat !== null) continue;
    const boxes = positionBoxes(t.game, pos, view, {});
    const area = Croupier.el("div", "area " +
      (pos.label === "dealer" ? "dealer" : "side"));
    area.dataset.label = pos.label;
    area.appendChild(Croupier.el("div", "label",
      AREA_NAMES[pos.label] || pos.label));
    for (const b of boxes) area.appendChild(b);
    if (!boxes.length) area.classList.add("empty");
    drow.appendChild(area);
  }

  // the dealer's last word, in the middle of the felt
  const banner = document.getElementById("banner");
  banner.textContent = "";
  if (showingLast) {
    banner.appendChild(Croupier.el("div", "tag", "Last round"));
  }
  for (const text of felt0.announcements.slice(-3)) {
    banner.appendChild(Croupier.el("div", "say", text));
  }
  banner.style.display = banner.childNodes.length ? "" : "none";

  // seats along the arc
  for (const old of felt.querySelectorAll(".seat")) old.remove();
  const n = t.seat_count;
  const stakes = rnd ? rnd.stakes : [];
  const results = shown ? shown.settlements : [];
  const lastResults = showingLast ? s.last.settlements : [];
  const bySeat = {};
  for (const pos of felt0.positions) if (pos.seat !== null) bySeat[pos.seat] = pos;
  for (let seat = 1; seat <= n; seat++) {
    const [x, y] = seatXY(seat, n);
    const box = Croupier.el("div", n > 6 ? "seat narrow" : "seat");
    if (x < 35) box.classList.add("left");
    if (x > 65) box.classList.add("right");
    box.style.left = x + "%";
    box.style.top = y + "%";
    box.dataset.seat = seat;
    const owner = t.seats.find((o) => o.seat === seat);
    if (seat === mySeat) box.classList.add("mine");
    if (pending && pending.seat === seat) box.classList.add("to-act");
    const hands = Croupier.el("div", "hands");
    const pos = bySeat[seat];
    if (pos) {
      for (const b of positionBoxes(t.game, pos, view, {
        pickable: seat === mySeat && legal.includes("set"),
        actingHand: pending && pending.seat === seat ? (pending.hand || 0) : null,
      })) hands.appendChild(b);
    }
    box.appendChild(hands);
    const spot = Croupier.el("div", "spot");
    const mine = stakes.filter((x) => x.seat === seat);
    for (const st of mine) {
      const c = Croupier.chipEl(st.amount);
      c.title = Croupier.wagerName(st.wager) + " " + Croupier.money(st.amount);
      spot.appendChild(c);
    }
    if (!spot.childNodes.length) spot.textContent = "seat " + seat;
    box.appendChild(spot);
    const bets = Croupier.el("div", "bets");
    for (const st of mine) {
      const r = betting ? null : results.find((x) => x.seat === seat &&
        x.wager === st.wager && (x.hand || 0) === (st.hand || 0));
      bets.appendChild(betRow(st, r));
    }
    const last = lastResults.filter((x) => x.seat === seat);
    if (last.length) {
      bets.appendChild(Croupier.el("div", "caption", "last round"));
      for (const r of last) bets.appendChild(betRow(r, r, "last"));
    }
    if (bets.childNodes.length) box.appendChild(bets);
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

  // status
  const status = document.getElementById("status");
  const acts = (p) => p.legal.map(Croupier.actionName).join(", ");
  if (!rnd) status.textContent = "No round.";
  else if (pending) {
    const whose = myTurn ? "Your turn" : "Seat " + pending.seat + " to act";
    const hand = pending.hand ? ", hand " + (pending.hand + 1) : "";
    status.innerHTML = whose + hand + ' (<span class="ref">§ ' +
      pending.ref + "</span>): ";
    status.appendChild(document.createTextNode(acts(pending)));
  } else {
    status.textContent = betting
      ? "Place your wagers, then call the deal."
      : "The dealer is at: " + rnd.phase.replace(/_/g, " ");
  }
  const info = document.getElementById("info");
  info.innerHTML = "";
  if (view && typeof view.progressive_meter === "number") {
    info.appendChild(Croupier.el("div", "",
      "Progressive meter: " + Croupier.money(view.progressive_meter)));
  }
  if (view && view.shoe && typeof view.shoe.cards_left === "number") {
    info.appendChild(Croupier.el("div", "",
      "Cards left in the shoe: " + view.shoe.cards_left));
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
    const line = Croupier.el("div", ev.type === "phase_entered" ? "phase" : "");
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
    // A wager of a fixed size (the pai gow Progressive Payout Wager,
    // 670a.9(a)(3)(ii)) is always made for exactly that amount.
    const fixed = t.rules ? t.rules[w + "_wager_amount"] : undefined;
    const amount = typeof fixed === "number" ? fixed
      : Math.min(Math.max(chip, lim[0]), lim[1]);
    const b = Croupier.el("button", "btn secondary",
      Croupier.wagerName(w) + " " + Croupier.money(amount));
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
    input.placeholder = "$ amount";
    input.title = "Optional: an amount in dollars (double for less, " +
      "partial insurance)";
    input.step = "0.01";
    input.min = "0";
    input.style.width = "7em";
  }
  for (const a of legal) {
    const b = Croupier.el("button", "btn", Croupier.actionName(a));
    b.dataset.action = a;
    b.addEventListener("click", () => {
      const body = {seat: mySeat, action: a};
      if (AMOUNT_ACTIONS.includes(a) && input && input.value) {
        body.amount = Math.round(parseFloat(input.value) * 100);
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
      "To set your own hands, click the card for your low hand, then " +
      "“Set my hands”; or ask for the house way."));
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
