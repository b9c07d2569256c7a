// The recall page (58 Pa. Code § 810a.11 style): the rounds with time,
// table, game, players, total bet, total won and net, filtered and paged
// over the whole history; one round's facts, results per hand and a
// step-by-step replay with the felt redrawn at each step.
"use strict";

const PAGE = 25;
const params = new URLSearchParams(location.search);
let offset = parseInt(params.get("offset") || "0", 10) || 0;
let total = 0;
let replay = null;     // {events, step, game}

const $ = (id) => document.getElementById(id);

function authHeaders() {
  // The operator's token if the operator page left one, else the player's.
  const t = sessionStorage.getItem("croupier.operator") || Croupier.token();
  return t ? {Authorization: "Bearer " + t} : {};
}

async function get(path) {
  let res;
  try {
    res = await fetch(path, {headers: authHeaders()});
  } catch (e) {
    throw new Error("The server cannot be reached; try again in a moment.");
  }
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) {
    throw new Error("Recall shows your own rounds: get chips in the " +
      "lobby first (the operator sees every round).");
  }
  if (!res.ok) {
    const err = new Error(Croupier.friendly(data, res.status));
    err.status = res.status;
    throw err;
  }
  return {data, headers: res.headers};
}

function localDay(value, after) {
  // A date field's day as the instant it begins where the viewer is (the
  // next day's beginning for "To"): the list shows local times, so its
  // days are the viewer's, not UTC's.
  if (!value) return "";
  const [y, m, d] = value.split("-").map(Number);
  return new Date(y, m - 1, d + (after ? 1 : 0)).toISOString();
}

function filters() {
  const q = new URLSearchParams();
  const put = (k, v) => { if (v) q.set(k, v); };
  put("table_id", $("f-table").value);
  put("game", $("f-game").value);
  put("player", $("f-player").value.trim());
  put("since", localDay($("f-since").value, false));
  put("until", localDay($("f-until").value, true));
  return q;
}

async function listRounds() {
  const q = filters();
  q.set("limit", String(PAGE));
  q.set("offset", String(offset));
  $("error").textContent = "";
  let page;
  try {
    page = await get("/rounds?" + q.toString());
  } catch (e) {
    $("error").textContent = e.message;
    return;
  }
  total = parseInt(page.headers.get("X-Total-Count") || "0", 10);
  const tbl = $("rounds");
  tbl.innerHTML = "";
  const head = document.createElement("tr");
  for (const [h, num] of [["Round", false], ["Time", false], ["Table", false],
      ["Game", false], ["Player", false], ["Bet", true], ["Won", true],
      ["Net", true], ["Status", false]]) {
    const th = Croupier.el("th", num ? "num" : "", h);
    th.scope = "col";
    head.appendChild(th);
  }
  tbl.appendChild(head);
  for (const r of page.data) {
    const tr = document.createElement("tr");
    tr.className = "clickable";
    tr.dataset.round = r.id;
    const idCell = Croupier.el("td");
    const a = Croupier.el("a", "", "#" + r.id);
    a.href = "?round=" + r.id;
    a.appendChild(Croupier.el("span", "sr-only", " " + r.title));
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      showRound(r.id, true);
    });
    idCell.appendChild(a);
    tr.appendChild(idCell);
    const cells = [[Croupier.when(r.started_at), ""],
      [tableName(r), "nowrap"], [r.title, ""],
      [(r.players || []).join(", "), ""],
      [Croupier.money(r.total_bet), "num"], [Croupier.money(r.total_won), "num"],
      [(r.net > 0 ? "+" : "") + Croupier.money(r.net), "num"], [r.status, ""]];
    for (const [v, cls] of cells) tr.appendChild(Croupier.el("td", cls, v));
    tr.addEventListener("click", () => showRound(r.id, true));
    tbl.appendChild(tr);
  }
  if (!page.data.length) {
    const tr = document.createElement("tr");
    const td = Croupier.el("td", "", "No round matches.");
    td.colSpan = 9;
    tr.appendChild(td);
    tbl.appendChild(tr);
  }
  renderPager(page.data.length);
}

// a table named after its game is told by its number, not its name
// again ("Round 12 · Midibaccarat · table 3")
function tableName(r) {
  return r.table && r.table !== (r.title || r.game) ? r.table
    : "table " + r.table_id;
}

function renderPager(shown) {
  for (const id of ["pager", "pager-top"]) {
    const box = $(id);
    box.innerHTML = "";
    const prev = Croupier.el("button", "btn secondary", "Newer");
    prev.disabled = offset === 0;
    prev.dataset.page = "prev";
    prev.addEventListener("click", () => {
      offset = Math.max(0, offset - PAGE); listRounds();
    });
    const next = Croupier.el("button", "btn secondary", "Older");
    next.disabled = offset + shown >= total;
    next.dataset.page = "next";
    next.addEventListener("click", () => { offset += PAGE; listRounds(); });
    box.appendChild(prev);
    box.appendChild(Croupier.el("span", "pos",
      total ? "Rounds " + (offset + 1) + "\u2013" + (offset + shown) +
        " of " + total : "No rounds"));
    box.appendChild(next);
  }
}

