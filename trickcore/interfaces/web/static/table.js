// trickcore's table in the browser. The server holds the match; this page shows the view of
// its own seat (GET /api/tables/ID, polled) and posts moves. Text from rules files is only
// ever set as textContent, never parsed as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const POLL_MS = 450;

let tableId = null;
let token = null;
let state = null;
let seenResults = null;
let dismissedResults = 0;
let pollTimer = null;
let chooserCard = null;
let messageTimer = null;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

async function api(method, url, body) {
  const headers = {};
  if (token) headers["X-Trickcore-Seat"] = token;
  const options = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (err) {
    return { ok: false, status: 0, data: { error: "the server cannot be reached" } };
  }
  let data = {};
  try { data = await response.json(); } catch (err) { data = { error: response.statusText }; }
  return { ok: response.ok, status: response.status, data };
}

function showMessage(text, keepMs) {
  const box = $("message");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => { box.hidden = true; }, keepMs || 6000);
}

// ------------------------------------------------------------------ cards
function cardEl(text, size, deck) {
  const info = deck && deck.cards[text];
  if (!info) {
    const unknown = el("div", "card " + (size || ""), text);
    unknown.dataset.card = text;
    return unknown;
  }
  const rank = info[0];
  const suit = deck.suits[info[1]];
  const node = el("div", "card " + suit.colour + (size ? " " + size : ""));
  node.dataset.card = text;
  node.title = text;
  node.setAttribute("aria-label", rank + " of " + suit.name);
  const corner = el("span", "corner");
  corner.append(el("span", "r", rank), el("span", "g", suit.glyph));
  const br = corner.cloneNode(true);
  br.className = "corner br";
  node.append(corner);
  if (/^[0-9]+$/.test(rank) || rank.length > 2) {
    node.append(el("span", "pip", suit.glyph));
  } else {
    const face = el("span", "face");
    face.append(el("span", "r", rank), el("span", "g", suit.glyph));
    node.append(face);
  }
  node.append(br);
  return node;
}

function backEl(size) {
  const node = el("div", "card back " + (size || ""));
  node.setAttribute("aria-hidden", "true");
  return node;
}

function sortHand(cards, deck) {
  return cards.slice().sort((a, b) => {
    const x = deck.cards[a];
    const y = deck.cards[b];
    if (!x || !y) return 0;
    return x[1] - y[1] || x[2] - y[2];
  });
}

function suitGlyph(name, deck) {
  if (!name) return "none";
  const suit = deck.suits.find((s) => s.name === name || s.symbol === name);
  return suit ? suit.glyph + " " + suit.name : name;
}

// ------------------------------------------------------------------ seats
function seatName(seat) {
  if (!state) return "seat " + seat;
  const info = state.seats[seat];
  if (!info) return "seat " + seat;
  if (info.kind === "you") return "You";
  return "Seat " + seat;
}

function seatLabel(seat) {
  const info = state.seats[seat];
  if (!info) return "seat " + seat;
  if (info.kind === "you") return "You (seat " + seat + ")";
  const what = { computer: "computer", person: "player", open: "open seat" }[info.kind] || info.kind;
  return "Seat " + seat + " · " + what + (info.partner ? " · partner" : "");
}

function positionOf(seat, n) {
  const me = state.seat === null ? 0 : state.seat;
  const rel = (seat - me + n) % n;
  const angle = (90 + (360 * rel) / n) * (Math.PI / 180);
  return { x: 50 + 44 * Math.cos(angle), y: 50 + 44 * Math.sin(angle), angle, rel };
}

// ------------------------------------------------------------------ rendering
function render() {
  const s = state;
  const obs = s.obs;
  document.body.dataset.version = String(s.version);
  document.body.dataset.turn = s.is_over ? "over" : s.your_turn ? "yours" : "theirs";
  document.body.dataset.phase = obs.phase || "";
  document.body.dataset.deals = String(s.results.length);
  $("title").textContent = s.variant.title;
  document.title = s.variant.title + " · trickcore";
  if (seenResults === null) {
    seenResults = s.results.length;
    dismissedResults = s.results.length;
  }
  renderFelt();
  renderStatus();
  renderActions();
  renderHand();
  renderContract();
  renderSheet();
  renderLog();
}

