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
  if (status < 500 && ["RulesError", "TableSettingError"]
      .includes(data.error)) {
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

async function books() {
  const b = await op("GET", "/ledger");
  const box = $("books");
  box.innerHTML = "";
  const dl = Croupier.el("dl", "facts");
  const M = Croupier.money;
  for (const [k, v] of [["Ledger", b.ok ? "balanced" : "NOT balanced"],
      ["Balances", M(b.balances)], ["On the layouts", M(b.on_layout)],
      ["Deposits", M(b.deposits)], ["Players' net", M(b.players_net)]]) {
    dl.appendChild(Croupier.el("dt", "", k));
    dl.appendChild(Croupier.el("dd", k === "Ledger" ? (b.ok ? "ok" : "bad")
      : "", v));
  }
  box.appendChild(dl);
  box.dataset.ok = b.ok ? "true" : "false";
}

async function tables() {
  const list = await op("GET", "/tables");
  const tbl = $("tables");
  tbl.innerHTML = "<tr><th scope='col'>Table</th><th scope='col'>Game</th>" +
    "<th scope='col'>Limits</th><th scope='col'>Seats</th>" +
    "<th scope='col'>Round in play</th>" +
    "<th scope='col'>Void the round in play</th></tr>";
  for (const t of list) {
    const tr = document.createElement("tr");
    tr.dataset.table = t.id;
    const name = Croupier.el("td");
    const a = Croupier.el("a", "", t.name);
    a.href = "/play/" + t.id;
    name.appendChild(a);
    // two tables may share a name: the number tells them apart
    name.appendChild(Croupier.el("span", "", " #" + t.id));
    tr.appendChild(name);
    tr.appendChild(Croupier.el("td", "", t.title + " \u00b7 \u00a7 " + t.cites));
    tr.appendChild(Croupier.el("td", "", Croupier.money(t.min_bet) + " to " +
      Croupier.money(t.max_bet)));
    tr.appendChild(Croupier.el("td", "", t.seats.length ? t.seats.map(
      (s) => s.seat + ": " + s.name + (s.sitting_out ? " (out)" : ""))
      .join(", ") : "none"));
    const live = t.in_play;
    const playing = Croupier.el("td", "in-play", live ? "round " +
      live.round_id + " \u00b7 " + live.status + " \u00b7 " +
      Croupier.money(live.on_layout) + " on the layout" : "none");
    tr.appendChild(playing);
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
    const label = (text) => {
      b.textContent = text;
      b.appendChild(Croupier.el("span", "sr-only", " the round at " +
        t.name + " #" + t.id));
    };
    label("Void");
    const unarm = () => {
      delete b.dataset.confirm;
      label("Void");
    };
    reason.addEventListener("input", unarm);
    // Enter held down repeats its keydown, and each one presses the
    // button: the press that armed the void would confirm it too
    b.addEventListener("keydown", (ev) => {
      if (ev.repeat) ev.preventDefault();
    });
    b.addEventListener("click", async (ev) => {
      // a double click's second click is no confirmation (D137)
      if (ev.detail > 1 || b.disabled) return;
      if (!live) {
        refuse("No round is in play at " + t.name + " #" + t.id +
          ": nothing to void.");
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
          live.round_id + " at " + t.name + " #" + t.id + ": " +
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
        // the desk redrawn first, then the line: what it says stays put
        await refresh().catch(() => {});
        say("Round " + v.round_id + " at " + t.name + " #" + t.id +
          " is void: " + Croupier.money(v.returned) + " went back" +
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
    tbl.appendChild(tr);
  }
}

// a listing shown a page at a time (the players, the log): ``at.offset``
// where its page starts, ``at.total`` its rows, ``at.shown`` the page's
async function pageOf(path, query, at, size) {
  // The page of ``path`` at ``at.offset`` (``size`` rows); ``at`` takes
  // the total and the rows shown. A page emptied meanwhile (a filter
  // narrowed the listing) gives way to the last page there is.
  query.set("limit", String(size));
  query.set("offset", String(at.offset));
  const got = await page(path + "?" + query);
  at.total = got.total;
  at.shown = got.data.length;
  if (!got.data.length && at.offset > 0 && at.total > 0) {
    at.offset = Math.floor((at.total - 1) / size) * size;
    return pageOf(path, query, at, size);
  }
  return got.data;
}

function pager(box, at, size, load, what) {
  // Previous, where the page is, Next: ``what.noun`` names the rows
  // ("Players"), ``what.held`` the filter in words; ``load`` shows the
  // page at ``at.offset``. A button pressed from the keyboard keeps the
  // focus as the pager is redrawn (the other one at either end).
  const had = box.contains(document.activeElement)
    ? document.activeElement.dataset.page : null;
  box.innerHTML = "";
  const go = (offset) => {
    at.offset = offset;
    load().catch((e) => refuse(e.message));
  };
  const button = (text, dir, off, to) => {
    const b = Croupier.el("button", "btn secondary", text);
    b.type = "button";
    b.dataset.page = dir;
    b.disabled = off;
    b.appendChild(Croupier.el("span", "sr-only", " page of " +
      what.noun.toLowerCase()));
    b.addEventListener("click", () => go(to));
    return b;
  };
  const prev = button("Previous", "prev", at.offset === 0,
    Math.max(0, at.offset - size));
  const next = button("Next", "next", at.offset + at.shown >= at.total,
    at.offset + size);
  box.appendChild(prev);
  box.appendChild(Croupier.el("span", "pos", at.total
    ? what.noun + " " + (at.offset + 1) + "\u2013" + (at.offset + at.shown) +
      " of " + at.total + what.held
    : what.none + what.held));
  box.appendChild(next);
  if (had) {
    const want = had === "next" ? [next, prev] : [prev, next];
    const to = want.find((b) => !b.disabled);
    if (to) to.focus();
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

async function players() {
  const query = new URLSearchParams({operators: "false"});
  if (found.name) query.set("name", found.name);
  const list = await pageOf("/players", query, found, PLAYERS_PAGE);
  pager($("players-pager"), found, PLAYERS_PAGE, players,
    {noun: "Players", none: "No player", held: heldName()});
  const tbl = $("players");
  tbl.innerHTML = "<tr><th scope='col'>Player</th><th scope='col' " +
    "class='num'>Balance</th><th scope='col'>Seats</th>" +
    "<th scope='col'>Deposit (dollars)</th></tr>";
  for (const p of list) {  // the players alone (operators=false)
    const tr = document.createElement("tr");
    tr.dataset.player = p.id;
    tr.appendChild(Croupier.el("td", "", p.name));
    tr.appendChild(Croupier.el("td", "num balance-cell",
      Croupier.money(p.balance)));
    tr.appendChild(Croupier.el("td", "", p.seats.map((s) => "table " +
      s.table_id + " seat " + s.seat).join(", ") || "none"));
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
    tbl.appendChild(tr);
  }
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

async function serverLog() {
  const query = new URLSearchParams();
  if (logged.level) query.set("level", logged.level);
  if (logged.round) query.set("round_id", logged.round);
  const rows = await pageOf("/log", query, logged, LOG_PAGE);
  pager($("log-pager"), logged, LOG_PAGE, serverLog,
    {noun: "Log rows", none: "No log row", held: heldLog()});
  const tbl = $("log");
  tbl.innerHTML = "";
  tbl.appendChild(Croupier.el("caption", "sr-only", "The server's log, " +
    "newest first" + heldLog()));
  const head = tbl.appendChild(document.createElement("thead"))
    .appendChild(document.createElement("tr"));
  for (const name of ["Time", "Level", "Round", "Message"]) {
    const th = Croupier.el("th", "", name);
    th.scope = "col";
    head.appendChild(th);
  }
  const body = tbl.appendChild(document.createElement("tbody"));
  for (const r of rows) {
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
    body.appendChild(tr);
  }
}

async function refresh() {
  await Promise.all([books(), tables(), players(), serverLog(), games()]);
}

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
