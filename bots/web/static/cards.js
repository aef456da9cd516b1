// Cards drawn as SVG from their codes ("10D", "QS"): rank then suit, the same in every language.
"use strict";
(function () {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const RED = { D: true, H: true };
  function split(code) { return [code.slice(0, -1), code.slice(-1)]; }
  function label(code) { const [r, s] = split(code); return r + SUITS[s]; }
  function pips(rank, sym, colour) {
    // The centre: a big suit for number cards, the letter framed for J, Q, K.
    if (rank === "J" || rank === "Q" || rank === "K") {
      return `<rect x="14" y="22" width="32" height="40" rx="3" fill="none" stroke="${colour}" stroke-width="1.5"/>` +
        `<text x="30" y="50" font-size="22" font-weight="700" text-anchor="middle" fill="${colour}">${rank}</text>` +
        `<text x="30" y="60" font-size="9" text-anchor="middle" fill="${colour}">${sym}</text>`;
    }
    return `<text x="30" y="56" font-size="28" text-anchor="middle" fill="${colour}">${sym}</text>`;
  }
  function face(code) {
    const [rank, suit] = split(code);
    const sym = SUITS[suit];
    const colour = RED[suit] ? "#c0262d" : "#1d1d1f";
    return `<svg viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
      `<rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf7" stroke="#9a9a9a"/>` +
      `<text x="5" y="16" font-size="13" font-weight="700" fill="${colour}">${rank}</text>` +
      `<text x="5" y="28" font-size="11" fill="${colour}">${sym}</text>` +
      pips(rank, sym, colour) +
      `<g transform="rotate(180 30 42)"><text x="5" y="16" font-size="13" font-weight="700" fill="${colour}">${rank}</text>` +
      `<text x="5" y="28" font-size="11" fill="${colour}">${sym}</text></g></svg>`;
  }
  function back() {
    return `<svg viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
      `<rect x="1" y="1" width="58" height="82" rx="6" fill="#23408e" stroke="#0e1f4d"/>` +
      `<rect x="6" y="6" width="48" height="72" rx="4" fill="none" stroke="#f0c75e" stroke-width="1.5"/>` +
      `<path d="M30 16 L44 42 L30 68 L16 42 Z" fill="none" stroke="#f0c75e" stroke-width="1.5"/></svg>`;
  }
  window.BasraCards = { face: face, back: back, label: label };
})();
