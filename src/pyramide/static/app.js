// Pyramide in the browser: a view of the server's state (docs/api.md).
//
// The browser knows no rules.  It keeps the server's state JSON as it came,
// draws it in ONE render function (the table itself in table.js), and sends
// taps: a card → {"type": "tap", "card"}, a pile → {"type": "pile", "pile"},
// undo → {"type": "undo"}.  A stale version (409) brings the current state
// back, which is simply rendered.  Legality, sums and scores are the server's.

import { cardName, formatTime, isRed, languages, loadLanguage, translate } from "./i18n.js";
import { centre, createTable } from "./table.js";
import { installDrag } from "./drag.js";
import { celebrate } from "./celebrate.js";
import { play, soundFor } from "./sounds.js";
import { BACKS, FELTS } from "./faces.js";
import {
  choiceOf, inProgress, mayAbandon, maySeeSolution, newGameBody, randomBody, showChoices, showDaily,
} from "./newgame.js";
import { confirmDialog } from "./confirm.js";
import { el, renderStats } from "./stats.js";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

const board = $("#board");
const toastEl = $("#toast");

const ui = {
  state: null,          // the server's state JSON, untouched
  settings: { lang: "ru", explain_errors: true, warn_lost: true, animations: true, rules: "N" },
  presets: [],          // GET /api/rules
  receivedAt: 0,        // performance.now() when the state arrived (for the clock)
  hint: null,           // {id, version, cards, stock}
  autoplay: null,       // {stopped} while the solution is being played
  pending: 0,           // requests in flight (body[data-busy])
  queue: Promise.resolve(),
  endShownFor: null,    // game id whose end dialog was shown
  toastTimer: 0,
  renderedLang: null,
  newTab: "random",
};

const t = (key, vars) => translate(ui.settings.lang, key, vars);
const animationsOn = () => ui.settings.animations !== false
  && !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const table = createTable(board, { t, animationsOn });
const drag = installDrag(board, {
  canDrag: () => Boolean(ui.state && ui.state.status === "playing" && !ui.autoplay),
  onDrop: (code, target) => dropCard(code, target),
  animationsOn,
});

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

/** Send one action now (inside the queue); resolves true when the server took it. */
async function send(action) {
  const s = ui.state;
  const { status, data } = await api("POST", `/api/games/${s.id}/actions`,
    { version: s.version, ...action });
  if (status === 200 || status === 201) {
    setState(data, true);
    return true;
  }
  if (status === 409 && data && data.state) {
    setState(data.state, false);
    toast(t("stale"), "stale");
  } else {
    toast((data && data.error) || t("offline"), "error");
  }
  return false;
}

/** Send one action in turn; resolves true when the server took it.  A finished
 * game takes no action (the table is only there to be looked at). */
function act(action, when = (s) => s.status === "playing") {
  let took = false;
  return enqueue(async () => {
    const s = ui.state;
    if (!s || !when(s)) return;
    took = await send(action);
  }).then(() => took);
}

/** Tap a pile: the stock draws or recycles (or says it is spent); another pile
 * (an empty cell) only when the server says it takes a tap. */
function tapPile(id) {
  if (!id) return Promise.resolve(false);
  return act({ type: "pile", pile: id });
}

/** A card dropped on a partner or a pile: the taps a player would make (the
 * card, then the target), so the server's rules and messages apply.  Another
 * card selected before is let go first. */
