// The table page: draws the felt from the seat-filtered events the
// server pushes over the WebSocket, takes bets as chips stacked on the
// spots, and offers only the legal actions. Every request is one
// intended action with its own Idempotency-Key, and every control is
// disabled while a request is in flight (a double click is one action).
"use strict";

const TABLE_ID = parseInt(location.pathname.split("/").pop(), 10);
const CHIPS = [100, 500, 2500, 10000, 50000, 100000];
const AMOUNT_ACTIONS = ["double", "insurance", "double_down"];
const SHORT = {
  perfect_pairs_player: "P Pair", perfect_pairs_banker: "B Pair",
  bonus_player: "P Bonus", bonus_banker: "B Bonus", pai_gow: "Pai Gow",
  fortune_bonus: "Fortune", progressive: "Progr.", second_chance: "2nd Ch.",
  double_down: "Double", blackjack: "Blackjack", dragon7: "Dragon 7",
  panda8: "Panda 8",
};
const PLAYER_KEY = () => "croupier." + TABLE_ID + "." +
  (state && state.you ? state.you.id : "anon");
let state = null;
let chip = 500;
let pickedLow = null;
let busy = false;
let selected = null;          // the spot a typed amount goes to
let undo = {round: null, steps: []};
let announced = {round: null, seq: 0};
let readyPath = "/ready";     // falls back to /deal on an older server
let socket = null;
let gone = false;             // the table does not exist

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function showError(msg) {
  $("error").textContent = msg || "";
}

// -- requests: one action at a time ------------------------------------------
function setBusy(on) {
  busy = on;
  for (const el of document.querySelectorAll(
    "#rail button, #rail input, #seats button")) {
    if (on) el.disabled = true;
  }
  $("rail").setAttribute("aria-busy", on ? "true" : "false");
}

async function request(method, path, body, context) {
  // One request with one Idempotency-Key: a lost connection retries
  // the same key, so the action applies at most once.
  const key = Croupier.newKey();
  for (let attempt = 0; ; attempt++) {
    try {
      const s = await Croupier.api(method, path, body, {key, context});
      if (s && s.table) state = s;
      return s;
    } catch (e) {
      if (e.offline && attempt < 3) { await sleep(700 * (attempt + 1)); continue; }
      throw e;
    }
  }
}

async function withBusy(work) {
  // Run one intended action (possibly several requests, one per wager
  // change) with every control disabled; render once it is done.
  if (busy) return;
  focusWanted = focusKey(document.activeElement);
  setBusy(true);
  try {
    await work();
    showError("");
  } catch (e) {
    showError(e.message);
  } finally {
    busy = false;
    if (state) render(state);
    $("rail").setAttribute("aria-busy", "false");
  }
}

function onAct(el, fn) {
  // A click (or Enter/Space) runs ``fn`` once: the second click of a
  // double click, and any click while a request is in flight, is ignored.
  el.addEventListener("click", (ev) => {
    if (ev.detail > 1 || busy || el.disabled) return;
    fn(ev);
  });
  return el;
}

// -- focus: drawing the table anew never drops the keyboard's place ------------
// Every render rebuilds the rail and the seats, so the focused control is
// a new element each time. The control is found again by what it does;
// one that is gone (the decision just taken, the seat just sat in) hands
// the focus to the next thing to do. What was typed in an amount field
// survives a push from the table (another player's bet).
let focusWanted = null;       // the control an action was started from
const FOCUS_NEXT = [
  "#actions button[data-action]", "#result:not([hidden]):not(.closed) button",
  ".seat.mine button.spot", "#deal", "#chip-pick button", "[data-sit]",
];

function focusKey(el) {
  // A selector that finds ``el`` again after a render (null: not ours).
  if (!el || !el.closest || !el.closest("#rail, #seats, #result")) {
    return null;
  }
  if (el.id) return "#" + el.id;
  for (const a of ["data-action", "data-chip", "data-sit"]) {
    if (el.hasAttribute(a)) return "[" + a + "='" + el.getAttribute(a) + "']";
  }
  if (el.dataset.card) {
    return ".seat.mine [data-card='" + el.dataset.card + "']";
  }
  if (el.matches("button.spot")) {
    return ".seat.mine button.spot[data-wager='" + el.dataset.wager + "']";
  }
  if (el.closest("#result")) return "#result button";
  return null;
}

function usable(el) {
  // In the page, shown and enabled (a hidden one keeps the focus only
  // until the next style update), and not in a closed result (inert)
  return Boolean(el && el.isConnected && !el.disabled &&
                 el.getClientRects().length && !el.closest("[inert]"));
}

function restoreFocus(key) {
  // Focus ``key`` again, or the next thing to do, if the focus was lost.
  const now = document.activeElement;
  if (!key || (now && now !== document.body && usable(now))) return;
  let el = document.querySelector(key);
  if (!usable(el)) {
    el = null;
    for (const sel of FOCUS_NEXT) {
      el = [...document.querySelectorAll(sel)].find(usable) || null;
      if (el) break;
    }
  }
  if (el) el.focus({preventScroll: true});
}

function decisionOf(s) {
  // Which decision is awaited (an amount typed for one is not another's).
  const r = s && s.round;
  const p = r && r.status === "playing" ? r.pending : null;
  return p ? [r.id, p.seat, p.hand || 0, p.legal.join()].join("/") : "";
}

function typedNow() {
  // The amount fields' text and caret, to put back after a render.
  const out = {};
  for (const id of ["bet-amount", "amount"]) {
    const el = $(id);
    if (el && el.value) {
      out[id] = {value: el.value, start: el.selectionStart,
                 end: el.selectionEnd, decision: decisionOf(state)};
    }
  }
  return out;
}

function typedBack(typed) {
  for (const [id, t] of Object.entries(typed)) {
    const el = $(id);
    if (!el || (id === "amount" && t.decision !== decisionOf(state))) {
      continue;
    }
    el.value = t.value;
    if (document.activeElement === el) el.setSelectionRange(t.start, t.end);
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
  // (not "stack": that is the chip stack's class, a column)
  const row = Croupier.el("div", "cards" + (o.pickable ? " pickable" : "") +
                          (allBacks ? " squared" : ""));
  for (const c of cards) {
    const el = Croupier.cardEl(c.card, c.purpose);
    if (o.pickable && c.card) {
      if (c.card === pickedLow) el.classList.add("picked");
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      el.setAttribute("aria-pressed", c.card === pickedLow ? "true" : "false");
      // the name starts with what the card shows (WCAG 2.5.3): "10♠",
      // and the joker's "JK" (its text would be "the joker")
      const shows = c.card === "JK" ? "JK" : Croupier.cardText(c.card);
      el.setAttribute("aria-label", shows + ", " +
        Croupier.cardName(c.card) + ": make it your low hand");
      el.title = "Click to make this your low hand";
      const pick = () => { pickedLow = c.card; render(state); };
      el.addEventListener("click", pick);
      el.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(); }
      });
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
                          (h.collected ? " collected" : "") +
                          (o.acting ? " acting" : ""));
  box.dataset.hand = idx;
  const several = pos.hands.length > 1 && pos.seat !== null;
  if (several || h.collected) {
    box.appendChild(Croupier.el("div", "caption",
      (several ? "hand " + (idx + 1) : "") + (several && h.collected ?
        " \u00b7 " : "") + (h.collected ? "settled early" : "")));
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
  // The hands on the felt at a position: in play, those not yet
  // collected; in a finished round, every hand that showed a card (a
  // stack collected unseen, such as pai gow's unwagered ones, stays off).
  const out = [];
  const shown = (h) => !h.gone && h.cards.length > 0 &&
    (!h.collected || h.cards.some((c) => c.card));
  if (pos.set && pos.hands.some(shown)) {
    const hand = Croupier.el("div", "hand" +
      (pos.hands.every((h) => h.final || h.gone || h.collected)
        ? " final" : ""));
    hand.appendChild(setHands(pos.set));
    return [hand];
  }
  pos.hands.forEach((h, i) => {
    if (!shown(h)) return;
    out.push(handBox(game, pos, h, i, view, {
      pickable: opts.pickable,
      acting: opts.actingHand === i,
    }));
  });
  return out;
}

// -- betting -------------------------------------------------------------------
function limitsOf(t, w) {
  return t.wager_limits[w] || [t.min_bet, t.max_bet];
}

function fixedOf(t, w) {
  // A wager of one fixed size (the pai gow Progressive Payout Wager,
  // 670a.9(a)(3)(ii)) is always made for exactly that amount.
  const f = t.rules ? t.rules[w + "_wager_amount"] : undefined;
  return typeof f === "number" ? f : null;
}

function myStakes(rnd, seat) {
  const out = {};
  for (const st of (rnd ? rnd.stakes : [])) {
    if (st.seat === seat && !st.hand) out[st.wager] = st.amount;
  }
  return out;
}

