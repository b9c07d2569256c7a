// The operator's desk (token-protected by the server): tables and seats,
// players' balances and deposits, voiding a round in play (D25), the
// ledger check and the server's log (D140). The token stays in this
// browser tab only.
"use strict";

const $ = (id) => document.getElementById(id);
const KEY = "croupier.operator";
// deposits sent without an answer: player id -> {cents, key} (D138)
const unanswered = new Map();

async function op(method, path, body, key) {
  // ``key``: the action's Idempotency-Key, kept by the caller across a
  // retry (a deposit: D138); a fresh one otherwise. An error thrown
  // before the server answered has ``offline`` set.
  return (await send(method, path, body, key)).data;
}

async function page(path) {
  // A listing a page at a time: its rows and the total (X-Total-Count).
  const {data, res} = await send("GET", path);
  return {data, total: Number(res.headers.get("X-Total-Count") || 0)};
}

async function send(method, path, body, key) {
  const headers = {Authorization: "Bearer " + sessionStorage.getItem(KEY)};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method === "POST") headers["Idempotency-Key"] = key || Croupier.newKey();
  let res;
  try {
    res = await fetch(path, {method, headers,
      body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    const err = new Error("The server cannot be reached; try again in a " +
      "moment.");
    err.offline = true;
    throw err;
  }
  const data = await res.json().catch(() => ({}));
  if (res.status === 401 || res.status === 403) {
    sessionStorage.removeItem(KEY);
    show(false);
    // an expired token says so (a made-up one lasts a day: D32), and a
    // player's is told apart from one the server does not know
    const said = String((data && data.message) || "");
    throw new Error(res.status === 403
      ? "That token is a player's, not the operator's."
      : /expired/.test(said)
        ? "The operator's token " + said.replace(/^this token /, "") + "."
        : "The server does not know that token: check it, or make a new " +
          "one with croupier token rotate.");
  }
  if (!res.ok) throw new Error(refusalText(data, res.status));
  return {data, res};
}

function refusalText(data, status) {
  // A refusal as the desk says it: the rule the server named, with the
  // field it concerns; amounts in dollars only where they are money (a
  // pacing limit of 3600 seconds or a Rules Submission's 1000 decks is
  // no $10.00), never the player page's "that table does not exist".
  const raw = String((data && data.message) || "");
  if (!raw) return Croupier.friendly(data, status);
  if (status === 422) {
    const parts = raw.split("; ").map((part) => {
      const m = /^body\.([\w.]+): (.*)$/.exec(part);
      if (!m) return part;
      const said = /^(amount|min_bet|max_bet|wager_limits)\b/.test(m[1])
        ? Croupier.dollarsIn(m[2]) : m[2];
      return m[1].replace(/_/g, " ") + ": " + said.charAt(0).toLowerCase() +
        said.slice(1);
    });
    return "Refused: " + parts.join("; ") + ".";
  }
  if (status < 500 && ["RulesError", "TableSettingError",
      "TableNameTakenError"].includes(data.error)) {
    const ref = data.ref ? " (" + Croupier.refText(data.ref, "\u00a0") +
      ")" : "";
    return raw.charAt(0).toUpperCase() + raw.slice(1) +
      (/[.!?]$/.test(raw) ? "" : ".") + ref;
  }
  return Croupier.friendly({...data, error: "Refusal"}, status);
}

function show(open) {
  $("login").hidden = open;
  $("desk").hidden = !open;
}

function say(text) {
  // What an action did, in the desk's status line (read out too: it is
  // a role=status region); a refusal goes to the error line instead.
  $("done").textContent = text;
  $("error").textContent = "";
}

function refuse(text) {
  $("error").textContent = text;
  $("done").textContent = "";
}

function setText(el, text) {
  // ``el`` says ``text``; left untouched when it does already, so that a
  // refresh rewrites nothing that did not change (D159)
  if (el.textContent !== text) el.textContent = text;
}

async function books() {
  const b = await op("GET", "/ledger");
  const box = $("books");
  const M = Croupier.money;
  let dl = box.querySelector("dl");
  if (!dl) {
    dl = box.appendChild(Croupier.el("dl", "facts"));
    box.appendChild(Croupier.el("p", "checked"));
  }
  const facts = [["Ledger", b.ok ? "balanced" : "NOT balanced"],
    ["Balances", M(b.balances)], ["On the layouts", M(b.on_layout)],
    ["Deposits", M(b.deposits)], ["Players' net", M(b.players_net)]];
  facts.forEach(([k, v], i) => {
    let dd = dl.querySelectorAll("dd")[i];
    if (!dd) {
      dl.appendChild(Croupier.el("dt", "", k));
      dd = dl.appendChild(Croupier.el("dd"));
    }
    setText(dd, v);
    dd.className = k === "Ledger" ? (b.ok ? "ok" : "bad") : "";
  });
  // the books are checked on demand and after each action, not by the
  // desk's own refresh: a check sums every transaction (D159)
  setText(box.querySelector("p.checked"), "Checked at " +
    new Date().toLocaleTimeString() + ".");
  box.dataset.ok = b.ok ? "true" : "false";
}

// the tables shown, by id: each row's elements and the table it shows
const shownTables = new Map();
// the newest request of each listing: an older answer arriving after a
// newer one is not drawn (the desk refreshes itself, D159)
const asked = {tables: 0, players: 0, log: 0};

function holdsWork(tr) {
  // a row the operator is working in: the focus in it, or text typed in
  // one of its fields (a deposit, a void's reason)
  return tr.contains(document.activeElement) ||
    Array.from(tr.querySelectorAll("input")).some((i) => i.value !== "");
}

function placeRows(body, want, order, keep) {
  // ``body`` shows the rows ``want``, in that order, moving no row that
  // is in place (a row moved in the document loses the focus it holds):
  // rows gone from the listing leave; with ``keep`` (the desk's own
  // refresh) a row the operator is working in stays, where ``order``
  // (by id) puts it, until he is done with it.
  const wanted = new Set(want);
  const kept = [];
  for (const tr of Array.from(body.rows)) {
    if (wanted.has(tr)) continue;
    if (keep && holdsWork(tr)) kept.push(tr);
    else tr.remove();
  }
  const rows = kept.length ? want.concat(kept).sort(order) : want;
  rows.forEach((tr, i) => {
    if (body.rows[i] !== tr) body.insertBefore(tr, body.rows[i] || null);
  });
}

function tableHead(tbl, names, caption) {
  // The listing's caption, head and body, made once; its body.
  if (!tbl.tBodies.length) {
    if (caption !== undefined) {
      tbl.appendChild(Croupier.el("caption", "sr-only"));
    }
    const head = tbl.appendChild(document.createElement("thead"))
      .appendChild(document.createElement("tr"));
    for (const [name, cls] of names) {
      const th = Croupier.el("th", cls || "", name);
      th.scope = "col";
      head.appendChild(th);
    }
    tbl.appendChild(document.createElement("tbody"));
  }
  if (caption !== undefined) setText(tbl.caption, caption);
  return tbl.tBodies[0];
}

async function tables() {
  const mine = ++asked.tables;
  const list = await op("GET", "/tables");
  if (mine !== asked.tables) return;
  const body = tableHead($("tables"), [["Table"], ["Game"], ["Limits"],
    ["Seats"], ["Round in play"], ["Void the round in play"]]);
  const want = [];
  const now = new Set();
  for (const t of list) {
    now.add(t.id);
    let row = shownTables.get(t.id);
    if (!row) {
      row = tableRow(t);
      shownTables.set(t.id, row);
    }
    fillTable(row, t);
    want.push(row.tr);
  }
  placeRows(body, want, (a, b) => a.dataset.table - b.dataset.table, true);
  for (const [id, row] of shownTables) {
    if (!now.has(id) && !row.tr.isConnected) shownTables.delete(id);
  }
}

function fillTable(row, t) {
  // The row says what ``t`` is now; a void armed for a round no longer
  // in play is disarmed (D137: a void names its round).
  row.t = t;
  setText(row.link, t.name);
  setText(row.game, t.title + " \u00b7 \u00a7 " + t.cites);
  setText(row.limits, Croupier.money(t.min_bet) + " to " +
    Croupier.money(t.max_bet));
  setText(row.seats, t.seats.length ? t.seats.map(
    (s) => s.seat + ": " + s.name + (s.sitting_out ? " (out)" : ""))
    .join(", ") : "none");
  const live = t.in_play;
  setText(row.playing, live ? "round " + live.round_id + " \u00b7 " +
    live.status + " \u00b7 " + Croupier.money(live.on_layout) +
    " on the layout" : "none");
  const armed = row.button.dataset.confirm;
  if (armed && (!live || armed !== String(live.round_id))) row.unarm();
}

function tableRow(t) {
  // A table's row, its elements kept for the refreshes to fill.
  const tr = document.createElement("tr");
  tr.dataset.table = t.id;
  const row = {tr, t};
  const name = Croupier.el("td");
  row.link = Croupier.el("a", "", t.name);
  row.link.href = "/play/" + t.id;
  name.appendChild(row.link);
  // two tables may share a name stored before D157: the number tells
  // them apart
  name.appendChild(Croupier.el("span", "", " #" + t.id));
  tr.appendChild(name);
  row.game = tr.appendChild(Croupier.el("td"));
  row.limits = tr.appendChild(Croupier.el("td"));
  row.seats = tr.appendChild(Croupier.el("td"));
  row.playing = tr.appendChild(Croupier.el("td", "in-play"));
  const cell = Croupier.el("td");
  const lab = Croupier.el("label", "inline");
  const reason = Croupier.el("input", "field");
  reason.size = 14;
  reason.placeholder = "reason";
  reason.maxLength = 200;
  reason.setAttribute("aria-label", "Reason for voiding at " + t.name +
    " #" + t.id);
  lab.appendChild(reason);
  const b = Croupier.el("button", "btn", "Void");
  b.dataset.void = t.id;
  row.button = b;
  const label = (text) => {
    b.textContent = text;
    b.appendChild(Croupier.el("span", "sr-only", " the round at " +
      row.t.name + " #" + t.id));
  };
  label("Void");
  const unarm = () => {
    delete b.dataset.confirm;
    label("Void");
  };
  row.unarm = unarm;
  reason.addEventListener("input", unarm);
  // Enter held down repeats its keydown, and each one presses the
  // button: the press that armed the void would confirm it too
  b.addEventListener("keydown", (ev) => {
    if (ev.repeat) ev.preventDefault();
  });
  b.addEventListener("click", async (ev) => {
    // a double click's second click is no confirmation (D137)
    if (ev.detail > 1 || b.disabled) return;
    const where = row.t.name + " #" + t.id;
    const live = row.t.in_play;
    if (!live) {
      refuse("No round is in play at " + where + ": nothing to void.");
      return;
    }
    if (!reason.value.trim()) {
      refuse("Give a reason: it is kept in the round's record (D25).");
      return;
    }
    if (b.dataset.confirm !== String(live.round_id)) {
      b.dataset.confirm = String(live.round_id);
      label("Confirm void");
      say("Press \u201cConfirm void\u201d to void round " +
        live.round_id + " at " + where + ": " +
        Croupier.money(live.on_layout) + " on its layout goes back to " +
        "the players. A void cannot be undone.");
      return;
    }
    b.disabled = true;
    try {
      const out = await op("POST", "/tables/" + t.id + "/void",
        {reason: reason.value.trim(), round_id: live.round_id});
      const v = out.voided;
      const who = v.refunds.map((r) => r.name + " (seat " + r.seat +
        ") " + Croupier.money(r.amount)).join(", ");
      reason.value = "";  // the next round's void gives its own reason
      unarm();
      // the desk redrawn first, then the line: what it says stays put
      await refresh().catch(() => {});
      say("Round " + v.round_id + " at " + where + " is void: " +
        Croupier.money(v.returned) + " went back" +
        (who ? " \u2014 " + who : "") + ".");
    } catch (e) {
      refuse(e.message);
      unarm();
      // the desk shows the round that is in play now
      if (!e.offline) await refresh().catch(() => {});
    } finally {
      b.disabled = false;
    }
  });
  cell.appendChild(lab);
  cell.appendChild(b);
  tr.appendChild(cell);
  return row;
}

// a listing shown a page at a time (the players, the log): ``at.offset``
// where its page starts, ``at.total`` its rows, ``at.shown`` the page's
async function pageOf(path, query, at, size) {
  // The page of ``path`` at ``at.offset`` (``size`` rows): its rows, the
  // total and where it starts. A page emptied meanwhile (a filter
  // narrowed the listing) gives way to the last page there is. ``at``
  // is left for the caller to set, once it knows the answer is the
  // newest it asked for.
  let offset = at.offset;
  for (;;) {
    query.set("limit", String(size));
    query.set("offset", String(offset));
    const got = await page(path + "?" + query);
    if (!got.data.length && offset > 0 && got.total > 0) {
      offset = Math.floor((got.total - 1) / size) * size;
      continue;
    }
    return {rows: got.data, total: got.total, offset};
  }
}

function took(at, got) {
  at.offset = got.offset;
  at.total = got.total;
  at.shown = got.rows.length;
}

function pager(box, at, size, load, what) {
  // Previous, where the page is, Next: ``what.noun`` names the rows
  // ("Players"), ``what.held`` the filter in words; ``load`` shows the
  // page at ``at.offset``. The buttons are made once and kept, so a
  // button pressed from the keyboard keeps the focus, and a refresh
  // moves it nowhere; one disabled under it (either end) hands the
  // focus to the other.
  let prev = box.querySelector("[data-page='prev']");
  let next = box.querySelector("[data-page='next']");
  if (!prev) {
    const go = (offset) => {
      at.offset = offset;
      load().catch((e) => refuse(e.message));
    };
    const button = (text, dir, to) => {
      const b = Croupier.el("button", "btn secondary", text);
      b.type = "button";
      b.dataset.page = dir;
      b.appendChild(Croupier.el("span", "sr-only", " page of " +
        what.noun.toLowerCase()));
      b.addEventListener("click", () => go(to()));
      return b;
    };
    prev = button("Previous", "prev", () => Math.max(0, at.offset - size));
    next = button("Next", "next", () => at.offset + size);
    box.appendChild(prev);
    box.appendChild(Croupier.el("span", "pos"));
    box.appendChild(next);
  }
  const had = document.activeElement;
  prev.disabled = at.offset === 0;
  next.disabled = at.offset + at.shown >= at.total;
  setText(box.querySelector(".pos"), at.total
    ? what.noun + " " + (at.offset + 1) + "\u2013" + (at.offset + at.shown) +
      " of " + at.total + what.held
    : what.none + what.held);
  if ((had === prev || had === next) && had.disabled) {
    const other = had === next ? prev : next;
    if (!other.disabled) other.focus();
  }
}

// the players listed: a page of PLAYERS_PAGE from ``found.offset``,
// their names holding ``found.name`` (a casino has many thousand)
const PLAYERS_PAGE = 100;
const found = {name: "", offset: 0, total: 0, shown: 0};

function heldName() {
  return found.name ? " whose name holds \u201c" + found.name + "\u201d"
    : "";
}

// the players' rows shown, by id
const shownPlayers = new Map();

async function players(opts) {
  const mine = ++asked.players;
  const query = new URLSearchParams({operators: "false"});
  if (found.name) query.set("name", found.name);
  const got = await pageOf("/players", query, found, PLAYERS_PAGE);
  if (mine !== asked.players) return;
  took(found, got);
  pager($("players-pager"), found, PLAYERS_PAGE, players,
    {noun: "Players", none: "No player", held: heldName()});
  const body = tableHead($("players"), [["Player"], ["Balance", "num"],
    ["Seats"], ["Deposit (dollars)"]]);
  const want = [];
  for (const p of got.rows) {  // the players alone (operators=false)
    let row = shownPlayers.get(p.id);
    if (!row) {
      row = playerRow(p);
      shownPlayers.set(p.id, row);
    }
    setText(row.balance, Croupier.money(p.balance));
    setText(row.seats, p.seats.map((s) => "table " + s.table_id +
      " seat " + s.seat).join(", ") || "none");
    want.push(row.tr);
  }
  placeRows(body, want, (a, b) => b.dataset.player - a.dataset.player,
    opts && opts.keep);
  for (const [id, row] of shownPlayers) {
    if (!row.tr.isConnected) shownPlayers.delete(id);
  }
}

function playerRow(p) {
  // A player's row: name, balance, seats and the deposit's field.
  const tr = document.createElement("tr");
  tr.dataset.player = p.id;
  tr.appendChild(Croupier.el("td", "", p.name));
  const row = {tr};
  row.balance = tr.appendChild(Croupier.el("td", "num balance-cell"));
  row.seats = tr.appendChild(Croupier.el("td"));
  const cell = Croupier.el("td");
  const input = Croupier.el("input", "field");
  input.size = 8;
  input.inputMode = "decimal";
  input.setAttribute("aria-label", "Deposit for " + p.name + " in dollars");
  const b = Croupier.el("button", "btn secondary", "Deposit");
  b.dataset.deposit = p.id;
  b.appendChild(Croupier.el("span", "sr-only", " for " + p.name));
  b.addEventListener("click", async (ev) => {
    if (ev.detail > 1 || b.disabled) return;
    const cents = Croupier.parseDollars(input.value);
    if (!cents) {
      refuse("Type a deposit in dollars, like 100 or 1,000.50 (no " +
        "sign; a comma only between thousands).");
      return;
    }
    // the same deposit pressed again after the server could not be
    // reached keeps its key: it is made once (D138)
    const held = unanswered.get(p.id);
    const key = held && held.cents === cents ? held.key : Croupier.newKey();
    unanswered.set(p.id, {cents, key});
    b.disabled = true;
    try {
      const out = await op("POST", "/players/" + p.id + "/deposits",
        {amount: cents}, key);
      unanswered.delete(p.id);
      input.value = "";  // made: pressing again is no second deposit
      await refresh().catch(() => {});
      say(Croupier.money(cents) + " deposited for " + p.name +
        "; the balance is " + Croupier.money(out.balance) + ".");
    } catch (e) {
      if (e.offline) {
        refuse("The server cannot be reached: the deposit of " +
          Croupier.money(cents) + " for " + p.name + " may have been " +
          "made. Press Deposit again with the same amount: it is made " +
          "once.");
      } else {
        unanswered.delete(p.id);
        refuse(e.message);
      }
    } finally {
      b.disabled = false;
    }
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.repeat) b.click();
  });
  cell.appendChild(input);
  cell.appendChild(b);
  tr.appendChild(cell);
  return row;
}

