// The operator's desk (token-protected by the server): tables and seats,
// players' balances and deposits, voiding a round in play (D25), and the
// ledger check. The token stays in this browser tab only.
"use strict";

const $ = (id) => document.getElementById(id);
const KEY = "croupier.operator";

async function op(method, path, body) {
  const headers = {Authorization: "Bearer " + sessionStorage.getItem(KEY)};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method === "POST") headers["Idempotency-Key"] = Croupier.newKey();
  let res;
  try {
    res = await fetch(path, {method, headers,
      body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    throw new Error("The server cannot be reached; try again in a moment.");
  }
  const data = await res.json().catch(() => ({}));
  if (res.status === 401 || res.status === 403) {
    sessionStorage.removeItem(KEY);
    show(false);
    throw new Error("That token is not the operator's.");
  }
  if (!res.ok) throw new Error(Croupier.friendly(data, res.status));
  return data;
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
    "<th scope='col'>Void the round in play</th></tr>";
  for (const t of list) {
    const tr = document.createElement("tr");
    tr.dataset.table = t.id;
    const name = Croupier.el("td");
    const a = Croupier.el("a", "", t.name);
    a.href = "/play/" + t.id;
    name.appendChild(a);
    tr.appendChild(name);
    tr.appendChild(Croupier.el("td", "", t.title + " \u00b7 \u00a7 " + t.cites));
    tr.appendChild(Croupier.el("td", "", Croupier.money(t.min_bet) + " to " +
      Croupier.money(t.max_bet)));
    tr.appendChild(Croupier.el("td", "", t.seats.length ? t.seats.map(
      (s) => s.seat + ": " + s.name + (s.sitting_out ? " (out)" : ""))
      .join(", ") : "none"));
    const cell = Croupier.el("td");
    const lab = Croupier.el("label", "inline");
    const reason = Croupier.el("input", "field");
    reason.size = 14;
    reason.placeholder = "reason";
    reason.setAttribute("aria-label", "Reason for voiding at " + t.name);
    lab.appendChild(reason);
    const b = Croupier.el("button", "btn", "Void");
    b.dataset.void = t.id;
    b.appendChild(Croupier.el("span", "sr-only", " the round at " + t.name));
    b.addEventListener("click", async (ev) => {
      if (ev.detail > 1 || b.disabled) return;
      if (!reason.value.trim()) {
        refuse("Give a reason: it is kept in the round's record (D25).");
        return;
      }
      b.disabled = true;
      try {
        await op("POST", "/tables/" + t.id + "/void",
                 {reason: reason.value.trim()});
        say("The round at " + t.name + " is void; every stake went back.");
        await refresh();
      } catch (e) {
        refuse(e.message);
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

async function players() {
  const list = await op("GET", "/players");
  const tbl = $("players");
  tbl.innerHTML = "<tr><th scope='col'>Player</th><th scope='col' " +
    "class='num'>Balance</th><th scope='col'>Seats</th>" +
    "<th scope='col'>Deposit (dollars)</th></tr>";
  for (const p of list) {
    if (p.operator) continue;
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
        refuse("Type a deposit in dollars, like 100.");
        return;
      }
      b.disabled = true;
      try {
        await op("POST", "/players/" + p.id + "/deposits", {amount: cents});
        say(Croupier.money(cents) + " deposited for " + p.name + ".");
        await refresh();
      } catch (e) {
        refuse(e.message);
      } finally {
        b.disabled = false;
      }
    });
    cell.appendChild(input);
    cell.appendChild(b);
    tr.appendChild(cell);
    tbl.appendChild(tr);
  }
}

async function refresh() {
  await Promise.all([books(), tables(), players()]);
}

$("login-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  sessionStorage.setItem(KEY, $("token").value.trim());
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
$("logout").addEventListener("click", () => {
  sessionStorage.removeItem(KEY);
  show(false);
});

if (sessionStorage.getItem(KEY)) {
  refresh().then(() => show(true)).catch((e) => {
    refuse(e.message);
  });
}