function sittingOut(t, seat) {
  // Whether ``seat`` sits out (D28): it takes no bets until back in.
  return Boolean((t.seats.find((o) => o.seat === seat) || {}).sitting_out);
}

function setTotal(wager, total, group) {
  // One request: the spot's new total (0 takes the wager back). Undo
  // takes it back as one step, or with the rest of ``group`` (the
  // spots one Clear, Rebet or Double changed); ``null``: not undone.
  const s = state, t = s.table, seat = s.you.seat;
  const now = myStakes(s.round, seat)[wager] || 0;
  if (total === now) return Promise.resolve(null);
  const lim = limitsOf(t, wager);
  const name = Croupier.wagerName(wager);
  if (total && (total < lim[0] || total > lim[1])) {
    return Promise.reject(new Error("A " + name + " bet must be " +
      Croupier.money(lim[0]) + " to " + Croupier.money(lim[1]) +
      ", not " + Croupier.money(total) + "."));
  }
  if (total - now > s.you.balance) {
    return Promise.reject(new Error("You do not have enough chips: " +
      "that adds " + Croupier.money(total - now) + " and your balance is " +
      Croupier.money(s.you.balance) + "."));
  }
  const roundId = s.round.id;
  if (undo.round !== roundId) undo = {round: roundId, steps: []};
  return request("POST", "/tables/" + TABLE_ID + "/wagers/change",
    {seat, wager, amount: total},
    {limits: lim, balance: s.you.balance}).then((r) => {
    if (group === undefined) undo.steps.push([{wager, before: now}]);
    else if (group !== null) group.push({wager, before: now});
    return r;
  });
}

async function together(work) {
  // ``work(group)``'s changes, undone by one Undo (even when one of
  // them was refused: those made are in the group).
  const roundId = state.round.id;
  const group = [];
  try {
    await work(group);
  } finally {
    if (group.length && undo.round === roundId) undo.steps.push(group);
  }
}

function addChip(wager) {
  const t = state.table, now = myStakes(state.round, state.you.seat)[wager] || 0;
  const fixed = fixedOf(t, wager);
  let total = fixed !== null ? fixed : now + chip;
  if (now === 0 && fixed === null) {
    total = Math.max(chip, limitsOf(t, wager)[0]);
  }
  selected = wager;
  withBusy(() => setTotal(wager, total));
}

function removeChip(wager) {
  const now = myStakes(state.round, state.you.seat)[wager] || 0;
  if (!now) return;
  const t = state.table, lim = limitsOf(t, wager);
  let total = fixedOf(t, wager) !== null ? 0 : now - chip;
  if (total < lim[0]) total = 0;
  selected = wager;
  withBusy(() => setTotal(wager, total));
}

function lastBets(s) {
  // What this seat had bet before the last deal (rebet), from the last
  // round's wager events.
  const seat = s.you && s.you.seat;
  const out = {};
  if (!s.last || !seat) return out;
  for (const ev of s.last.events) {
    if ((ev.type === "wager_placed" || ev.type === "wager_changed") &&
        ev.seat === seat && !ev.hand && s.table.wagers.includes(ev.wager)) {
      out[ev.wager] = ev.amount;
    }
  }
  for (const w of Object.keys(out)) if (!out[w]) delete out[w];
  return out;
}

function spotEl(t, seat, wager, amount, mine, result) {
  // A betting spot: its chips, its amount; on your own seat while bets
  // are open, a button that adds the chosen chip (right-click, Delete
  // or minus takes one off).
  const name = Croupier.wagerName(wager.wager);
  const label = shortName(wager.wager) +
    (wager.hand ? " \u00b7 " + (wager.hand + 1) : "");
  const el = document.createElement(mine ? "button" : "div");
  el.className = "spot" + (mine && selected === wager.wager ? " selected" : "");
  el.dataset.wager = wager.wager;
  if (wager.hand) el.dataset.hand = wager.hand;
  el.appendChild(Croupier.el("span", "spot-name", label));
  if (amount) {
    const stack = Croupier.stackEl(amount);
    // drawn in a box of 32 px (style.css), so that it never grows the
    // spot (D147)
    if (mine) squeezeStack(stack, 24, 8, 4);
    el.appendChild(stack);
  } else if (mine) {
    // the stack's box, empty: the spot's least height counts its name,
    // a stack and one line of amount, and the most it takes, on two
    // lines where the spots' line is short of room, made a spot 13 px
    // taller when a bet landed (D197)
    const room = Croupier.el("span", "stack");
    room.setAttribute("aria-hidden", "true");
    el.appendChild(room);
  }
  const amt = Croupier.el("span", "amt");
  const shows = amount ? Croupier.money(amount) : (mine ? "bet" : "");
  const lim = limitsOf(t, wager.wager), fixed = fixedOf(t, wager.wager);
  if (mine) {
    // as wide as the most the spot takes (tabular figures, style.css):
    // a bet of $1,000.00 made the spot 10 px wider than one of $5.00,
    // and moved its neighbours 5 px sideways (D179); where the spots'
    // line is short of room (on a phone on its side), the amount breaks
    // at its commas and the spot is narrower, as high however much is
    // bet: seven spots sized for $10,000,000,000.00 (113 px each) ran
    // past the felt's edges at 740 x 360, Player's and Panda 8's cut
    // (D197)
    sizedText(amt, [Croupier.money(fixed !== null ? fixed : lim[1])], shows);
    breakAmounts(amt);
  } else amt.textContent = shows;
  el.appendChild(amt);
  let words = label + ", " + (amount ? Croupier.money(amount) + " bet"
    : "no bet");
  if (result) {
    const r = Croupier.el("span", "outcome " + result.outcome,
      outcomeShort(result));
    el.appendChild(r);
    words += ", " + outcomeShort(result);
  }
  if (mine) {
    el.type = "button";
    el.title = fixed !== null
      ? name + ": exactly " + Croupier.money(fixed)
      : name + ": " + Croupier.money(lim[0]) + " to " + Croupier.money(lim[1]);
    el.appendChild(Croupier.el("span", "sr-only", ": limits " +
      (fixed !== null ? "exactly " + Croupier.money(fixed)
        : Croupier.money(lim[0]) + " to " + Croupier.money(lim[1])) +
      "; Enter adds a chip, Delete takes one off"));
    onAct(el, () => addChip(wager.wager));
    el.addEventListener("contextmenu", (ev) => {
      ev.preventDefault();
      if (!busy) removeChip(wager.wager);
    });
    el.addEventListener("keydown", (ev) => {
      if (["Delete", "Backspace", "-", "_"].includes(ev.key)) {
        ev.preventDefault();
        if (!busy) removeChip(wager.wager);
      }
    });
    el.addEventListener("focus", () => { selected = wager.wager; });
  } else {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", "Seat " + seat + " " + words);
  }
  return el;
}

function shortName(w) {
  // a wager's name on its spot ("P Pair" for perfect_pairs_player)
  return SHORT[w] || Croupier.wagerName(w);
}

function squeezeStack(stack, chip, spread, most) {
  // The chips of ``stack`` (each ``chip`` px high) lie closer as it
  // grows: ``most`` px apart at most, and the last at most ``spread``
  // px above the first, so that the stack keeps the height of its box.
  const chips = [...stack.children];
  const step = Math.min(most, spread / Math.max(1, chips.length - 1));
  for (const c of chips.slice(1)) c.style.marginBottom = (step - chip) + "px";
  return stack;
}

function othersBetsEl(t, seat, here, owner) {
  // Another player's wagers while bets are made, in one box of one size
  // whatever he bets (D185): its words the wager's name ("3 bets" for
  // several), its chips and amount the total, each wager and amount in
  // its accessible name. A spot for each wager, two to a row, took his
  // seat from 48 x 85 px to 101 x 206 as his five Midibaccarat wagers
  // landed, and the player's own spots and Deal 91 to 121 px down.
  // Where the seat keeps one size taken or not (D186) the box also
  // stands for a seated player with no stake (after the deal too) or
  // sitting out, and holds his name and total for a phone's two lines
  // (style.css shows them there in place of the words and chips).
  const away = Boolean(owner && owner.sitting_out);
  const el = Croupier.el("div", "spot others" + (here.length ? "" : " none"));
  el.dataset.wagers = here.map((st) => st.wager).join(" ");
  const total = here.reduce((sum, st) => sum + st.amount, 0);
  const none = away ? "sitting out" : "no bet";
  const label = Croupier.el("span", "spot-name");
  sizedText(label, [...t.wagers.map(shortName), t.wagers.length + " bets"],
    here.length === 1 ? shortName(here[0].wager)
      : here.length ? here.length + " bets" : none);
  el.appendChild(label);
  const box = Croupier.el("span", "stack-box");
  // in a box of 22 px (style.css)
  if (total) box.appendChild(squeezeStack(Croupier.stackEl(total), 16, 6, 3));
  el.appendChild(box);
  const amt = Croupier.el("span", "amt");
  sizedText(amt, [Croupier.money(mostOf(t))],
    total ? Croupier.money(total) : "");
  el.appendChild(breakAmounts(amt));
  if (owner) {
    // a phone's lines: his name, then his total (on a phone on its
    // side, where the seat is 50 px wide, whole dollars without their
    // cents, and "sits out")
    el.appendChild(Croupier.el("span", "box-who", owner.name));
    const money = total ? Croupier.money(total) : none;
    el.appendChild(breakAmounts(Croupier.el("span", "box-sum", money)));
    el.appendChild(breakAmounts(Croupier.el("span", "box-sum short", total
      ? money.replace(/\.00$/, "") : (away ? "sits out" : none))));
  }
  const words = here.length
    ? here.map((st) => Croupier.wagerName(st.wager) + " " +
      Croupier.money(st.amount)).join(", ")
    : none;
  el.title = words;  // each wager, under the pointer
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "Seat " + seat + " " + words);
  return el;
}

