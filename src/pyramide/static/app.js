// Pyramide in the browser: a view of the server's state (docs/api.md).
//
// The browser knows no rules.  It keeps the server's state JSON as it came,
// draws it in ONE render function, animates what changed, and sends taps:
// a card → {"type": "tap", "card"}, the stock → {"type": "stock"}, undo →
// {"type": "undo"}.  A stale version (409) brings the current state back,
// which is simply rendered.  Legality, sums and scores are the server's.

import {
  cardIndex, cardName, formatTime, isFace, isRed, parseCard, translate,
} from "./i18n.js";
import {
  choiceOf, mayAbandon, maySeeSolution, newGameBody, randomBody, showChoices, showDaily,
} from "./newgame.js";
import { el, renderStats } from "./stats.js";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

const board = $("#board");
const pyramidZone = $("#pyramid");
const wasteZone = $("#waste");
const stockEl = $("#stock");
const toastEl = $("#toast");

// Geometry in card widths: height, horizontal step in a row, vertical step
// between rows (half a card: each card lies half over the two below it).
const CH = 1.4;
const SX = 1.1;
const STEP = CH / 2;
const FAN = 0.38;

const ui = {
  state: null,          // the server's state JSON, untouched
  settings: { lang: "ru", explain_errors: true, warn_lost: true, animations: true, rules: "N" },
  presets: [],          // GET /api/rules
  receivedAt: 0,        // performance.now() when the state arrived (for the clock)
  hint: null,           // {id, version, cards, stock}
  autoplay: null,       // {stopped} while the solution is being played
  pending: 0,           // requests in flight (body[data-busy])
  queue: Promise.resolve(),
  els: new Map(),       // card code → its element on the table
  stockPos: { x: 0, y: 0 },
  endShownFor: null,    // game id whose end dialog was shown
  toastTimer: 0,
  renderedLang: null,
  renderedId: null,     // the game the table shows
  newTab: "random",
};

const t = (key, vars) => translate(ui.settings.lang, key, vars);
const animationsOn = () => ui.settings.animations !== false
  && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// ---- server -------------------------------------------------------------

function busy(delta) {
  ui.pending += delta;
  document.body.dataset.busy = String(ui.pending > 0);
}

async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  busy(+1);
  try {
    const res = await fetch(path, init);
    let data = null;
    try { data = await res.json(); } catch { /* no JSON body */ }
    if (!res.ok && !(data && data.error)) data = { error: t("serverError", { status: res.status }) };
    return { status: res.status, data };
  } catch {
    return { status: 0, data: { error: t("offline") } };
  } finally {
    busy(-1);
  }
}

/** Run server work one piece at a time, so every action carries the latest version. */
function enqueue(work) {
  busy(+1);
  const run = ui.queue.then(work).catch((err) => console.error(err)).finally(() => busy(-1));
  ui.queue = run;
  return run;
}

/** Send one action; resolves true when the server took it.  A finished game
 * takes no action (the table is only there to be looked at). */
function act(action, when = (s) => s.status === "playing") {
  let took = false;
  return enqueue(async () => {
    const s = ui.state;
    if (!s || !when(s)) return;
    const { status, data } = await api("POST", `/api/games/${s.id}/actions`,
      { version: s.version, ...action });
    if (status === 200 || status === 201) {
      took = true;
      setState(data, true);
    } else if (status === 409 && data && data.state) {
      setState(data.state, false);
      toast(t("stale"), "stale");
    } else {
      toast((data && data.error) || t("offline"), "error");
    }
  }).then(() => took);
}

/** Undo, when the server says there is something to undo (as the disabled button shows). */
function undo() {
  return act({ type: "undo" }, (s) => s.can_undo);
}

function setState(state, fresh) {
  const prev = ui.state;
  ui.state = state;
  ui.receivedAt = performance.now();
  if (ui.hint && (ui.hint.id !== state.id || ui.hint.version !== state.version)) ui.hint = null;
  render({ fresh, prev });
}

async function startGame(body) {
  const { status, data } = await api("POST", "/api/games", body);
  if (status === 200 || status === 201) {
    ui.hint = null;
    setState(data, true);
    return null;
  }
  return (data && data.error) || t("offline");
}

async function saveSettings(patch) {
  const { status, data } = await api("PUT", "/api/settings", patch);
  if (status === 200 && data) ui.settings = { ...ui.settings, ...data };
  else toast((data && data.error) || t("offline"), "error");
  render({});
}

