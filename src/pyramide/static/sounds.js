// Sounds, made on the spot with WebAudio (no files): a soft click when a card
// is picked, a chime for a pair gone, a flick for a draw, a low buzz for a
// refused move, and a rising arpeggio for a win.  Off unless the player turns
// them on in Settings.  The last sound played is noted on <body data-sound>
// (what a test can see of a sound).

let ctx = null;

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/** One note: frequency (Hz), start (s from now), length (s), wave, loudness. */
function note(ac, freq, at, length, type = "sine", gain = 0.18) {
  const osc = ac.createOscillator();
  const amp = ac.createGain();
  const t0 = ac.currentTime + at;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
  osc.connect(amp).connect(ac.destination);
  osc.start(t0);
  osc.stop(t0 + length + 0.02);
}

const SOUNDS = {
  select: (ac) => note(ac, 880, 0, 0.06, "triangle", 0.1),
  pair: (ac) => { note(ac, 660, 0, 0.16); note(ac, 990, 0.07, 0.22); },
  draw: (ac) => note(ac, 330, 0, 0.07, "triangle", 0.12),
  error: (ac) => note(ac, 150, 0, 0.18, "square", 0.06),
  win: (ac) => [523.25, 659.25, 783.99, 1046.5, 1318.5].forEach((f, i) => note(ac, f, i * 0.11, 0.45, "sine", 0.16)),
};

/** Play sound `name` if `on`. */
export function play(name, on) {
  if (!on || !SOUNDS[name]) return;
  const ac = audio();
  if (!ac) return;
  SOUNDS[name](ac);
  document.body.dataset.sound = name;
}

/** The sound for a change of state: what the server did with the player's action. */
export function soundFor(prev, s) {
  if (!prev || prev.id !== s.id) return null;
  if (s.status === "won" && prev.status !== "won") return "win";
  if (s.message && s.status === "playing") return "error";  // the server refused or explained
  if (s.score > prev.score) return "pair";
  if (s.moves > prev.moves) return "draw";
  if (s.selection && s.selection !== prev.selection) return "select";
  return null;
}