function renderFelt() {
  const s = state;
  const obs = s.obs;
  const deck = s.deck;
  const felt = $("felt");
  felt.replaceChildren();
  const n = s.seats.length;
  const open = new Map((obs.open_hands || []).map(([seat, cards]) => [seat, cards]));
  const lastBid = new Map();
  for (const [seat, text] of obs.bids || []) lastBid.set(seat, text);
  for (let seat = 0; seat < n; seat++) {
    const pos = positionOf(seat, n);
    const box = el("div", "seat");
    box.dataset.seat = String(seat);
    box.style.left = pos.x + "%";
    box.style.top = pos.y + "%";
    // anchored by the same fraction as its place: a seat at the edge stays inside the table
    box.style.transform = "translate(-" + pos.x + "%, -" + pos.y + "%)";
    if (!s.is_over && s.to_act === seat) box.classList.add("to-act");
    const plate = el("div", "nameplate");
    plate.append(el("span", "name", seatLabel(seat)));
    if (obs.dealer === seat) plate.append(el("span", "chip", "D"));
    if (s.bouts) {
      if (obs.attacker === seat) plate.append(el("span", "chip", "attacks"));
      if (obs.defender === seat) plate.append(el("span", "chip", "defends"));
      if ((obs.out || []).includes(seat)) plate.append(el("span", "chip", "out"));
    } else {
      if (obs.declarer === seat) plate.append(el("span", "chip", "declarer"));
      if ((obs.sitting_out || []).includes(seat)) plate.append(el("span", "chip", "sits out"));
      if (obs.tricks_won && obs.tricks_won[seat] !== undefined) {
        const won = obs.tricks_won[seat];
        plate.append(el("span", "tricks", won + (won === 1 ? " trick" : " tricks")));
      }
    }
    if (pos.rel !== 0 || state.seat === null) {
      if (open.has(seat)) {
        const row = el("div", "open-hand");
        for (const card of sortHand(open.get(seat), deck)) {
          const c = cardEl(card, "small", deck);
          markPlayable(c, card);
          row.append(c);
        }
        box.append(row);
      } else {
        const count = (obs.hand_sizes || [])[seat] || 0;
        const backs = el("div", count > 8 ? "backs many" : "backs");
        for (let i = 0; i < Math.min(count, 13); i++) backs.append(backEl("small"));
        if (count) backs.title = count + " cards";
        box.append(backs);
      }
    }
    box.append(plate);
    if (lastBid.has(seat) && !s.bouts && (obs.phase !== "play" || obs.declarer < 0)) {
      box.append(el("div", "bubble", lastBid.get(seat)));
    }
    if (pos.rel === 0 && state.seat !== null) {
      box.style.top = "94%";
      box.style.transform = "translate(-50%, -94%)";
    }
    felt.append(box);
  }
  if (s.bouts) renderBoutCenter(felt); else renderTrickCenter(felt);
  renderOverlays(felt);
}

function renderTrickCenter(felt) {
  const s = state;
  const obs = s.obs;
  const deck = s.deck;
  const n = s.seats.length;
  const center = el("div", "center");
  let cards = obs.trick || [];
  let note = "";
  let faded = false;
  if (!cards.length && obs.tricks && obs.tricks.length) {
    const last = obs.tricks[obs.tricks.length - 1];
    cards = last[1];
    faded = true;
    note = "last trick: " + seatName(last[2]) + " won it";
  }
  for (const [seat, card] of cards) {
    const pos = positionOf(seat, n);
    const c = cardEl(card, "mid", deck);
    c.classList.add("trick-card");
    if (faded) c.classList.add("last");
    c.style.left = 50 + 22 * Math.cos(pos.angle) + "%";
    c.style.top = 50 + 26 * Math.sin(pos.angle) + "%";
    center.append(c);
  }
  if (note) center.append(el("div", "center-note", note));
  felt.append(center);
  const pile = el("div", "side-pile");
  center.append(pile);
  const playing = (obs.trick && obs.trick.length) || (obs.tricks && obs.tricks.length);
  const talon = state.talon_on_felt || [];  // face up while on the table, not once taken
  if (talon.length && !playing) {
    pile.append(pileOf("talon", talon.map((c) => cardEl(c, "small", deck))));
  } else if (obs.talon_size > 0 && !playing) {
    const backs = [];
    for (let i = 0; i < Math.min(obs.talon_size, 4); i++) backs.push(backEl("small"));
    pile.append(pileOf("talon (" + obs.talon_size + ")", backs));
  }
  if (obs.stock_size > 0 || obs.turnup) {
    const stock = el("div", "stock");
    if (obs.stock_top) {  // `stock_top: shown`: its top card lies face up
      const top = cardEl(obs.stock_top, "small", deck);
      top.title = obs.stock_top + ": the stock's top card, face up";
      stock.append(top);
    } else if (obs.stock_size > (obs.turnup ? 1 : 0)) stock.append(backEl("small"));
    if (obs.turnup) {
      const t = cardEl(obs.turnup, "small", deck);
      t.title = obs.turnup + ": the turned-up card";
      stock.append(t);
    }
    pile.append(pileOf("stock " + obs.stock_size + (obs.stock_closed ? " (closed)" : ""), [stock]));
  }
  if (obs.set_aside && obs.set_aside.length) {
    pile.append(pileOf("to pass", obs.set_aside.map((c) => cardEl(c, "small", deck))));
  }
  if (obs.laid_away && obs.laid_away.length) {
    pile.append(pileOf("laid away", obs.laid_away.map((c) => cardEl(c, "small", deck))));
  }
  if (!pile.childElementCount) pile.remove();
}