// ---- geometry -----------------------------------------------------------

/** Card size and places for the board's current size: wide (stock and waste in
 * a column left of the pyramid) or tall (in a row under it), whichever gives
 * bigger cards. */
function metrics(state) {
  const W = board.clientWidth;
  // leave a line under the cards for the message toast
  const H = board.clientHeight - (W > 760 ? 44 : 0);
  const open = Boolean(state && (state.stock.open_card || state.rules.open_stock));
  const fanCards = state && state.rules.draw_count === 3 ? 3 : 2;
  const pad = Math.max(8, Math.min(W, H) * 0.025);
  const pyrW = 6 * SX + 1;
  const pyrH = 6 * STEP + CH;
  const wasteW = 1 + FAN * (fanCards - 1);
  const gap = 0.3;
  const slots = open ? 3 : 2;
  // wide
  const colW = wasteW;
  const colGap = 0.6;
  const colH = slots * CH + (slots - 1) * gap;
  const wideCw = Math.min((W - 2 * pad) / (colW + colGap + pyrW), (H - 2 * pad) / Math.max(pyrH, colH));
  // tall
  const rowW = (slots - 1) * (1 + 0.4) + wasteW;
  const rowGap = 0.45;
  const tallCw = Math.min((W - 2 * pad) / Math.max(pyrW, rowW), (H - 2 * pad) / (pyrH + rowGap + CH));
  const wide = wideCw >= tallCw;
  const cw = Math.max(24, Math.floor(Math.min(wide ? wideCw : tallCw, 150)));
  const ch = Math.round(cw * CH);
  const m = { cw, ch, wide, fan: Math.round(FAN * cw), fanCards };
  let px;
  let py;
  const places = [];
  if (wide) {
    const centred = (W - pyrW * cw) / 2;
    const need = pad + (colW + colGap) * cw;
    px = centred >= need ? centred : (W - (colW + colGap + pyrW) * cw) / 2 + (colW + colGap) * cw;
    py = (H - pyrH * cw) / 2;
    const cx = px - (colW + colGap) * cw;
    for (let i = 0; i < slots; i += 1) places.push({ x: cx, y: py + i * (CH + gap) * cw });
  } else {
    const total = (pyrH + rowGap + CH) * cw;
    px = (W - pyrW * cw) / 2;
    py = Math.max(pad, (H - total) * 0.42);
    const rx = (W - rowW * cw) / 2;
    const ry = py + (pyrH + rowGap) * cw;
    for (let i = 0; i < slots; i += 1) places.push({ x: rx + i * 1.4 * cw, y: ry });
  }
  const round = (p) => ({ x: Math.round(p.x), y: Math.round(p.y) });
  m.stock = round(places[0]);
  m.open = open ? round(places[1]) : null;
  m.waste = round(places[slots - 1]);
  m.pyr = (row, col) => round({
    x: px + ((7 - row) * SX / 2 + (col - 1) * SX) * cw,
    y: py + (row - 1) * STEP * cw,
  });
  return m;
}

// ---- cards --------------------------------------------------------------

function makeCard(code) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = `card${isRed(code) ? " red" : ""}`;
  el.dataset.card = code;
  const { rank, suit } = parseCard(code);
  const use = `<use href="#s-${suit}"/>`;
  const corner = (cls) => `<span class="corner${cls}" aria-hidden="true"><span class="rank${rank === "10" ? " ten" : ""}"></span><svg>${use}</svg></span>`;
  const middle = isFace(code)
    ? `<span class="face"><b></b><svg>${use}</svg></span>`
    : `<svg class="pip">${use}</svg>`;
  el.innerHTML = corner("") + middle;
  return el;
}

function paintIndex(el, code, lang) {
  if (el.dataset.lang === lang) return;
  const index = cardIndex(code, lang);
  for (const node of el.querySelectorAll(".rank, .face b")) node.textContent = index;
  el.dataset.lang = lang;
}

