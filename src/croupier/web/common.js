// croupier web table: shared helpers (no build step, plain ES2017).
"use strict";

const Croupier = {
  token() { return localStorage.getItem("croupier.token"); },
  setToken(t) { localStorage.setItem("croupier.token", t); },

  newKey() {
    // One Idempotency-Key per intended action (a retry reuses it).
    const rnd = new Uint8Array(12);
    crypto.getRandomValues(rnd);
    return Date.now().toString(36) + "-" +
      Array.from(rnd, (b) => b.toString(16).padStart(2, "0")).join("");
  },

  async api(method, path, body, opts) {
    // A JSON request; ``opts.key`` is the action's Idempotency-Key (a
    // fresh one for a POST without it). Refusals throw an Error whose
    // message is a plain sentence for the player (Croupier.friendly).
    const o = opts || {};
    const headers = {};
    const token = Croupier.token();
    if (token) headers["Authorization"] = "Bearer " + token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method === "POST") headers["Idempotency-Key"] = o.key || Croupier.newKey();
    let res;
    try {
      res = await fetch(path, {
        method, headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      const err = new Error("The table server cannot be reached. " +
        "Check your connection; the page keeps trying.");
      err.offline = true;
      throw err;
    }
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(Croupier.friendly(data, res.status, o.context));
      err.data = data;
      err.status = res.status;
      throw err;
    }
    return data;
  },

  friendly(data, status, context) {
    // A refusal in plain words, amounts in dollars, with its section;
    // never a class name. ``context`` may carry {limits: [lo, hi],
    // balance} to say what the limits are.
    const c = context || {};
    const kind = (data && data.error) || "";
    // the note after the page's own words (the server's, when shown,
    // may name the rule already: then it is not said twice)
    const ref = Croupier.refNote(data, "");
    const refAfter = (words) => Croupier.refNote(data, words);
    const M = Croupier.money;
    const said = Croupier.cardsIn(Croupier.dollarsIn(
      String((data && data.message) || "")));
    const plain = said ? said.charAt(0).toUpperCase() + said.slice(1) : "";
    const sentence = (x) => /[.!?]$/.test(x) ? x : x + ".";
    const table = {
      TableLimitError: c.limits
        ? "That bet is outside this spot's limits of " + M(c.limits[0]) +
          " to " + M(c.limits[1]) + "."
        : "That bet is outside this table's limits.",
      InsufficientBalanceError: "You do not have enough chips for that" +
        (typeof c.balance === "number" ? ": your balance is " +
          M(c.balance) + "." : "."),
      NotSeatOwnerError: "That seat is not yours.",
      NotFoundError: "That table or round does not exist.",
      // a token expired, revoked or unknown: what the player can do (the
      // server's words speak to an API client: "a valid bearer token is
      // required", "... renews it with croupier token rotate")
      NotAuthenticatedError: "Your session has expired: get chips again " +
        "in the lobby.",
      NotOperatorError: "Only the casino operator may do that.",
      NameTakenError: "That name is taken: choose another one.",
      NoWagerError: "Place a bet first: a seat without a bet is dealt in " +
        "from the next round.",
    };
    if (table[kind]) return table[kind] + ref;
    if (kind === "SeatError" && /\bsits out\b/.test(said)) {
      return "You are sitting out: press \u201cBack in\u201d to bet " +
        "again." + ref;
    }
    if (kind === "SeatError" && /^seat \d+ is taken$/.test(said)) {
      return "Someone else sat there first; choose another seat." + ref;
    }
    if (kind === "WrongPhaseError") {
      return plain ? sentence(plain) + refAfter(plain)
        : "Not at this point of the round." + ref;
    }
    if (status === 422) {
      return "The request was not understood: check the amount." + ref;
    }
    if (status >= 500) {
      return "The table server had a problem; try again in a moment.";
    }
    return plain ? sentence(plain) + refAfter(plain)
      : "That is not allowed here." + ref;
  },

  dollarsIn(text) {
    // The refusals write money in dollars ("between $5.00 and
    // $1,000.00", D190), some bounds once more in the cents an API
    // client sends ("(500 to 100000 in cents)"): a player is given the
    // dollars alone, each kept whole ("$1,000,000.00"). A message that
    // speaks minor units (a request's field: "body.min_bet: ... 1") has
    // its amounts of three digits or more made dollars; seat, box, hand,
    // round and table numbers stay as they are.
    const plain = String(text).replace(/ \([^()]* in cents(?:, ([^()]*))?\)/g,
      (m, rest) => rest ? " (" + rest + ")" : "");
    // (a date's year or a time's figures are no amount: "expired at
    // 2027-01-06 00:00" read "$20.27-01-06")
    return plain.replace(
      /-?\$[\d,]+(?:\.\d+)?|(^|[^\w$.#-])(-?\d{3,})(?![\w.%]|[-:]\d)/g,
      (m, pre, num, offset, whole) => {
        if (num === undefined) return m;  // in dollars already
        const before = whole.slice(0, offset + pre.length);
        if (/(seat|box|hand|round|table|player|card|cards|position)\s*$/i
            .test(before)) return m;
        return pre + Croupier.money(parseInt(num, 10));
      });
  },

  cardsIn(text) {
    // Server messages write cards as codes ("the high hand Ts 8d Kc 4d
    // 7h ... does not outrank the low hand Ac"): as the page writes
    // them (10\u2660 8\u2666 ...). A code is taken for a card in a run of
    // codes or after "hand", "card" or "cards"; alone elsewhere ("As
    // the dealer ...") it is a word and stays.
    const isCode = (w) => /^(?:[2-9TJQKA][cdhs]|JK)$/.test(w);
    const bare = (w) => String(w || "").replace(/^\(+|[,.;:)]+$/g, "");
    const words = String(text).split(" ");
    return words.map((w, i) => {
      const core = bare(w);
      if (!isCode(core)) return w;
      const before = bare(words[i - 1]), after = bare(words[i + 1]);
      if (!isCode(before) && !isCode(after) &&
          !/^(hand|card|cards)$/i.test(before)) return w;
      return w.replace(core, core === "JK" ? "joker" : Croupier.cardText(core));
    }).join(" ");
  },

  parseDollars(text) {
    // "12.50", "$1,000", "1,000.10", "5" -> minor units; null if not an
    // amount. A comma only groups thousands: "1,50" (a decimal comma) is
    // no amount, where it once read as $150; nor is "1e3", a sign, or an
    // amount past what a page counts exactly in cents.
    const t = String(text || "").trim().replace(/^\$\s*/, "");
    if (!/^(\d+|\d{1,3}(,\d{3})+)(\.\d{1,2})?$/.test(t)) return null;
    const [whole, frac] = t.replace(/,/g, "").split(".");
    const cents = parseInt(whole, 10) * 100 +
      parseInt((frac || "0").padEnd(2, "0"), 10);
    return Number.isSafeInteger(cents) ? cents : null;
  },

  money(units) {
    // -$5.00, not $-5.00: the sign goes before the currency symbol
    const v = Math.abs(units || 0) / 100;
    const sign = (units || 0) < 0 ? "-" : "";
    return sign + "$" + v.toLocaleString("en-US", {
      minimumFractionDigits: 2, maximumFractionDigits: 2});
  },

  SUITS: {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"},

  refText(ref, space) {
    // Where a step comes from, for a player: "\u00a7 591.7(i)" for the
    // regulation, "house rule D26" for one of the casino's own decisions
    // (the clocks, idle seats, a void: docs/decisions.md), never "\u00a7 D26".
    const gap = space || " ";
    return /^D\d+$/.test(String(ref)) ? "house rule" + gap + ref
      : "\u00a7" + gap + ref;
  },

  refNote(data, shown) {
    // A refusal's rule after its words: " (\u00a7 591.7(k))", " (house
    // rule D137)"; nothing when the words shown (``shown``, else the
    // server's message) name that rule already ("... nothing was voided
    // (D137)"), nor without a rule (D198). Words of the page's own in
    // place of the server's get the note though his named it: an
    // expired token's "Your session has expired..." lost D32 with the
    // server's "... expired at ... (D32): ...".
    const ref = data && data.ref ? String(data.ref) : "";
    if (!ref) return "";
    const said = String(shown === undefined
      ? (data && data.message) || "" : shown);
    return Croupier.names(said, ref) ? ""
      : " (" + Croupier.refText(ref, "\u00a0") + ")";
  },

  names(text, ref) {
    // Whether ``text`` cites ``ref`` itself, as the server's
    // croupier.errors._names decides it for a refusal's text: a longer
    // citation that begins with it (591.7(k)(1) for 591.7(k), D137 for
    // D13) is another rule. Where the page said only a decision's name
    // ("D137"), "591.7(k)" in a message was followed by "(\u00a7 591.7(k))".
    for (let at = text.indexOf(ref); at >= 0;
      at = text.indexOf(ref, at + 1)) {
      const before = text.charAt(at - 1), after = text.charAt(at + ref.length);
      if (!/[\p{L}\p{N}.]/u.test(before) && !/[\p{L}\p{N}(]/u.test(after)) {
        return true;
      }
    }
    return false;
  },

  refsText(refs) {
    // Several refs, each said once: "\u00a7 591.7(i), house rule D26".
    return [...new Set(refs.filter((r) => r))].map((r) => Croupier.refText(r))
      .join(", ");
  },

  cardText(code) {
    // A card as a person reads it: "10♠", "joker", "a face-down card".
    if (code === null || code === undefined) return "a face-down card";
    if (code === "JK") return "the joker";
    let rank = code.slice(0, -1);
    if (rank === "T") rank = "10";
    return rank + (Croupier.SUITS[code.slice(-1)] || code.slice(-1));
  },

  cardName(code) {
    // "ten of spades", "the joker": a card's accessible name.
    if (code === "JK") return "joker";
    const ranks = {A: "ace", K: "king", Q: "queen", J: "jack", T: "ten",
      "9": "nine", "8": "eight", "7": "seven", "6": "six", "5": "five",
      "4": "four", "3": "three", "2": "two"};
    const suits = {c: "clubs", d: "diamonds", h: "hearts", s: "spades"};
    const r = code.slice(0, -1);
    return (ranks[r] || r) + " of " + (suits[code.slice(-1)] || "");
  },

  cardsText(cards) {
    // A list of cards (an array, or a space-separated string).
    const list = Array.isArray(cards) ? cards :
      String(cards || "").split(/\s+/).filter((x) => x);
    if (list.some((c) => c === null)) {
      return list.length + " card" + (list.length === 1 ? "" : "s");
    }
    return list.map(Croupier.cardText).join(" ");
  },

  cardEl(code, purpose) {
    // One card; ``null`` is a card back. ``purpose`` marks special cards:
    // a Double Down or Second Chance card lies sideways, a 21 Baccarat
    // bonus-only card counts only for the Bonus.
    const el = document.createElement("div");
    el.className = "card";
    if (purpose === "double" || purpose === "second chance") {
      el.className += " sideways";
      el.title = purpose === "double" ? "Double Down card (placed sideways)"
        : "Second Chance card (placed sideways; its value is subtracted)";
    } else if (purpose === "bonus only") {
      el.className += " bonus-only";
      el.title = "Counts only for the Bonus Wager";
    } else if (purpose === "hole") {
      el.className += " hole";
    }
    if (purpose) el.dataset.purpose = purpose;
    el.setAttribute("role", "img");
    const extra = {double: ", Double Down card", "second chance":
      ", Second Chance card", "bonus only": ", counts only for the Bonus"}[
      purpose] || "";
    // a face-down card is named as such and nothing more
    el.setAttribute("aria-label", (code ? Croupier.cardName(code)
      : "face-down card") + extra);
    if (!code) { el.className += " back"; return el; }
    if (code === "JK") {
      // "JK" on one line: a name that starts "JK" holds the text shown
      el.innerHTML = '<div class="tl" aria-hidden="true">JK</div>' +
        '<div class="mid" aria-hidden="true">\u2605</div>';
      el.dataset.card = code;
      return el;
    }
    let rank = code.slice(0, -1), suit = code.slice(-1);
    if (rank === "T") rank = "10";
    if (suit === "d" || suit === "h") el.className += " red";
    const s = Croupier.SUITS[suit] || suit;
    el.innerHTML = '<div class="tl" aria-hidden="true">' + rank + "<br>" +
      s + '</div><div class="mid" aria-hidden="true">' + s + "</div>";
    el.dataset.card = code;
    return el;
  },

  WAGERS: {
    pai_gow: "Pai Gow", fortune_bonus: "Fortune Bonus",
    progressive: "Progressive", double_down: "Double Down",
    bonus_player: "Player Bonus", bonus_banker: "Banker Bonus",
    perfect_pairs_player: "Perfect Pair (Player)",
    perfect_pairs_banker: "Perfect Pair (Banker)",
    second_chance: "Second Chance",
  },

  wagerName(w) {
    // "bonus_banker" -> "Banker Bonus"; unknown names are title-cased.
    if (Croupier.WAGERS[w]) return Croupier.WAGERS[w];
    return String(w).split("_")
      .map((x) => x.charAt(0).toUpperCase() + x.slice(1)).join(" ");
  },

  ACTIONS: {
    hit: "Hit", stand: "Stand", double: "Double down", split: "Split",
    surrender: "Surrender", insurance: "Insurance",
    no_insurance: "No insurance", second_chance: "Second Chance",
    no_second_chance: "No Second Chance", set: "Set my hands",
    house_way: "House way", double_down: "Double Down Wager",
    no_double_down: "No Double Down",
  },

  actionName(a) {
    return Croupier.ACTIONS[a] || Croupier.wagerName(a);
  },

  // The phases whose heading capitalizes a name as its section writes
  // it; the others are their id with its first letter capitalized. The
  // refusals name each phase in these words (D189).
  PHASES: {
    second_chance: "Second Chance", perfect_pairs: "Perfect Pairs",
  },

  phaseName(p) {
    const words = String(p).replace(/_/g, " ");
    return Croupier.PHASES[p] || words.charAt(0).toUpperCase() + words.slice(1);
  },

  who(label) {
    // "seat 3" -> "Seat 3", "player hand" -> "the Player hand".
    const l = String(label || "");
    if (/^seat \d+/.test(l)) return "S" + l.slice(1);
    if (l === "dealer") return "the dealer";
    if (l === "player" || l === "banker") {
      return "the " + l.charAt(0).toUpperCase() + l.slice(1) + " hand";
    }
    if (/^(player|banker) hand$/.test(l)) {
      return "the " + l.charAt(0).toUpperCase() + l.slice(1);
    }
    return l;
  },

  CHIP_VALUES: [100000, 50000, 10000, 2500, 500, 100],

  chipClass(amount) {
    const dollars = amount / 100;
    if (dollars >= 1000) return "c1000";
    if (dollars >= 500) return "c500";
    if (dollars >= 100) return "c100";
    if (dollars >= 25) return "c25";
    if (dollars >= 5) return "c5";
    return "c1";
  },

  chipEl(amount) {
    // One chip of ``amount`` (its colour by denomination).
    const el = document.createElement("span");
    const dollars = amount / 100;
    el.className = "chip " + Croupier.chipClass(amount);
    el.textContent = dollars >= 1000 ? (dollars / 1000) + "k" :
      String(Math.round(dollars * 100) / 100);
    el.setAttribute("aria-hidden", "true");
    return el;
  },

  stackEl(amount) {
    // The chips a dealer would stack for ``amount`` (largest first, at
    // most eight drawn), as one decorative element.
    const box = document.createElement("span");
    box.className = "stack";
    box.setAttribute("aria-hidden", "true");
    let left = amount, n = 0;
    for (const v of Croupier.CHIP_VALUES) {
      while (left >= v && n < 8) {
        box.appendChild(Croupier.chipEl(v));
        left -= v; n += 1;
      }
    }
    if (left > 0 && n < 8) box.appendChild(Croupier.chipEl(left));
    return box;
  },

  el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  },

  when(iso) {
    // A stored time (UTC) as the viewer's local time, with its zone (the
    // recall page's rounds, the desk's log).
    if (!iso) return "";
    const d = new Date(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : iso + "Z");
    return d.toLocaleString("en-US", {month: "short", day: "numeric",
      year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit",
      timeZoneName: "short"});
  },

  feltFrom(events, finished) {
    // What lies on the felt after ``events``: positions (dealer, player,
    // banker, seats) with their hands, each card with its purpose.
    // Cards collected to the discard rack leave the felt; in a finished
    // round they are kept to show the result: the final clearing as
    // ``final``, a hand collected before it (a surrender, a bust, a 21
    // paid at once) as ``collected``.
    const pos = {}, order = [];
    const significant = ["card_dealt", "card_exposed", "decision_made",
                         "wager_settled", "hand_set"];
    let lastSig = -1;
    events.forEach((ev, i) => { if (significant.includes(ev.type)) lastSig = i; });
    const parse = (label) => {
      const m = /^(seat \d+) hand (\d+)$/.exec(label || "");
      return m ? [m[1], parseInt(m[2], 10) - 1] : [label, 0];
    };
    const get = (base) => {
      if (!pos[base]) {
        const m = /^seat (\d+)$/.exec(base);
        pos[base] = {label: base, seat: m ? parseInt(m[1], 10) : null,
                     hands: [], set: null};
        order.push(base);
      }
      return pos[base];
    };
    const hand = (p, i) => {
      while (p.hands.length <= i) {
        p.hands.push({cards: [], gone: false, final: false,
                     collected: false});
      }
      return p.hands[i];
    };
    let announcements = [];
    events.forEach((ev, i) => {
      switch (ev.type) {
        case "card_dealt": {
          announcements = [];
          const [base, hi] = parse(ev.to);
          hand(get(base), ev.hand || hi).cards.push(
            {card: ev.card, purpose: ev.purpose || ""});
          break;
        }
        case "card_exposed": {
          // turns over the position's first face-down card; a viewer who
          // saw the position's cards already (its own) has none left
          // face down. A shoe of several decks may hold the same card
          // twice at one position (the dealer's J♣ up and J♣ in
          // the hole), so a card already face up there proves nothing.
          announcements = [];
          const p = pos[parse(ev.to)[0]];
          if (!p) break;
          for (const h of p.hands) {
            const c = h.cards.find((x) => x.card === null);
            if (c) { c.card = ev.card; break; }
          }
          break;
        }
        case "decision_made": {
          if (ev.action !== "split") break;
          const p = pos["seat " + ev.seat];
          const from = p && p.hands[ev.hand || 0];
          if (!from || from.cards.length < 2) break;
          hand(p, p.hands.length).cards.push(from.cards.pop());
          break;
        }
        case "cards_collected": {
          const [base, hi] = parse(ev.source);
          const h = pos[base] && pos[base].hands[hi];
          if (!h) break;
          if (!finished) h.gone = true;
          else if (i > lastSig) h.final = true;
          else h.collected = true;
          break;
        }
        case "hand_set": {
          const p = pos[parse(ev.to)[0]];
          if (!p) break;
          const high = Array.isArray(ev.high) ? ev.high :
            String(ev.high).split(/\s+/);
          p.set = {high, low: ev.low, desc: ev.hand, way: ev.way};
          break;
        }
        case "announced":
          announcements.push(Croupier.sayText(ev.text));
          break;
        default:
          break;
      }
    });
    return {positions: order.map((k) => pos[k]), announcements};
  },

  sayText(text) {
    // What the dealer says, as a person would say it.
    const procs = {
      collect_then_pay: "losing wagers are collected first, then " +
        "winners are paid",
      player_by_player: "each player is settled in turn",
    };
    const m = /^collection procedure (\w+)$/.exec(text);
    if (m) return m[1] in procs ? procs[m[1]] : m[1].replace(/_/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  },

  bjTotal(cards) {
    // Blackjack total of the visible cards, less a Second Chance card
    // (591.7(l): an ace counts 1 there): {value, soft}.
    const val = (c) => {
      const r = c.slice(0, -1);
      if (r === "A") return 1;
      if (["K", "Q", "J", "T", "10"].includes(r)) return 10;
      return parseInt(r, 10) || 0;
    };
    let sum = 0, aces = 0, minus = 0;
    for (const c of cards) {
      if (!c.card) continue;
      if (c.purpose === "second chance") { minus += val(c.card); continue; }
      sum += val(c.card);
      if (c.card.startsWith("A")) aces += 1;
    }
    const soft = aces > 0 && sum + 10 <= 21 && !minus;
    return {value: (soft ? sum + 10 : sum) - minus, soft};
  },

  describe(ev) {
    // One readable line of narration for an event (hidden cards: null).
    const C = Croupier, card = C.cardText, money = C.money;
    const cap = (x) => x.charAt(0).toUpperCase() + x.slice(1);
    const sign = (n) => (n > 0 ? "+" : "") + money(n);
    switch (ev.type) {
      case "card_dealt": {
        const what = ev.purpose === "hole" ? "The hole card"
          : ev.card === null ? "A card" : card(ev.card);
        const how = {
          double: ", placed sideways (Double Down card)",
          "second chance": ", placed sideways (Second Chance card)",
          split: " (the split hand's second card)",
          "bonus only": " (counts only for the Bonus Wager)",
        }[ev.purpose] || "";
        return what + " dealt to " + C.who(ev.to) +
          (ev.face_up === false ? ", face down" : "") + how;
      }
      case "card_burned":
        return "Burn card" + (ev.card && ev.face_up ?
          " " + card(ev.card) + " exposed" : ", face down") +
          ", to the discard rack";
      case "card_exposed":
        return cap(C.who(ev.to)) + " turns over " + card(ev.card);
      case "cards_collected": {
        if (ev.source === "remaining") {
          return "The remaining cards go to the discard rack unexposed";
        }
        const whose = cap(C.who(ev.source)) + "'s cards";
        return ev.exposed === false
          ? whose + " go to the discard rack unexposed"
          : whose + " (" + C.cardsText(ev.cards) +
            ") go to the discard rack";
      }
      case "wager_placed":
        return "Seat " + ev.seat + " wagers " + money(ev.amount) + " on " +
          C.wagerName(ev.wager) + (ev.hand ? " (hand " + (ev.hand + 1) + ")" : "");
      case "wager_changed":
        return ev.amount
          ? "Seat " + ev.seat + " changes the " + C.wagerName(ev.wager) +
            " bet from " + money(ev.previous) + " to " + money(ev.amount)
          : "Seat " + ev.seat + " takes back the " + C.wagerName(ev.wager) +
            " bet (" + money(ev.previous) + ")";
      case "hands_compared": {
        const say = (r, copy) => copy ? "a copy (goes to the dealer)" :
          r === "win" ? "wins" : "loses";
        return "Seat " + ev.seat + ": high hand " + say(ev.high, ev.high_copy)
          + ", low hand " + say(ev.low, ev.low_copy) + ": " +
          {win: "the wager wins", lose: "the wager loses",
           push: "a push"}[ev.result];
      }
      case "clock_expired":
        return ev.clock === "betting"
          ? "The betting clock ran out: betting is closed"
          : "Seat " + ev.seat + "'s clock ran out after " + ev.seconds +
            " s: the table applies " +
            C.actionName(ev.action).toLowerCase() + " (" +
            C.refsText([ev.ref, ev.decision]) + ")";
      case "seats_left_out":
        return "Left out of this round (no wager when betting closed): " +
          "seat " + (ev.seats || []).join(", seat ");
      case "seat_freed":
        return "Seat " + ev.seat + " is freed: " + ev.reason;
      case "decision_made": {
        const amt = ev.amount ? " (" + money(ev.amount) + ")" : "";
        const verbs = {
          hit: "hits", stand: "stands", double: "doubles down" + amt,
          split: "splits the pair", surrender: "surrenders",
          insurance: "takes insurance" + amt,
          no_insurance: "declines insurance",
          second_chance: "places a Second Chance Wager" + amt,
          no_second_chance: "declines the Second Chance",
          set: "sets the hands", house_way: "asks for the house way",
          double_down: "places a Double Down Wager" + amt,
          no_double_down: "declines the Double Down Wager",
        };
        const hand = ev.hand ? " (hand " + (ev.hand + 1) + ")" : "";
        return "Seat " + ev.seat + hand + " " +
          (verbs[ev.action] || "decides: " + C.actionName(ev.action) + amt);
      }
      case "wager_settled": {
        const name = "Seat " + ev.seat + " " + C.wagerName(ev.wager) +
          (ev.hand ? " (hand " + (ev.hand + 1) + ")" : "");
        const comm = ev.commission ?
          " after " + money(ev.commission) + " commission" : "";
        switch (ev.outcome) {
          case "win": return name + " wins " + sign(ev.net) + comm;
          case "lose": return name + " loses " + money(-ev.net);
          case "push": return name + " is a push: returned";
          case "void": return name + " is void: returned";
          default: return name + ": " + ev.outcome + " " + sign(ev.net);
        }
      }
      case "phase_entered":
        return "\u2014 " + C.phaseName(ev.phase) + " \u2014";
      case "announced":
        return "Dealer announces: \u201c" + C.sayText(ev.text) + "\u201d";
      case "shuffled":
        return (ev.source === "preshuffled" ? "Preshuffled cards in play" :
          ev.source === "stacked" ? "Cards arranged for this round" :
          "Cards shuffled" + (ev.source === "secure" ? " (secure RNG)" : "")) +
          " (" + ev.cards + " cards)";
      case "cut_offered":
        return "The cut is offered to " + C.who(ev.to) +
          (ev.accepted ? ", who cuts" : ", declined");
      case "cut_completed":
        return "Cut: " + ev.moved + " cards moved to the bottom";
      case "cover_card_inserted":
        return "Cover card (" + (ev.purpose || "cut") + ") placed by " +
          C.who(ev.by || "dealer") + ", " + ev.position +
          " cards from the top";
      case "cover_card_reached":
        return "The cover card came out: the shoe ends after this round";
      case "round_voided": return "Round voided" +
        (ev.by ? " by the " + ev.by : "") + ": " + ev.reason;
      case "card_reader_checked":
        return "The hole card goes through the card reader: " +
          (ev.blackjack ? "the dealer has Blackjack" : "no dealer Blackjack");
      case "cards_counted":
        return "Dealer counts the cards left: " + ev.count + " (" +
          ev.expected + " required)";
      case "deck_removed":
        return "The whole deck is removed from the table";
      case "deck_held":
        return "Dealer holds the deck in the " + ev.hand + " hand";
      case "starting_position_determined":
        return "The first card goes to " +
          (ev.position === 7 ? "the dealer" : "seat " + ev.position) +
          (ev.number ? " (random number " + ev.number + ")" : "");
      case "envy_lammer_placed":
        return "Envy lammer placed beside seat " + ev.seat +
          "'s Fortune Bonus Wager (" + money(ev.amount) + ")";
      case "progressive_wagers_collected":
        return "Progressive wagers collected: " + ev.count + " (system " +
          ev.system_count + "), " + money(ev.total);
      case "hand_set": {
        const whose = ev.to === "dealer" ? "The dealer" : cap(C.who(ev.to));
        const how = ev.way === "player" ? "" : " by the house way";
        // another seat's set hand stays hidden until it is exposed
        if (ev.hand === null || ev.hand === undefined) {
          return whose + "'s hands are set" + how + " (face down)";
        }
        return whose + "'s hands are set" + how + ": high " +
          C.cardsText(ev.high) + " (" + ev.hand + "), low " +
          C.cardsText([ev.low]);
      }
      case "envy_bonus_paid":
        return "Seat " + ev.seat + " is paid an Envy Bonus of " +
          money(ev.amount) + " for " + C.who(ev.source) + "'s " + ev.category;
      case "meter_changed":
        return "Progressive meter: " + money(ev.meter) + " (" + ev.reason + ")";
      default: {
        // An event this page does not know yet: its fields in words.
        const rest = Object.keys(ev).filter(
          (k) => !["seq", "ref", "type", "scope"].includes(k))
          .map((k) => k.replace(/_/g, " ") + " " +
            (Array.isArray(ev[k]) ? C.cardsText(ev[k]) : String(ev[k])))
          .join(", ");
        return cap(ev.type.replace(/_/g, " ")) + (rest ? ": " + rest : "");
      }
    }
  },
};
