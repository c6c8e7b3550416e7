// The New game dialog's choices, and the questions of the game flow: before a
// game in progress is abandoned, before its solution is first seen.
//
// The choices of a random deal (rule set, winnable only, difficulty) are
// settings on the server: the dialog opens with the last ones, a deal saves
// them, and the end dialog's New game deals with them (docs/web.md).

import { confirmDialog } from "./confirm.js";

const $ = (sel) => document.querySelector(sel);

/** The body of POST /api/games for the chosen tab of the dialog. */
export function newGameBody(tab) {
  const rules = $("#new-rules").value || "N";
  if (tab === "code") return { code: $("#code-input").value.trim() };
  if (tab === "layout") return { layout: $("#layout-input").value.trim(), rules };
  if (tab === "daily") return { daily: true };
  const difficulty = $("#difficulty").value || "any";
  return { random: true, rules, winnable_only: $("#winnable-only").checked, difficulty };
}

/** A random deal as the player last chose it (settings). */
export function randomBody(settings) {
  return {
    random: true,
    rules: settings.rules || "N",
    winnable_only: Boolean(settings.winnable_only),
    difficulty: settings.difficulty || "any",
  };
}

/** The settings a random deal's body is remembered as (null for other deals). */
export function choiceOf(body) {
  if (!body.random) return null;
  return { rules: body.rules, winnable_only: body.winnable_only, difficulty: body.difficulty };
}

/** Show the remembered choices in the dialog. */
export function showChoices(settings) {
  $("#difficulty").value = settings.difficulty || "any";
  $("#winnable-only").checked = Boolean(settings.winnable_only);
  syncWinnable();
}

/** A graded deal is always winnable: the box is ticked and fixed while a grade is
 * chosen; grades exist only where the server says so (`graded` in GET /api/rules,
 * the option under each rule set's entry; elsewhere: any). */
function syncWinnable() {
  const select = $("#difficulty");
  const option = $("#new-rules").selectedOptions[0];
  select.disabled = !(option && option.dataset.graded === "true");
  if (select.disabled) select.value = "any";
  const graded = select.value !== "any";
  const box = $("#winnable-only");
  if (graded) box.checked = true;
  box.disabled = graded;
}
$("#difficulty").addEventListener("change", syncWinnable);
$("#new-rules").addEventListener("change", syncWinnable);

/** Fill the Daily tab from GET /api/daily. */
export async function showDaily(api, t) {
  const info = $("#daily-info");
  info.textContent = t("dailyLoading");
  const { status, data } = await api("GET", "/api/daily");
  if (status !== 200 || !data) {
    info.textContent = (data && data.error) || t("offline");
    return;
  }
  info.dataset.code = data.code;
  info.dataset.difficulty = data.difficulty;
  info.dataset.date = data.date;
  // the day as the player's language writes it: "5 декабря 2026 г.", "December 5, 2026"
  const day = new Date(`${data.date}T12:00:00Z`).toLocaleDateString(
    document.documentElement.lang || undefined, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const parts = [t("dailyInfo", {
    date: day, code: data.code, grade: t(`diff_${data.difficulty}`), n: data.shortest,
  })];
  if (data.won) parts.push(t("dailyWon"));
  else if (data.played) parts.push(t("dailyPlayed"));
  info.textContent = parts.join(" ");
}

/** A game with a move that is not over yet: leaving it abandons it. */
export function inProgress(state) {
  return Boolean(state && state.status === "playing" && state.moves > 0);
}

/** Ask before abandoning a game in progress; true when the new game may start. */
export function mayAbandon(state, t) {
  if (!inProgress(state)) return Promise.resolve(true);
  return confirmDialog({
    title: t("abandonTitle"),
    text: t("abandonText", { moves: state.moves, score: state.score }),
    ok: t("abandonOk"),
    cancel: t("abandonCancel"),
  });
}

/** Ask before the solution of a game in progress is shown for the first time
 * (seeing it marks the game assisted for good); true when it may be shown. */
export function maySeeSolution(state, t) {
  if (!state || state.assisted || state.status !== "playing") return Promise.resolve(true);
  return confirmDialog({
    title: t("seeSolutionTitle"),
    text: t("seeSolutionText"),
    ok: t("seeSolutionOk"),
    cancel: t("seeSolutionCancel"),
  });
}