function mostOf(t) {
  // The most another player's wagers may come to at table ``t``: each
  // wager's maximum (its fixed amount for pai gow's Progressive).
  return t.wagers.reduce((sum, w) => {
    const fixed = fixedOf(t, w);
    return sum + (fixed !== null ? fixed : limitsOf(t, w)[1]);
  }, 0);
}

function breakAmounts(el) {
  // Each amount of money in ``el``'s words may break after a comma of
  // its thousands and before its cents, and nowhere else (<wbr> in a
  // span of its own whose white-space is normal, style.css): its words,
  // and what a screen reader reads, are the same. A box too narrow for
  // an amount shows it whole on two lines or more, where it was cut
  // with an ellipsis ("$1,000,000,000.00" in another player's box of
  // 44 px on a phone on its side, 60 px upright, 76 px on a desktop;
  // "You win $1,000,000,000.00" in the result's line on a phone: D197).
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const found = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) found.push(n);
  for (const node of found) {
    const text = node.textContent;
    const re = /\$\d{1,3}(,\d{3})+(\.\d\d)?|\$\d+\.\d\d/g;
    if (!re.test(text)) continue;
    re.lastIndex = 0;
    const parts = [];
    let at = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m.index > at) parts.push(text.slice(at, m.index));
      const amount = Croupier.el("span", "money");
      m[0].split(/(?<=,)|(?=\.)/).forEach((piece, i) => {
        if (i) amount.appendChild(document.createElement("wbr"));
        amount.appendChild(document.createTextNode(piece));
      });
      parts.push(amount);
      at = m.index + m[0].length;
    }
    if (at < text.length) parts.push(text.slice(at));
    node.replaceWith(...parts);
  }
  return el;
}

const boxExtra = new Map();
// fitTotals' measures: "most width base scale" to the px a box gains.

function fitTotals(seats, t) {
  // Another player's box (a seat of one size, D186) is as high as the
  // table's largest total needs, taken or vacant, from the start: that
  // total is drawn, unseen, in a box as wide (the amount's lines break
  // at its commas and before its cents, breakAmounts), and every seat of
  // one size is as much higher as it needs. A total that takes more
  // than one line on a phone leaves his name off the box (whole in the
  // seat's accessible name). "$1,234.50" was cut "$1,23\u2026" in 44
  // px (D191); on a table whose limits go to $10,000,000,000.00 (D195)
  // a total of "$1,000,000,000.00" was cut "$1,000,000,0\u2026" upright
  // and on its side, and ran out of its box, over its border, on a
  // desktop (D197). At the tables' default limits nothing is higher.
  // The measure depends only on that total, the box's width and height
  // and the screen's scale: it is kept for them (boxExtra), where it
  // drew two unseen boxes and laid the page out for each at every
  // render, which comes with every message of the table's socket.
  seats.style.removeProperty("--box-extra");
  const one = seats.querySelector(".seat.one-size");
  if (!one) return;
  const base = one.querySelector(":scope > .spots").offsetHeight;
  const most = mostOf(t);
  const key = [most, one.offsetWidth, base, window.devicePixelRatio]
    .join(" ");
  let extra = boxExtra.get(key);
  if (extra === undefined) {
    extra = measuredExtra(seats, one, base, most, t);
    if (boxExtra.size >= 64) boxExtra.clear();
    boxExtra.set(key, extra);
  }
  if (extra > 0) seats.style.setProperty("--box-extra", extra + "px");
  splitTotals(seats);
}

function measuredExtra(seats, one, base, most, t) {
  // How much higher than ``base`` a box as wide as ``one`` must be for
  // another player's total of ``most``, drawn unseen in ``seats``.
  let extra = 0;
  // (the most, and a cent less: "$49,999,999,999.99" takes three lines
  // where "$50,000,000,000" takes two, on its side)
  for (const amount of [most, most - 1]) {
    const probe = Croupier.el("div", "seat one-size sum-probe");
    probe.setAttribute("aria-hidden", "true");
    probe.style.width = one.offsetWidth + "px";
    const spots = Croupier.el("div", "spots");
    spots.appendChild(othersBetsEl(t, 0, [{wager: t.wagers[0], amount}],
      {name: "\u00a0"}));
    probe.appendChild(spots);
    seats.appendChild(probe);
    splitTotals(probe);
    extra = Math.max(extra, Math.ceil(spots.firstChild.offsetHeight - base));
    probe.remove();
  }
  return extra;
}

function splitTotals(root) {
  // A total on more than one line takes the box's lines: his name is
  // left off it (D191).
  for (const sum of root.querySelectorAll(".spot.others > .box-sum")) {
    if (!sum.getClientRects().length) continue;
    const line = parseFloat(getComputedStyle(sum).lineHeight) || 13;
    if (sum.scrollHeight > 1.5 * line) {
      sum.parentElement.classList.add("split");
    }
  }
}

function outcomeShort(r) {
  if (r.outcome === "win") return "+" + Croupier.money(r.net);
  if (r.outcome === "lose") return Croupier.money(r.net);
  if (r.outcome === "push") return "push";
  return r.outcome;
}

// -- results in words ----------------------------------------------------------
function handFacts(events) {
  // Per "seat N hand i": the final cards; per seat: its decisions.
  const felt = Croupier.feltFrom(events, true);
  const hands = {}, decisions = {};
  for (const pos of felt.positions) {
    if (pos.seat === null) continue;
    pos.hands.forEach((h, i) => { hands[pos.seat + ":" + i] = h.cards; });
  }
  for (const ev of events) {
    if (ev.type === "decision_made") {
      const k = ev.seat + ":" + (ev.hand || 0);
      (decisions[k] = decisions[k] || []).push(ev.action);
    }
  }
  return {hands, decisions, felt};
}

function resultLine(game, st, facts) {
  // One wager's result as a sentence: "Blackjack (hand 2): surrendered,
  // half returned: −$2.50".
  const C = Croupier, M = C.money;
  const hk = st.seat + ":" + (st.hand || 0);
  const name = C.wagerName(st.wager) + (st.hand ? " (hand " + (st.hand + 1) +
    ")" : "");
  const did = facts.decisions[hk] || [];
  const cards = facts.hands[hk] || [];
  let how = "";
  if (game === "double-back-jack" && st.wager === "blackjack") {
    const t = C.bjTotal(cards);
    const sc = cards.some((c) => c.purpose === "second chance");
    if (did.includes("surrender")) how = "surrendered, half returned";
    else if (sc && t.value === 21) how = "Second Chance 21";
    else if (t.value > 21) how = "bust with " + t.value;
    else if (!sc && cards.length === 2 && t.value === 21 &&
             Object.keys(facts.hands).filter((k) =>
               k.startsWith(st.seat + ":")).length === 1) how = "Blackjack";
    else if (cards.length) how = t.value + (sc ? " after Second Chance" : "");
    if (did.includes("double")) how += (how ? ", " : "") + "doubled";
  }
  if (st.wager === "second_chance") {
    how = st.outcome === "win" ? "the new card made the hand"
      : st.outcome === "push" ? "" : "the new card did not make it";
  }
  const outcome = {
    win: "won " + M(st.net),
    lose: did.includes("surrender") ? "lost " + M(-st.net)
      : "lost " + M(-st.net),
    push: "pushed: " + M(st.amount) + " returned",
    void: "void: " + M(st.amount) + " returned",
  }[st.outcome] || st.outcome;
  const comm = st.commission ? " after " + M(st.commission) +
    " commission" : "";
  return name + (how ? " \u2014 " + how : "") + ": " + outcome + comm;
}