function pileOf(label, nodes) {
  const pile = el("div", "pile");
  const row = el("div", "backs");
  row.style.gap = "2px";
  for (const node of nodes) { node.style.marginLeft = "0"; row.append(node); }
  pile.append(row, el("div", "pile-label", label));
  return pile;
}

function renderBoutCenter(felt) {
  const obs = state.obs;
  const deck = state.deck;
  const center = el("div", "center");
  const table = el("div", "bout-table");
  for (const [attack, beat] of obs.table || []) {
    const pair = el("div", "pair");
    pair.append(cardEl(attack, "mid", deck));
    if (beat) {
      const b = cardEl(beat, "mid", deck);
      b.classList.add("beater");
      pair.append(b);
    }
    table.append(pair);
  }
  center.append(table);
  let note = "bout " + ((obs.bouts || 0) + 1);
  if (obs.taking) note += " · the defender takes";
  if (obs.discarded && obs.discarded.length) note += " · discarded " + obs.discarded.length;
  center.append(el("div", "center-note", note));
  felt.append(center);
  const pile = el("div", "side-pile");
  center.append(pile);
  const stock = el("div", "stock");
  if (obs.stock_size > (obs.trump_card_in_stock ? 1 : 0)) stock.append(backEl("small"));
  if (obs.trump_card) {
    const t = cardEl(obs.trump_card, "small", deck);
    t.title = obs.trump_card + ": the trump card";
    stock.append(t);
  }
  stock.title = obs.stock_size + " cards in the stock" + (obs.trump_card_in_stock ? ", the trump card at its bottom" : "");
  pile.append(pileOf("stock " + obs.stock_size, [stock]));
}

function renderOverlays(felt) {
  const s = state;
  if (s.is_over) {
    const box = el("div", "overlay match-over");
    box.id = "match-over";
    box.append(el("h3", null, "The match is over"));
    const who = s.winners.map((w) => seatName(w)).join(", ");
    box.append(el("p", null, (s.winners.length > 1 ? "Winners: " : "Winner: ") + (who || "none")));
    if (s.stopped) box.append(el("p", null, "Stopped: " + s.stopped));
    const row = el("div", "row");
    row.style.justifyContent = "center";
    if (s.seat !== null) {
      const again = el("button", "primary", "New match");
      again.type = "button";
      again.addEventListener("click", () => post("/next", undefined));
      row.append(again);
    }
    if (s.seat !== null) row.append(downloadButton());
    box.append(row);
    felt.append(box);
    return;
  }
  const slot = $("deal-over-slot");
  slot.replaceChildren();
  if (s.last_deal && s.results.length > dismissedResults) {
    const last = s.last_deal;
    const box = el("section", "panel deal-over");
    box.id = "deal-over";
    box.append(el("h3", null, "Deal " + last.number + " is over"));
    if (last.result.label) box.append(el("div", null, last.result.label));
    const obs = last.obs;
    if (obs.tricks && obs.tricks.length) {
      const t = obs.tricks[obs.tricks.length - 1];
      const row = el("div", "cards");
      for (const [, card] of t[1]) row.append(cardEl(card, "small", s.deck));
      box.append(el("div", "pile-label-dark", "last trick, won by " + seatName(t[2])), row);
    }
    if (last.result.gains.some((g) => g !== 0)) {
      const parts = last.result.gains.map((g, i) => seatName(i) + " " + (g > 0 ? "+" : "") + g);
      box.append(el("div", null, parts.join(" · ")));
    }
    const row = el("div", "row");
    const ok = el("button", null, "OK");
    ok.type = "button";
    ok.addEventListener("click", () => { dismissedResults = s.results.length; render(); });
    row.append(ok);
    box.append(row);
    slot.append(box);
  }
}