/** Take a card off the table: it keeps no data-card, so nothing counts it. */
function retire(el, how, m) {
  el.removeAttribute("data-card");
  el.dataset.zone = "removed";
  el.removeAttribute("data-free");
  el.removeAttribute("data-selected");
  el.removeAttribute("data-hint");
  el.setAttribute("aria-hidden", "true");
  el.tabIndex = -1;
  if (el === document.activeElement) el.blur();
  if (how === "now" || !animationsOn()) { el.remove(); return; }
  el.style.zIndex = "500";
  let frames;
  if (how === "stock") {
    const dx = m.stock.x - parseFloat(el.style.left);
    const dy = m.stock.y - parseFloat(el.style.top);
    frames = [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px)`, opacity: 0.6 }];
  } else {
    const spin = (Math.random() - 0.5) * 30;
    frames = [
      { transform: "none", opacity: 1 },
      { transform: `translate(0, ${-0.9 * m.ch}px) scale(.55) rotate(${spin}deg)`, opacity: 0 },
    ];
  }
  el.animate(frames, { duration: how === "stock" ? 220 : 320, easing: "cubic-bezier(.3,.6,.4,1)" })
    .finished.then(() => el.remove(), () => el.remove());
}

// ---- the one render function -----------------------------------------------

function render({ fresh = false, prev = null, instant = false } = {}) {
  const s = ui.state;
  const lang = ui.settings.lang;
  if (ui.renderedLang !== lang) applyLang();
  document.body.dataset.version = s ? String(s.version) : "";
  $("[data-testid=score]").textContent = s ? String(s.score) : "0";
  $("[data-testid=moves]").textContent = s ? String(s.moves) : "0";
  const code = $("[data-testid=deal-code]");
  code.textContent = s ? (s.code || t("layout")) : "…";
  code.classList.toggle("word", Boolean(s && !s.code));
  $("#btn-undo").disabled = !(s && s.can_undo);
  const over = !s || s.status !== "playing";
  $("#btn-hint").disabled = over;
  $("#btn-solution").disabled = over && !ui.autoplay;
  updateClock();
  const warn = $("#lost-warning");
  warn.hidden = !(s && s.lost && s.status === "playing" && ui.settings.warn_lost);
  warn.textContent = warn.hidden ? "" : t("lostWarning");
  if (!s) return;

  const m = metrics(s);
  board.style.setProperty("--cw", `${m.cw}px`);
  board.style.setProperty("--ch", `${m.ch}px`);
  board.dataset.layout = m.wide ? "wide" : "tall";
  const sameGame = prev && prev.id === s.id;
  const newGame = ui.renderedId !== s.id;  // first render of this game: deal it out
  ui.renderedId = s.id;
  const animate = !instant && sameGame && animationsOn();
  const dealing = !instant && newGame && animationsOn() && s.moves === 0;
  const wasInWaste = new Set(prev && sameGame ? prev.waste : []);
  const fromStock = Boolean(prev && sameGame && s.stock.count < prev.stock.count);
  const toStock = Boolean(prev && sameGame && s.stock.count > prev.stock.count);

  // where every visible card goes
  const tappable = new Set(s.tappable);
  const hinted = new Set(ui.hint ? ui.hint.cards : []);
  const places = [];
  s.pyramid.forEach((slot) => {
    if (!slot) return;
    places.push({ card: slot.card, zone: "pyramid", row: slot.row, col: slot.col, covered: !slot.free,
      ...m.pyr(slot.row, slot.col), z: slot.row * 10 + slot.col, parent: pyramidZone });
  });
  if (s.stock.open_card && m.open) {
    places.push({ card: s.stock.open_card, zone: "stock-card", ...m.open, z: 90, parent: wasteZone });
  }
  const shown = s.waste.slice(-m.fanCards);
  const fanStart = m.waste.x;
  shown.forEach((card, i) => {
    places.push({ card, zone: "waste", x: fanStart + i * m.fan, y: m.waste.y, z: 100 + i, parent: wasteZone });
  });

  // cards that left the table: removed from play, back to the stock, or deeper in the waste
  const focused = document.activeElement;
  const focusedAt = focused && focused.dataset && focused.dataset.card ? centre(focused) : null;
  const placed = new Set(places.map((p) => p.card));
  const inWaste = new Set(s.waste);
  for (const [card, el] of ui.els) {
    if (placed.has(card)) continue;
    ui.els.delete(card);
    let how = "fly";
    if (inWaste.has(card) || !animate) how = "now";
    else if (toStock) how = "stock";
    retire(el, how, m);
  }

  places.forEach((p, order) => {
    let el = ui.els.get(p.card);
    const isNew = !el;
    const old = isNew ? null : { x: parseFloat(el.style.left), y: parseFloat(el.style.top) };
    if (isNew) {
      el = makeCard(p.card);
      ui.els.set(p.card, el);
    }
    if (el.parentElement !== p.parent) p.parent.append(el);
    el.dataset.zone = p.zone;
    el.classList.toggle("covered", Boolean(p.covered));
    if (p.zone === "pyramid") {
      el.dataset.row = String(p.row);
      el.dataset.col = String(p.col);
    } else {
      delete el.dataset.row;
      delete el.dataset.col;
    }
    const free = tappable.has(p.card);
    const selected = s.selection === p.card;
    el.dataset.free = String(free);
    el.dataset.selected = String(selected);
    if (selected) el.setAttribute("aria-pressed", "true"); else el.removeAttribute("aria-pressed");
    if (hinted.has(p.card)) el.dataset.hint = "true"; else delete el.dataset.hint;
    el.tabIndex = free ? 0 : -1;
    el.setAttribute("aria-label", cardName(p.card, lang));
    paintIndex(el, p.card, lang);
    el.style.left = `${p.x}px`;
    el.style.top = `${p.y}px`;
    el.style.zIndex = String(p.z);
    el.dataset.order = String(order);

    if (dealing && p.zone === "pyramid") {
      const dx = m.stock.x - p.x;
      const dy = m.stock.y - p.y;
      el.animate([{ transform: `translate(${dx}px, ${dy}px)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
        { duration: 260, delay: order * 12, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
    } else if (animate && old && (old.x !== p.x || old.y !== p.y)) {
      el.animate([{ transform: `translate(${old.x - p.x}px, ${old.y - p.y}px)` }, { transform: "none" }],
        { duration: 200, easing: "cubic-bezier(.2,.7,.3,1)" });
    } else if (animate && isNew) {
      if (p.zone !== "pyramid" && fromStock) {
        const dx = ui.stockPos.x - p.x;
        const dy = ui.stockPos.y - p.y;
        el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
          { duration: 200, easing: "cubic-bezier(.2,.7,.3,1)" });
      } else if (!wasInWaste.has(p.card)) {  // back on the table by an undo
        el.animate([{ transform: "scale(.8)", opacity: 0 }, { transform: "none", opacity: 1 }],
          { duration: 200, easing: "ease-out" });
      }
    }
  });
  // keep the DOM (and so the Tab order) in table order: pyramid row by row, then the rest
  for (const zone of [pyramidZone, wasteZone]) {
    const kids = Array.from(zone.children).filter((el) => el.dataset.card);
    const sorted = [...kids].sort((a, b) => a.dataset.order - b.dataset.order);
    if (sorted.some((el, i) => el !== kids[i])) {
      for (const el of sorted) zone.append(el);
      if (focused && focused.isConnected && focused !== document.activeElement) focused.focus();
    }
  }

  // the stock pile
  const st = s.stock;
  stockEl.style.left = `${m.stock.x}px`;
  stockEl.style.top = `${m.stock.y}px`;
  ui.stockPos = m.stock;
  stockEl.dataset.count = String(st.count);
  stockEl.dataset.empty = String(st.count === 0);
  stockEl.dataset.recycle = String(st.count === 0 && Boolean(st.can_recycle));
  stockEl.dataset.depth = String(Math.min(st.count, 3));
  stockEl.dataset.free = String(Boolean(st.can_draw || st.can_recycle));
  if (ui.hint && ui.hint.stock) stockEl.dataset.hint = "true"; else delete stockEl.dataset.hint;
  $(".count", stockEl).textContent = st.count > 0 ? String(st.count) : "";
  $(".redeals", stockEl).textContent = st.redeals_left === null || st.redeals_left === undefined
    ? "" : `↻${st.redeals_left}`;
  let label = st.count > 0 ? t("stockCards", { n: st.count })
    : st.can_recycle ? t("stockRecycle") : t("stockEmpty");
  if (st.redeals_left !== null && st.redeals_left !== undefined) {
    label += `. ${t("redealsLeft", { n: st.redeals_left })}`;
  }
  stockEl.setAttribute("aria-label", label);
  stockEl.title = label;

  // messages and the end of the game
  if (fresh) {  // the end of the game has its dialog; other messages a toast
    if (s.message && s.status === "playing") toast(s.message.text, s.message.key);
    else clearToast();
  }
  if (s.status !== "playing" && ui.endShownFor !== s.id) {
    ui.endShownFor = s.id;
    showEnd(s);
  }
  if (focusedAt && (!focused.isConnected || focused.dataset.zone === "removed")) focusNearest(focusedAt);
  document.body.dataset.ready = "true";
}

