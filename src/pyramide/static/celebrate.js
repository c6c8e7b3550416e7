// The celebration of a win: cards leap off the top of the table one after
// another and bounce down the screen, each leaving a short trail.  Only with
// animations on and no prefers-reduced-motion (the caller decides); a click,
// a tap or any key ends it at once (and does nothing else).  Purely a picture: no rule, no request.

import { faceHTML, paintIndex } from "./faces.js";
import { cardIndex, isRed } from "./i18n.js";

const SUITS = ["S", "H", "C", "D"];
const RANKS = ["K", "Q", "J", "A", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const FRAME = 1000 / 60;

/** Where a card thrown from (x, y) with speed (vx, vy) is, frame by frame, until it
 * leaves the screen sideways: a bouncing ball, losing a quarter of its speed at
 * each bounce on the floor. */
export function flight(x, y, vx, vy, width, height, cardW, cardH) {
  const points = [];
  const gravity = 0.55;
  for (let i = 0; i < 600; i += 1) {
    points.push([x, y]);
    vy += gravity;
    x += vx;
    y += vy;
    if (y > height - cardH) { y = height - cardH; vy = -vy * 0.78; }
    if (x < -cardW || x > width) break;
  }
  return points;
}

/** Run the cascade over the page; resolves when it is over (or dismissed). */
export function celebrate({ lang, cardW, from = [] }) {
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.dataset.testid = "celebration";
  layer.setAttribute("aria-hidden", "true");
  document.body.append(layer);
  const W = window.innerWidth;
  const H = window.innerHeight;
  const cw = Math.max(40, Math.min(cardW || 80, 110));
  const ch = Math.round(cw * 1.4);
  layer.style.setProperty("--cw", `${cw}px`);
  layer.style.setProperty("--ch", `${ch}px`);
  const order = RANKS.flatMap((r) => SUITS.map((s) => `${r}${s}`)).slice(0, 24);
  const animations = [];
  let longest = 0;
  order.forEach((code, i) => {
    const start = from[i % Math.max(1, from.length)] || { x: (W - cw) * ((i * 0.37) % 1), y: 8 };
    const dir = i % 2 === 0 ? -1 : 1;
    const vx = dir * (2.2 + ((i * 7) % 5) * 0.7);
    const vy = -4 - ((i * 3) % 4);
    const path = flight(start.x, start.y, vx, vy, W, H, cw, ch);
    const duration = path.length * FRAME;
    const delay = i * 170;
    longest = Math.max(longest, delay + duration);
    const el = document.createElement("div");
    el.className = `card${isRed(code) ? " red" : ""}`;
    el.dataset.cascade = code;
    el.innerHTML = faceHTML(code);
    paintIndex(el, cardIndex(code, lang), lang);
    layer.append(el);
    const frames = path.filter((_, k) => k % 2 === 0 || k === path.length - 1)
      .map(([x, y]) => ({ transform: `translate(${x}px, ${y}px)`, opacity: 1 }));
    // hidden (by the style sheet) until its turn comes, and off the screen after
    animations.push(el.animate(frames, { duration, delay, fill: "forwards", easing: "linear" }));
    // a trail: three fading copies a little behind
    for (let k = 1; k <= 3; k += 1) {
      const ghost = el.cloneNode(true);
      ghost.classList.add("ghost");
      const fade = 0.32 - k * 0.08;
      layer.insertBefore(ghost, el);
      animations.push(ghost.animate(frames.map((f) => ({ ...f, opacity: fade })),
        { duration, delay: delay + k * 45, fill: "forwards", easing: "linear" }));
    }
  });
  return new Promise((done) => {
    let over = false;
    // the click or key that ends it does nothing else (the end dialog opens under it)
    const dismiss = (ev) => {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      finish();
    };
    const finish = () => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      document.removeEventListener("click", dismiss, true);
      document.removeEventListener("keydown", dismiss, true);
      for (const a of animations) a.cancel();
      layer.remove();
      done();
    };
    const timer = setTimeout(finish, Math.min(longest + 100, 9000));
    document.addEventListener("click", dismiss, true);
    document.addEventListener("keydown", dismiss, true);
  });
}