// -- one round ---------------------------------------------------------------------
function fact(dl, term, value) {
  dl.appendChild(Croupier.el("dt", "", term));
  const dd = Croupier.el("dd");
  if (value instanceof Node) dd.appendChild(value); else dd.textContent = value;
  dl.appendChild(dd);
}

function voidWords(v) {
  // Who voided the round and why (D25); every stake went back.
  return "voided by the " + (v.by === "operator" ? "operator" : "server") +
    (v.reason ? ": " + v.reason : "") + " (" + Croupier.refText(v.ref) +
    "; every stake returned)";
}

function resultWords(r) {
  const M = Croupier.money;
  return {win: "won " + M(r.net), lose: "lost " + M(-r.net),
    push: "push: " + M(r.stake) + " returned",
    void: "void: " + M(r.stake) + " returned"}[r.outcome] || r.outcome;
}

async function showRound(id, chosen) {
  let r;
  try {
    r = (await get("/rounds/" + id)).data;
  } catch (e) {
    $("error").textContent = e.message;
    return;
  }
  for (const tr of document.querySelectorAll("#rounds tr")) {
    tr.classList.toggle("current", tr.dataset.round === String(r.id));
  }
  history.replaceState(null, "", "?round=" + r.id);
  $("detail-title").textContent = "Round " + r.id + " \u00b7 " +
    (r.title || r.game) + " \u00b7 " + tableName(r);
  const box = $("detail");
  box.innerHTML = "";
  const dl = Croupier.el("dl", "facts");
  fact(dl, "Status", (r.void ? voidWords(r.void) : r.status) +
    (r.sealed ? " (cards still in play are not shown)" : ""));
  fact(dl, "Started", Croupier.when(r.started_at));
  fact(dl, "Ended", Croupier.when(r.ended_at) || "not yet");
  fact(dl, "Software", r.game_version || "");
  for (const b of r.balances || []) {
    fact(dl, b.name, "balance " + Croupier.money(b.before) + " before, " +
      Croupier.money(b.after) + " after (" + (b.net > 0 ? "+" : "") +
      Croupier.money(b.net) + (b.moved_elsewhere === undefined ? "" :
        "; " + (b.moved_elsewhere > 0 ? "+" : "") +
        Croupier.money(b.moved_elsewhere) + " elsewhere meanwhile") + ")");
  }
  if (r.rules) {
    const det = Croupier.el("details");
    det.appendChild(Croupier.el("summary", "", "Rules in force"));
    det.appendChild(Croupier.el("pre", "", Object.entries(r.rules)
      .map(([k, v]) => k + " = " + JSON.stringify(v)).join("\n")));
    fact(dl, "Rules", det);
  }
  box.appendChild(dl);

  const results = r.results || [];
  const st = Croupier.el("table", "rows");
  st.innerHTML = "<caption class='sr-only'>Wagers and results</caption>" +
    "<tr><th scope='col'>Seat</th><th scope='col'>Wager</th>" +
    "<th scope='col' class='num'>Stake</th><th scope='col'>Result</th>" +
    "<th scope='col'>\u00a7</th></tr>";
  for (const s of results) {
    const tr = document.createElement("tr");
    tr.dataset.wager = s.wager;
    tr.dataset.hand = s.hand || 0;
    for (const [v, cls] of [[String(s.seat), ""],
        [(s.wager === "stake" ? "Stakes on the layout" :
          Croupier.wagerName(s.wager)) + (s.hand ? " (hand " + (s.hand + 1) +
          ")" : ""), ""], [Croupier.money(s.stake), "num"],
        [resultWords(s), ""], [s.ref || "", "ref"]]) {
      tr.appendChild(Croupier.el("td", cls, v));
    }
    st.appendChild(tr);
  }
  const wrap = Croupier.el("div", "scroll-x");
  // a region the keyboard can scroll sideways, as the list's
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label",
    "Wagers and results (scroll sideways with the arrow keys)");
  wrap.appendChild(st);
  box.appendChild(wrap);

  // the step-through replay
  const events = r.events;
  replay = {events, step: events.length, game: r.game};
  const rp = Croupier.el("section", "panel replay");
  rp.setAttribute("aria-label", "Replay, step by step");
  rp.appendChild(Croupier.el("h3", "", "Replay"));
  const nav = Croupier.el("div", "pager");
  for (const [k, text] of [["first", "First"], ["prev", "Previous"],
      ["next", "Next"], ["last", "Last"]]) {
    const b = Croupier.el("button", "btn secondary", text);
    b.dataset.step = k;
    b.appendChild(Croupier.el("span", "sr-only", " step"));
    b.addEventListener("click", () => stepTo(k));
    nav.appendChild(b);
  }
  nav.appendChild(Croupier.el("span", "", ""));
  nav.lastChild.id = "step-pos";
  rp.appendChild(nav);
  const say = Croupier.el("div", "replay-step");
  say.id = "step-text";
  say.setAttribute("aria-live", "polite");
  rp.appendChild(say);
  const felt = Croupier.el("div", "replay-felt");
  felt.id = "replay-felt";
  rp.appendChild(felt);
  box.appendChild(rp);
  drawStep();

  const nar = Croupier.el("div", "narration");
  nar.style.maxHeight = "none";
  for (const ev of r.events) {
    const line = Croupier.el("div");
    if (ev.ref) {
      line.appendChild(Croupier.el("span", "ref", Croupier.refText(ev.ref)));
    }
    line.appendChild(document.createTextNode(" #" + ev.seq + " " +
      Croupier.describe(ev)));
    nar.appendChild(line);
  }
  const det = Croupier.el("details");
  det.appendChild(Croupier.el("summary", "", "Every step (" +
    r.events.length + ")"));
  det.appendChild(nar);
  box.appendChild(det);
  if (chosen) {
    // the round a player chose is below the list on a phone, and after
    // every row for the keyboard: take him (and a screen reader) there
    const title = $("detail-title");
    title.tabIndex = -1;
    title.focus({preventScroll: true});
    const top = title.getBoundingClientRect().top;
    if (top < 0 || top > innerHeight / 2) {
      title.scrollIntoView({block: "start"});
    }
  }
}