// ---- status bar ---------------------------------------------------------

function elapsedNow() {
  const s = ui.state;
  if (!s) return 0;
  let e = Number(s.elapsed) || 0;
  if (s.status === "playing" && s.moves > 0) e += (performance.now() - ui.receivedAt) / 1000;
  return e;
}

function updateClock() {
  $("[data-testid=time]").textContent = formatTime(elapsedNow());
}

function toast(text, key = "info") {
  clearTimeout(ui.toastTimer);
  toastEl.textContent = text;
  toastEl.dataset.key = key;
  toastEl.classList.add("show");
  ui.toastTimer = setTimeout(() => {
    toastEl.classList.remove("show");
    ui.toastTimer = setTimeout(() => { toastEl.textContent = ""; delete toastEl.dataset.key; }, 250);
  }, 3500);
}

function clearToast() {
  clearTimeout(ui.toastTimer);
  toastEl.classList.remove("show");
  toastEl.textContent = "";
  delete toastEl.dataset.key;
}

/** The link that deals this game's cards again: /?deal=CODE (or the card list). */
function shareLink(s) {
  const query = s.code ? `deal=${encodeURIComponent(s.code)}`
    : `layout=${encodeURIComponent(s.layout)}&rules=${encodeURIComponent(s.rules.letter)}`;
  return `${location.origin}/?${query}`;
}

