// The start page: logs in (Telegram initData, or a Discord link's token; once), keeps a
// WebSocket, shows the person's name and rating and playing someone online, and goes to a
// table's page when the server hands it that table's session. Every word comes from the
// server, translated.
"use strict";
(function () {
  const page = window.BasraPage;
  const $ = page.$, el = page.el, showError = page.showError;
  const store = window.sessionStorage;
  const KEY = "basra:start";
  let frame = null;       // the latest start frame
  let pending = false;    // a press sent, its answer not yet here
  let opening = "";       // the table whose session was asked for
  let offset = 0, texts = {};

  // -- logging in -----------------------------------------------------------------------

  async function login() {
    // A Discord DM's link: its token, in the fragment (never sent in a request's address).
    const link = page.fragment().get("d");
    const kept = store.getItem(KEY);
    if (kept && !link) return kept;  // the same tab again (a reload, or back from a table)
    const data = link ? null : page.telegramData();
    if (!link && !data) { showError(""); return null; }
    const body = link ? { discord: link, start: true } : { telegram: data, start: true };
    const answer = await page.requestSession(body, link);
    if (!answer) return null;
    store.setItem(KEY, answer.session);
    return answer.session;
  }

  // -- the socket -------------------------------------------------------------------------

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
    const socket = page.socket();
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    pending = true;
    socket.send(JSON.stringify(message));
    draw();
  }

  // -- drawing ------------------------------------------------------------------------------

  function draw() {
    const f = frame;
    const main = page.drawPage(f, texts);
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
    clock.textContent = page.clock(texts.clock, waited);
  }

  setInterval(tick, 1000);
  page.run(login, { hello: "start", key: KEY, receive: receive, texts: () => texts });
})();
