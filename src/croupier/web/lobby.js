// The lobby: get an account (bearer token in localStorage), pick a table.
"use strict";

let me = null;

async function loadMe() {
  // who this browser's token is (``me``), or null: nothing drawn yet
  if (!Croupier.token()) return null;
  try {
    me = await Croupier.api("GET", "/me");
    return me;
  } catch (e) {
    if (e.status === 401 || e.status === 403) {
      localStorage.removeItem("croupier.token");
    } else {
      document.getElementById("error").textContent = e.message;
    }
    return null;
  }
}

function showMe() {
  if (!me) return;
  document.getElementById("who").textContent = me.name;
  document.getElementById("balance").textContent = Croupier.money(me.balance);
  document.getElementById("join-panel").hidden = true;
  document.getElementById("switch").hidden = false;
}

async function refreshTables() {
  let tables;
  try {
    tables = await Croupier.api("GET", "/tables");
  } catch (e) {
    document.getElementById("error").textContent = e.message;
    return;
  }
  const box = document.getElementById("tables");
  // a table's link with the focus is drawn anew: the focus goes with it
  const held = box.contains(document.activeElement)
    ? document.activeElement.dataset.table : undefined;
  box.innerHTML = "";
  for (const t of tables) {
    const card = Croupier.el("section", "table-card");
    card.dataset.game = t.game;
    card.setAttribute("aria-label", t.name);
    card.appendChild(Croupier.el("h3", "", t.name));
    card.appendChild(Croupier.el("div", "meta",
      t.title + " · § " + t.cites));
    card.appendChild(Croupier.el("div", "meta",
      "Limits " + Croupier.money(t.min_bet) + " to " +
      Croupier.money(t.max_bet)));
    card.appendChild(Croupier.el("div", "meta",
      t.seats.length + " of " + t.seat_count + " seats taken"));
    const mine = me && me.seats && me.seats.find((s) => s.table_id === t.id);
    const go = Croupier.el("a", "btn", mine ? "Back to seat " + mine.seat
      : "Play");
    go.href = "/play/" + t.id;
    go.dataset.table = t.id;
    go.appendChild(Croupier.el("span", "sr-only", " at " + t.name));
    card.appendChild(go);
    box.appendChild(card);
    if (held !== undefined && String(t.id) === held) go.focus();
  }
}

async function join(typed) {
  // A new player called ``typed``; with no name typed, a guest whose
  // number is drawn until one is free ("Guest 4821": a second visitor
  // who types nothing is not told "that name is taken").
  if (typed) return Croupier.api("POST", "/players", {name: typed});
  for (let tries = 0; ; tries++) {
    const name = "Guest " + (1000 + Math.floor(Math.random() * 9000));
    try {
      return await Croupier.api("POST", "/players", {name});
    } catch (e) {
      if (e.data && e.data.error === "NameTakenError" && tries < 5) continue;
      throw e;
    }
  }
}

document.getElementById("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const button = document.getElementById("join");
  if (button.disabled) return;
  const typed = document.getElementById("name").value.trim();
  let failed = false;
  button.disabled = true;
  try {
    const p = await join(typed);
    Croupier.setToken(p.token);
    await loadMe();
    await refreshTables();
    // the player, the tables and the focus are drawn at once: the name
    // and balance never show over the tables as they were
    showMe();
    document.getElementById("error").textContent = "";
    // the form is gone: the keyboard goes on to the next thing to do,
    // a table to play at (not to the page's top)
    const play = document.querySelector("#tables a.btn");
    if (play) play.focus();
  } catch (e) {
    document.getElementById("error").textContent = e.message;
    failed = true;
  } finally {
    button.disabled = false;
    // a refused name is corrected where it was typed
    if (failed) document.getElementById("name").focus();
  }
});

document.getElementById("switch").addEventListener("click", () => {
  // another player at this browser: forget this one's token
  localStorage.removeItem("croupier.token");
  me = null;
  document.getElementById("who").textContent = "";
  document.getElementById("balance").textContent = "";
  document.getElementById("join-panel").hidden = false;
  document.getElementById("switch").hidden = true;
  document.getElementById("name").focus();  // the button just hid
  refreshTables();
});

loadMe().then(refreshTables).then(showMe);