function renderStatus() {
  const s = state;
  const box = $("status");
  box.replaceChildren();
  if (s.is_over) {
    box.append(el("span", null, "The match is over."));
    return;
  }
  if (s.stopped) {
    box.append(el("span", null, "The match cannot go on: " + s.stopped));
    return;
  }
  if (s.your_turn) {
    let what = "your turn" + (s.prompt ? ": " + s.prompt : "");  // what to do, in words
    if (s.obs.playing_for !== null && s.obs.playing_for !== undefined && s.obs.playing_for !== s.seat) {
      what = "your turn: play from seat " + s.obs.playing_for + "'s hand";
    }
    box.append(el("span", "yours", what.charAt(0).toUpperCase() + what.slice(1)));
    return;
  }
  if (s.waiting_for === "open") {
    box.append(el("span", null, "Waiting for a player at seat " + s.to_act + " — share the link. "));
  } else {
    box.append(el("span", null, seatLabel(s.to_act) + " is to act…"));
  }
}

function renderActions() {
  const s = state;
  const box = $("actions");
  box.replaceChildren();
  if (s.seat === null) {
    const open = s.seats.filter((x) => x.kind === "open");
    if (open.length) {
      box.append(el("div", "group-label", "Take a seat to play:"));
      for (const info of open) {
        const b = el("button", "primary", "Sit at seat " + info.seat);
        b.type = "button";
        b.addEventListener("click", () => takeSeat(info.seat));
        box.append(b);
      }
    } else {
      box.append(el("div", "group-label", "You are watching: every seat is taken."));
    }
    return;
  }
  if (!s.is_over && s.seats.some((x) => x.kind === "open")) {
    const fill = el("button", null, "Give the open seats to computer players");
    fill.type = "button";
    fill.id = "fill-bots";
    fill.addEventListener("click", () => post("/bots", undefined));
    box.append(fill);
  }
  if (chooserCard) {
    const options = s.legal.filter((a) => a.card === chooserCard);
    if (options.length > 1) {
      const chooser = el("div", "chooser");
      chooser.append(el("span", "group-label", "What to do with " + chooserCard + ":"));
      for (const a of options) chooser.append(actionButton(a));
      const cancel = el("button", null, "cancel");
      cancel.type = "button";
      cancel.addEventListener("click", () => { chooserCard = null; render(); });
      chooser.append(cancel);
      box.append(chooser);
    } else {
      chooserCard = null;
    }
  }
  const plain = s.legal.filter((a) => a.card === null);
  box.classList.toggle("many", plain.length > 12);
  for (const a of plain) box.append(actionButton(a));
}

function actionButton(a) {
  const b = el("button", "action" + (a.kind === "pass" ? " pass" : ""), a.text);
  b.type = "button";
  b.dataset.action = a.text;
  b.addEventListener("click", () => sendMove(a.id));
  return b;
}

function markPlayable(node, card) {
  const s = state;
  if (!s.your_turn) return;
  const options = s.legal.filter((a) => a.card === card);
  if (options.length) {
    node.classList.add("legal");
  } else if (s.legal.some((a) => a.card !== null)) {
    node.classList.add("dim");
  }
  node.classList.add("clickable");
  node.tabIndex = 0;
  node.setAttribute("role", "button");
  node.addEventListener("click", () => cardClicked(card));
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); cardClicked(card); }
  });
}

