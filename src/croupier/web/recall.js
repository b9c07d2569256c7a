// The recall page: list rounds, show one round's procedure and outcome.
"use strict";

async function showRound(id) {
  const r = await Croupier.api("GET", "/rounds/" + id);
  document.getElementById("detail-title").textContent =
    "Round " + r.id + " · " + r.game + " · table " + r.table_id + " · " +
    r.status + (r.sealed ? " (shoe still in play: hidden cards sealed)" : "");
  const box = document.getElementById("detail");
  box.innerHTML = "";
  const felt = Croupier.el("div", "panel");
  // every card each position received, special cards marked (a sideways
  // Double Down or Second Chance card, a bonus-only card)
  const model = Croupier.feltFrom(r.events, true);
  for (const pos of model.positions) {
    const area = Croupier.el("div", "area");
    area.appendChild(Croupier.el("div", "label", pos.label));
    pos.hands.forEach((h, i) => {
      const row = Croupier.el("div", "cards");
      for (const c of h.cards) row.appendChild(Croupier.cardEl(c.card, c.purpose));
      if (pos.hands.length > 1) {
        area.appendChild(Croupier.el("div", "caption", "hand " + (i + 1)));
      }
      area.appendChild(row);
    });
    if (pos.set) {
      area.appendChild(Croupier.el("div", "caption", "high " +
        Croupier.cardsText(pos.set.high) + " (" + pos.set.desc + "), low " +
        Croupier.cardsText([pos.set.low])));
    }
    felt.appendChild(area);
  }
  box.appendChild(felt);
  const st = Croupier.el("table", "rows");
  st.innerHTML = "<tr><th>seat</th><th>wager</th><th>stake</th>" +
    "<th>outcome</th><th>net</th><th>§</th></tr>";
  for (const s of r.settlements) {
    const tr = document.createElement("tr");
    for (const v of [s.seat, Croupier.wagerName(s.wager),
                     Croupier.money(s.amount), s.outcome,
                     Croupier.money(s.net), s.ref || ""]) {
      tr.appendChild(Croupier.el("td", "", String(v)));
    }
    st.appendChild(tr);
  }
  box.appendChild(st);
  const nar = Croupier.el("div", "narration");
  nar.style.height = "auto";
  for (const ev of r.events) {
    const line = Croupier.el("div");
    line.innerHTML = (ev.ref ? '<span class="ref">§ ' + ev.ref + "</span> " : "");
    line.appendChild(document.createTextNode(
      "#" + ev.seq + " " + Croupier.describe(ev)));
    nar.appendChild(line);
  }
  box.appendChild(nar);
}

async function listRounds() {
  const params = new URLSearchParams(location.search);
  const table = params.get("table");
  const rounds = await Croupier.api("GET",
    "/rounds?limit=100" + (table ? "&table_id=" + table : ""));
  const tbl = document.getElementById("rounds");
  tbl.innerHTML = "<tr><th>#</th><th>game</th><th>status</th><th>events</th></tr>";
  for (const r of rounds) {
    const tr = document.createElement("tr");
    tr.style.cursor = "pointer";
    tr.dataset.round = r.id;
    for (const v of [r.id, r.game, r.status, r.events]) {
      tr.appendChild(Croupier.el("td", "", String(v)));
    }
    tr.addEventListener("click", () => showRound(r.id));
    tbl.appendChild(tr);
  }
  const wanted = params.get("round");
  if (wanted) showRound(wanted);
}

listRounds();
