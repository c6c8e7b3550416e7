// Drag and drop: one pointer-events handler for mouse, touch and pen.
//
// A tappable card can be dragged onto its partner (any card) or onto a pile
// that takes a card (an empty cell).  The page knows no rule: on the drop it
// sends the same taps a player would make (the first card, then the partner
// or the pile), so the server's rules and messages apply.  A drop elsewhere,
// or Escape, puts the card back.  A press that does not move is a tap (the
// click handler of the board takes it).

const THRESHOLD = 6;  // px a pointer moves before a press becomes a drag

/** Install the handler on `board`.  `onDrop(code, target)` gets the dragged card's
 * code and the target: {card: code} or {pile: id}; `canDrag()` says whether the
 * table takes input now; `animationsOn()` whether a card let go slides back. */
export function installDrag(board, { onDrop, canDrag, animationsOn }) {
  let drag = null;
  let swallowClick = false;

  function targetAt(x, y) {
    const under = document.elementsFromPoint(x, y);
    for (const el of under) {
      if (!board.contains(el) || el === drag.el || drag.el.contains(el)) continue;
      const card = el.closest("[data-card]");
      if (card && card !== drag.el && card.dataset.zone !== "removed") return card;
      const pile = el.closest(".pile[data-pile]");
      if (pile) return pile.dataset.action === "cell" && pile.dataset.free === "true" ? pile : null;
    }
    return null;
  }

  function mark(target) {
    if (drag.target === target) return;
    if (drag.target) delete drag.target.dataset.dropTarget;
    drag.target = target;
    if (target) target.dataset.dropTarget = "true";
  }

  function end(drop) {
    const d = drag;
    drag = null;
    if (!d) return;
    board.dataset.dragging = "false";
    if (d.target) delete d.target.dataset.dropTarget;
    if (!d.moving) return;
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    d.el.classList.remove("dragging");
    const target = drop ? d.target : null;
    const back = d.el.style.transform;
    d.el.style.transform = "";
    d.el.style.zIndex = d.z;
    if (target) {
      onDrop(d.code, target.dataset.card ? { card: target.dataset.card } : { pile: target.dataset.pile });
    } else if (back && animationsOn()) {  // back where it lay
      d.el.animate([{ transform: back }, { transform: "none" }], { duration: 160, easing: "ease-out" });
    }
  }

  board.addEventListener("pointerdown", (ev) => {
    if (drag || !ev.isPrimary || (ev.pointerType === "mouse" && ev.button !== 0)) return;
    const el = ev.target.closest('[data-card][data-free="true"]');
    if (!el || !board.contains(el) || !canDrag()) return;
    drag = { el, code: el.dataset.card, id: ev.pointerId, x0: ev.clientX, y0: ev.clientY,
      moving: false, target: null, z: el.style.zIndex };
  });

  board.addEventListener("pointermove", (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const dx = ev.clientX - drag.x0;
    const dy = ev.clientY - drag.y0;
    if (!drag.moving) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      if (drag.el.dataset.card !== drag.code) { drag = null; return; }  // re-rendered away
      drag.moving = true;
      try { drag.el.setPointerCapture(ev.pointerId); } catch { /* the pointer is gone */ }
      drag.el.classList.add("dragging");
      drag.el.style.zIndex = "6000";
      board.dataset.dragging = "true";
    }
    ev.preventDefault();
    drag.el.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-6, Math.min(6, dx / 40))}deg)`;
    mark(targetAt(ev.clientX, ev.clientY));
  });

  board.addEventListener("pointerup", (ev) => {
    if (drag && ev.pointerId === drag.id) {
      if (drag.moving) mark(targetAt(ev.clientX, ev.clientY));
      end(true);
    }
  });
  board.addEventListener("pointercancel", (ev) => {
    if (drag && ev.pointerId === drag.id) end(false);
  });
  document.addEventListener("keydown", (ev) => {
    if (drag && drag.moving && ev.key === "Escape") { ev.preventDefault(); end(false); }
  }, true);
  // the click that ends a drag is not a tap
  board.addEventListener("click", (ev) => {
    if (swallowClick) { ev.stopImmediatePropagation(); ev.preventDefault(); swallowClick = false; }
  }, true);

  return {
    get active() { return Boolean(drag && drag.moving); },
    /** A drag ended in the event being handled (its pointerup is no tap). */
    get justEnded() { return swallowClick; },
  };
}