function cardClicked(card) {
  const options = state.legal.filter((a) => a.card === card);
  if (options.length === 1) {
    sendMove(options[0].id);
    return;
  }
  if (options.length > 1) {
    chooserCard = card;
    render();
    return;
  }
  // not legal: the server says why, and nothing changes
  const kinds = state.legal.filter((a) => a.card !== null).map((a) => a.kind);
  const kind = kinds.length ? kinds[0] : "play";
  const verb = kind === "pass_card" ? "pass" : kind;
  sendMove(verb + " " + card);
}

function renderHand() {
  const s = state;
  const obs = s.obs;
  const hand = $("hand");
  hand.replaceChildren();
  if (s.seat === null) return;
  const cards = sortHand(obs.hand || [], s.deck);
  hand.classList.toggle("crowded", cards.length > 10);
  const received = new Set(obs.received || []);
  let lastSuit = null;
  for (const card of cards) {
    const node = cardEl(card, "", s.deck);
    const suit = s.deck.cards[card] ? s.deck.cards[card][1] : null;
    if (lastSuit !== null && suit !== lastSuit) node.classList.add("gap-suit");
    lastSuit = suit;
    if (received.has(card)) node.classList.add("received");
    if (s.your_turn) markPlayable(node, card);
    else {
      node.classList.add("clickable");
      node.addEventListener("click", () => cardClicked(card));
    }
    hand.append(node);
  }
}

function renderContract() {
  const s = state;
  const obs = s.obs;
  const dl = $("contract");
  dl.replaceChildren();
  const add = (term, value) => { dl.append(el("dt", null, term), el("dd", null, value)); };
  add("Deal", String(s.deal_number) + (s.matches_played > 1 ? " (match " + s.matches_played + ")" : ""));
  add("Dealer", seatName(obs.dealer));
  if (s.bouts) {
    add("Trump", suitGlyph(obs.trump, s.deck));
    add("Stock", String(obs.stock_size));
  } else {
    if (obs.declarer >= 0) {
      const said = obs.contract_text || [obs.contract, obs.qualifier].filter((x) => x).join(" ");
      add("Contract", seatName(obs.declarer) + ": " + said);
    }
    add("Trump", suitGlyph(obs.trump, s.deck));
    for (const [seat, meld, suit, value] of obs.declarations || []) {
      add("Declared", seatName(seat) + ": " + meld + " " + suitGlyph(suit, s.deck) + " (" + value + ")");
    }
  }
  if (s.target !== null && s.target !== undefined) add("Plays to", String(s.target));
  add("Phase", obs.phase);
}

function renderSheet() {
  const s = state;
  const table = $("sheet");
  table.replaceChildren();
  const n = s.seats.length;
  const head = el("tr");
  head.append(el("th", null, "#"));
  for (let i = 0; i < n; i++) {
    const th = el("th", s.seat === i ? "me" : null, seatName(i));
    head.append(th);
  }
  table.append(head);
  for (const r of s.results.slice(-12)) {
    const label = el("tr");
    const cell = el("td", "label", r.number + "." + (r.label ? " " + r.label : ""));
    cell.colSpan = n + 1;
    label.append(cell);
    table.append(label);
    const row = el("tr");
    row.append(el("td", null, ""));
    for (let i = 0; i < n; i++) {
      const td = el("td", s.seat === i ? "me" : null, r.scores[i] !== undefined ? r.scores[i] : "");
      if (r.gains[i] !== undefined) {
        td.append(el("span", "gain", "(" + (r.gains[i] > 0 ? "+" : "") + r.gains[i] + ")"));
      }
      row.append(td);
    }
    table.append(row);
  }
  const total = el("tr", "total");
  total.append(el("td", null, "score"));
  for (let i = 0; i < n; i++) total.append(el("td", s.seat === i ? "me" : null, s.scores[i]));
  table.append(total);
  if (s.seats.some((x, i) => x.standing !== s.scores[i])) {
    const standing = el("tr");
    standing.append(el("td", null, "standing"));
    for (const x of s.seats) standing.append(el("td", null, x.standing));
    table.append(standing);
  }
  const kept = s.obs.kept || [];
  if (kept.length && kept[0].length) {
    for (let k = 0; k < kept[0].length; k++) {
      const row = el("tr");
      row.append(el("td", null, String(kept[0][k][0]).replace(/_/g, " ")));
      for (let i = 0; i < n; i++) {
        const v = kept[i] && kept[i][k] ? kept[i][k][1] : "";
        row.append(el("td", null, v === true ? "yes" : v === false ? "no" : v));
      }
      table.append(row);
    }
  }
}

