// What the start page and the table page share: the login, the notice, the socket (and its
// way back after a drop) and the bits of drawing alike on both. A page names what differs:
// its session's key in sessionStorage and the first message its socket sends. Each page's
// HTML loads this script before its own (both deferred, so in that order).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const LRI = "\u2066", PDI = "\u2069";
  let socket = null, retry = 0;

  // -- logging in -----------------------------------------------------------------------

  // The address's fragment: a link's token, or Telegram's data (never sent in a request).
  function fragment() { return new URLSearchParams(location.hash.slice(1)); }

  function telegramData() {
    const app = window.Telegram && window.Telegram.WebApp;
    if (app && app.initData) return app.initData;
    return fragment().get("tgWebAppData");
  }

  // POST /api/login: its answer ({session, ...}), or null once the notice says why not. A
  // link's token (fromLink) leaves the address once sent: a reload goes by the kept session.
  async function requestSession(body, fromLink) {
    const answer = await fetch("/api/login", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (fromLink) history.replaceState(null, "", location.pathname + location.search);
    const data = await answer.json().catch(() => ({}));
    if (!answer.ok || !data.session) { showError(data.error || ""); return null; }
    return data;
  }

  // The notice shows text (hidden when there is none), and the page is no longer busy.
  function showError(text) {
    const notice = $("notice");
    notice.textContent = text;
    notice.hidden = !text;
    document.querySelector("main").setAttribute("aria-busy", "false");
  }

  // -- the socket -------------------------------------------------------------------------

  // The page's socket: {[how.hello]: session} first, then each frame to how.receive. A
  // refused session (4401, 4403) is forgotten (how.key) and the notice says it is gone; any
  // other close shows "reconnecting" and tries again, a little later each time (up to 5 s).
  function connect(session, how) {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws");
    socket.onopen = () => { retry = 0; socket.send(JSON.stringify({ [how.hello]: session })); };
    socket.onmessage = (event) => how.receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      socket = null;
      const texts = how.texts();
      if (event.code === 4401 || event.code === 4403) {
        window.sessionStorage.removeItem(how.key);
        showError(texts.gone || "");
        return;
      }
      const offline = $("offline");
      offline.textContent = texts.reconnecting || "…";
      offline.hidden = false;
      retry = Math.min(retry + 1, 6);
      setTimeout(() => connect(session, how), Math.min(250 * 2 ** retry, 5000));
    };
  }

  // Once the page is parsed: Telegram told it is ready, the login (a session, or null), then
  // the socket.
  function run(login, how) {
    document.addEventListener("DOMContentLoaded", async () => {
      const app = window.Telegram && window.Telegram.WebApp;
      if (app) { try { app.ready(); app.expand(); } catch (e) { /* outside Telegram */ } }
      const session = await login().catch(() => null);
      if (session) connect(session, how);
    });
  }

  // -- drawing ------------------------------------------------------------------------------

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // What is around a frame: the page in its language, direction and title, no longer busy.
  // The page's <main>, for the rest of the drawing.
  function drawPage(frame, texts) {
    document.documentElement.lang = frame.lang;
    document.documentElement.dir = frame.dir;
    document.title = texts.title;
    const main = document.querySelector("main");
    main.setAttribute("aria-busy", "false");
    return main;
  }

  // The server's clock text with m:ss in it, isolated so that right to left keeps its order.
  function clock(text, seconds) {
    return text.replace("{clock}", LRI + Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0") + PDI);
  }

  window.BasraPage = {
    $: $, el: el, drawPage: drawPage, clock: clock, fragment: fragment, telegramData: telegramData,
    requestSession: requestSession, showError: showError, run: run,
    socket: () => socket,  // the socket now, null while there is none
  };
})();
