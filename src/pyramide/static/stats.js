// The Statistics dialog: figures, the wins' times and moves, the help given,
// results by day (an SVG chart), the score distribution, the best games and
// a paged history with replay links.  Every figure comes from the server
// (GET /api/stats, GET /api/history; docs/api.md).

import { formatTime } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...kids);
  return node;
}

/** A link that replays a deal (the same cards and rules), or the word for a card list. */
function dealLink(code, t) {
  return code ? el("a", { href: `/?deal=${encodeURIComponent(code)}` }, code) : t("layout");
}

function dateText(iso, lang) {
  // numeric and short (30.11.26, 11/30/26): the tables fit a phone's width
  return iso ? new Date(iso).toLocaleDateString(lang, { day: "2-digit", month: "2-digit", year: "2-digit" }) : "";
}

/** Draw the statistics `st` of one rule set into `body`; `ctx` = {t, lang, api}. */
export function renderStats(body, st, ctx) {
  const { t } = ctx;
  const frag = document.createDocumentFragment();
  const kpi = (key, value, id) => el("div", { class: "kpi", "data-testid": id },
    el("b", {}, String(value)), el("span", {}, t(key)));
  frag.append(el("div", { class: "kpis" },
    kpi("played", st.played, "stat-played"),
    kpi("won", st.won, "stat-won"),
    kpi("winRate", `${Math.round((st.win_rate || 0) * 100)}%`, "stat-win-rate"),
    kpi("currentStreak", st.current_streak, "stat-current-streak"),
    kpi("bestStreak", st.best_streak, "stat-best-streak")));
  const apart = [
    ["statLost", st.lost, "stat-lost"],
    ["statAbandoned", st.abandoned, "stat-abandoned"],
    ["statHelped", st.won_helped, "stat-won-helped"],
  ].map(([key, n, id]) => el("span", { "data-testid": id }, `${t(key)}: ${n || 0}`));
  if (st.hinted) {
    apart.push(el("span", { "data-testid": "stat-hinted" },
      `${t("statHinted")}: ${st.hinted} (${t("statHints")}: ${st.hints})`));
  }
  if (st.assisted) apart.push(el("span", { "data-testid": "stat-assisted" }, `${t("statAssisted")}: ${st.assisted}`));
  if (st.solved) apart.push(el("span", { "data-testid": "stat-solved" }, `${t("statSolved")}: ${st.solved}`));
  frag.append(el("p", { class: "stats-sub apart" }, ...apart));
  if (st.daily_streak || st.best_daily_streak) {
    frag.append(el("p", { class: "stats-sub", "data-testid": "stat-daily-streak" },
      `${t("dailyStreak")}: ${st.daily_streak} · ${t("bestDailyStreak")}: ${st.best_daily_streak}`));
  }
  const w = st.wins || {};
  if (w.count) {
    frag.append(el("h3", { class: "stats-sub" }, t("winsFigures")));
    frag.append(el("div", { class: "kpis four", "data-testid": "stat-wins" },
      kpi("bestTime", formatTime(w.best_time), "stat-best-time"),
      kpi("avgTime", formatTime(w.avg_time), "stat-avg-time"),
      kpi("bestMoves", w.best_moves, "stat-best-moves"),
      kpi("avgMoves", w.avg_moves, "stat-avg-moves")));
  }
  if (!st.played) {
    frag.append(el("p", { class: "stats-sub" }, t("noGames")));
    body.replaceChildren(frag);
    return;
  }
  if ((st.by_day || []).length) {
    frag.append(el("h3", { class: "stats-sub" }, t("overTime")));
    frag.append(dayChart(st.by_day, ctx));
  }
  const scores = st.scores || [];
  if (scores.length) {
    frag.append(el("h3", { class: "stats-sub" }, `${t("distribution")} (${t("gamesCount", { n: scores.length })})`));
    frag.append(scoreChart(scores, t));
  }
  const games = st.best_games || [];
  if (games.length) {
    frag.append(el("h3", { class: "stats-sub" }, t("bestGames")));
    frag.append(gameTable(games, ctx, "best-game", true, t("bestGames")));
  }
  frag.append(el("h3", { class: "stats-sub" }, t("history")));
  const history = el("div", { "data-testid": "history" });
  frag.append(history);
  body.replaceChildren(frag);
  return loadHistory(history, st.rules, 1, ctx);
}

/** A table of games; scrollable sideways on a narrow screen, so a region a
 * keyboard can reach (`label` names it). */