// the server's log (GET /log, D140): a page of LOG_PAGE rows from
// ``logged.offset``, newest first, of one level and one round if chosen
const LOG_PAGE = 50;
const logged = {level: "", round: "", offset: 0, total: 0, shown: 0};

function heldLog() {
  const held = [];
  if (logged.level) held.push(logged.level + " rows");
  if (logged.round) held.push("about round " + logged.round);
  return held.length ? ", " + held.join(", ") : "";
}

async function serverLog(opts) {
  const mine = ++asked.log;
  const query = new URLSearchParams();
  if (logged.level) query.set("level", logged.level);
  if (logged.round) query.set("round_id", logged.round);
  const got = await pageOf("/log", query, logged, LOG_PAGE);
  if (mine !== asked.log) return;
  took(logged, got);
  pager($("log-pager"), logged, LOG_PAGE, serverLog,
    {noun: "Log rows", none: "No log row", held: heldLog()});
  const tbl = $("log");
  const body = tableHead(tbl, [["Time"], ["Level"], ["Round"], ["Message"]],
    "The server's log, newest first" + heldLog());
  const shown = new Map(Array.from(body.rows, (tr) => [tr.dataset.log, tr]));
  // a log row never changes: the rows shown stay, the new ones are made
  placeRows(body, got.rows.map((r) => shown.get(String(r.id)) || logRow(r)),
    (a, b) => b.dataset.log - a.dataset.log, opts && opts.keep);
}