async function copyCode() {
  const s = ui.state;
  if (!s) return;
  const text = shareLink(s);
  try {
    await navigator.clipboard.writeText(text);
    toast(t("copied"));
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand && document.execCommand("copy");
    area.remove();
    toast(ok ? t("copied") : t("copyFailed"));
  }
}

// ---- language -------------------------------------------------------------

function applyLang() {
  const lang = ui.settings.lang;
  document.documentElement.lang = lang;
  document.title = t("title");
  for (const el of $$("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of $$("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of $$("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of $$(".tool")) el.title = el.textContent.trim();
  ui.renderedLang = lang;
}

// ---- hint -------------------------------------------------------------------

function requestHint() {
  return enqueue(async () => {
    const s = ui.state;
    if (!s || s.status !== "playing") return;
    const { status, data } = await api("GET", `/api/games/${s.id}/hint`);
    if (status !== 200 || !data) { toast((data && data.error) || t("offline"), "error"); return; }
    if (!ui.state || ui.state.version !== s.version || ui.state.id !== s.id) return;
    ui.hint = { id: s.id, version: s.version, cards: data.cards || [], stock: Boolean(data.stock) };
    render({});
    if (!data.move) toast(t("hintNone"), "hint");
    else if (data.winnable === false) toast(t("hintLost", { n: data.max_removed }), "hint");
    else if (data.stock) toast(data.move === "recycle" ? t("hintRecycle") : t("hintDraw"), "hint");
  });
}

// ---- solution -----------------------------------------------------------------
// The server finds the line and plays it: the browser only asks for the next
// move ({"type": "solution"}) until the line ends, the game ends or the
// player stops it (a tap anywhere on the table, Esc, or the Stop button).

const solutionBtn = $("#btn-solution");

function solutionList(moves) {
  const items = [];
  for (const m of moves) {
    const last = items[items.length - 1];
    if (m.kind === "draw" && last && last.kind === "draw") { last.n += 1; continue; }
    items.push({ ...m, n: 1 });
  }
  return items.map((m) => {
    const li = el("li", { "data-kind": m.kind, "data-move": m.move });
    if (m.kind === "remove") {
      m.card_labels.forEach((part, i) => {
        if (i) li.append(" + ");
        li.append(el("span", { class: isRed(m.cards[i]) ? "red" : "" }, part));
      });
    } else {
      li.append(m.n > 1 ? `${m.label} ${t("times", { n: m.n })}` : m.label);
    }
    return li;
  });
}

function verdict(s, data) {
  const n = data.moves.length;
  if (s.status !== "playing") return t("solutionOver");
  if (data.winnable === true) return t(data.shortest ? "solutionShortest" : "solutionFound", { n });
  if (data.winnable === null) return t("solutionUnknown");
  return n ? t("solutionLost", { n: data.max_removed, m: n }) : t("solutionNone");
}

async function openSolution() {
  if (ui.autoplay) { stopAutoplay(); return; }
  const s = ui.state;
  const dlg = $("#dlg-solution");
  if (!s || dlg.open || s.status !== "playing") return;
  for (const d of $$("dialog[open]")) d.close();
  if (!(await maySeeSolution(s, t))) return;
  const play = $("#solution-play");
  play.disabled = true;
  $("#solution-verdict").textContent = t("solving");
  $("#solution-moves").replaceChildren();
  dlg.dataset.state = "searching";
  dlg.showModal();
  await enqueue(async () => {
    const { status, data } = await api("GET", `/api/games/${s.id}/solution`);
    if (!dlg.open) return;
    if (status !== 200 || !data) {
      $("#solution-verdict").textContent = (data && data.error) || t("offline");
      dlg.dataset.state = "error";
      return;
    }
    const now = ui.state;
    $("#solution-verdict").textContent = verdict(now, data);
    $("#solution-moves").replaceChildren(...solutionList(data.moves));
    play.disabled = !(data.moves.length && now.status === "playing" && now.version === data.version);
    dlg.dataset.state = "ready";
  });
}

async function playSolution() {
  $("#dlg-solution").close();
  if (ui.autoplay || !ui.state) return;
  const run = { stopped: false };
  const id = ui.state.id;
  const going = (s) => !run.stopped && s && s.id === id && s.status === "playing";
  ui.autoplay = run;
  showAutoplay();
  const pause = () => new Promise((done) => setTimeout(done, animationsOn() ? 450 : 120));
  while (going(ui.state)) {
    if (!(await act({ type: "solution" }, going))) break;
    await pause();
  }
  ui.autoplay = null;
  showAutoplay();
}

// Anything else the player does stops the solution first (a tap on the table
// only stops it: see the board's handler).
document.addEventListener("pointerdown", (ev) => {
  if (ui.autoplay && !ev.target.closest("#btn-solution, #board")) stopAutoplay();
}, true);

function stopAutoplay() {
  if (!ui.autoplay) return;
  ui.autoplay.stopped = true;
  toast(t("solutionStopped"));
}

function showAutoplay() {
  const on = Boolean(ui.autoplay);
  solutionBtn.dataset.autoplay = String(on);
  $("span", solutionBtn).dataset.i18n = on ? "stop" : "solution";
  $("span", solutionBtn).textContent = t(on ? "stop" : "solution");
  solutionBtn.title = t(on ? "stop" : "solution");
}

$("#solution-play").addEventListener("click", () => playSolution());

// ---- keyboard and pointer -----------------------------------------------

function focusables() {
  return [...$$('.card[data-card][data-free="true"]', board), stockEl];
}

/** Where a card lies on the table (its layout place, whatever animation is running). */
function centre(el) {
  return { x: el.offsetLeft + el.offsetWidth / 2, y: el.offsetTop + el.offsetHeight / 2 };
}

function moveFocus(key) {
  const items = focusables();
  const cur = document.activeElement;
  if (!items.includes(cur)) { items[0].focus(); return; }
  const c = centre(cur);
  let best = null;
  let bestScore = Infinity;
  for (const el of items) {
    if (el === cur) continue;
    const p = centre(el);
    const dx = p.x - c.x;
    const dy = p.y - c.y;
    const [main, cross] = {
      ArrowRight: [dx, dy], ArrowLeft: [-dx, dy], ArrowDown: [dy, dx], ArrowUp: [-dy, dx],
    }[key];
    if (main <= 1) continue;
    const score = main + 2 * Math.abs(cross);
    if (score < bestScore) { bestScore = score; best = el; }
  }
  if (best) best.focus();
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

// One handler for mouse, touch and pen (and Enter/Space on a focused card).
board.addEventListener("click", (ev) => {
  if (ui.autoplay) { stopAutoplay(); return; }
  if (!ui.state || ui.state.status !== "playing") return;  // a finished table is only looked at
  const el = ev.target.closest("[data-card], #stock");
  if (!el || !board.contains(el)) return;
  if (el === stockEl) act({ type: "stock" });
  else act({ type: "tap", card: el.dataset.card });
});

document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented || document.querySelector("dialog[open]")) return;
  if (ui.autoplay) {
    if (ev.key === "Escape" || ev.key === " " || ev.key === "Enter" || (ev.key || "").toLowerCase() === "s") {
      ev.preventDefault();
      stopAutoplay();
    }
    return;
  }
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
  const key = ev.code || "";
  const letter = (ev.key || "").toLowerCase();
  if ((ev.ctrlKey || ev.metaKey) && (key === "KeyZ" || letter === "z")) {
    ev.preventDefault();
    undo();
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (ev.key.startsWith("Arrow")) { ev.preventDefault(); moveFocus(ev.key); return; }
  const is = (code, ch) => key === code || letter === ch;
  if (is("KeyD", "d")) act({ type: "stock" });
  else if (is("KeyU", "u")) undo();
  else if (is("KeyH", "h")) requestHint();
  else if (is("KeyS", "s")) openSolution();
  else if (is("KeyN", "n")) openNewGame();
  else return;
  ev.preventDefault();
});

// ---- dialogs ----------------------------------------------------------------

function fillRules(select, value) {
  select.replaceChildren(...ui.presets.map((r) => {
    const o = document.createElement("option");
    o.value = r.letter;
    o.textContent = `${r.letter} — ${r.name}`;
    o.title = r.description || "";
    return o;
  }));
  select.value = value;
}

for (const dlg of $$("dialog")) {
  dlg.addEventListener("click", (ev) => {
    if (ev.target.closest("[data-close]")) dlg.close();
    else if (ev.target === dlg) dlg.close(); // a click on the backdrop
  });
}

function selectTab(tab) {
  ui.newTab = tab;
  for (const b of $$("#dlg-new [data-tab]")) b.setAttribute("aria-selected", String(b.dataset.tab === tab));
  for (const p of $$("#dlg-new [data-panel]")) p.hidden = p.dataset.panel !== tab;
  $("#new-rules-field").hidden = tab === "code" || tab === "daily";
  $("#new-submit").textContent = tab === "random" ? t("dealBtn") : t("playBtn");
  $("#new-error").textContent = "";
  if (tab === "daily") showDaily(api, t);
}

function openNewGame(tab = ui.newTab) {
  const dlg = $("#dlg-new");
  if (dlg.open) return;
  for (const d of $$("dialog[open]")) d.close();
  fillRules($("#new-rules"), ui.settings.rules || "N");
  showChoices(ui.settings);
  selectTab(tab);
  dlg.showModal();
}

$$("#dlg-new [data-tab]").forEach((b) => b.addEventListener("click", () => selectTab(b.dataset.tab)));
$$("#dlg-new [data-goto-tab]").forEach((b) => b.addEventListener("click", () => selectTab(b.dataset.gotoTab)));

/** Start the game `body` names, after asking before a game in progress is abandoned;
 * a random deal's choices are remembered (settings).  Returns an error text or null. */
async function startChosen(body) {
  if (!(await mayAbandon(ui.state, t))) return "";
  const error = await enqueue(() => startGame(body));
  const choice = choiceOf(body);
  if (!error && choice) await saveSettings(choice);
  return error;
}

async function submitNewGame() {
  const err = $("#new-error");
  const btn = $("#new-submit");
  err.textContent = "";
  const body = newGameBody(ui.newTab);
  btn.disabled = true;
  const label = btn.textContent;
  if (body.winnable_only || body.daily) btn.textContent = t("searching");
  const error = await startChosen(body);
  btn.disabled = false;
  btn.textContent = label;
  if (error) err.textContent = error;
  else if (error === null) $("#dlg-new").close();
}
$("#new-submit").addEventListener("click", submitNewGame);
$("#dlg-new form").addEventListener("submit", (ev) => { ev.preventDefault(); submitNewGame(); });
$("#code-input").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter") { ev.preventDefault(); submitNewGame(); }
});