function whyLine(game, rnd, seat, facts) {
  // What decided the round: the hands' totals, or pai gow's two
  // comparisons and copies.
  const v = rnd.view || {};
  if (game === "midibaccarat" || game === "midibaccarat-commission-free") {
    if (typeof v.player_count === "number") {
      return "Player " + v.player_count + ", Banker " + v.banker_count + ".";
    }
  }
  if (game === "21-baccarat" && v.player && v.banker) {
    return "Player " + v.player.total + ", Banker " + v.banker.total + ".";
  }
  if (game === "double-back-jack") {
    const d = facts.felt.positions.find((p) => p.label === "dealer");
    if (d && d.hands[0]) {
      const cards = d.hands[0].cards;
      const t = Croupier.bjTotal(cards);
      // 591.7(q)(1): a dealer 22 is no bust here, it returns every wager
      // still in play; two cards of 21 are the dealer's Blackjack, found
      // by the card reader (591.7(h))
      if (t.value === 22) {
        return "The dealer has 22: every wager still in play is returned " +
          "(\u00a7 591.7(q)(1)).";
      }
      if (t.value === 21 && cards.length === 2) {
        return "The dealer has Blackjack.";
      }
      return "The dealer has " + t.value + (t.value > 21 ? " (bust)." : ".");
    }
  }
  if (game === "six-card-fortune-pai-gow") {
    const cmp = rnd.events.find((e) => e.type === "hands_compared" &&
                                e.seat === seat);
    const set = (to) => rnd.events.find((e) => e.type === "hand_set" &&
                                        e.to === to);
    const mine = set("seat " + seat), dealer = set("dealer");
    if (!cmp || !mine || !dealer) return "";
    const verb = (res, copy) => copy ? "copies (a tie goes to the dealer)" :
      res === "win" ? "beats" : "loses to";
    // after "your" and "the dealer's": "joker", not "the joker"
    const low = (c) => c === "JK" ? "joker" : Croupier.cardText(c);
    return "High hand: your " + mine.hand + " " +
      verb(cmp.high, cmp.high_copy) + " the dealer's " + dealer.hand +
      ". Low hand: your " + low(mine.low) + " " +
      verb(cmp.low, cmp.low_copy) + " the dealer's " + low(dealer.low) +
      ". " +
      {win: "Both hands win.", lose: "Both hands lose.",
       push: "One each: a push."}[cmp.result];
  }
  return "";
}

function playedRounds(s) {
  // The rounds this player had chips in at this table (so that the
  // last round of somebody else who sat here is never shown as yours).
  const key = PLAYER_KEY() + ".played";
  let ids;
  try { ids = JSON.parse(sessionStorage.getItem(key)) || []; }
  catch (e) { ids = []; }
  const seat = s.you && s.you.seat;
  const r = s.round;
  if (seat && r && r.stakes.some((x) => x.seat === seat) &&
      !ids.includes(r.id)) {
    ids.push(r.id);
    sessionStorage.setItem(key, JSON.stringify(ids.slice(-50)));
  }
  return ids;
}

function renderResult(s) {
  const box = $("result");
  const seat = s.you && s.you.seat;
  const rnd = s.round && s.round.status === "over" ? s.round : s.last;
  const played = playedRounds(s);
  box.hidden = true;
  keepClosed(box, false);
  if (!seat || !rnd || (s.round && s.round.status === "playing")) return;
  if (!played.includes(rnd.id)) return;
  // it stays while the next bets are made, until OK, Escape or the deal:
  // closed by the first chip, it took its height out of the felt under
  // the spot being clicked, which rose 140 to 160 px, the rail with it,
  // and the next click fell on what had come under the pointer (D149)
  const mine = rnd.settlements.filter((x) => x.seat === seat);
  if (rnd.status === "voided") {
    renderVoided(s, rnd, seat, mine);
    return;
  }
  if (!mine.length) return;
  const net = mine.reduce((a, x) => a + x.net, 0);
  const staked = mine.reduce((a, x) => a + x.amount, 0);
  const facts = handFacts(rnd.events);
  const draft = Croupier.el("div");
  box.className = "result-banner " + (net > 0 ? "win" : net < 0 ? "lose"
    : "even");
  box.dataset.net = net;
  box.dataset.round = rnd.id;
  const head = net > 0 ? "You win " + Croupier.money(net)
    : net < 0 ? "You lose " + Croupier.money(-net)
    : mine.every((x) => x.outcome === "push" || x.outcome === "void")
      ? "Push: your " + Croupier.money(staked) + " is returned"
      : "You break even";
  draft.appendChild(breakAmounts(Croupier.el("div", "headline", head)));
  const why = whyLine(s.table.game, rnd, seat, facts);
  if (why) draft.appendChild(Croupier.el("div", "why", why));
  draft.appendChild(settledList(s, mine, facts));
  draft.appendChild(closeButton(rnd, "result"));
  showBanner(box, draft, rnd);
  remember(s, rnd, net, head);
}

const PHONE = window.matchMedia(
  "(max-width: 700px), (orientation: landscape) and (max-height: 500px)");

function fitResult() {
  // On a phone the result's line is its headline and OK (D165): the
  // headline takes two lines where one does not hold it (its amount
  // breaks at its commas, breakAmounts), and a smaller type (12.8 px)
  // where two lines at its own are taller than OK (44 px): the line
  // keeps its height. "You win $1,000,000,000.00" was cut "You win
  // $1,0\u2026" at 740 x 360 (the headline 111 px wide), "Push: your
  // $1,000,000,000.00 is returned" "\u2026 is re\u2026" at 390 x 844 (D197).
  const head = $("result").querySelector(".headline");
  if (!head) return;
  head.classList.remove("small");
  const ok = $("result").querySelector(".btn");
  if (!PHONE.matches || $("result").hidden || !ok) return;
  if (head.offsetHeight > ok.offsetHeight) head.classList.add("small");
}

function fitHeader() {
  // The player's balance and session net are whole in the header's
  // line, which keeps its height (D169): where the line does not hold
  // them, the words before it give way first (on a phone on its side,
  // the table's name and the meta lines, to nothing), then their type
  // is 12 px (upright, a balance of $1,000,000,000.00 and a session of
  // +$1,000,000,000.00 took Recall past the screen's edge); only a
  // balance past $10,000,000,000.00 beside a session as large may take
  // the line to two (D197). His name gives way, as before.
  const line = document.querySelector(".you-line");
  line.classList.remove("tight", "wrap");
  line.style.minWidth = "";
  const over = () => line.scrollWidth > line.clientWidth + 0.5 ||
    line.getBoundingClientRect().right >
      document.documentElement.clientWidth + 0.5;
  if (!over()) return;
  line.style.minWidth = line.scrollWidth + "px";
  if (!over()) return;
  line.style.minWidth = "";
  line.classList.add("tight");
  if (over()) line.classList.add("wrap");
}

function showBanner(box, draft, rnd) {
  // The banner (a live region) shows ``draft``'s content; the same
  // round's same content again (each render: another player's bet,
  // each of this player's chips while the result stays, D149) is left
  // as it is, so that a screen reader does not read it out again.
  // Closed (OK, Escape), it keeps its place on the felt, unseen and
  // out of reach, until the deal: closing it moves neither the seats
  // nor the rail under the player's finger (D165)
  const same = box.dataset.shown === String(rnd.id) &&
    box.innerHTML === draft.innerHTML;
  box.dataset.shown = rnd.id;
  box.hidden = false;
  if (!same) box.replaceChildren(...draft.childNodes);
  keepClosed(box, sessionStorage.getItem(closedKey()) === String(rnd.id));
}

function keepClosed(box, closed) {
  // A closed banner: in its place, unseen (style.css), inert (neither
  // the Tab key nor a click reaches its OK) and hidden from a screen
  // reader.
  box.classList.toggle("closed", closed);
  box.inert = closed;
  if (closed) box.setAttribute("aria-hidden", "true");
  else box.removeAttribute("aria-hidden");
}

function settledList(s, settled, facts) {
  // Each of the seat's settled wagers in words, one line each.
  const ul = Croupier.el("ul");
  for (const st of settled) {
    const li = Croupier.el("li", "", resultLine(s.table.game, st, facts));
    li.dataset.wager = st.wager;
    ul.appendChild(li);
  }
  return ul;
}

function closeButton(rnd, what) {
  // The banner's OK: it closes until another round shows (Escape too).
  const close = Croupier.el("button", "btn quiet", "OK");
  close.appendChild(Croupier.el("span", "sr-only", ": close the " + what));
  close.addEventListener("click", () => {
    sessionStorage.setItem(closedKey(), rnd.id);
    render(state);
  });
  return close;
}

function closedKey() {
  // Where the round whose result the player closed at this table is
  // kept: in the tab's session, not the page's memory, so that the page
  // opened anew (the recall page, then Back; a reload) leaves it closed,
  // where it showed again (D180); the next round's result shows
  return PLAYER_KEY() + ".closed";
}