function dropCard(code, target) {
  return enqueue(async () => {
    const steps = [];
    const s = ui.state;
    if (s.selection && s.selection !== code) steps.push({ type: "tap", card: s.selection });
    if (s.selection !== code) steps.push({ type: "tap", card: code });
    for (const step of steps) {
      if (!(await send(step))) return;
    }
    if (ui.state.selection !== code) return;  // a king went by itself, or the card was refused
    await send(target.card ? { type: "tap", card: target.card } : { type: "pile", pile: target.pile });
  });
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

async function startGame(body, path = "/api/games") {
  const { status, data } = await api("POST", path, body);
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
  if (patch.lang) {
    await useLanguage();
    fillRules($("#set-rules"), ui.settings.rules || "N");  // the open dialog's list too
  }
  render({});
}

/** Load the settings' language, and the rule sets' names in it. */
async function useLanguage() {
  await loadLanguage(ui.settings.lang);
  const rules = await api("GET", "/api/rules");
  if (rules.status === 200 && Array.isArray(rules.data)) ui.presets = rules.data;
  if (ui.state && ui.state.id != null) {  // the state's own texts (message, rule name)
    const fresh = await api("GET", `/api/games/${ui.state.id}`);
    if (fresh.status === 200 && fresh.data) ui.state = fresh.data;
  }
}

// ---- the one render function -----------------------------------------------

function render({ fresh = false, prev = null, instant = false } = {}) {
  const s = ui.state;
  const lang = ui.settings.lang;
  if (ui.renderedLang !== lang) applyLang();
  document.body.dataset.back = ui.settings.card_back || "red";
  document.body.dataset.felt = ui.settings.felt || "green";
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

  table.render(s, { prev, hint: ui.hint, instant, lang });

  // messages and the end of the game
  if (fresh) {  // the end of the game has its dialog; other messages a toast
    if (s.message && s.status === "playing") toast(s.message.text, s.message.key);
    else clearToast();
  }
  if (fresh) play(soundFor(prev, s), ui.settings.sounds);
  if (s.status !== "playing" && ui.endShownFor !== s.id) {
    ui.endShownFor = s.id;
    // a win the player made here is celebrated first (not one the solver played)
    const party = fresh && s.status === "won" && !s.assisted && prev && prev.id === s.id && animationsOn();
    if (party) {
      celebrate({ lang, cardW: table.geometry.cw }).then(() => {
        if (ui.state && ui.state.id === s.id) showEnd(ui.state);
      });
    } else {
      showEnd(s);
    }
  }
  document.body.dataset.ready = "true";
}

// ---- status bar ---------------------------------------------------------

function elapsedNow() {
  const s = ui.state;
  if (!s) return 0;
  let e = Number(s.elapsed) || 0;
  // the server's clock; it ticks here only while the server says it runs
  if (s.clock_running) e += (performance.now() - ui.receivedAt) / 1000;
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

/** The link that deals this game's cards again: /?deal=CODE (a deal dealt from a
 * card list has no code: the page never holds its cards). */
function shareLink(s) {
  return `${location.origin}/?deal=${encodeURIComponent(s.code)}`;
}

async function copyCode() {
  const s = ui.state;
  if (!s) return;
  if (!s.code) { toast(t("noCode"), "error"); return; }
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
    else {  // the glow shows it; the words are for everyone who does not see the glow
      const names = data.cards.map((c) => cardName(c, ui.settings.lang));
      const key = data.kind === "cell" ? "hintCell" : names.length > 1 ? "hintPair" : "hintKing";
      toast(t(key, { a: names[0], b: names[1] }), "hint");
    }
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
  return n ? t(data.shortest ? "solutionLostShortest" : "solutionLost",
               { n: data.max_removed, total: data.tableau_cards, m: n }) : t("solutionNone");
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
  solutionBtn.disabled = !on && !(ui.state && ui.state.status === "playing");  // (a game the solution won)
}

$("#solution-play").addEventListener("click", () => playSolution());

// ---- keyboard and pointer -----------------------------------------------

function moveFocus(key) {
  const items = table.focusables();
  if (!items.length) return;
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

// One handler for mouse, touch and pen (and Enter/Space on a focused card): the
// click.  A touch that lifts where it went down is taken at once, without
// waiting for the click the browser makes of it — which Chromium does not make
// for the first tap after a touch drag — and that click, if it comes, is not
// taken twice.
const TAP_SLOP = 6;  // px a finger may wander in a tap (further, it drags)
let touchDown = null;
let tappedAt = 0;
board.addEventListener("pointerdown", (ev) => {
  tappedAt = 0;
  touchDown = ev.pointerType === "touch" && ev.isPrimary
    ? { id: ev.pointerId, x: ev.clientX, y: ev.clientY } : null;
}, true);
board.addEventListener("pointerup", (ev) => {
  const down = touchDown;
  touchDown = null;
  if (!down || ev.pointerId !== down.id || drag.active || drag.justEnded
      || Math.hypot(ev.clientX - down.x, ev.clientY - down.y) > TAP_SLOP) return;
  tappedAt = performance.now();
  boardTap(ev);
});
board.addEventListener("click", (ev) => {
  if (tappedAt && performance.now() - tappedAt < 1000) { tappedAt = 0; return; }
  boardTap(ev);
});

function boardTap(ev) {
  if (ui.autoplay) { stopAutoplay(); return; }
  if (!ui.state || ui.state.status !== "playing") return;  // a finished table is only looked at
  const el = ev.target.closest("[data-card], .pile[data-pile]");
  if (!el || !board.contains(el)) return;
  if (el.dataset.card) act({ type: "tap", card: el.dataset.card });
  else if (el.dataset.kind === "stock" || el.dataset.free === "true") tapPile(el.dataset.pile);
}

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
  if (is("KeyD", "d")) tapPile(table.stockId(ui.state));
  else if (is("KeyU", "u")) undo();
  else if (is("KeyH", "h")) requestHint();
  else if (is("KeyS", "s")) openSolution();
  else if (is("KeyN", "n")) openNewGame();
  else return;
  ev.preventDefault();
});

// ---- dialogs ----------------------------------------------------------------

/** A rule-set list, grouped as the server groups them (the Pyramid's rule sets, then
 * the family of rule book §11); with `rates`, each game's measured win rate beside its
 * name (the New game dialog). */
function fillRules(select, value, { rates = false } = {}) {
  const groups = new Map();
  for (const r of ui.presets) {
    const key = r.group || "pyramid";
    if (!groups.has(key)) {
      const g = document.createElement("optgroup");
      g.label = t(`rulesGroup.${key}`);
      g.dataset.group = key;
      groups.set(key, g);
    }
    const o = document.createElement("option");
    o.value = r.letter;
    const rate = rates ? rateShort(r.win_rate) : "";
    o.textContent = `${r.letter} — ${r.name}${rate ? ` · ${rate}` : ""}`;
    o.title = r.description || "";
    o.dataset.graded = String(Boolean(r.graded));
    groups.get(key).append(o);
  }
  select.replaceChildren(...groups.values());
  select.value = value;
}

/** A percentage with at most ``digits`` decimals (exactly so many where ``fixed``). */
const percentFormat = (x, digits = 1, fixed = false) => new Intl.NumberFormat(
  ui.settings.lang, { minimumFractionDigits: fixed ? digits : 0, maximumFractionDigits: digits },
).format(x) + "%";

/** Two decimals for a rate under one percent, so that a rare win keeps two figures. */
const percentDigits = (percent) => (percent < 1 ? 2 : 1);

/** The decimals a win rate's line is shown with: two where its interval's two ends
 * need them to differ (Pharaohs' 0.71–0.74%, not "0.7–0.7%"; the server gives two),
 * else as :func:`percentDigits` says. */
function rateDigits(rate) {
  if (percentFormat(rate.low, 1, true) === percentFormat(rate.high, 1, true)) return 2;
  return rate.percent != null ? percentDigits(rate.percent) : 1;
}

/** A win rate in a few characters: the share of decided deals won, or where too many
 * stayed undecided the range over all deals ("" when none was measured); with the
 * decimals of the line under the list, so that both give the same figures. */
function rateShort(rate) {
  if (!rate) return "";
  const digits = rateDigits(rate);
  if (rate.percent != null) return percentFormat(rate.percent, digits, true);
  return `${percentFormat(rate.low, digits, true)}–${percentFormat(rate.high, digits, true)}`;
}

/** Under the New game list: the chosen game's one-line description, its measured win
 * rate (with its interval and the deals it was measured on) and the published ones. */
function showRulesInfo() {
  const r = ui.presets.find((p) => p.letter === $("#new-rules").value);
  const info = $("#new-rules-info");
  if (!r) { info.textContent = ""; return; }
  const lines = [r.description || ""];
  const rate = r.win_rate;
  const deals = rate ? new Intl.NumberFormat(ui.settings.lang).format(rate.deals) : "";
  if (rate && rate.percent != null) {
    const digits = rateDigits(rate);
    lines.push(t("rulesInfo.rate", { percent: percentFormat(rate.percent, digits, true),
      low: percentFormat(rate.low, digits, true), high: percentFormat(rate.high, digits, true),
      deals }));
  } else if (rate) {
    const digits = rateDigits(rate);
    // none proven lost (Cheops): the range is all that is known however few stay open
    lines.push(t(rate.lost === 0 ? "rulesInfo.unproven" : "rulesInfo.range", {
      low: percentFormat(rate.low, digits, true),
      high: percentFormat(rate.high, digits, true), deals }));
  } else {
    lines.push(t("rulesInfo.none"));
  }
  if (r.published && r.published.length) {
    lines.push(t("rulesInfo.published", {
      list: r.published.map((p) => percentFormat(p.percent, 2)).join("; ") }));
  }
  info.textContent = lines.filter(Boolean).join("\n");
  showCardListHelp(r);
}
$("#new-rules").addEventListener("change", showRulesInfo);

/** The Card list tab's label and help for the chosen game: how many cards, and
 * their order (the server's card_list: tableau, waste and stock counts). */
function showCardListHelp(r) {
  const shape = r.card_list;
  $("#layout-label").textContent = t("layoutLabel", { n: r.deck });
  const parts = [t(shape.pyramid ? "layoutHelp.pyramid" : "layoutHelp.tableau", { n: shape.tableau })];
  if (shape.waste) parts.push(shape.waste === 1 ? t("layoutHelp.waste") : t("layoutHelp.wastes", { n: shape.waste }));
  if (shape.stock) parts.push(t("layoutHelp.stock", { n: shape.stock }));
  const help = [t("layoutHelp", { parts: parts.join(", ") })];
  if (shape.tens) help.push(t("layoutHelp.tens"));
  if (shape.second_deck) help.push(t("layoutHelp.secondDeck"));
  $("#layout-help").textContent = help.join(" ");
}

for (const dlg of $$("dialog")) {
  dlg.addEventListener("click", (ev) => {
    if (ev.target.closest("[data-close]")) dlg.close();
    else if (ev.target === dlg) dlg.close(); // a click on the backdrop
  });
}

function selectTab(tab) {
  ui.newTab = tab;
  for (const b of $$("#dlg-new [data-tab]")) {
    b.setAttribute("aria-selected", String(b.dataset.tab === tab));
    b.tabIndex = b.dataset.tab === tab ? 0 : -1;  // one tab stop; arrows move between the tabs
  }
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
  fillRules($("#new-rules"), ui.settings.rules || "N", { rates: true });
  showRulesInfo();
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
$("#dlg-new [role=tablist]").addEventListener("keydown", (ev) => {
  const tabs = $$("#dlg-new [role=tab]");
  const at = tabs.indexOf(document.activeElement);
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[ev.key];
  let to = step ? (at + step + tabs.length) % tabs.length : null;
  if (ev.key === "Home") to = 0;
  if (ev.key === "End") to = tabs.length - 1;
  if (at < 0 || to === null) return;
  ev.preventDefault();
  selectTab(tabs[to].dataset.tab);
  tabs[to].focus();
});

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
  $("#set-sounds").checked = Boolean(st.sounds);
  fillChoices($("#set-back"), BACKS, "colour_", st.card_back || "red");
  fillChoices($("#set-felt"), FELTS, "felt_", st.felt || "green");
  fillRules($("#set-rules"), st.rules || "N");
  $("#dlg-settings").showModal();
}
$("#set-lang").addEventListener("change", (ev) => saveSettings({ lang: ev.target.value }));
$("#set-explain").addEventListener("change", (ev) => saveSettings({ explain_errors: ev.target.checked }));
$("#set-warn").addEventListener("change", (ev) => saveSettings({ warn_lost: ev.target.checked }));
$("#set-anim").addEventListener("change", (ev) => saveSettings({ animations: ev.target.checked }));
$("#set-sounds").addEventListener("change", (ev) => {
  saveSettings({ sounds: ev.target.checked });
  play("select", ev.target.checked);  // a first sound, so the player hears what was turned on
});
$("#set-back").addEventListener("change", (ev) => saveSettings({ card_back: ev.target.value }));
$("#set-felt").addEventListener("change", (ev) => saveSettings({ felt: ev.target.value }));

function fillChoices(select, names, prefix, value) {
  select.replaceChildren(...names.map((name) => {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = t(prefix + name);
    return o;
  }));
  select.value = value;
}
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
  // the title says won or lost; the text adds what the title does not
  const left = s.tableau.filter((e) => e.zone === "pyramid" && !e.removed).length;
  $("#end-text").textContent = s.status === "won" ? t("wonText") : t("lostText", { n: left });
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
  // by the game's id: the page never holds the face-down cards
  const error = await enqueue(() => startGame({}, `/api/games/${s.id}/replay`));
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

// The clock counts only while the page is seen (docs/web.md "Clock"): a hidden
// page tells the server, which stops the clock; a visible one reports every
// REPORT_MS (a page that stops reporting counts as away). Coming back also shows
// what another tab may have played meanwhile.
const REPORT_MS = 20_000;

function reportPresence() {
  const s = ui.state;
  if (!s || s.status !== "playing") return;
  const visible = !document.hidden;
  const path = `/api/games/${s.id}/presence`;
  if (!visible) {
    // keepalive: the report still goes out when the tab is being closed
    fetch(path, { method: "POST", keepalive: true, body: JSON.stringify({ visible }),
      headers: { "Content-Type": "application/json", Accept: "application/json" } })
      .then((res) => (res.ok ? res.json() : null))
      .then((data) => { if (data && ui.state && data.id === ui.state.id) setState(data, false); })
      .catch(() => {});
    return;
  }
  enqueue(async () => {
    const { status, data } = await api("POST", path, { visible });
    if (status === 200 && data && ui.state && data.id === ui.state.id) setState(data, false);
  });
}

document.addEventListener("visibilitychange", reportPresence);
setInterval(() => { if (!document.hidden) reportPresence(); }, REPORT_MS);

setInterval(updateClock, 250);

/** Ask whether to leave the game in progress for the linked deal; resolves true to leave. */
function confirmLink(s) {
  return confirmDialog({
    title: t("linkTitle"),
    text: t("linkText", { code: s.code || t("layout"), moves: s.moves }),
    ok: t("linkLeave"),
    cancel: t("linkKeep"),
  });
}

async function boot() {
  const got = await api("GET", "/api/settings");
  if (got.status === 200 && got.data) ui.settings = { ...ui.settings, ...got.data };
  // until the player picks one, the server takes the language from Accept-Language
  await useLanguage();
  applyLang();
  const langs = await languages();
  $("#set-lang").replaceChildren(...langs.map(({ code, name }) => {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.lang = code;
    return option;
  }));

  const params = new URLSearchParams(location.search);
  let body = null;
  if (params.get("deal")) body = { code: params.get("deal") };
  else if (params.get("layout")) body = { layout: params.get("layout"), rules: params.get("rules") || ui.settings.rules || "N" };
  const cur = await api("GET", "/api/games/current");
  if (body) {
    history.replaceState(null, "", location.pathname);
    // a link never abandons a game in progress (one with a move) unasked, and a
    // bad link is reported before the player is asked anything
    const playing = cur.status === 200 && inProgress(cur.data);
    const check = playing ? await api("POST", "/api/deals/check", body) : null;
    if (check && check.status !== 200) toast((check.data && check.data.error) || t("offline"), "error");
    else if (!playing || await confirmLink(cur.data)) {
      const error = await startGame(body);
      if (!error) return;
      toast(error, "error");
    }
  }
  if (cur.status === 200 && cur.data) {
    setState(cur.data, false);
    return;
  }
  const error = await startGame(randomBody(ui.settings));
  if (error) { render({}); toast(error, "error"); }
}

enqueue(boot);
