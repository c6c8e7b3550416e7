// The table: draws any game from the state's `table`, `tableau` and `piles`
// (docs/api.md, "The table").  It knows no game: places come in card units
// (a card is 1 wide and 1.4 tall) and are scaled to fit the board; what can
// be tapped comes from the server.  Cards are buttons with data-card hooks;
// a face-down tableau card is a back with no identity.
//
// The one liberty the page takes with the places: when every pile lies left
// of the tableau (a column of piles), a tall screen gets the piles in a row
// under the tableau instead, if that gives bigger cards.

import { cardIndex, cardName } from "./i18n.js";
import { faceHTML, paintIndex } from "./faces.js";
import { isRed } from "./i18n.js";

const CH = 1.4;
const FAN = 0.38;
const ROW_GAP = 0.45;   // between the tableau and a row of piles under it
const UNIT_GAP = 0.45;  // between two piles of that row
const MAX_CW = 150;
const MIN_CW = 16;  // fitting wins: two pyramids side by side on a phone

const pileWidth = (p) => 1 + FAN * (Math.max(1, p.fan || 0) - 1);

/** The places of everything in card units, as the server sends them ("wide")
 * or with a column of side piles turned into a row under the tableau ("tall"). */
function arrangements(s) {
  const wide = {
    name: "wide", w: s.table.width, h: s.table.height,
    slot: (e) => ({ x: e.x, y: e.y }),
    pile: (p) => ({ x: p.x, y: p.y, open: p.open_at || { x: p.x + 1.2, y: p.y } }),
  };
  const slots = s.tableau;
  if (!slots.length || !s.piles.length) return [wide];
  const minX = Math.min(...slots.map((e) => e.x));
  const maxX = Math.max(...slots.map((e) => e.x + 1));
  const minY = Math.min(...slots.map((e) => e.y));
  const maxY = Math.max(...slots.map((e) => e.y + CH));
  const openRight = (p) => (p.open_at ? p.open_at.x + 1 : p.x + pileWidth(p));
  if (!s.piles.every((p) => openRight(p) <= minX + 1e-6)) return [wide];
  const order = [...s.piles].sort((a, b) => a.y - b.y || a.x - b.x);
  const at = new Map();
  let cursor = 0;
  for (const p of order) {
    const place = { x: cursor, y: 0 };
    cursor += pileWidth(p);
    if (p.open_at) { place.open = { x: cursor + 0.2, y: 0 }; cursor += 1.2; }
    at.set(p.id, place);
    cursor += UNIT_GAP;
  }
  const rowW = cursor - UNIT_GAP;
  const tabW = maxX - minX;
  const w = Math.max(tabW, rowW);
  const rowX = (w - rowW) / 2;
  const rowY = maxY - minY + ROW_GAP;
  const tall = {
    name: "tall", w, h: rowY + CH,
    slot: (e) => ({ x: e.x - minX + (w - tabW) / 2, y: e.y - minY }),
    pile: (p) => {
      const a = at.get(p.id);
      const open = a.open || { x: a.x + 1.2, y: 0 };
      return { x: rowX + a.x, y: rowY, open: { x: rowX + open.x, y: rowY + open.y } };
    },
  };
  return [wide, tall];
}

/** Card size and pixel places for a board of width W and height H. */
export function fit(s, W, H) {
  const pad = Math.max(6, Math.min(W, H) * 0.02);
  let best = null;
  for (const a of arrangements(s)) {
    const cw = Math.min((W - 2 * pad) / a.w, (H - 2 * pad) / (a.h));
    if (!best || cw > best.cw + 0.5) best = { ...a, cw };
  }
  const cw = Math.max(MIN_CW, Math.floor(Math.min(best.cw, MAX_CW)));
  const ox = (W - best.w * cw) / 2;
  const oy = best.name === "tall" ? Math.max(pad, (H - best.h * cw) * 0.42) : (H - best.h * cw) / 2;
  const px = (p) => ({ x: Math.round(ox + p.x * cw), y: Math.round(oy + p.y * cw) });
  return {
    cw, ch: Math.round(cw * CH), layout: best.name,
    slot: (e) => px(best.slot(e)),
    pile: (p) => {
      const a = best.pile(p);
      return { ...px(a), open: px(a.open) };
    },
  };
}

