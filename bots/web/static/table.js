// The Basra table page: logs in (Telegram initData, or a link's token), keeps a WebSocket,
// and draws each frame the server sends. Every word comes from the server, translated.
"use strict";
(function () {
  const page = window.BasraPage;
  const $ = page.$, el = page.el, showError = page.showError;
  const mode = document.body.dataset.mode;
  const store = window.sessionStorage;
  const KEY = "basra:session";
  let frame = null;       // the latest state
  let lifted = null;      // the card code lifted from the hand
  let plan = null;        // the plan chosen for it
  let pending = false;    // a play sent, its answer not yet here
  let offset = 0, texts = {};
  let lastResult = store.getItem("basra:result") || "";
  const timing = (window.basraTiming = { lit: [] });

  // -- logging in -----------------------------------------------------------------------

  async function login() {
    const query = new URLSearchParams(location.search);
    const hash = page.fragment();
    const d = hash.get("d"), w = hash.get("w");
    let body = null;
    if (mode === "watch" && w) body = { watch: w };
    else if (d) body = { discord: d };
    else if (page.telegramData() && query.get("t")) body = { telegram: page.telegramData(), table: query.get("t") };
    const kept = store.getItem(KEY);
    if (kept) {
      const saved = JSON.parse(kept);
      const wanted = query.get("t");
      // The same tab again (a reload): its session stands; a new link, or another table, logs in anew.
      const fresh = body && (body.discord || body.watch);
      if (!fresh && (!wanted || saved.table === wanted)) return saved.session;
    }
    if (!body) { showError(""); return null; }
    const data = await page.requestSession(body, d || w);
    if (!data) return null;
    store.setItem(KEY, JSON.stringify({ session: data.session, table: data.table }));
    return data.session;
  }

  // -- the socket -------------------------------------------------------------------------

  function receive(message) {
    if (message.type === "refused") {
      pending = false;
      const notice = $("notice");
      notice.textContent = message.text;
      notice.hidden = false;
      return;
    }
    if (message.type === "gone") { showError(texts.gone || ""); return; }
    if (message.type !== "state") return;
    $("offline").hidden = true;
    if (!frame || message.version !== frame.version) $("notice").hidden = true;
    frame = message;
    texts = message.texts;
    offset = message.now - Date.now() / 1000;
    pending = false;
    if (lifted && !(message.hand || []).includes(lifted)) { lifted = null; plan = null; }
    draw();
  }

  function play(card, number) {
    if (!frame || !frame.your_turn || pending || !page.socket()) return;
    pending = true;
    page.socket().send(JSON.stringify({ op: "play", card: card, plan: number, version: frame.version }));
    lifted = null; plan = null;
    draw();
  }

  // -- touches ------------------------------------------------------------------------------

  function preview() { return lifted && frame.previews ? frame.previews[lifted] : null; }

  function chosenPlan() {
    const p = preview();
    if (!p) return null;
    return p.plans.find((x) => x.n === plan) || null;
  }

  function touchHand(card) {
    if (lifted === card) { play(card, plan); return; }
    const started = performance.now();
    lifted = card;
    const p = preview();
    plan = p ? p.selected : null;
    draw();
    timing.lit.push(performance.now() - started);
  }

  function touchFloor(position) {
    const p = preview();
    if (!p) return;
    const current = chosenPlan();
    if (current && current.pos.includes(position)) { play(lifted, plan); return; }
    const other = p.plans.find((x) => x.n !== plan && x.pos.includes(position));
    if (other) { plan = other.n; draw(); return; }
    play(lifted, plan);
  }

  // -- drawing ------------------------------------------------------------------------------

  function cardButton(code, names) {
    const button = el("button", "card");
    button.type = "button";
    button.dataset.card = code;
    button.innerHTML = window.BasraCards.face(code);
    button.setAttribute("aria-label", names[code] || window.BasraCards.label(code));
    return button;
  }

  function draw() {
    const f = frame;
    const main = page.drawPage(f, texts);
    main.dataset.version = f.version;
    main.dataset.yourTurn = f.your_turn ? "1" : "0";
    main.dataset.running = f.running ? "1" : "0";
    main.dataset.lifted = lifted || "";
    const status = $("status");
    status.replaceChildren(...f.status.map((s) => el("span", "", s)));
    $("floor-title").textContent = texts.floor;
    $("hand-title").textContent = texts.hand;
    $("last").textContent = f.end || f.last;
    $("turn").textContent = f.turn;
    drawOthers(f);
    drawFloor(f);
    if (mode !== "watch") { drawHand(f); drawPreview(f); }
    drawResult(f);
    tick();
  }

  function drawOthers(f) {
    const box = $("others");
    const seats = f.seats.filter((s) => !s.you);
    box.replaceChildren(...seats.map((s) => {
      const seat = el("div", "seat" + (s.turn ? " turn" : ""));
      seat.setAttribute("role", "group");
      seat.setAttribute("aria-label", s.count);
      seat.dataset.seat = s.seat;
      const backs = el("div", "backs");
      backs.innerHTML = window.BasraCards.back().repeat(s.cards);
      seat.append(el("div", "name", s.name), backs, el("div", "count", s.count));
      return seat;
    }));
  }

  function drawFloor(f) {
    const box = $("floor");
    box.setAttribute("aria-label", texts.floor);
    const chosen = chosenPlan();
    const p = preview();
    const options = new Set();
    if (p) p.plans.forEach((x) => { if (x.n !== plan) x.pos.forEach((i) => options.add(i)); });
    if (!f.floor.length) { box.replaceChildren(el("span", "empty", texts.empty)); return; }
    box.replaceChildren(...f.floor.map((code, i) => {
      const button = cardButton(code, f.names);
      button.dataset.pos = i;
      const lit = chosen && chosen.pos.includes(i);
      if (lit) {
        button.classList.add("lit");
        button.setAttribute("aria-label", `${f.names[code]} · ${texts.taken}`);
      } else if (options.has(i)) button.classList.add("option");
      if (mode === "watch") button.disabled = true;
      else button.addEventListener("click", () => touchFloor(i));
      return button;
    }));
  }

  function drawHand(f) {
    const box = $("hand");
    box.setAttribute("aria-label", texts.hand);
    box.replaceChildren(...(f.hand || []).map((code) => {
      const button = cardButton(code, f.names);
      const up = code === lifted;
      if (up) {
        button.classList.add("up");
        button.setAttribute("aria-label", `${f.names[code]} · ${texts.lifted}`);
      }
      button.setAttribute("aria-pressed", up ? "true" : "false");
      button.disabled = !f.running;
      button.addEventListener("click", () => touchHand(code));
      return button;
    }));
  }

  function drawPreview(f) {
    const box = $("preview");
    const p = preview();
    if (!p) { box.replaceChildren(); return; }
    const parts = [];
    if (!p.plans.length) parts.push(el("p", "nothing", p.nothing));
    if (p.plans.length > 1 || p.lay) {
      parts.push(el("p", "", texts.choose));
      const row = el("div", "plans");
      const numbers = p.plans.map((x) => [x.n, x.text]);
      if (p.lay) numbers.push([0, texts.lay]);
      numbers.forEach(([n, text]) => {
        const button = el("button", n === plan ? "chosen" : "", text);
        button.type = "button";
        button.dataset.plan = n;
        button.setAttribute("aria-pressed", n === plan ? "true" : "false");
        button.addEventListener("click", () => { plan = n; draw(); });
        row.append(button);
      });
      parts.push(row);
    } else if (p.plans.length === 1) {
      parts.push(el("p", "takes", p.plans[0].text.replace(/^1\)\s*/, "")));
    }
    if (f.your_turn) {
      parts.push(el("p", "again", texts.again));
      const go = el("button", "play", p.play);
      go.type = "button";
      go.disabled = pending;
      go.addEventListener("click", () => play(lifted, plan));
      parts.push(go);
    } else parts.push(el("p", "", texts.not_turn));
    box.replaceChildren(...parts);
  }

  function drawResult(f) {
    const box = $("result");
    const result = f.result;
    if (!result || result.id === lastResult) { box.hidden = true; return; }
    $("result-lines").replaceChildren(...result.lines.map((l) => el("p", l.bold ? "bold" : "", l.text)));
    const ok = $("result-ok");
    ok.textContent = texts.ok;
    ok.onclick = () => {
      lastResult = result.id;
      store.setItem("basra:result", lastResult);
      box.hidden = true;
    };
    box.hidden = false;
  }

  function tick() {
    const clock = $("clock");
    if (!frame || !frame.deadline) { clock.textContent = ""; return; }
    const left = Math.max(0, Math.ceil(frame.deadline - (Date.now() / 1000 + offset)));
    clock.textContent = page.clock(texts.clock, left);
  }

  setInterval(tick, 1000);
  page.run(login, { hello: "session", key: KEY, receive: receive, texts: () => texts });
})();