function renderVoided(s, rnd, seat, settled) {
  // The casino voided the round (D29): what was still on the layout
  // went back to its players (D25), which the banner says with the
  // reason given; wagers settled before the void keep their result.
  const box = $("result");
  const back = rnd.stakes.filter((x) => x.seat === seat && x.open)
    .reduce((a, x) => a + x.amount, 0);
  const net = settled.reduce((a, x) => a + x.net, 0);
  const ev = rnd.events.find((e) => e.type === "round_voided") || {};
  const draft = Croupier.el("div");
  box.className = "result-banner even";
  box.dataset.net = net;
  box.dataset.round = rnd.id;
  const head = "Round voided" + (back ? ": your " + Croupier.money(back) +
    " on the layout is returned" : "");
  draft.appendChild(breakAmounts(Croupier.el("div", "headline", head)));
  draft.appendChild(Croupier.el("div", "why", "The casino voided this " +
    "round" + (ev.reason ? ": \u201c" + ev.reason + "\u201d" : "") +
    (ev.ref ? " (" + Croupier.refText(ev.ref) + ")" : "") + "."));
  if (settled.length) {
    draft.appendChild(settledList(s, settled, handFacts(rnd.events)));
  }
  draft.appendChild(closeButton(rnd, "notice"));
  showBanner(box, draft, rnd);
  remember(s, rnd, net, head);
}

function remember(s, rnd, net, head) {
  // The session net and this seat's last ten rounds at this table.
  const key = PLAYER_KEY();
  let session;
  try { session = JSON.parse(sessionStorage.getItem(key + ".session")); }
  catch (e) { session = null; }
  session = session || {net: 0, rounds: []};
  let recent;
  try { recent = JSON.parse(localStorage.getItem(key + ".recent")); }
  catch (e) { recent = null; }
  recent = recent || [];
  if (!session.rounds.includes(rnd.id)) {
    session.rounds.push(rnd.id);
    session.net += net;
    sessionStorage.setItem(key + ".session", JSON.stringify(session));
  }
  if (!recent.some((r) => r.id === rnd.id)) {
    recent.unshift({id: rnd.id, net, text: head});
    localStorage.setItem(key + ".recent", JSON.stringify(recent.slice(0, 10)));
  }
}

function renderHistory(s) {
  const key = PLAYER_KEY();
  let session = null, recent = null;
  try { session = JSON.parse(sessionStorage.getItem(key + ".session")); }
  catch (e) { session = null; }
  try { recent = JSON.parse(localStorage.getItem(key + ".recent")); }
  catch (e) { recent = null; }
  const net = $("session-net");
  if (s.you && session) {
    net.textContent = "Session " + (session.net > 0 ? "+" : "") +
      Croupier.money(session.net);
    net.className = "net " + (session.net > 0 ? "plus" : session.net < 0 ?
      "minus" : "");
  } else net.textContent = "";
  const ul = $("recent");
  ul.innerHTML = "";
  for (const r of recent || []) {
    const li = Croupier.el("li", r.net > 0 ? "plus" : r.net < 0 ? "minus" : "");
    const a = Croupier.el("a", "", "Round " + r.id);
    a.href = "/recall?round=" + r.id;
    li.appendChild(a);
    li.appendChild(document.createTextNode(": " + r.text));
    ul.appendChild(li);
  }
  if (!ul.childNodes.length) {
    ul.appendChild(Croupier.el("li", "", "No round played here yet."));
  }
}

// -- pacing (the shared clock contract) ----------------------------------------
function clockOf(s) {
  return s.clock !== undefined ? s.clock : (s.table && s.table.clock) || null;
}

function readyOf(s) {
  return s.ready || (s.table && s.table.ready) || [];
}

function tickClock() {
  const el = $("clock");
  const c = state && clockOf(state);
  if (!c || typeof c.deadline_ms !== "number") { el.hidden = true; return; }
  const left = Math.max(0, Math.ceil((c.deadline_ms - Date.now()) / 1000));
  const mySeat = state.you && state.you.seat;
  let text;
  if (c.kind === "betting") {
    text = "Bets close in " + left + " s";
  } else {
    const who = c.seat === mySeat ? "Your decision" : "Seat " + c.seat +
      " to act";
    text = who + ": " + left + " s" + (c.default ? " (then " +
      Croupier.actionName(c.default).toLowerCase() + ")" : "");
  }
  el.textContent = text;
  el.dataset.kind = c.kind;
  el.classList.toggle("urgent", left <= 5);
  el.hidden = false;
}
setInterval(tickClock, 250);

function actedFor(s) {
  // An event where the table acted for a player whose clock ran out.
  const evs = [].concat(s.last ? s.last.events : [],
                        s.round ? s.round.events : []);
  for (let i = evs.length - 1; i >= 0; i--) {
    const ev = evs[i];
    if (ev.type === "clock_expired") return ev;
  }
  return null;
}

// -- rendering -----------------------------------------------------------------
function render(s) {
  if (gone) return;
  const focused = focusKey(document.activeElement) || focusWanted;
  // a redraw while a request is in flight (the window resized: a phone's
  // page settling as it opens) keeps the control the action started
  // from for the redraw that ends it: consumed here, it was lost, and
  // the focus stayed on the page's body after "Sit here" (D168)
  if (!busy) focusWanted = null;
  const typed = typedNow();
  state = s;
  const t = s.table, you = s.you, rnd = s.round;
  document.title = "croupier — " + t.name;
  $("title").textContent = t.name;
  $("section").innerHTML = "";
  $("section").appendChild(Croupier.el("span", "ref", "\u00a7 " + t.cites));
  $("section").appendChild(document.createTextNode(" \u00b7 limits " +
    Croupier.money(t.min_bet) + " to " + Croupier.money(t.max_bet)));
  const shoe = t.shoe || {};
  const decks = shoe.decks || (t.rules && t.rules.decks);
  const left = typeof shoe.cards_left === "number" ? shoe.cards_left :
    (rnd && rnd.view && rnd.view.shoe ? rnd.view.shoe.cards_left : null);
  $("shoe").textContent = (decks ? decks + (decks === 1 ? " deck" : " decks")
    + " in play" : "") + (typeof left === "number" ? " \u00b7 " + left +
    " cards left in the " + (shoe.kind || "shoe") : "");
  $("who").textContent = you ? you.name : "Watching";
  $("who").title = you ? you.name : "";
  $("balance").textContent = you ? Croupier.money(you.balance) : "";

  const betting = rnd && rnd.status === "betting";
  const showingLast = Boolean(betting && s.last);
  const shown = showingLast ? s.last : rnd;
  const finished = showingLast || Boolean(rnd && rnd.status === "over");
  const felt0 = Croupier.feltFrom(shown ? shown.events : [], finished);
  const view = shown ? shown.view : null;
  const mySeat = you ? you.seat : null;
  const pending = rnd && rnd.status === "playing" ? rnd.pending : null;
  const myTurn = pending && mySeat && pending.seat === mySeat;
  const legal = myTurn ? pending.legal : [];

  const felt = $("felt");
  felt.classList.toggle("last-round", showingLast);
  felt.dataset.game = t.game;
  felt.dataset.status = rnd ? rnd.status : "";
  felt.classList.toggle("seated", Boolean(mySeat));

  // dealer / banker / player areas
  const drow = $("dealer-row");
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
  if (!drow.childNodes.length) {
    const area = Croupier.el("div", "area dealer empty");
    area.appendChild(Croupier.el("div", "label", "Dealer"));
    drow.appendChild(area);
  }

  $("legend").textContent = t.title;
  const banner = $("banner");
  banner.innerHTML = "";
  if (showingLast) banner.appendChild(Croupier.el("div", "tag", "Last round"));
  for (const text of felt0.announcements.slice(-2)) {
    banner.appendChild(Croupier.el("div", "say", text));
  }
  const late = $("late");
  const mine = mySeat ? (rnd ? rnd.stakes : []).filter(
    (x) => x.seat === mySeat) : [];
  late.hidden = !(mySeat && rnd && rnd.status === "playing" && !mine.length);
  late.textContent = "You are in the next round: bets open as soon as " +
    "this one ends.";
  const acted = actedFor(s);
  const af = $("acted-for");
  af.hidden = !acted;
  if (acted) {
    af.textContent = acted.clock === "betting"
      ? "The betting clock ran out: the cards were dealt to the seats " +
        "with a bet (" + Croupier.refsText([acted.ref, acted.decision]) +
        ")."
      : "The clock ran out for seat " + acted.seat + ": the table chose " +
        Croupier.actionName(acted.action).toLowerCase() + " for the " +
        "player (" + Croupier.refsText([acted.ref, acted.decision]) + ").";
  }
  renderResult(s);

  // the seats
  const seats = $("seats");
  seats.innerHTML = "";
  const n = t.seat_count;
  const stakes = rnd ? rnd.stakes : [];
  const results = finished ? shown.settlements : (rnd ? rnd.settlements : []);
  const ready = readyOf(s);
  const arc = window.innerWidth > 700;
  const bySeat = {};
  for (const pos of felt0.positions) if (pos.seat !== null) bySeat[pos.seat] = pos;
  for (let seat = 1; seat <= n; seat++) {
    const box = Croupier.el("div", "seat");
    box.dataset.seat = seat;
    box.setAttribute("role", "group");
    const owner = t.seats.find((o) => o.seat === seat);
    box.setAttribute("aria-label", "Seat " + seat +
      (owner ? ", " + owner.name : ", empty"));
    if (arc) {
      // the rail curves: the end seats sit higher than the middle ones
      box.style.marginBottom = Math.round(30 * (1 - Math.sin(
        Math.PI * (seat - 0.5) / n))) + "px";
    }
    if (seat === mySeat) box.classList.add("mine");
    if (!owner) box.classList.add("vacant");
    if (pending && pending.seat === seat) box.classList.add("to-act");
    const pos = bySeat[seat];
    const here = stakes.filter((x) => x.seat === seat);
    // Once the player is seated, another seat is of one size taken or
    // vacant while bets are made, and after the deal while it holds no
    // stake: its number, a box (his name and bets, or a vacant seat's
    // ring) and a name's line, each of one size at each screen's size
    // (style.css), so that a player sitting down or leaving moves
    // nothing of this player's. A vacant seat was its number over a
    // ring (44 x 54 px on a phone on its side), a taken one as wide as
    // his name and 101 px high: this player's spots and Deal went up
    // to 106 px down and 135 px sideways, and the seats from one row to
    // two (D186).
    const oneSize = Boolean(mySeat) && seat !== mySeat &&
      (betting || (!here.length && !pos));
    if (oneSize) box.classList.add("one-size");
    const no = Croupier.el("div", "seat-no", "Seat " + seat);
    if (betting && ready.includes(seat)) {
      if (oneSize) {
        // a mark that fits a seat 50 px wide (its words for the ear)
        const mark = Croupier.el("span", "", " \u2713");
        mark.setAttribute("aria-hidden", "true");
        no.appendChild(mark);
        no.appendChild(Croupier.el("span", "sr-only", " ready"));
      } else no.append(" \u00b7 ready");
    }
    box.appendChild(no);
    const hands = Croupier.el("div", "hands");
    if (pos) {
      for (const b of positionBoxes(t.game, pos, view, {
        pickable: seat === mySeat && legal.includes("set"),
        actingHand: pending && pending.seat === seat ? (pending.hand || 0) : null,
      })) hands.appendChild(b);
    }
    if (hands.childNodes.length) box.appendChild(hands);
    const spots = Croupier.el("div", "spots");
    if (seat === mySeat && betting && !sittingOut(t, seat)) {
      const totals = myStakes(rnd, seat);
      for (const w of t.wagers) {
        spots.appendChild(spotEl(t, seat, {wager: w, hand: 0},
          totals[w] || 0, true, null));
      }
    } else if (owner && (oneSize || (betting && !sittingOut(t, seat)))) {
      spots.appendChild(othersBetsEl(t, seat, here, owner));
    } else {
      for (const st of here) {
        const r = betting ? null : results.find((x) => x.seat === seat &&
          x.wager === st.wager && (x.hand || 0) === (st.hand || 0));
        spots.appendChild(spotEl(t, seat, st, st.amount, false, r));
      }
    }
    if (!spots.childNodes.length) {
      const ring = Croupier.el("div", "spot empty");
      ring.setAttribute("aria-hidden", "true");
      spots.appendChild(ring);
    }
    box.appendChild(spots);
    if (owner) {
      const who = Croupier.el("div", "who", owner.name);
      who.title = owner.name;
      // (a seat of one size says so in its box)
      if (owner.sitting_out && !oneSize) {
        who.appendChild(Croupier.el("span", "away", "sitting out"));
      }
      box.appendChild(who);
    } else if (you && !mySeat) {
      const sit = Croupier.el("button", "btn secondary", "Sit here");
      sit.dataset.sit = seat;
      sit.appendChild(Croupier.el("span", "sr-only", " (seat " + seat + ")"));
      onAct(sit, () => withBusy(() => request("POST",
        "/tables/" + TABLE_ID + "/seats", {seat})));
      box.appendChild(sit);
    } else {
      box.appendChild(Croupier.el("div", "who", "\u00a0"));
    }
    seats.appendChild(box);
  }
  mineAtFoot(seats, arc, betting);
  fitSpots(seats, arc, betting);
  evenRows(seats, arc);
  fitTotals(seats, t);

  renderStatus(s, rnd, pending, myTurn, betting, view);
  renderRail(s, t, you, rnd, mySeat, betting, legal, pending);
  renderHistory(s);
  fitResult();
  fitHeader();
  renderNarration(s, betting);
  announce(s);
  tickClock();
  typedBack(typed);
  if (busy) setBusy(true);
  else restoreFocus(focused);
  follow(rnd, mine.length > 0, Boolean(myTurn));
}