function renderLog() {
  const log = $("log");
  log.replaceChildren();
  for (const [seat, text] of (state.obs.log || []).slice(-40)) {
    const li = el("li");
    li.append(el("span", "who", seatName(seat) + ": "), el("span", null, text));
    log.append(li);
  }
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------------ downloads
// A seat downloads its table's match at any time (sealed while it runs: how it was dealt
// stays hidden, and the start page can resume it). The seat's token goes in a header, so
// the file is fetched here and handed to the browser as a download.
async function downloadMatch() {
  const r = await api("GET", "/api/tables/" + tableId + "/saved");
  if (!r.ok) { showMessage(r.data.error || "the match cannot be downloaded"); return; }
  const blob = new Blob([JSON.stringify(r.data, null, 1)], { type: "application/json" });
  const link = el("a");
  link.href = URL.createObjectURL(blob);
  link.download = tableId + ".json";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function downloadButton() {
  const button = el("button", null, "Download the match");
  button.type = "button";
  button.id = "download-match";
  button.addEventListener("click", downloadMatch);
  return button;
}

// ------------------------------------------------------------------ talking to the server
function accept(data) {
  // answers can cross: a poll sent before a move may be answered after it; a table's
  // version only grows, so an older answer is dropped (the page never steps back)
  if (state && data.seat === state.seat && data.version < state.version) return;
  state = data;
  render();
}

async function poll() {
  clearTimeout(pollTimer);
  const r = await api("GET", "/api/tables/" + tableId);
  if (r.ok) {
    if (!state || r.data.version !== state.version || r.data.seat !== state.seat) accept(r.data);
  } else if (r.status === 404) {
    $("status").textContent = r.data.error || "no such table";
    return;
  } else if (r.status === 410) {  // closed after a long time without play: the match is kept
    const box = $("status");
    box.replaceChildren(el("span", null, (r.data.error || "this table was closed") + " "));
    if (token) box.append(downloadButton());
    return;
  }
  pollTimer = setTimeout(poll, POLL_MS);
}

async function post(path, body) {
  const r = await api("POST", "/api/tables/" + tableId + path, body === undefined ? {} : body);
  if (!r.ok) {
    showMessage(r.data.error || "refused");
    return false;
  }
  accept(r.data);
  return true;
}

let moving = false;

async function sendMove(action) {
  if (moving) return;  // one move at a time: a double click is not two moves
  chooserCard = null;
  moving = true;
  let r;
  try {
    r = await api("POST", "/api/tables/" + tableId + "/move", { action });
  } finally {
    moving = false;
  }
  if (!r.ok) {
    showMessage((r.data.error || "refused") + "");
    render();
    return;
  }
  $("message").hidden = true;
  accept(r.data);
}

async function takeSeat(seat) {
  const r = await api("POST", "/api/tables/" + tableId + "/seat", { seat });
  if (!r.ok) { showMessage(r.data.error || "that seat is taken"); return; }
  token = r.data.token;
  localStorage.setItem("trickcore-seat-" + tableId, token);
  poll();
}

async function showRules(url) {
  const r = await api("GET", url);
  if (!r.ok) { showMessage(r.data.error || "no rules"); return; }
  $("rules-title").textContent = r.data.title;
  const body = $("rules-body");
  body.replaceChildren();
  body.append(el("p", "hint", "Built from " + r.data.files.join(", ") + " (the summary of trickcore show)."));
  for (const section of r.data.sections) {
    body.append(el("h3", null, section.title));
    const ul = el("ul");
    for (const line of section.lines) ul.append(el("li", null, line));
    body.append(ul);
  }
  $("rules-dialog").showModal();
}

// ------------------------------------------------------------------ the start page
async function showLobby() {
  $("lobby").hidden = false;
  const r = await api("GET", "/api/config");
  if (!r.ok) return;
  const cfg = r.data;
  const variant = $("variant");
  for (const v of cfg.variants) {
    const option = el("option", null, v.title + "  (" + v.name + ")");
    option.value = v.name;
    variant.append(option);
  }
  variant.value = cfg.variant;
  const opponents = $("opponents");
  for (const name of cfg.opponent_names) {
    const option = el("option", null, name);
    option.value = name;
    opponents.append(option);
  }
  if (!cfg.opponent_names.includes(cfg.opponents)) {
    const option = el("option", null, cfg.opponents);
    option.value = cfg.opponents;
    opponents.append(option);
  }
  opponents.value = cfg.opponents;
  const byName = new Map(cfg.variants.map((v) => [v.name, v]));
  const fillCounts = () => {
    const v = byName.get(variant.value);
    const players = $("players");
    players.replaceChildren();
    for (const p of v.players.slice().sort((a, b) => a - b)) {
      const option = el("option", null, String(p));
      option.value = String(p);
      players.append(option);
    }
    players.value = String(cfg.players && v.players.includes(cfg.players) ? cfg.players : v.players[0]);
    fillPeople();
  };
  const fillPeople = () => {
    const people = $("people");
    const count = Number($("players").value) || 2;
    people.replaceChildren();
    for (let i = 1; i <= count; i++) {
      const option = el("option", null, i === 1 ? "1 (just me)" : String(i));
      option.value = String(i);
      people.append(option);
    }
  };
  variant.addEventListener("change", fillCounts);
  $("players").addEventListener("change", fillPeople);
  fillCounts();
  $("lobby-rules").addEventListener("click", () => showRules("/api/variants/" + encodeURIComponent(variant.value) + "/rules"));
  $("resume-file").addEventListener("change", async () => {
    const file = $("resume-file").files[0];
    if (!file) return;
    let data;
    try { data = JSON.parse(await file.text()); }
    catch (err) { showUploadErrors({ error: "that file is not a downloaded match (not JSON)" }); return; }
    const resumed = await api("POST", "/api/resume", data);
    if (!resumed.ok) { showUploadErrors(resumed.data); return; }
    localStorage.setItem("trickcore-seat-" + resumed.data.table, resumed.data.token);
    window.location.assign(resumed.data.url);
  });
  $("start-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      variant: variant.value,
      people: Number($("people").value),
      opponents: opponents.value,
    };
    const file = $("rules-file").files[0];
    if (file) {
      if (file.size > cfg.max_upload) {
        showUploadErrors({ error: "the file is larger than " + cfg.max_upload + " bytes" });
        return;
      }
      body.rules = await file.text();
      body.filename = file.name;
    } else {
      body.players = Number($("players").value);
    }
    const created = await api("POST", "/api/tables", body);
    if (!created.ok) { showUploadErrors(created.data); return; }
    localStorage.setItem("trickcore-seat-" + created.data.table, created.data.token);
    window.location.assign(created.data.url);
  });
}