function stepTo(k) {
  if (!replay) return;
  const n = replay.events.length;
  replay.step = {first: 0, prev: Math.max(0, replay.step - 1),
    next: Math.min(n, replay.step + 1), last: n}[k];
  drawStep();
}

function drawStep() {
  const {events, step} = replay;
  const shown = events.slice(0, step);
  const model = Croupier.feltFrom(shown, step === events.length);
  const felt = $("replay-felt");
  felt.innerHTML = "";
  for (const pos of model.positions) {
    const area = Croupier.el("div", "area");
    area.dataset.label = pos.label;
    area.appendChild(Croupier.el("div", "label", pos.label));
    pos.hands.forEach((h, i) => {
      if (pos.hands.length > 1) {
        area.appendChild(Croupier.el("div", "caption", "hand " + (i + 1)));
      }
      const row = Croupier.el("div", "cards");
      row.dataset.hand = i;
      if (h.gone || h.collected) row.classList.add("gone");
      for (const c of h.cards) row.appendChild(Croupier.cardEl(c.card, c.purpose));
      area.appendChild(row);
    });
    if (pos.set) {
      area.appendChild(Croupier.el("div", "caption", "high " +
        Croupier.cardsText(pos.set.high) + " (" + pos.set.desc + "), low " +
        Croupier.cardsText([pos.set.low])));
    }
    felt.appendChild(area);
  }
  $("step-pos").textContent = "Step " + step + " of " + events.length;
  const ev = events[step - 1];
  $("step-text").textContent = ev ? (ev.ref ? Croupier.refText(ev.ref) +
    ": " : "") + Croupier.describe(ev) : "Before the first step.";
  for (const b of document.querySelectorAll("[data-step]")) {
    const k = b.dataset.step;
    b.disabled = (k === "first" || k === "prev") ? step === 0 :
      step === events.length;
  }
}

async function start() {
  const me = Croupier.token() ? await get("/me").catch(() => null) : null;
  $("who").textContent = sessionStorage.getItem("croupier.operator")
    ? "operator" : me ? me.data.name : "";
  try {
    const [tables, games] = await Promise.all([get("/tables"), get("/games")]);
    for (const t of tables.data) {
      const o = Croupier.el("option", "", t.name + " (#" + t.id + ")");
      o.value = t.id;
      $("f-table").appendChild(o);
    }
    for (const g of games.data) {
      const o = Croupier.el("option", "", g.title);
      o.value = g.name;
      $("f-game").appendChild(o);
    }
  } catch (e) {
    $("error").textContent = e.message;
  }
  if (params.get("table")) $("f-table").value = params.get("table");
  $("filters").addEventListener("submit", (ev) => {
    ev.preventDefault();
    offset = 0;
    listRounds();
  });
  await listRounds();
  // a round asked for by its address (a player's "last rounds" at the
  // table, the desk's log) is the one chosen: the focus and the screen
  // go to it, below the list on a phone (its title was 630 px down at
  // 390 x 844, its facts under the screen's foot, the focus on the
  // page's top: D168)
  if (params.get("round")) showRound(params.get("round"), true);
}

start();
