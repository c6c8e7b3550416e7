// One confirm dialog for the whole page: "abandon this game?", "open this link?".
//
//   import { confirmDialog } from "./confirm.js";
//   if (await confirmDialog({ title, text, ok, cancel })) { ... }
//
// The dialog (#dlg-confirm in index.html) is modal; Esc or Cancel answers
// false, the OK button true.  The texts come from the caller (in the player's
// language), so the module knows no strings of its own.

const dlg = document.getElementById("dlg-confirm");
let answer = null;  // the resolver of the question being asked

/** Ask a yes/no question; resolves true when the player chose `ok`. */
export function confirmDialog({ title, text, ok, cancel }) {
  if (answer) answer(false);  // a new question replaces an unanswered one
  dlg.querySelector("[data-confirm=title]").textContent = title;
  dlg.querySelector("[data-confirm=text]").textContent = text;
  dlg.querySelector("[data-confirm=ok]").textContent = ok;
  dlg.querySelector("[data-confirm=cancel]").textContent = cancel;
  dlg.returnValue = "";
  return new Promise((resolve) => {
    answer = resolve;
    dlg.showModal();
    dlg.querySelector("[data-confirm=cancel]").focus();
  });
}

dlg.addEventListener("close", () => {
  const resolve = answer;
  answer = null;
  if (resolve) resolve(dlg.returnValue === "ok");
});