function showUploadErrors(data) {
  const box = $("upload-error");
  box.replaceChildren();
  box.append(el("strong", null, data.error || "refused"));
  for (const e of data.errors || []) {
    const item = el("div", "error");
    item.append(el("span", "where", (e.where || "") + (e.where ? ": " : "")), el("span", null, e.message));
    if (e.source_line) {
      const caret = " ".repeat(Math.max((e.column || 1) - 1, 0)) + "^";
      item.append(el("pre", null, e.source_line + "\n" + caret));
    }
    box.append(item);
  }
  box.hidden = false;
}

// ------------------------------------------------------------------ start
function start() {
  $("rules-close").addEventListener("click", () => $("rules-dialog").close());
  const match = /^\/t\/([A-Za-z0-9]+)$/.exec(window.location.pathname);
  if (!match) { showLobby(); return; }
  tableId = match[1];
  token = localStorage.getItem("trickcore-seat-" + tableId);
  $("game").hidden = false;
  $("tools").hidden = false;
  $("rules-button").addEventListener("click", () => showRules("/api/tables/" + tableId + "/rules"));
  $("save-button").addEventListener("click", downloadMatch);
  $("share-button").addEventListener("click", async () => {
    const link = window.location.origin + "/t/" + tableId;
    try { await navigator.clipboard.writeText(link); showMessage("Link copied: " + link, 4000); }
    catch (err) { showMessage("Share this link: " + link, 10000); }
  });
  poll();
}

document.addEventListener("DOMContentLoaded", start);