function logRow(r) {
  const tr = document.createElement("tr");
  tr.dataset.log = r.id;
  tr.dataset.level = r.level;
  const at = Croupier.el("time", "", Croupier.when(r.at));
  at.dateTime = r.at;
  tr.appendChild(Croupier.el("td", "log-at")).appendChild(at);
  tr.appendChild(Croupier.el("td", "log-level", r.level));
  const round = tr.appendChild(Croupier.el("td", "nowrap"));
  if (r.round_id === null) {
    round.textContent = "none";
  } else {
    // the round's record, as the table's page links it (the recall
    // page reads the operator's token from this tab)
    const a = Croupier.el("a", "", "round " + r.round_id);
    a.href = "/recall?round=" + r.round_id;
    round.appendChild(a);
  }
  tr.appendChild(Croupier.el("td", "log-message", r.message));
  return tr;
}

async function refresh() {
  await Promise.all([books(), tables(), players(), serverLog(), games()]);
}

// The desk refreshes itself (D159): every REFRESH_MS while the page is
// shown and the desk open, and at once when the page is shown again, it
// reads the tables, the players' page and the log's page again and
// changes only the text that changed. Nothing is redrawn: the focus, a
// field being typed in, the pages shown and the filters stay, and no
// live region is written (a screen reader reads nothing out). The books
// are left to their button and to the actions: a ledger check sums
// every transaction ever made.
const REFRESH_MS = 5000;
let ticking = false;

