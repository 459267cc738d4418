// The turn cue: when the table starts waiting for you, the title bar says so ("● Your turn —
// shengji"), and unless muted a short beep (WebAudio: no sound file) and a vibration on phones
// that allow it (navigator.vibrate). The mute switch is remembered by this browser.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const MUTE_KEY = "shengji.mute";
/** The page's own title (index.html), shown when it is not your turn. */
const TITLE = "升级 Sheng Ji";

let audio = null;
let wasMine = false;

/** Whether the turn cue is muted in this browser. */
export function muted() {
  return localStorage.getItem(MUTE_KEY) === "1";
}

function setMuted(value) {
  if (value) localStorage.setItem(MUTE_KEY, "1");
  else localStorage.removeItem(MUTE_KEY);
}

/** Browsers start sound only after a gesture: the first click or key makes the context. */
function unlock() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!audio && Context) {
    try {
      audio = new Context();
    } catch {
      audio = null;
    }
  }
  if (audio?.state === "suspended") audio.resume().catch(() => {});
}

function beep() {
  if (!audio) return false;
  try {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = 880;
    const now = audio.currentTime;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.26);
    return true;
  } catch {
    return false;
  }
}

/** Whether the state waits for this seat to decide something (not a card of the deal). */
export function myTurn(state) {
  const legal = state?.legal;
  return Boolean(legal) && legal.kind !== "deal" && !(state.match?.waiting ?? []).length;
}

/** After each state: the title bar, and on a new turn the beep and the vibration. The cues
 * given are counted on <body> (data-cues, data-beeps, data-buzzes) for the tests. */
export function turnCue(state) {
  const mine = myTurn(state);
  document.title = mine ? t("titleTurn") : TITLE;
  if (mine && !wasMine) {
    const body = document.body.dataset;
    body.cues = String(Number(body.cues ?? 0) + 1);
    if (!muted()) {
      if (beep()) body.beeps = String(Number(body.beeps ?? 0) + 1);
      if (typeof navigator.vibrate === "function" && navigator.vibrate([120, 60, 120])) {
        body.buzzes = String(Number(body.buzzes ?? 0) + 1);
      }
    }
  }
  wasMine = mine;
}

/** The title back to the page's own (leaving the table). */
export function resetTitle() {
  document.title = TITLE;
  wasMine = false;
}

/** The mute switch of the top bar. */
export function muteButton(rerender) {
  const off = muted();
  return h("button", {
    type: "button", id: "mute-switch", class: "mute", "aria-pressed": off ? "true" : "false",
    title: t("muteLabel"), "aria-label": `${t("muteLabel")}: ${off ? t("soundOff") : t("soundOn")}`,
    onclick: () => { setMuted(!off); rerender(); },
  }, h("span", { class: "mute-icon", "aria-hidden": "true" }, "♪"), " ",
  h("span", { class: "mute-text" }, off ? t("soundOff") : t("soundOn")));
}

window.addEventListener("pointerdown", unlock, { capture: true });
window.addEventListener("keydown", unlock, { capture: true });
