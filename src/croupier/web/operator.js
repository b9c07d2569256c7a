// The operator's desk (token-protected by the server): tables and seats,
// players' balances and deposits, voiding a round in play (D25), ending
// a table's shoe between rounds (D194), the
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
  if (!res.ok) {
    // the answer stays with the error: the form puts each refusal beside
    // the field it concerns (D172)
    const err = new Error(refusalText(data, res.status));
    err.data = data;
    err.status = res.status;
    throw err;
  }
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
      "TableNameTakenError", "TableLimitError"].includes(data.error)) {
    const ref = Croupier.refNote(data);
    return raw.charAt(0).toUpperCase() + raw.slice(1) +
      (/[.!?]$/.test(raw) ? "" : ".") + ref;
  }
  return Croupier.friendly({...data, error: "Refusal"}, status);
}

function show(open) {
  $("login").hidden = open;
  $("desk").hidden = !open;
}

// how many messages the desk has said or refused: a message that comes
// when its request ends says nothing if another came meanwhile
let spoken = 0;

function say(text) {
  // What an action did, in the desk's status line (read out too: it is
  // a role=status region); a refusal goes to the error line instead.
  spoken += 1;
  $("done").textContent = text;
  $("error").textContent = "";
}

function refuse(text) {
  spoken += 1;
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
    ["Seats"], ["Round in play"], ["Void the round in play"],
    ["Change the cards (end the shoe)"]]);
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
  // the shoe in play; an end armed for another, or while a round came
  // into play, is disarmed (D194: the request names its shoe)
  setText(row.shoe, shoeText(t.shoe));
  const ending = row.shoeButton.dataset.confirm;
  if (ending && (live || ending !== String(t.shoe.number))) row.unarmShoe();
}

function shoeText(shoe) {
  // "shoe 3 · 298 cards left" (a pai gow table's deck: "deck 12")
  const left = typeof shoe.cards_left === "number"
    ? " \u00b7 " + shoe.cards_left + " cards left" : "";
  return shoe.kind + " " + shoe.number + left;
}

function armedControl(o) {
  // A reason and a button that a first press arms and a second confirms
  // (D137): a double click's second click and Enter held down (each
  // repeat presses it) are no confirmation, and another reason disarms
  // it. ``o``: the button's class, its idle and armed words and the
  // hidden words after them (``hidden()``), the reason's label, what to
  // say when none is given; ``check()`` gives ``{refusal, unarm}`` or the
  // ``token`` a press arms for and the ``prompt`` asking to confirm;
  // ``send(reason, token)`` does it and ``done(answer)`` words it.
  const lab = Croupier.el("label", "inline");
  const reason = Croupier.el("input", "field");
  reason.size = 14;
  reason.placeholder = "reason";
  reason.maxLength = 200;
  reason.setAttribute("aria-label", o.reasonLabel);
  lab.appendChild(reason);
  const b = Croupier.el("button", o.cls);
  const label = (text) => {
    b.textContent = text;
    b.appendChild(Croupier.el("span", "sr-only", o.hidden()));
  };
  label(o.idle);
  const unarm = () => {
    delete b.dataset.confirm;
    label(o.idle);
  };
  reason.addEventListener("input", unarm);
  b.addEventListener("keydown", (ev) => {
    if (ev.repeat) ev.preventDefault();
  });
  b.addEventListener("click", async (ev) => {
    if (ev.detail > 1 || b.disabled) return;
    const now = o.check();
    if (now.refusal) {
      refuse(now.refusal);
      if (now.unarm) unarm();
      return;
    }
    if (!reason.value.trim()) {
      refuse(o.noReason);
      return;
    }
    if (b.dataset.confirm !== now.token) {
      b.dataset.confirm = now.token;
      label(o.armed);
      say(now.prompt);
      return;
    }
    b.disabled = true;
    try {
      const out = await o.send(reason.value.trim(), now.token);
      reason.value = "";  // the next one gives its own reason
      unarm();
      // the desk redrawn first, then the line: what it says stays put
      await refresh().catch(() => {});
      say(o.done(out));
    } catch (err) {
      refuse(err.message);
      unarm();
      // the desk shows what is in play now
      if (!err.offline) await refresh().catch(() => {});
    } finally {
      b.disabled = false;
    }
  });
  return {lab, reason, button: b, unarm};
}