function mineAtFoot(seats, arc, betting) {
  // While bets are made on a phone held upright, the player's own seat,
  // when no other seat can stand beside it (its spots take the felt's
  // width: commission-free Midibaccarat's seven on two lines, and
  // Midibaccarat's and 21 Baccarat's five), stands at the seats' foot,
  // over the chips, the other seats in their order above it. In its
  // place it split the seats before it from those after it, and the
  // seats before it took a row of their own: at commission-free seats
  // 2 to 4 and 6 to 8, four rows where three hold them, and Deal's foot
  // at 777 px, over D152's 716 (D191). At the foot it never takes more
  // rows (it stands alone on one wherever it is). The page keeps the
  // seats in their order (a screen reader reads them so; the player's
  // spots are the only controls among them): only their drawing moves.
  //
  // On a phone on its side (a screen wider than 700 px and 500 px high
  // or less) the player's seat goes to the foot when that takes the
  // seats on fewer rows, and only then: at a table whose limits make
  // his spots wide (D179; commission-free's seven at $1,000,000 take
  // 611 px), his seat no longer fits beside seats 1 and 2, wraps to a
  // row with seat 4, and seats 5 to 9 took a third row, Deal's top 2 px
  // under a 360 px screen's foot. At the foot the other eight share
  // one row (D191, amended).
  const mine = seats.querySelector(".seat.mine");
  const others = [...seats.querySelectorAll(".seat:not(.mine)")];
  if (!betting || !mine || !others.length) return;
  if (arc) {
    if (window.innerHeight > 500) return;
    const before = seatRows(seats);
    mine.classList.add("at-foot");
    if (seatRows(seats) >= before) mine.classList.remove("at-foot");
    return;
  }
  const gap = parseFloat(getComputedStyle(seats).columnGap) || 0;
  const least = Math.min(...others.map((b) => b.offsetWidth));
  if (mine.offsetWidth + gap + least > seats.clientWidth) {
    mine.classList.add("at-foot");
  }
}

function fitSpots(seats, arc, betting) {
  // While bets are made on a phone held upright, the player's spots are
  // each as wide as the most it takes (D179): at a table whose limits
  // are high they stood fewer to a line than the five that a table's
  // usual limits give (commission-free's seven spots of 83 px at
  // $1,000,000, three to a line at 360 x 740, Deal's foot at 791 px;
  // of 113 px at $10,000,000,000, two to a line, at 865). Then they are
  // made no wider than four, or five, to a line, each amount breaking
  // at its commas onto more lines (breakAmounts), as high whatever is
  // bet: of the three layouts the one whose spots take the least height
  // is kept, the widest spots where two tie (D191, amended).
  const mine = seats.querySelector(".seat.mine");
  if (arc || !betting || !mine) return;
  const box = mine.querySelector(".spots");
  const spots = box ? [...box.querySelectorAll(":scope > button.spot")] : [];
  if (spots.length < 5) return;
  const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const widest = Math.max(...spots.map((b) => b.offsetWidth));
  const capped = (most) => {
    if (most === null) box.style.removeProperty("--spot-most");
    else box.style.setProperty("--spot-most", most + "px");
    box.classList.toggle("capped", most !== null);
    return box.offsetHeight;
  };
  // (the row's width as it is: capped, the spots' box may be narrower)
  const room = box.clientWidth;
  let best = null, least = box.offsetHeight;
  for (const perLine of [4, 5]) {
    const most = Math.floor((room - (perLine - 1) * gap) / perLine);
    if (widest <= most) continue;
    const tall = capped(most);
    if (tall < least) { best = most; least = tall; }
  }
  capped(best);
}

function seatRows(seats) {
  // The rows the seats take: a row is the seats whose boxes end at one
  // height (they stand on the row's foot, margins included), to the
  // pixel's rounding: feet within 8 px are one (D184; a seat is 44 px
  // high at least).
  const feet = [...seats.querySelectorAll(".seat")].map((b) =>
    b.offsetTop + b.offsetHeight + (parseInt(b.style.marginBottom, 10) || 0))
    .sort((a, b) => a - b);
  return feet.filter((f, i) => i === 0 || f - feet[i - 1] > 8).length;
}

