// croupier web table: shared helpers (no build step, plain ES2017).
"use strict";

const Croupier = {
  token() { return localStorage.getItem("croupier.token"); },
  setToken(t) { localStorage.setItem("croupier.token", t); },

  async api(method, path, body, extraHeaders) {
    const headers = Object.assign({}, extraHeaders || {});
    const token = Croupier.token();
    if (token) headers["Authorization"] = "Bearer " + token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method === "POST") {
      headers["Idempotency-Key"] =
        Date.now().toString(36) + Math.random().toString(36).slice(2);
    }
    const res = await fetch(path, {
      method, headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const ref = data.ref ? " [§ " + data.ref + "]" : "";
      const err = new Error((data.error || res.status) + ": " +
                            (data.message || "") + ref);
      err.data = data;
      throw err;
    }
    return data;
  },

  money(units) {
    // -$5.00, not $-5.00: the sign goes before the currency symbol
    const v = Math.abs(units || 0) / 100;
    const sign = (units || 0) < 0 ? "-" : "";
    return sign + "$" + v.toLocaleString("en-US", {
      minimumFractionDigits: 2, maximumFractionDigits: 2});
  },

  SUITS: {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"},

  cardEl(code) {
    const el = document.createElement("div");
    el.className = "card";
    if (!code) { el.className += " back"; return el; }
    if (code === "JK") {
      el.innerHTML = '<div class="tl">J<br>K</div><div class="mid">\u2605</div>';
      el.dataset.card = code;
      return el;
    }
    let rank = code.slice(0, -1), suit = code.slice(-1);
    if (rank === "T") rank = "10";
    if (suit === "d" || suit === "h") el.className += " red";
    const s = Croupier.SUITS[suit] || suit;
    el.innerHTML = '<div class="tl">' + rank + "<br>" + s +
                   '</div><div class="mid">' + s + "</div>";
    el.dataset.card = code;
    return el;
  },

  chipEl(amount) {
    const el = document.createElement("div");
    const dollars = amount / 100;
    let cls = "c1";
    if (dollars >= 500) cls = "c500";
    else if (dollars >= 100) cls = "c100";
    else if (dollars >= 25) cls = "c25";
    else if (dollars >= 5) cls = "c5";
    el.className = "chip " + cls;
    el.textContent = dollars >= 1000 ? (dollars / 1000) + "k" : dollars;
    el.title = Croupier.money(amount);
    return el;
  },

  el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  },

  describe(ev) {
    // One line of narration for an event (cards may be hidden: null).
    const c = (x) => x === null || x === undefined ? "a face-down card" : x;
    switch (ev.type) {
      case "card_dealt":
        return "Card " + c(ev.card) + " dealt to " + ev.to +
          (ev.face_up === false ? " (face down)" : "") +
          (ev.purpose ? " [" + ev.purpose + "]" : "");
      case "card_burned": return "Burn card " + c(ev.card);
      case "card_exposed": return ev.to + " exposes " + c(ev.card);
      case "cards_collected": return "Cards collected from " + ev.source;
      case "wager_placed":
        return "Seat " + ev.seat + " wagers " + Croupier.money(ev.amount) +
          " on " + ev.wager;
      case "decision_made":
        return "Seat " + ev.seat + " decides: " + ev.action +
          (ev.amount ? " " + Croupier.money(ev.amount) : "");
      case "wager_settled":
        return "Seat " + ev.seat + " " + ev.wager + ": " + ev.outcome +
          " (" + (ev.net >= 0 ? "+" : "") + Croupier.money(ev.net) + ")";
      case "phase_entered": return "\u2014 " + ev.phase.replace(/_/g, " ");
      case "announced": return "Dealer: " + ev.text;
      case "shuffled": return "Shuffle (" + ev.source + ", " + ev.cards + " cards)";
      case "cover_card_inserted": return "Cover card placed at " + ev.position;
      case "cover_card_reached": return "The cover card came out";
      case "round_voided": return "Round voided: " + ev.reason;
      default: {
        const rest = Object.keys(ev).filter(
          (k) => !["seq", "ref", "type", "scope"].includes(k))
          .map((k) => k + "=" + JSON.stringify(ev[k])).join(" ");
        return ev.type.replace(/_/g, " ") + (rest ? " " + rest : "");
      }
    }
  },
};