function shoeCell(row, t) {
  // The control that ends the table's shoe (D194): a reason, then a
  // press that arms it and a second that confirms it, as the void's
  // (D137). Refused while a round is in play: it is ended after it.
  const cell = Croupier.el("td");
  row.shoe = cell.appendChild(Croupier.el("span", "shoe-no"));
  cell.appendChild(document.createTextNode(" "));
  const where = () => row.t.name + " #" + t.id;
  const c = armedControl({
    cls: "btn secondary",
    idle: "Change the cards",
    armed: "Confirm new cards",
    hidden: () => " at " + where(),
    reasonLabel: "Reason for changing the cards at " + t.name + " #" + t.id,
    noReason: "Give a reason: it is kept in the record of the new " +
      "shoe's first round (D194).",
    check: () => {
      const live = row.t.in_play;
      const shoe = row.t.shoe;
      if (live) {
        return {refusal: "Round " + live.round_id + " is in play at " +
          where() + ": end the shoe after it, or void it (D29).",
          unarm: true};
      }
      return {token: String(shoe.number), prompt: "Press \u201cConfirm " +
        "new cards\u201d to end " + shoe.kind + " " + shoe.number + " at " +
        where() + ": the table takes new cards, and the stacks of the " +
        "rounds dealt from it are disclosed. It cannot be undone."};
    },
    send: (reason, token) => op("POST", "/tables/" + t.id + "/shoe/end",
      {reason, shoe: Number(token)}),
    done: (out) => {
      const e = out.shoe_ended;
      const kind = row.t.shoe.kind;
      const n = e.disclosed.length;
      return kind.charAt(0).toUpperCase() + kind.slice(1) + " " + e.shoe +
        " at " + where() + " is ended: " + kind + " " + e.new_shoe +
        " is dealt from round " + e.round_id + "; " + n +
        (n === 1 ? " round's stack" : " rounds' stacks") + " disclosed.";
    },
  });
  c.reason.dataset.shoeReason = t.id;
  c.button.dataset.shoeEnd = t.id;
  row.shoeButton = c.button;
  row.unarmShoe = c.unarm;
  cell.appendChild(c.lab);
  cell.appendChild(c.button);
  return cell;
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
  const where = () => row.t.name + " #" + t.id;
  const c = armedControl({
    cls: "btn",
    idle: "Void",
    armed: "Confirm void",
    hidden: () => " the round at " + where(),
    reasonLabel: "Reason for voiding at " + t.name + " #" + t.id,
    noReason: "Give a reason: it is kept in the round's record (D25).",
    check: () => {
      const live = row.t.in_play;
      if (!live) {
        return {refusal: "No round is in play at " + where() +
          ": nothing to void."};
      }
      return {token: String(live.round_id), prompt: "Press \u201cConfirm " +
        "void\u201d to void round " + live.round_id + " at " + where() +
        ": " + Croupier.money(live.on_layout) + " on its layout goes " +
        "back to the players. A void cannot be undone."};
    },
    send: (reason, token) => op("POST", "/tables/" + t.id + "/void",
      {reason, round_id: Number(token)}),
    done: (out) => {
      const v = out.voided;
      const who = v.refunds.map((r) => r.name + " (seat " + r.seat +
        ") " + Croupier.money(r.amount)).join(", ");
      return "Round " + v.round_id + " at " + where() + " is void: " +
        Croupier.money(v.returned) + " went back" +
        (who ? " \u2014 " + who : "") + ".";
    },
  });
  c.button.dataset.void = t.id;
  row.button = c.button;
  row.unarm = c.unarm;
  cell.appendChild(c.lab);
  cell.appendChild(c.button);
  tr.appendChild(cell);
  tr.appendChild(shoeCell(row, t));
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
  // A player's row: name, balance, seats and the deposit's field. A
  // deposit is asked twice (D173): Deposit turns into "Confirm $X for
  // NAME" beside a Cancel, the status line says what is about to be
  // credited, and only Confirm sends it; Escape or Cancel, or the amount
  // typed again, takes it back.
  const tr = document.createElement("tr");
  tr.dataset.player = p.id;
  tr.appendChild(Croupier.el("td", "", p.name));
  const row = {tr};
  row.balance = tr.appendChild(Croupier.el("td", "num balance-cell"));
  row.seats = tr.appendChild(Croupier.el("td"));
  const cell = Croupier.el("td", "deposit-cell");
  const input = Croupier.el("input", "field");
  input.size = 8;
  input.inputMode = "decimal";
  input.setAttribute("aria-label", "Deposit for " + p.name + " in dollars");
  const b = Croupier.el("button", "btn secondary");
  b.type = "button";
  b.dataset.deposit = p.id;
  const cancel = Croupier.el("button", "btn quiet", "Cancel");
  cancel.type = "button";
  cancel.dataset.cancelDeposit = p.id;
  cancel.appendChild(Croupier.el("span", "sr-only", " the deposit for " +
    p.name));
  cancel.hidden = true;
  const plain = () => {
    // Deposit, as before one is asked
    delete b.dataset.confirm;
    b.textContent = "Deposit";
    b.appendChild(Croupier.el("span", "sr-only", " for " + p.name));
    cancel.hidden = true;
  };
  plain();
  const unarm = (why) => {
    // the deposit asked is taken back: nothing was sent
    if (!b.dataset.confirm) return;
    const cents = Number(b.dataset.confirm);
    const had = document.activeElement === b ||
      document.activeElement === cancel;
    plain();
    say("No deposit for " + p.name + ": the " + Croupier.money(cents) +
      " " + why + ".");
    if (had) input.focus();
  };
  const arm = (cents) => {
    // the button says what it will credit to whom, in words on show
    b.dataset.confirm = String(cents);
    b.textContent = "Confirm " + Croupier.money(cents) + " for " + p.name;
    cancel.hidden = false;
    say("Deposit " + Croupier.money(cents) + " for " + p.name + "? " +
      "Confirm it, or Cancel (Escape).");
    b.focus();
  };
  const deposit = async (cents) => {
    // the same deposit confirmed again after the server could not be
    // reached keeps its key: it is made once (D138)
    const held = unanswered.get(p.id);
    const key = held && held.cents === cents ? held.key : Croupier.newKey();
    unanswered.set(p.id, {cents, key});
    b.disabled = true;
    cancel.disabled = true;
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
          "made. Press Deposit and confirm again with the same amount: " +
          "it is made once.");
      } else {
        unanswered.delete(p.id);
        refuse(e.message);
      }
    } finally {
      b.disabled = false;
      cancel.disabled = false;
    }
  };
  b.addEventListener("click", async (ev) => {
    // the second click of a double click neither arms nor confirms
    if (ev.detail > 1 || b.disabled) return;
    const armed = b.dataset.confirm;
    if (armed) {
      plain();
      input.focus();
      await deposit(Number(armed));
      return;
    }
    const cents = Croupier.parseDollars(input.value);
    if (!cents) {
      refuse("Type a deposit in dollars, like 100 or 1,000.50 (no " +
        "sign; a comma only between thousands).");
      return;
    }
    arm(cents);
  });
  // Enter held down repeats its keydown, and each one presses the
  // button: the press that asked for the deposit would confirm it too
  b.addEventListener("keydown", (ev) => {
    if (ev.repeat) ev.preventDefault();
  });
  // the Confirm that Deposit turns into is wider, and moves Cancel under
  // the pointer: a double click's second click presses neither
  cancel.addEventListener("click", (ev) => {
    if (ev.detail <= 1) unarm("was not deposited");
  });
  tr.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && b.dataset.confirm) {
      ev.preventDefault();
      unarm("was not deposited");
    }
  });
  input.addEventListener("input", () => unarm("asked was typed over"));
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.repeat) {
      ev.preventDefault();
      b.click();
    }
  });
  cell.appendChild(input);
  cell.appendChild(b);
  cell.appendChild(cancel);
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
  await Promise.all([books(), tables(), players(), serverLog(), games(),
    serverSettings()]);
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