function evenRows(seats, arc) {
  // Seats that wrap onto a second row are not set on an arc, and on a
  // wide screen the rows are evened out in seat order (nine seats on
  // two rows: five and four, not eight and seat 9 alone under the
  // middle); when even rows would not fit in as many, the seats wrap
  // as they fall. A row is the seats whose boxes end at one height
  // (they stand on the row's foot, margins included), to the pixel's
  // rounding: offsetTop and offsetHeight are whole pixels, so a seat
  // 86.4 px high on a row's foot at 168.4 px ended at 167 where its
  // neighbours ended at 168, and one row was counted as two; the seats
  // were set on two rows until another player's bet changed a height
  // and the rounding, and then on one: the player's own spots jumped
  // 48 to 96 px sideways under his finger (D184). Rows lie a seat's
  // height apart (44 px at least): feet within 8 px are one.
  const boxes = [...seats.querySelectorAll(".seat")];
  const rows = () => seatRows(seats);
  const found = boxes.length > 1 ? rows() : 1;
  if (found < 2) return;
  for (const b of boxes) b.style.marginBottom = "";
  if (!arc) return;
  const per = Math.ceil(boxes.length / found);
  const breaks = [];
  for (let i = per; i < boxes.length; i += per) {
    const br = Croupier.el("div", "row-break");
    br.setAttribute("aria-hidden", "true");
    boxes[i].before(br);
    breaks.push(br);
  }
  if (rows() !== found) for (const br of breaks) br.remove();
}

let followed = {round: null, status: null, staked: false, turn: false};
function follow(rnd, staked, myTurn) {
  // On a small screen the rail is below the felt: when the cards come
  // out for a round this player bet in (the round plays on, or is over
  // and the next one opens at once), the felt is brought into view;
  // when a decision of his is awaited, the buttons are (as little
  // scrolling as shows them). On a phone on its side the rail stays at
  // the foot of the screen (sticky): the felt is brought into view for
  // the decision too, the buttons under it. Nothing moves on the page's
  // first draw.
  const was = followed;
  followed = {round: rnd ? rnd.id : null, status: rnd ? rnd.status : null,
    staked, turn: myTurn};
  if (!rnd || was.round === null) return;
  if (window.innerWidth > 700 && window.innerHeight > 500) return;
  const decide = myTurn && !was.turn;
  if (decide && getComputedStyle($("rail")).position !== "sticky") {
    $("actions").scrollIntoView({block: "nearest"});
  } else if (decide || (was.status === "betting" && was.staked &&
             (rnd.id !== was.round || rnd.status !== "betting"))) {
    $("felt").scrollIntoView({block: "start"});
  }
}

function renderStatus(s, rnd, pending, myTurn, betting, view) {
  const status = $("status");
  status.innerHTML = "";
  if (!rnd) status.textContent = "No round.";
  else if (pending) {
    const whose = myTurn ? "Your turn" : "Seat " + pending.seat + " to act";
    const hand = pending.hand ? ", hand " + (pending.hand + 1) : "";
    status.appendChild(document.createTextNode(whose + hand + " ("));
    status.appendChild(Croupier.el("span", "ref",
      Croupier.refText(pending.ref)));
    status.appendChild(document.createTextNode("): " +
      pending.legal.map(Croupier.actionName).join(", ")));
  } else {
    status.textContent = betting
      ? "Place your bets: click a spot to add the chosen chip."
      : "The dealer is at: " + rnd.phase.replace(/_/g, " ");
  }
  const info = $("info");
  info.innerHTML = "";
  if (view && typeof view.progressive_meter === "number") {
    info.appendChild(Croupier.el("div", "",
      "Progressive meter: " + Croupier.money(view.progressive_meter)));
  }
  $("status-panel").dataset.status = rnd ? rnd.status : "";
}

function renderRail(s, t, you, rnd, mySeat, betting, legal, pending) {
  const pick = $("chip-pick"), tools = $("bet-tools"), acts = $("actions");
  const seatTools = $("seat-tools"), hint = $("hint"), go = $("bet-go");
  pick.innerHTML = ""; tools.innerHTML = ""; acts.innerHTML = "";
  go.innerHTML = "";
  seatTools.innerHTML = ""; hint.textContent = "";
  if (!you) {
    const a = Croupier.el("a", "btn", "Get chips in the lobby");
    a.href = "/";
    tools.appendChild(a);
    return;
  }
  if (!mySeat) {
    hint.textContent = "Choose an empty seat (\u201cSit here\u201d) to play.";
    return;
  }
  // seat tools: sit out, leave
  const meRow = t.seats.find((o) => o.seat === mySeat) || {};
  const out = Croupier.el("button", "btn quiet",
    meRow.sitting_out ? "Back in" : "Sit out");
  out.id = "sit-out";
  onAct(out, () => withBusy(async () => {
    try {
      await request("POST", "/tables/" + TABLE_ID + "/sit-out",
        {seat: mySeat, sitting_out: !meRow.sitting_out});
    } catch (e) {
      if (e.status === 404 || e.status === 405) {
        throw new Error("This server does not offer sitting out yet.");
      }
      throw e;
    }
  }));
  const leave = Croupier.el("button", "btn quiet", "Leave seat");
  leave.id = "leave";
  onAct(leave, () => withBusy(() => request("DELETE",
    "/tables/" + TABLE_ID + "/seats/" + mySeat)));
  seatTools.appendChild(out);
  seatTools.appendChild(leave);

  if (betting && meRow.sitting_out) {
    hint.textContent = "You are sitting out: the cards pass your seat " +
      "by. Press \u201cBack in\u201d to bet again.";
    return;
  }
  if (betting) {
    for (const v of CHIPS) {
      if (v < t.min_bet || v > t.max_bet) continue;
      const b = Croupier.el("button", "chip-btn");
      b.type = "button";
      b.dataset.chip = v;
      b.setAttribute("aria-pressed", v === chip ? "true" : "false");
      b.appendChild(Croupier.chipEl(v));
      b.appendChild(Croupier.el("span", "sr-only", Croupier.money(v) +
        " chip"));
      b.addEventListener("click", () => { chip = v; render(state); });
      pick.appendChild(b);
    }
    if (!CHIPS.includes(chip) || chip < t.min_bet || chip > t.max_bet) {
      chip = CHIPS.find((v) => v >= t.min_bet && v <= t.max_bet) || t.min_bet;
    }
    const totals = myStakes(rnd, mySeat);
    const any = Object.keys(totals).length > 0;
    const btn = (id, text, fn, enabled, label) => {
      const b = Croupier.el("button", "btn secondary", text);
      b.id = id;
      b.disabled = !enabled;
      if (label) b.title = label;
      onAct(b, () => withBusy(fn));
      tools.appendChild(b);
      return b;
    };
    btn("undo", "Undo", async () => {
      // the last change, whole: a chip, or every spot of a Double
      const group = undo.round === rnd.id ? undo.steps.pop() : null;
      if (!group) return;
      for (const step of [...group].reverse()) {
        await setTotal(step.wager, step.before, null);
      }
    }, undo.round === rnd.id && undo.steps.length > 0,
    "Undo the last change");
    btn("clear", "Clear", () => together(async (group) => {
      for (const w of Object.keys(totals)) await setTotal(w, 0, group);
    }), any, "Take back every bet");
    const prev = lastBets(s);
    btn("rebet", "Rebet", () => together(async (group) => {
      for (const [w, a] of Object.entries(prev)) await setTotal(w, a, group);
    }), Object.keys(prev).length > 0 && !any, "Bet what you bet last round");
    btn("double-bet", "Double", () => together(async (group) => {
      for (const [w, a] of Object.entries(totals)) {
        if (fixedOf(t, w) === null) await setTotal(w, 2 * a, group);
      }
    }), any, "Double every bet");
    // a typed amount, in dollars, for the chosen spot
    if (!selected || !t.wagers.includes(selected)) selected = t.wagers[0];
    const lab = Croupier.el("label", "inline");
    const input = Croupier.el("input", "field");
    input.id = "bet-amount";
    input.inputMode = "decimal";
    input.autocomplete = "off";
    input.size = 7;
    input.placeholder = "$";
    lab.appendChild(Croupier.el("span", "", "Bet $"));
    lab.appendChild(input);
    input.setAttribute("aria-label", "Amount in dollars for " +
      Croupier.wagerName(selected));
    tools.appendChild(lab);
    const set = Croupier.el("button", "btn secondary");
    sizedText(set, t.wagers.map((w) => "on " + Croupier.wagerName(w)),
      "on " + Croupier.wagerName(selected));
    set.id = "bet-typed";
    onAct(set, () => {
      const cents = Croupier.parseDollars(input.value);
      if (cents === null) {
        showError("Type an amount in dollars, like 12.50.");
        return;
      }
      withBusy(() => setTotal(selected, cents));
    });
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") set.click();
    });
    tools.appendChild(set);
    const limitsText = (w) => {
      const lim = limitsOf(t, w), fixed = fixedOf(t, w);
      return Croupier.wagerName(w) + (fixed !== null ? ": exactly " +
        Croupier.money(fixed) : " limits " + Croupier.money(lim[0]) +
        " to " + Croupier.money(lim[1]));
    };
    const limits = Croupier.el("span", "limits");
    sizedText(limits, t.wagers.map(limitsText), limitsText(selected));
    tools.appendChild(limits);
    const others = t.seats.filter((o) => o.seat !== mySeat &&
      !o.sitting_out).length;
    // once this seat is ready, say whom the deal waits for (D27)
    const ready = readyOf(s);
    const iReady = ready.includes(mySeat);
    const waiting = [...new Set(rnd.stakes.map((x) => x.seat))]
      .filter((x) => x !== mySeat && !ready.includes(x)).sort((a, b) => a - b);
    // Deal, or Ready once another player is seated, in a box as wide as
    // the widest of its words: a player sitting down or leaving changed
    // the one to the other, and Undo, Clear and Rebet after it moved
    // 13 px sideways (D186)
    const d = Croupier.el("button", "btn big");
    const dealWords = Croupier.el("span");
    sizedText(dealWords, ["Deal", "Ready", "Ready \u2713"], others
      ? (iReady ? "Ready \u2713" : "Ready") : "Deal");
    d.appendChild(dealWords);
    d.id = "deal";
    d.disabled = !any || iReady;
    d.title = others ? "I am ready: the cards are dealt when every " +
      "player with a bet is ready" : "Deal the cards";
    onAct(d, () => withBusy(async () => {
      try {
        if (readyPath === "/ready") {
          await request("POST", "/tables/" + TABLE_ID + "/ready",
            {seat: mySeat});
          return;
        }
      } catch (e) {
        if (e.status !== 404 && e.status !== 405) throw e;
        readyPath = "/deal";
      }
      await request("POST", "/tables/" + TABLE_ID + "/deal");
    }));
    // Deal (Ready) comes right after the chips, on the page as in the
    // Tab order, at every size: the chips, then the button that deals
    // them (D154)
    go.appendChild(d);
    hint.textContent = any ? "Right-click a spot, or Delete on it, to take " +
      "a chip off." : "Choose a chip, then click a spot.";
    if (iReady) {
      hint.textContent = "You are ready. The cards are dealt when " +
        (waiting.length ? "seat " + waiting.join(", seat ") + " " +
          (waiting.length > 1 ? "are" : "is") + " ready too, or " : "") +
        "when bets close.";
    }
    return;
  }
  if (!legal.length) {
    hint.textContent = pending ? "Waiting for seat " + pending.seat + "." :
      "Nothing to decide.";
    return;
  }
  const main = rnd.stakes.find((x) => x.seat === mySeat);
  let input = null;
  if (legal.some((a) => AMOUNT_ACTIONS.includes(a))) {
    input = Croupier.el("input", "field");
    input.id = "amount";
    input.inputMode = "decimal";
    input.placeholder = "$ amount";
    input.size = 8;
    input.setAttribute("aria-label", "Optional amount in dollars " +
      "(double for less, partial insurance)");
  }
  for (const a of legal) {
    const b = Croupier.el("button", "btn", Croupier.actionName(a));
    b.dataset.action = a;
    onAct(b, () => {
      const body = {seat: mySeat, action: a};
      if (AMOUNT_ACTIONS.includes(a) && input && input.value) {
        const cents = Croupier.parseDollars(input.value);
        if (cents === null) { showError("Type an amount in dollars."); return; }
        body.amount = cents;
      } else if (a === "insurance" && main) {
        body.amount = Math.floor(main.amount / 2);
      }
      if (a === "set") {
        if (!pickedLow) { showError("Choose the card for your low hand."); return; }
        body.low = pickedLow;
      }
      withBusy(async () => {
        await request("POST", "/tables/" + TABLE_ID + "/actions", body,
          {balance: s.you.balance});
        pickedLow = null;
        if (input) input.value = "";  // spent on this decision
      });
    });
    acts.appendChild(b);
  }
  if (input) acts.appendChild(input);
  if (legal.includes("set")) {
    hint.textContent = "To set your own hands, choose the card for your " +
      "low hand, then \u201cSet my hands\u201d; or ask for the house way.";
  }
}