function openSettings() {
  const st = ui.settings;
  $("#set-lang").value = st.lang;
  $("#set-explain").checked = Boolean(st.explain_errors);
  $("#set-warn").checked = Boolean(st.warn_lost);
  $("#set-anim").checked = st.animations !== false;
  fillRules($("#set-rules"), st.rules || "N");
  $("#dlg-settings").showModal();
}
$("#set-lang").addEventListener("change", (ev) => saveSettings({ lang: ev.target.value }));
$("#set-explain").addEventListener("change", (ev) => saveSettings({ explain_errors: ev.target.checked }));
$("#set-warn").addEventListener("change", (ev) => saveSettings({ warn_lost: ev.target.checked }));
$("#set-anim").addEventListener("change", (ev) => saveSettings({ animations: ev.target.checked }));
$("#set-rules").addEventListener("change", (ev) => saveSettings({ rules: ev.target.value }));

function openStats() {
  const letter = (ui.state && ui.state.rules.letter) || ui.settings.rules || "N";
  fillRules($("#stats-rules"), letter);
  $("#stats-body").replaceChildren();
  $("#dlg-stats").showModal();
  return loadStats(letter);
}
$("#stats-rules").addEventListener("change", (ev) => loadStats(ev.target.value));

async function loadStats(letter) {
  const body = $("#stats-body");
  const { status, data } = await api("GET", `/api/stats?rules=${encodeURIComponent(letter)}`);
  if (status !== 200 || !data) {
    body.textContent = (data && data.error) || t("offline");
    return;
  }
  await renderStats(body, data, { t, lang: ui.settings.lang, api });
}