// each game's wagers, by the game's name (GET /games)
const gameWagers = new Map();

// the fields of a table's settings; empty, the server's own (D183)
const SETTING_FIELDS = [
  ["nt-betting", "betting_seconds"], ["nt-decision", "decision_seconds"],
  ["nt-idle-minutes", "idle_seat_minutes"], ["nt-idle-rounds", "idle_rounds"]];

async function serverSettings() {
  // the value an empty field stands for (GET /table-settings), once:
  // "server's 20" where the desk said "server's" and no number
  if ($("nt-betting").dataset.server) return;
  const got = await op("GET", "/table-settings");
  for (const [id, key] of SETTING_FIELDS) {
    const value = String(got.defaults[key]);
    $(id).dataset.server = value;
    $(id).placeholder = "server's " + value;
  }
  // the limits start at the server's own (D195; read before the desk
  // shows, so nothing typed is replaced)
  for (const [id, key] of [["nt-min", "min_bet"], ["nt-max", "max_bet"]]) {
    $(id).value = Croupier.money(got.limits[key]).replace("$", "");
  }
}

async function games() {
  // the games a table may deal, once (the choice stays while refreshed)
  const sel = $("nt-game");
  if (sel.options.length) return;
  for (const g of await op("GET", "/games")) {
    gameWagers.set(g.name, g.wagers);
    const o = document.createElement("option");
    o.value = g.name;
    o.textContent = g.title + " (\u00a7 " + g.cites + ")";
    sel.appendChild(o);
  }
  wagerFields();
}

