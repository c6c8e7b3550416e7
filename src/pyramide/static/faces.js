// Card faces, drawn here as SVG: corner indices (Т В Д К in Russian, A J Q K
// in English), the pips of 2–10 in the standard layouts, a large ace, and a
// double-ended figure for jack, queen and king.  No rule lives here: a face is
// only a picture of the card's code.
//
// A card is 100 × 140 units.  The indices are HTML (so they stay legible at
// any size and follow the language); everything else is one SVG.  The suit
// shapes are the page's sprite symbols #s-H #s-D #s-S #s-C.

import { isFace, parseCard } from "./i18n.js";

// Pip centres of 2–10 on the 100 × 140 card: two columns and a centre line.
const L = 38;
const C = 50;
const R = 62;
const ROWS4 = [27, 55.7, 84.3, 113];
const PIPS = {
  2: [[C, 27], [C, 113]],
  3: [[C, 27], [C, 70], [C, 113]],
  4: [[L, 27], [R, 27], [L, 113], [R, 113]],
  5: [[L, 27], [R, 27], [C, 70], [L, 113], [R, 113]],
  6: [[L, 27], [R, 27], [L, 70], [R, 70], [L, 113], [R, 113]],
  7: [[L, 27], [R, 27], [C, 48.5], [L, 70], [R, 70], [L, 113], [R, 113]],
  8: [[L, 27], [R, 27], [C, 48.5], [L, 70], [R, 70], [C, 91.5], [L, 113], [R, 113]],
  9: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, 70]],
  10: [...ROWS4.flatMap((y) => [[L, y], [R, y]]), [C, 41.3], [C, 98.7]],
};
const PIP = 16;

function use(suit, x, y, size, flip) {
  const h = size / 2;
  const turn = flip ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#s-${suit}" x="${x - h}" y="${y - h}" width="${size}" height="${size}"${turn}/>`;
}

function pips(rank, suit) {
  if (rank === "A") {
    const ring = suit === "S"
      ? '<circle cx="50" cy="70" r="29" class="ornament"/>' : "";
    return ring + use(suit, 50, 70, suit === "S" ? 40 : 34, false);
  }
  return PIPS[rank].map(([x, y]) => use(suit, x, y, PIP, y > 70.5)).join("");
}

// Court figures: the top half is drawn, the bottom half is the same turned
// round, as on real cards.  Colours follow the classic court palette.
const ROBE = { K: "#c8202f", Q: "#2a56a8", J: "#d99a16" };
const TRIM = { K: "#2a56a8", Q: "#d99a16", J: "#c8202f" };
const HAIR = { K: "#7a4a1c", Q: "#e0b020", J: "#3b2a1a" };

function headwear(rank) {
  if (rank === "K") {  // a crown with three points
    return '<path d="M39 32 41 21 45.5 27 50 18 54.5 27 59 21 61 32Z" class="gold"/>'
      + '<circle cx="50" cy="18" r="1.8" class="jewel"/>';
  }
  if (rank === "Q") {  // a tiara over long hair
    return '<path d="M40 31Q50 17 60 31Q56 28 50 27.5 44 28 40 31Z" class="gold"/>'
      + '<circle cx="50" cy="24" r="1.8" class="jewel"/>';
  }
  // a jack's flat cap with a feather
  return '<path d="M38 31Q39 22 50 21 61 22 62 31Z" class="cap"/>'
    + '<path d="M59 24Q68 14 72 19 65 19 61 27Z" class="feather"/>';
}

function held(rank) {
  if (rank === "K") return '<path d="M66 40V66M62.5 44H69.5" class="blade"/>';  // a sword
  if (rank === "Q") {  // a flower
    return '<path d="M34 66V44" class="stem"/><circle cx="34" cy="42" r="3.4" class="flower"/>';
  }
  return '<path d="M67 28V66" class="staff"/><path d="M67 28 63 34H71Z" class="gold"/>';  // a halberd
}

function half(rank, suit) {
  const hair = rank === "Q"
    ? `<path d="M40.5 33Q39 47 42 52H58Q61 47 59.5 33Z" fill="${HAIR.Q}"/>`
    : `<path d="M41.5 33Q41 39 43 42H57Q59 39 58.5 33Z" fill="${HAIR[rank]}"/>`;
  const beard = rank === "K"
    ? '<path d="M44 40Q50 50 56 40Q53 44 50 44 47 44 44 40Z" class="beard"/>' : "";
  return [
    hair,
    `<path d="M30 70V58Q31 48 43 46L50 52 57 46Q69 48 70 58V70Z" fill="${ROBE[rank]}"/>`,
    `<path d="M43 46 50 52 57 46 55 70H45Z" fill="${TRIM[rank]}"/>`,
    '<path d="M45 70V60H55V70" class="collar"/>',
    '<ellipse cx="50" cy="37" rx="7.2" ry="8.4" class="skin"/>',
    '<path d="M46.5 36h1.6M51.9 36h1.6M48 41.5Q50 42.8 52 41.5" class="features"/>',
    beard,
    headwear(rank),
    held(rank),
    use(suit, 33, 27, 9, false),
  ].join("");
}

function court(rank, suit) {
  const top = half(rank, suit);
  return '<rect x="24" y="14" width="52" height="112" rx="3" class="frame"/>'
    + `<g class="figure">${top}</g><g class="figure" transform="rotate(180 50 70)">${top}</g>`
    + '<path d="M24 70H76" class="divider"/>';
}

/** The inner HTML of a face-up card; the corner indices are filled by paintIndex. */
export function faceHTML(code) {
  const { rank, suit } = parseCard(code);
  const ten = rank === "10" ? " ten" : "";
  // the index is text once (the top corner: what a card's accessible name starts
  // with); the turned-round bottom corner shows it from a data attribute
  const corner = (where) => `<span class="corner ${where}" aria-hidden="true">`
    + `<span class="rank${ten}"></span><svg><use href="#s-${suit}"/></svg></span>`;
  // number cards also carry one big pip, shown instead of the layout on small cards
  const art = isFace(code) ? court(rank, suit)
    : `<g class="full">${pips(rank, suit)}</g><g class="mini">${use(suit, 50, 96, 52, false)}</g>`;
  return `<svg class="art" viewBox="0 0 100 140" aria-hidden="true" focusable="false">${art}</svg>`
    + corner("tl") + corner("br");
}

/** Fill the corner indices in ``lang`` (once per language change). */
export function paintIndex(el, index, lang) {
  if (el.dataset.lang === lang) return;
  el.querySelector(".corner.tl .rank").textContent = index;
  el.querySelector(".corner.br .rank").dataset.index = index;
  el.dataset.lang = lang;
}

/** The card backs and table colours the settings offer (names are i18n keys). */
export const BACKS = ["red", "blue", "green", "black"];
export const FELTS = ["green", "blue", "red", "grey"];