/** The table view over one board element. `env`: {t, animationsOn}. */
export function createTable(board, env) {
  const tableauZone = board.querySelector("#tableau");
  const pilesZone = board.querySelector("#piles");
  const els = new Map();      // card code (or "back:<slot>") → element
  const bases = new Map();    // pile id → its base element
  let stockPos = { x: 0, y: 0 };
  let renderedId = null;
  let geometry = null;

  function makeCard(code) {
    const el = document.createElement("button");
    el.type = "button";
    el.className = `card${isRed(code) ? " red" : ""}`;
    el.dataset.card = code;
    el.innerHTML = faceHTML(code);
    return el;
  }

  function makeBack(key) {
    const el = document.createElement("div");
    el.className = "card back";
    el.dataset.back = key;
    return el;
  }

  function makeBase(p) {
    const el = document.createElement(p.kind === "waste" ? "div" : "button");
    if (el.tagName === "BUTTON") el.type = "button";
    el.className = "pile";
    el.dataset.pile = p.id;
    el.dataset.kind = p.kind;
    if (p.kind === "stock") el.dataset.zone = p.id;
    el.innerHTML = '<span class="count"></span><span class="redeals" aria-hidden="true"></span>'
      + '<svg class="recycle" aria-hidden="true"><use href="#i-recycle"/></svg>';
    return el;
  }

  /** Take a card off the table: it keeps no data-card, so nothing counts it. */
  function retire(el, how, ch) {
    el.removeAttribute("data-card");
    el.dataset.zone = "removed";
    for (const a of ["data-free", "data-selected", "data-hint", "aria-pressed"]) el.removeAttribute(a);
    el.setAttribute("aria-hidden", "true");
    el.tabIndex = -1;
    if (el === document.activeElement) el.blur();
    if (how === "now" || !env.animationsOn()) { el.remove(); return; }
    el.style.zIndex = "5000";
    let frames;
    if (how === "stock") {
      const dx = stockPos.x - parseFloat(el.style.left);
      const dy = stockPos.y - parseFloat(el.style.top);
      frames = [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px)`, opacity: 0.6 }];
    } else {
      const spin = (Math.random() - 0.5) * 30;
      frames = [
        { transform: "none", opacity: 1 },
        { transform: `translate(0, ${-0.9 * ch}px) scale(.55) rotate(${spin}deg)`, opacity: 0 },
      ];
    }
    el.animate(frames, { duration: how === "stock" ? 220 : 320, easing: "cubic-bezier(.3,.6,.4,1)" })
      .finished.then(() => el.remove(), () => el.remove());
  }

  function stockCount(s) {
    return s.piles.filter((p) => p.kind === "stock").reduce((n, p) => n + p.count, 0);
  }

  /** Draw state `s`. opts: {prev, hint: {cards, stock}, instant, lang}. */
  function render(s, { prev = null, hint = null, instant = false, lang }) {
    const t = env.t;
    const g = fit(s, board.clientWidth, board.clientHeight - (board.clientWidth > 760 ? 44 : 0));
    geometry = g;
    board.style.setProperty("--cw", `${g.cw}px`);
    board.style.setProperty("--ch", `${g.ch}px`);
    board.dataset.layout = g.layout;
    board.dataset.cards = g.cw < 62 ? "small" : "large";
    const sameGame = Boolean(prev && prev.id === s.id && prev.piles);
    const newGame = renderedId !== s.id;
    renderedId = s.id;
    const animate = !instant && sameGame && env.animationsOn();
    const dealing = !instant && newGame && env.animationsOn() && s.moves === 0;
    const inPilesBefore = new Set(sameGame ? prev.piles.flatMap((p) => p.cards) : []);
    const fromStock = sameGame && stockCount(s) < stockCount(prev);
    const toStock = sameGame && stockCount(s) > stockCount(prev);
    const tappable = new Set(s.tappable);
    const hinted = new Set(hint ? hint.cards : []);

    // where every visible card goes
    const places = [];
    s.tableau.forEach((e, i) => {
      const at = g.slot(e);
      const base = { zone: e.zone, slot: e.slot, ...at, z: 10 + i, parent: tableauZone };
      if (e.card) places.push({ ...base, key: e.card, card: e.card, free: e.tappable, covered: !e.free });
      else if (!e.face_up && !e.removed) places.push({ ...base, key: `back:${e.slot}`, back: true });
    });
    const pileAt = new Map();
    s.piles.forEach((p, j) => {
      const at = g.pile(p);
      pileAt.set(p.id, at);
      const z = 2000 + j * 100;
      if (p.top_open && p.cards.length) {
        const card = p.cards[p.cards.length - 1];
        places.push({ key: card, card, zone: "stock-card", pile: p.id, ...at.open, z: z + 50,
          free: tappable.has(card), parent: pilesZone });
      } else if (p.count > 0 && p.cards.length) {
        const shown = p.cards.slice(-Math.max(1, p.fan || 0));
        shown.forEach((card, i) => {
          places.push({ key: card, card, zone: p.id, pile: p.id, x: at.x + Math.round(i * FAN * g.cw), y: at.y,
            z: z + 1 + i, free: tappable.has(card), parent: pilesZone });
        });
      }
    });
    const stockPile = s.piles.find((p) => p.kind === "stock");
    stockPos = stockPile ? pileAt.get(stockPile.id) : { x: board.clientWidth / 2, y: 0 };

    // cards that left the table: removed from play, back to the stock, or deeper in a pile
    const focused = document.activeElement;
    const focusedAt = focused && focused.dataset && focused.dataset.card && board.contains(focused)
      ? centre(focused) : null;
    const placed = new Set(places.map((p) => p.key));
    const inPiles = new Set(s.piles.flatMap((p) => p.cards));
    for (const [key, el] of els) {
      if (placed.has(key)) continue;
      els.delete(key);
      let how = "fly";
      if (inPiles.has(key) || !animate || el.classList.contains("back")) how = "now";
      else if (toStock) how = "stock";
      retire(el, how, g.ch);
    }

    places.forEach((p, order) => {
      let el = els.get(p.key);
      const isNew = !el;
      const old = isNew ? null : { x: parseFloat(el.style.left), y: parseFloat(el.style.top) };
      if (isNew) {
        el = p.back ? makeBack(p.key) : makeCard(p.card);
        els.set(p.key, el);
      }
      if (el.parentElement !== p.parent) p.parent.append(el);
      el.dataset.zone = p.zone;
      el.dataset.order = String(order);
      if (p.slot !== undefined) el.dataset.slot = String(p.slot); else delete el.dataset.slot;
      if (p.pile) el.dataset.pile = p.pile; else delete el.dataset.pile;
      el.style.left = `${p.x}px`;
      el.style.top = `${p.y}px`;
      el.style.zIndex = String(p.z);
      if (!p.back) {
        el.classList.toggle("covered", Boolean(p.covered));
        const selected = s.selection === p.card;
        el.dataset.free = String(Boolean(p.free));
        el.dataset.selected = String(selected);
        if (selected) el.setAttribute("aria-pressed", "true"); else el.removeAttribute("aria-pressed");
        if (p.free) el.removeAttribute("aria-disabled"); else el.setAttribute("aria-disabled", "true");
        if (hinted.has(p.card)) el.dataset.hint = "true"; else delete el.dataset.hint;
        el.tabIndex = p.free ? 0 : -1;
        const index = cardIndex(p.card, lang);
        // the accessible name starts with the visible index (label-content-name-mismatch)
        el.setAttribute("aria-label", `${index}, ${cardName(p.card, lang)}`);
        paintIndex(el, index, lang);
      } else {
        el.setAttribute("aria-hidden", "true");
      }

      if (dealing && p.parent === tableauZone) {
        const dx = stockPos.x - p.x;
        const dy = stockPos.y - p.y;
        el.animate([{ transform: `translate(${dx}px, ${dy}px)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
          { duration: 260, delay: order * 12, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
      } else if (animate && old && (old.x !== p.x || old.y !== p.y)) {
        el.animate([{ transform: `translate(${old.x - p.x}px, ${old.y - p.y}px)` }, { transform: "none" }],
          { duration: 200, easing: "cubic-bezier(.2,.7,.3,1)" });
      } else if (animate && isNew) {
        if (p.parent === pilesZone && fromStock) {
          const dx = stockPos.x - p.x;
          const dy = stockPos.y - p.y;
          el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
            { duration: 200, easing: "cubic-bezier(.2,.7,.3,1)" });
        } else if (!inPilesBefore.has(p.card)) {  // back on the table by an undo
          el.animate([{ transform: "scale(.8)", opacity: 0 }, { transform: "none", opacity: 1 }],
            { duration: 200, easing: "ease-out" });
        }
      }
    });

    // the piles' bases: the stock's back and count, empty places of wastes and cells
    const seen = new Set();
    s.piles.forEach((p, j) => {
      seen.add(p.id);
      let el = bases.get(p.id);
      if (!el || el.dataset.kind !== p.kind) {
        if (el) el.remove();
        el = makeBase(p);
        bases.set(p.id, el);
        pilesZone.append(el);
      }
      const at = pileAt.get(p.id);
      el.style.left = `${at.x}px`;
      el.style.top = `${at.y}px`;
      el.style.zIndex = String(2000 + j * 100);
      const down = p.kind === "stock" ? p.count - (p.top_open ? 1 : 0) : 0;
      el.dataset.count = String(p.count);
      el.dataset.empty = String(p.kind === "stock" ? down === 0 : p.count === 0);
      el.dataset.action = p.action || "";
      el.dataset.recycle = String(p.action === "recycle");
      el.dataset.depth = String(Math.min(Math.max(down, 0), 3));
      el.dataset.free = String(Boolean(p.tappable));
      if (hint && hint.stock && p.kind === "stock") el.dataset.hint = "true"; else delete el.dataset.hint;
      el.querySelector(".count").textContent = p.kind === "stock" && p.count > 0 ? String(p.count) : "";
      // drawn from an attribute: the label says it in words
      el.querySelector(".redeals").dataset.text = p.redeals_left === null || p.redeals_left === undefined
        ? "" : `↻${p.redeals_left}`;
      if (el.tagName === "BUTTON") {
        const label = pileLabel(p, t);
        el.setAttribute("aria-label", label);
        el.title = label;
        if (p.tappable) el.removeAttribute("aria-disabled"); else el.setAttribute("aria-disabled", "true");
        el.tabIndex = p.tappable || p.kind === "stock" ? 0 : -1;
      } else {
        el.setAttribute("aria-hidden", "true");
      }
    });
    for (const [id, el] of bases) if (!seen.has(id)) { el.remove(); bases.delete(id); }

    // keep the DOM (and so the Tab order) in table order: tableau, pile cards, pile bases
    for (const zone of [tableauZone, pilesZone]) {
      const kids = Array.from(zone.children).filter((k) => k.dataset.order !== undefined && k.dataset.zone !== "removed");
      const sorted = [...kids].sort((a, b) => a.dataset.order - b.dataset.order);
      if (sorted.some((k, i) => k !== kids[i])) {
        for (const k of sorted) zone.append(k);
      }
    }
    for (const el of bases.values()) pilesZone.append(el);
    // a focused card stays focused while it can still be tapped; one that left the
    // table or was covered (a waste card under a new draw) hands focus to its nearest
    const keeps = focused && focused.isConnected && focused.dataset.zone !== "removed"
      && (!focused.dataset.card || focused.dataset.free === "true");
    if (keeps && focused !== document.activeElement) focused.focus({ preventScroll: true });
    if (focusedAt && !keeps) focusNearest(focusedAt);
  }

  /** What a keyboard player can reach: tappable cards, then the piles that take a tap. */
  function focusables() {
    return [...board.querySelectorAll('.card[data-card][data-free="true"], .pile[tabindex="0"]')];
  }

  /** After the focused card left the table, focus the tappable card nearest to where it was. */
  function focusNearest(at) {
    let best = null;
    let bestDist = Infinity;
    for (const el of focusables()) {
      const p = centre(el);
      const d = Math.hypot(p.x - at.x, p.y - at.y);
      if (d < bestDist) { bestDist = d; best = el; }
    }
    if (best) best.focus({ preventScroll: true });
  }

  return {
    render,
    focusables,
    get geometry() { return geometry; },
    /** The first stock pile's id (the D key taps it), or null. */
    stockId: (s) => {
      const p = s && s.piles.find((q) => q.kind === "stock");
      return p ? p.id : null;
    },
  };
}

function pileLabel(p, t) {
  let label;
  if (p.kind === "stock") {
    label = p.count > 0 ? t("stockCards", { n: p.count })
      : p.action === "recycle" ? t("stockRecycle") : t("stockEmpty");
  } else if (p.kind === "cell") {
    label = p.count > 0 ? t("cellFull") : t("cellEmpty");
  } else {
    label = t("wasteZone");
  }
  if (p.redeals_left !== null && p.redeals_left !== undefined) {
    label += `. ${t("redealsLeft", { n: p.redeals_left })}`;
  }
  return label;
}

/** Where an element lies on the table (its layout place, whatever animation is running). */
export function centre(el) {
  return { x: el.offsetLeft + el.offsetWidth / 2, y: el.offsetTop + el.offsetHeight / 2 };
}