async function tick() {
  if (ticking || $("desk").hidden || document.visibilityState !== "visible") {
    return;
  }
  ticking = true;
  try {
    await Promise.all([tables(), players({keep: true}),
      serverLog({keep: true})]);
    setText($("as-of"), "Refreshed by itself every " + REFRESH_MS / 1000 +
      " seconds; last at " + new Date().toLocaleTimeString() + ".");
  } catch (e) {
    if ($("desk").hidden) {
      refuse(e.message);  // the token was refused: the desk has closed
    } else {
      setText($("as-of"), "Not refreshed at " +
        new Date().toLocaleTimeString() + ": " + e.message);
    }
  } finally {
    ticking = false;
  }
}

setInterval(tick, REFRESH_MS);
document.addEventListener("visibilitychange", tick);

async function games() {
  // the games a table may deal, once (the choice stays while refreshed)
  const sel = $("nt-game");
  if (sel.options.length) return;
  for (const g of await op("GET", "/games")) {
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.title + " (\u00a7 " + g.cites + ")";
    sel.appendChild(o);
  }
}

// the table being opened without an answer: its request and key (D138)
let opening = null;

function newTableBody() {
  // The form as POST /tables takes it; a refusal's words if it is not.
  const body = {game: $("nt-game").value};
  const name = $("nt-name").value.trim();
  if (name) body.name = name;
  for (const [id, key, what] of [["nt-min", "min_bet", "minimum"],
      ["nt-max", "max_bet", "maximum"]]) {
    const cents = Croupier.parseDollars($(id).value);
    if (!cents) {
      return "Type the " + what + " bet in dollars, like 5 or 1,000.50.";
    }
    body[key] = cents;
  }
  if (body.min_bet > body.max_bet) {
    return "The minimum bet " + Croupier.money(body.min_bet) +
      " is above the maximum " + Croupier.money(body.max_bet) + ".";
  }
  for (const [id, key, what] of [["nt-betting", "betting_seconds", "betting"],
      ["nt-decision", "decision_seconds", "decision"]]) {
    const text = $(id).value.trim();
    if (!text) continue;
    if (!/^\d+(\.\d+)?$/.test(text)) {
      return "Type the " + what + " time in seconds, like 20, or leave " +
        "it empty for the server's.";
    }
    body[key] = Number(text);
  }
  const rules = $("nt-rules").value.trim();
  if (rules) {
    let parsed;
    try {
      parsed = JSON.parse(rules);
    } catch (e) {
      return "The Rules Submission options are not JSON: write them " +
        "like {\"decks\": 6}.";
    }
    if (parsed === null || typeof parsed !== "object" ||
        Array.isArray(parsed)) {
      return "The Rules Submission options are one JSON object, like " +
        "{\"decks\": 6}.";
    }
    body.rules = parsed;
  }
  return body;
}

