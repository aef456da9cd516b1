// The start page: logs in (Telegram initData, or a Discord link's token; once), keeps a
// WebSocket, shows the person's name and rating and playing someone online, and goes to a
// table's page when the server hands it that table's session. Every word comes from the
// server, translated.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const store = window.sessionStorage;
  const KEY = "basra:start";
  const LRI = "\u2066", PDI = "\u2069";
  let frame = null;       // the latest start frame
  let pending = false;    // a press sent, its answer not yet here
  let opening = "";       // the table whose session was asked for
  let socket = null, retry = 0, offset = 0, texts = {};

  // -- logging in -----------------------------------------------------------------------

  function telegramData() {
    const app = window.Telegram && window.Telegram.WebApp;
    if (app && app.initData) return app.initData;
    return new URLSearchParams(location.hash.slice(1)).get("tgWebAppData");
  }

  async function login() {
    // A Discord DM's link: its token, in the fragment (never sent in a request's address).
    const link = new URLSearchParams(location.hash.slice(1)).get("d");
    const kept = store.getItem(KEY);
    if (kept && !link) return kept;  // the same tab again (a reload, or back from a table)
    const data = link ? null : telegramData();
    if (!link && !data) { showError(""); return null; }
    const answer = await fetch("/api/login", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(link ? { discord: link, start: true } : { telegram: data, start: true }),
    });
    if (link) history.replaceState(null, "", location.pathname + location.search);
    const body = await answer.json().catch(() => ({}));
    if (!answer.ok || !body.session) { showError(body.error || ""); return null; }
    store.setItem(KEY, body.session);
    return body.session;
  }

  function showError(text) {
    const notice = $("notice");
    notice.textContent = text;
    notice.hidden = !text;
    $("start").setAttribute("aria-busy", "false");
  }

  // -- the socket -------------------------------------------------------------------------

  function connect(session) {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws");
    socket.onopen = () => { retry = 0; socket.send(JSON.stringify({ start: session })); };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      socket = null;
      if (event.code === 4401 || event.code === 4403) {
        store.removeItem(KEY);
        showError(texts.gone || "");
        return;
      }
      const offline = $("offline");
      offline.textContent = texts.reconnecting || "…";
      offline.hidden = false;
      retry = Math.min(retry + 1, 6);
      setTimeout(() => connect(session), Math.min(250 * 2 ** retry, 5000));
    };
  }

  function receive(message) {
    if (message.type === "refused") {
      pending = false;
      showError(message.text);
      if (frame) draw();
      return;
    }
    if (message.type === "go") {
      // The table's page finds its session here, as after a reload of its own.
      store.setItem("basra:session", JSON.stringify({ session: message.session, table: message.table }));
      location.href = "/play?t=" + encodeURIComponent(message.table);
      return;
    }
    if (message.type !== "start") return;
    $("offline").hidden = true;
    if (!frame || frame.state !== message.state) $("notice").hidden = true;
    frame = message;
    texts = message.texts;
    offset = message.now - Date.now() / 1000;
    pending = false;
    draw();
    if (frame.state === "paired" && frame.table && opening !== frame.table) {
      opening = frame.table;
      send({ op: "open", table: frame.table });
    }
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    pending = true;
    socket.send(JSON.stringify(message));
    draw();
  }

  // -- drawing ------------------------------------------------------------------------------

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function draw() {
    const f = frame;
    document.documentElement.lang = f.lang;
    document.documentElement.dir = f.dir;
    document.title = texts.title;
    const main = $("start");
    main.setAttribute("aria-busy", "false");
    main.dataset.state = f.state;
    $("name").textContent = f.name;
    $("rating").textContent = f.rating;
    $("lines").replaceChildren(...f.lines.map((l) => el("p", (l.bold ? "bold" : "") + (l.clock ? " clock" : ""), l.text)));
    $("buttons").replaceChildren(...f.buttons.map((row) => {
      const box = el("div", "row");
      row.forEach((b) => {
        const button = el("button", b.style, b.text);
        button.type = "button";
        button.dataset.op = b.op;
        if (b.mode) button.dataset.mode = b.mode;
        button.disabled = pending;
        button.addEventListener("click", () => {
          const message = { op: b.op };
          if (b.mode) message.mode = b.mode;
          if (b.table) message.table = b.table;
          send(message);
        });
        box.append(button);
      });
      return box;
    }));
    tick();
  }

  function tick() {
    const clock = document.querySelector("#lines .clock");
    if (!frame || !clock) return;
    const waited = Math.max(0, Math.floor(frame.waited + (Date.now() / 1000 + offset - frame.now)));
    const shown = LRI + Math.floor(waited / 60) + ":" + String(waited % 60).padStart(2, "0") + PDI;
    clock.textContent = texts.clock.replace("{clock}", shown);
  }

  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", async () => {
    const app = window.Telegram && window.Telegram.WebApp;
    if (app) { try { app.ready(); app.expand(); } catch (e) { /* outside Telegram */ } }
    const session = await login().catch(() => null);
    if (session) connect(session);
  });
})();