function wagerFields() {
  // The limits per wager of the game chosen (wager_limits of POST
  // /tables): a minimum and a maximum in dollars for each of its
  // wagers, each with its note; empty, the table's limits.
  const box = $("nt-wager-fields");
  box.textContent = "";
  for (const w of gameWagers.get($("nt-game").value) || []) {
    const set = box.appendChild(document.createElement("fieldset"));
    set.appendChild(Croupier.el("legend", "", Croupier.wagerName(w)));
    for (const [end, what] of [["min", "Minimum"], ["max", "Maximum"]]) {
      const id = "nt-wl-" + w + "-" + end;
      const lab = set.appendChild(Croupier.el("label", "", what + " ($) "));
      const input = lab.appendChild(Croupier.el("input", "field"));
      input.id = id;
      input.size = 9;
      input.inputMode = "decimal";
      input.autocomplete = "off";
      input.dataset.wager = w;
      input.dataset.end = end;
      input.setAttribute("aria-describedby", id + "-note");
      const note = set.appendChild(Croupier.el("span", "field-note"));
      note.id = id + "-note";
      note.hidden = true;
    }
  }
}

$("nt-game").addEventListener("change", () => {
  clearNotes();
  wagerFields();
});

// the table being opened without an answer: its request and key (D138)
let opening = null;

// the form's field of each setting of POST /tables (D172)
const NT_FIELDS = {game: "nt-game", name: "nt-name", min_bet: "nt-min",
  max_bet: "nt-max", betting_seconds: "nt-betting",
  decision_seconds: "nt-decision", idle_seat_minutes: "nt-idle-minutes",
  idle_rounds: "nt-idle-rounds", rules: "nt-rules"};

function clearNotes() {
  // no field of the form marked refused
  for (const note of $("new-table").querySelectorAll(".field-note")) {
    clearNote(note.id.replace(/-note$/, ""));
  }
}

function clearNote(id) {
  const note = $(id + "-note");
  const field = $(id);
  if (note) {
    note.textContent = "";
    note.hidden = true;
  }
  if (field) field.removeAttribute("aria-invalid");
}

function noteField(id, text) {
  // ``text`` beside the field ``id``, which is marked refused (the note
  // is its description: a screen reader reads it with the field)
  const note = $(id + "-note");
  const field = $(id);
  if (!note || !field) return null;
  note.textContent = text;
  note.hidden = false;
  field.setAttribute("aria-invalid", "true");
  const details = field.closest("details");
  if (details) details.open = true;
  return field;
}

function noteRefusal(e) {
  // A refusal of POST /tables beside each field it concerns, in the
  // server's words; the focus on the first of them. The error line says
  // it all as well.
  const data = e.data || {};
  const raw = String(data.message || "");
  const marked = [];
  if (e.status === 422) {
    for (const part of raw.split("; ")) {
      const m = /^body\.(\w+)((?:\.[^.:\s]+)*): (.*)$/.exec(part);
      if (!m) continue;
      const [, key, path, said] = m;
      const at = path.split(".").filter(Boolean);  // wager, 0 or 1
      const id = key === "wager_limits" && at.length >= 2
        ? "nt-wl-" + at[0] + "-" + (at[1] === "0" ? "min" : "max")
        : NT_FIELDS[key];
      marked.push(noteField(id, /^(min_bet|max_bet|wager_limits)$/
        .test(key) ? Croupier.dollarsIn(said) : said));
    }
  } else if (data.error === "RulesError") {
    marked.push(noteField("nt-rules", raw));
  } else if (data.error === "TableNameTakenError") {
    marked.push(noteField("nt-name", raw));
  } else if (data.error === "TableLimitError") {
    const m = /^limits for (\S+)|has no '([^']+)' wager/.exec(raw);
    const wager = m && (m[1] || m[2]);
    marked.push(noteField(wager && wager !== "table"
      ? "nt-wl-" + wager + "-min" : "nt-min", raw));
  }
  const first = marked.find((f) => f);
  if (first) first.focus();
}