function showEnd(s) {
  const dlg = $("#dlg-end");
  for (const d of $$("dialog[open]")) if (d !== dlg) d.close();
  $("#end-title").textContent = s.status === "won" ? t("wonTitle") : t("lostTitle");
  // the title already says "You won!": the engine's message only when it says more
  $("#end-text").textContent = s.message && s.message.key !== "won" ? s.message.text : "";
  const note = $("#end-note");
  note.hidden = !(s.assisted && s.status === "won");
  note.textContent = note.hidden ? "" : t("solvedByComputer");
  $("#end-summary").textContent = t("endSummary", { score: s.score, moves: s.moves, time: formatTime(s.elapsed) });
  dlg.dataset.status = s.status;
  if (!dlg.open) dlg.showModal();
}

$("#end-new").addEventListener("click", async () => {
  $("#dlg-end").close();
  const error = await enqueue(() => startGame(randomBody(ui.settings)));
  if (error) toast(error, "error");
});

// the same cards and rules once more, as a new game (the finished one stays in the statistics)
$("#end-replay").addEventListener("click", async () => {
  const s = ui.state;
  $("#dlg-end").close();
  const body = s.code ? { code: s.code } : { layout: s.layout, rules: s.rules.letter };
  const error = await enqueue(() => startGame(body));
  if (error) toast(error, "error");
});