$("new-table").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && ev.repeat) ev.preventDefault();  // held down
});
$("new-table").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const go = $("nt-go");
  if (go.disabled) return;
  const body = newTableBody();
  if (typeof body === "string") {
    refuse(body);
    return;
  }
  const request = JSON.stringify(body);
  // pressed again after the server could not be reached: the same key,
  // so the table is opened once
  if (!opening || opening.request !== request) {
    opening = {request, key: Croupier.newKey()};
  }
  go.disabled = true;
  try {
    const t = await op("POST", "/tables", body, opening.key);
    opening = null;
    // the form forgets the table's name and rules: pressing again opens
    // the game's plain table, never this one a second time by mistake
    $("nt-name").value = "";
    $("nt-rules").value = "";
    await refresh().catch(() => {});
    say("Table " + t.name + " #" + t.id + " is open: " + t.title + ", " +
      Croupier.money(t.min_bet) + " to " + Croupier.money(t.max_bet) + ".");
  } catch (e) {
    if (!e.offline) opening = null;
    refuse(e.offline ? "The server cannot be reached: the table may " +
      "have been opened. Press \u201cOpen the table\u201d again: it is " +
      "opened once." : e.message);
  } finally {
    go.disabled = false;
  }
});

$("login-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  // a token pasted with its header's "Bearer " opens the desk as well
  sessionStorage.setItem(KEY, $("token").value.trim()
    .replace(/^bearer\s+/i, ""));
  try {
    await refresh();
    show(true);
    $("error").textContent = "";
  } catch (e) {
    refuse(e.message);
  }
});
$("check").addEventListener("click", () => books().catch((e) => {
  refuse(e.message);
}));
$("refresh").addEventListener("click", () => refresh().then(() => {
  say("The desk shows the tables, balances and log as they are now.");
}).catch((e) => {
  refuse(e.message);
}));
$("find-player").addEventListener("submit", (ev) => {
  ev.preventDefault();
  found.name = $("fp-name").value.trim();
  found.offset = 0;
  players().then(() => {
    say(found.total + (found.total === 1 ? " player" : " players") +
      heldName() + ".");
  }).catch((e) => refuse(e.message));
});
$("find-log").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const round = $("fl-round").value.trim().replace(/^#/, "");
  if (round && !/^[1-9]\d{0,9}$/.test(round)) {
    refuse("Type a round's number, like 12, or leave it empty for " +
      "every round.");
    return;
  }
  logged.level = $("fl-level").value;
  logged.round = round;
  logged.offset = 0;
  serverLog().then(() => {
    say(logged.total + (logged.total === 1 ? " log row" : " log rows") +
      heldLog() + ".");
  }).catch((e) => refuse(e.message));
});
$("logout").addEventListener("click", () => {
  sessionStorage.removeItem(KEY);
  show(false);
});

if (sessionStorage.getItem(KEY)) {
  refresh().then(() => show(true)).catch((e) => {
    refuse(e.message);
  });
}