function newTableBody() {
  // The form as POST /tables takes it, or {refused, field}: what is
  // wrong, in words, and the field it is in.
  const body = {game: $("nt-game").value};
  const name = $("nt-name").value.trim();
  if (name) body.name = name;
  for (const [id, key, what] of [["nt-min", "min_bet", "minimum"],
      ["nt-max", "max_bet", "maximum"]]) {
    const cents = Croupier.parseDollars($(id).value);
    if (!cents) {
      return {field: id, refused: "Type the " + what + " bet in dollars, " +
        "like 5 or 1,000.50."};
    }
    body[key] = cents;
  }
  if (body.min_bet > body.max_bet) {
    return {field: "nt-min", refused: "The minimum bet " +
      Croupier.money(body.min_bet) + " is above the maximum " +
      Croupier.money(body.max_bet) + "."};
  }
  for (const [id, key, what, unit] of [
      ["nt-betting", "betting_seconds", "betting time", "seconds, like 20"],
      ["nt-decision", "decision_seconds", "decision time",
        "seconds, like 30"],
      ["nt-idle-minutes", "idle_seat_minutes", "time a seat is kept for " +
        "a player gone", "minutes, like 5"],
      ["nt-idle-rounds", "idle_rounds", "rounds a seat is kept without " +
        "a wager", "a whole number, like 3"]]) {
    const text = $(id).value.trim();
    if (!text) continue;
    const whole = key === "idle_rounds";
    if (!(whole ? /^\d{1,9}$/ : /^\d{1,9}(\.\d{1,6})?$/).test(text)) {
      const server = $(id).dataset.server;
      return {field: id, refused: "Type the " + what + " in " + unit +
        ", or leave it empty for the server's" +
        (server ? " " + server : "") + "."};
    }
    body[key] = Number(text);
  }
  const limits = {};
  for (const w of gameWagers.get(body.game) || []) {
    const typed = {};
    for (const end of ["min", "max"]) {
      const id = "nt-wl-" + w + "-" + end;
      const text = $(id) ? $(id).value.trim() : "";
      if (!text) continue;
      const cents = Croupier.parseDollars(text);
      if (!cents) {
        return {field: id, refused: "Type the " + Croupier.wagerName(w) +
          (end === "min" ? " minimum" : " maximum") + " in dollars, like " +
          "5 or 1,000.50, or leave it empty for the table's."};
      }
      typed[end] = cents;
    }
    if (typed.min === undefined && typed.max === undefined) continue;
    const low = typed.min === undefined ? body.min_bet : typed.min;
    const high = typed.max === undefined ? body.max_bet : typed.max;
    if (low > high) {
      return {field: "nt-wl-" + w + "-" + (typed.min === undefined
        ? "max" : "min"), refused: "The " + Croupier.wagerName(w) +
        " minimum " + Croupier.money(low) + " is above its maximum " +
        Croupier.money(high) + "."};
    }
    limits[w] = [low, high];
  }
  if (Object.keys(limits).length) body.wager_limits = limits;
  const rules = $("nt-rules").value.trim();
  if (rules) {
    let parsed;
    try {
      parsed = JSON.parse(rules);
    } catch (e) {
      return {field: "nt-rules", refused: "The Rules Submission options " +
        "are not JSON: write them like {\"decks\": 6}."};
    }
    if (parsed === null || typeof parsed !== "object" ||
        Array.isArray(parsed)) {
      return {field: "nt-rules", refused: "The Rules Submission options " +
        "are one JSON object, like {\"decks\": 6}."};
    }
    body.rules = parsed;
  }
  return body;
}

$("new-table").addEventListener("input", (ev) => {
  // a field typed in again is no longer marked refused
  if (ev.target.id) clearNote(ev.target.id);
});
$("new-table").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && ev.repeat) ev.preventDefault();  // held down
});
$("new-table").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const go = $("nt-go");
  if (go.disabled) return;
  clearNotes();
  const body = newTableBody();
  if (body.refused) {
    refuse(body.refused);
    noteField(body.field, body.refused).focus();
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
    if (!e.offline) noteRefusal(e);
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
$("refresh").addEventListener("click", () => {
  // the books come back last (a check sums every transaction): an action
  // pressed meanwhile (a void armed on a row just drawn) has said what it
  // did, and that stays; a refusal is always said
  const before = spoken;
  refresh().then(() => {
    if (spoken === before) {
      say("The desk shows the tables, balances and log as they are now.");
    }
  }).catch((e) => {
    refuse(e.message);
  });
});
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