$("#btn-new").addEventListener("click", () => openNewGame());
$("#btn-undo").addEventListener("click", () => undo());
$("#btn-hint").addEventListener("click", () => requestHint());
solutionBtn.addEventListener("click", () => openSolution());
$("#btn-stats").addEventListener("click", () => openStats());
$("#btn-settings").addEventListener("click", () => openSettings());
$("#copy-code").addEventListener("click", () => copyCode());

// ---- start ------------------------------------------------------------------

let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(() => render({ instant: true }));
});

// another tab may have played on: show the server's state when we come back
document.addEventListener("visibilitychange", () => {
  if (document.hidden || !ui.state) return;
  enqueue(async () => {
    const { status, data } = await api("GET", `/api/games/${ui.state.id}`);
    if (status === 200 && data && data.version !== ui.state.version) setState(data, false);
  });
});

setInterval(updateClock, 250);

async function boot() {
  const got = await api("GET", "/api/settings");
  if (got.status === 200 && got.data) ui.settings = { ...ui.settings, ...got.data };
  // until the player picks one, the server takes the language from Accept-Language
  applyLang();
  const rules = await api("GET", "/api/rules");
  if (rules.status === 200 && Array.isArray(rules.data)) ui.presets = rules.data;

  const params = new URLSearchParams(location.search);
  let body = null;
  if (params.get("deal")) body = { code: params.get("deal") };
  else if (params.get("layout")) body = { layout: params.get("layout"), rules: params.get("rules") || ui.settings.rules || "N" };
  if (body) {
    history.replaceState(null, "", location.pathname);
    const error = await startGame(body);
    if (!error) return;
    toast(error, "error");
  }
  const cur = await api("GET", "/api/games/current");
  if (cur.status === 200 && cur.data) {
    setState(cur.data, false);
    return;
  }
  const error = await startGame(randomBody(ui.settings));
  if (error) { render({}); toast(error, "error"); }
}

enqueue(boot);