function gameTable(games, ctx, testid, ranked, label) {
  const { t, lang } = ctx;
  const cols = [[ranked ? "rank" : "result", ranked ? "#" : t("colResult")], ["score", t("colScore")],
    ["time", t("colTime")], ["moves", t("colMoves")], ["deal", t("colDeal")], ["date", t("colDate")]];
  const head = el("tr", {}, ...cols.map(([col, h]) => el("th", { scope: "col", "data-col": col }, h)));
  const rows = games.map((g, i) => {
    const date = dateText(g.finished_at, lang);
    const first = el("td", { "data-col": cols[0][0] }, ranked ? String(i + 1) : t(`res_${g.result}`));
    // a phone shows the history's date under the result (CSS), not in a column of its own
    if (!ranked && date) first.append(el("span", { class: "when" }, date));
    const deal = el("td", { "data-col": "deal" }, dealLink(g.code, t));
    if (g.daily) deal.append(" ", el("span", { class: "tag" }, t("dailyMark")));
    return el("tr", { "data-testid": testid, "data-game-id": String(g.id), "data-result": g.result },
      first,
      el("td", { "data-col": "score" }, String(g.score)),
      el("td", { "data-col": "time" }, formatTime(g.elapsed)),
      el("td", { "data-col": "moves" }, String(g.moves)),
      deal,
      el("td", { "data-col": "date" }, date));
  });
  return el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": label },
    el("table", { class: ranked ? "best" : "best history" }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

async function loadHistory(box, rules, page, ctx) {
  const { t, api } = ctx;
  const { status, data } = await api("GET", `/api/history?rules=${encodeURIComponent(rules)}&page=${page}`);
  if (status !== 200 || !data) {
    box.textContent = (data && data.error) || t("offline");
    return;
  }
  const pager = el("div", { class: "pager" });
  const button = (key, to, id) => {
    const b = el("button", { type: "button", class: "secondary", "data-testid": id }, t(key));
    b.disabled = to < 1 || to > data.pages;
    b.addEventListener("click", () => loadHistory(box, rules, to, ctx));
    return b;
  };
  pager.append(button("prevPage", page - 1, "history-prev"),
    el("span", { "data-testid": "history-page" }, t("pageOf", { page: data.page, pages: data.pages })),
    button("nextPage", page + 1, "history-next"));
  box.replaceChildren(gameTable(data.games, ctx, "history-game", false, t("history")), pager);
}

function svgChart(label, testid) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("data-testid", testid);
  svg.setAttribute("aria-label", label);
  const add = (tag, attrs, text) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    svg.append(n);
    return n;
  };
  return { svg, add };
}

const PARTS = ["won", "won_helped", "lost", "abandoned"];

/** Stacked bars, one a day: own wins, wins with help, losses, abandoned games;
 * the legend below in HTML (it wraps on a phone). */
function dayChart(days, { t, lang }) {
  const W = 600;
  const base = 160;
  const top = 14;
  const short = (iso) => new Date(`${iso}T12:00:00Z`).toLocaleDateString(lang, { day: "numeric", month: "short" });
  const label = `${t("overTime")}: ${days.map((d) => `${short(d.date)}: ${PARTS.map((p) => `${t(`res_${p}`)} ${d[p]}`).join(", ")}`).join("; ")}`;
  const { svg, add } = svgChart(label, "day-chart");
  svg.setAttribute("viewBox", `0 0 ${W} 190`);
  const max = Math.max(1, ...days.map((d) => PARTS.reduce((n, p) => n + d[p], 0)));
  const bw = Math.min(60, W / days.length);
  add("line", { x1: 0, x2: W, y1: base + 0.5, y2: base + 0.5, class: "axis" });
  days.forEach((d, i) => {
    const x = i * bw + 2;
    let y = base;
    for (const p of PARTS) {
      const h = ((base - top) * d[p]) / max;
      if (h > 0) add("rect", { x, y: y - h, width: bw - 4, height: h, class: `day ${p}`, "data-date": d.date });
      y -= h;
    }
    if (i === 0 || i === days.length - 1 || days.length <= 6) {
      const anchor = i === 0 ? "start" : "middle";
      add("text", { x: i === 0 ? x : x + (bw - 4) / 2, y: base + 22, "text-anchor": anchor, class: "tick" }, short(d.date));
    }
  });
  const legend = el("ul", { class: "legend", "aria-hidden": "true" },
    ...PARTS.map((p) => el("li", { "data-part": p }, t(`res_${p}`))));
  return el("div", { class: "day-chart" }, svg, legend);
}

/** Bars of the score distribution, 20 points wide, the last bar for won games (280). */
function scoreChart(scores, t) {
  const bins = new Array(15).fill(0);
  for (const sc of scores) bins[Math.min(14, Math.max(0, Math.floor(sc / 20)))] += 1;
  const W = 600;
  const top = 22;
  const base = 160;
  const bw = W / bins.length;
  const max = Math.max(1, ...bins);
  const { svg, add } = svgChart(`${t("distribution")}: ${bins.map((n, i) => `${i * 20}: ${n}`).join(", ")}`,
    "score-chart");
  svg.setAttribute("viewBox", `0 0 ${W} 190`);
  add("line", { x1: 0, x2: W, y1: base + 0.5, y2: base + 0.5, class: "axis" });
  bins.forEach((n, i) => {
    const h = Math.round(((base - top) * n) / max);
    const x = i * bw + 3;
    if (n > 0) {
      add("rect", { x, y: base - h, width: bw - 6, height: h, rx: 3, class: i === 14 ? "bar win" : "bar" });
      add("text", { x: x + (bw - 6) / 2, y: base - h - 6, "text-anchor": "middle", class: "tick" }, String(n));
    }
    if (i % 2 === 0 || i === 14) {
      add("text", { x: x + (bw - 6) / 2, y: base + 22, "text-anchor": "middle", class: "tick" },
        i === 14 ? "280" : String(i * 20));
    }
  });
  return svg;
}