function sizedText(box, texts, shown) {
  // ``shown`` in ``box``, which is as wide as the widest of ``texts``
  // (each drawn, unseen and unread, in the same place): choosing
  // another spot changes the words of the typed bet's button and of
  // the limits, not their width, so that the buttons after them stay
  // where they are (at 1366 x 768 "on Banker" for "on Player" took
  // Sit out and Leave seat to the next line: D167)
  box.classList.add("sized");
  for (const text of new Set([shown, ...texts])) {
    const span = Croupier.el("span", text === shown ? "" : "unseen", text);
    if (text !== shown) span.setAttribute("aria-hidden", "true");
    box.appendChild(span);
  }
}

function renderNarration(s, betting) {
  const nar = $("narration");
  nar.innerHTML = "";
  const evs = [].concat(betting && s.last ? s.last.events : [],
                        s.round ? s.round.events : []);
  for (const ev of evs) {
    const line = Croupier.el("div", ev.type === "phase_entered" ? "phase" : "");
    if (ev.ref) {
      line.appendChild(Croupier.el("span", "ref", Croupier.refText(ev.ref)));
    }
    line.appendChild(document.createTextNode(" " + Croupier.describe(ev)));
    nar.appendChild(line);
  }
  nar.scrollTop = nar.scrollHeight;
}

// The steps a screen reader is told as they happen.
const TOLD = ["card_dealt", "card_exposed", "wager_settled", "announced",
              "decision_made", "hand_set", "hands_compared"];
// A round that ended in the update that opened the next (a baccarat
// deal; the dealer's play after the last decision): its last cards and
// sayings, which the result banner does not give (it says the player's
// own outcome, and settlements are read out there).
const TOLD_AT_END = ["card_dealt", "card_exposed", "announced", "hand_set"];
const TOLD_AT_END_MOST = 8;

function announce(s) {
  // The dealer's new steps, for screen readers (face-down cards are
  // never named: the events carry no card for them).
  const rnd = s.round;
  if (!rnd) return;
  const after = (r, seq, kinds) => r.events.filter(
    (e) => e.seq > seq && kinds.includes(e.type));
  let ended = [];
  if (announced.round !== rnd.id) {
    // the round this page was following ended in this update: its
    // steps not yet told come first (D161)
    if (s.last && s.last.id === announced.round) {
      ended = after(s.last, announced.seq, TOLD_AT_END)
        .slice(-TOLD_AT_END_MOST);
    }
    announced = {round: rnd.id, seq: 0};
  }
  const fresh = after(rnd, announced.seq, TOLD);
  if (rnd.events.length) {
    announced.seq = Math.max(...rnd.events.map((e) => e.seq || 0));
  }
  const told = ended.concat(fresh.slice(-4));
  if (told.length) {
    $("sr-live").textContent = told.map(Croupier.describe).join(". ");
  }
}

// -- live updates ----------------------------------------------------------------
function notFound(text) {
  gone = true;
  $("table-main").hidden = true;
  $("rail").hidden = true;
  $("notfound").hidden = false;
  $("notfound-text").textContent = text;
  document.title = "croupier — no such table";
  $("title").textContent = "No such table";
  if (socket) socket.close();
}

let retry = 0;
function connect() {
  if (gone) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const token = Croupier.token();
  const url = proto + "//" + location.host + "/ws/tables/" + TABLE_ID +
    (token ? "?token=" + encodeURIComponent(token) : "");
  const ws = new WebSocket(url);
  socket = ws;
  ws.onopen = () => {
    retry = 0;
    $("conn").hidden = true;
    if (/cannot be reached/.test($("error").textContent)) showError("");
  };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "table" && !busy) render(msg.data);
    else if (msg.type === "table") state = msg.data;
  };
  ws.onclose = (ev) => {
    if (gone) return;
    if (ev.code === 4404) {
      notFound("There is no table " + TABLE_ID + " in this casino.");
      return;
    }
    if (ev.code === 4401) {
      // the saved token is no longer valid: watch as a spectator
      localStorage.removeItem("croupier.token");
    }
    $("conn").hidden = false;
    retry += 1;
    setTimeout(connect, Math.min(5000, 500 * retry));
  };
}

async function start() {
  $("recall-link").href = "/recall?table=" + TABLE_ID;
  if (!Number.isInteger(TABLE_ID)) {
    notFound("This address names no table.");
    return;
  }
  try {
    const s = await Croupier.api("GET", "/tables/" + TABLE_ID);
    render(s);
  } catch (e) {
    if (e.status === 404) {
      notFound("There is no table " + TABLE_ID + " in this casino.");
      return;
    }
    showError(e.message);
  }
  connect();
}

document.addEventListener("keydown", (ev) => {
  // Escape closes the result, as its OK button does
  const box = $("result");
  if (ev.key !== "Escape" || box.hidden || box.inert) return;
  const ok = box.querySelector("button");
  if (ok) ok.click();
});

let resized = null;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(() => { if (state) render(state); }, 120);
});

start();
