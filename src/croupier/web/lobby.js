// The lobby: get an account (bearer token in localStorage), pick a table.
"use strict";

async function refreshMe() {
  if (!Croupier.token()) return null;
  try {
    const me = await Croupier.api("GET", "/me");
    document.getElementById("who").textContent = me.name;
    document.getElementById("balance").textContent = Croupier.money(me.balance);
    document.getElementById("join-panel").style.display = "none";
    return me;
  } catch (e) {
    localStorage.removeItem("croupier.token");
    return null;
  }
}

async function refreshTables() {
  const tables = await Croupier.api("GET", "/tables");
  const box = document.getElementById("tables");
  box.innerHTML = "";
  for (const t of tables) {
    const card = Croupier.el("div", "table-card");
    card.dataset.game = t.game;
    card.appendChild(Croupier.el("h2", "", t.name));
    card.appendChild(Croupier.el("div", "meta",
      t.title + " · § " + t.section));
    card.appendChild(Croupier.el("div", "meta",
      "Limits " + Croupier.money(t.min_bet) + " – " +
      Croupier.money(t.max_bet)));
    card.appendChild(Croupier.el("div", "meta",
      t.seats.length + " of " + t.seat_count + " seats taken"));
    const go = Croupier.el("a", "btn", "Play");
    go.href = "/play/" + t.id;
    go.dataset.table = t.id;
    card.appendChild(go);
    box.appendChild(card);
  }
}

document.getElementById("join").addEventListener("click", async () => {
  const name = document.getElementById("name").value.trim() || "Guest";
  try {
    const p = await Croupier.api("POST", "/players", {name});
    Croupier.setToken(p.token);
    await refreshMe();
  } catch (e) {
    document.getElementById("error").textContent = e.message;
  }
});

refreshMe();
refreshTables();
