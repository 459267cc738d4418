// The browser client of `shengji serve`: routes `/` (home) and `/r/{code}` (a room), keeps the
// state the server sends, and renders it. The server is the only judge of what is legal: the
// client asks it (`check`) whenever the selection changes and shows its reason.
import { Connection, forgetSentAway, savedToken, sentAway } from "./conn.js";
import { muteButton, resetTitle, turnCue } from "./cue.js";
import { h, morph } from "./dom.js";
import { installKeys } from "./handkeys.js";
import { errorText, lang, setLang, t } from "./i18n.js";
import {
  checkForm, newForm, renderHome, renderJoin, renderLobby,
} from "./lobby.js";
import { reasonText } from "./reasons.js";
import { rulesPanel } from "./rules.js";
import { chatPanel } from "./side.js";
import {
  callAction, fitHand, renderTable, selectCards, selectionAction,
} from "./table.js";
import { seatName } from "./words.js";

/** How long an error banner stays (it goes sooner when the person acts again). */
const NOTICE_MS = 6000;
/** How long an action waits for its answer before its buttons are enabled again. */
const PENDING_MS = 5000;

const S = {
  page: "home",
  code: null,
  presets: null,
  loadError: null,
  form: null,
  roomForm: null,
  roomFormKey: null,
  name: localStorage.getItem("shengji.name") ?? "",
  status: "idle",
  room: null,
  state: null,
  chat: [],
  unread: 0,
  selection: new Set(),
  handKey: "",
  checked: null,
  suggested: null,
  suggesting: false,
  actedSinceSuggest: false,
  suggestedBy: null,
  review: null,
  reviewing: false,
  callPicks: [],
  callKey: "",
  sheetAck: null,
  notice: null,
  fatal: null,
  chatDraft: "",
  version: 0,
  pending: null,
  ui: { sideTab: "log", showHelp: false, showLast: false, rulesOpen: false, showSheet: false,
        overClosed: false },
};

let conn = null;
let formTimer = null;
let noticeTimer = null;
let pendingTimer = null;

/** Show an error banner for a few seconds. */
function showNotice(text) {
  S.notice = text;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    S.notice = null;
    render();
  }, NOTICE_MS);
}

function clearNotice() {
  clearTimeout(noticeTimer);
  S.notice = null;
}

/** Errors that answer a suggestion or a review, never an action in flight. */
const ASIDE_ERRORS = new Set(["busy", "suggest-timeout", "moved-on", "review-timeout",
  "no-review", "round-in-play"]);

/** The action sent is answered (a state that shows it, or an error): its buttons work again. */
function clearPending() {
  clearTimeout(pendingTimer);
  S.pending = null;
}

const act = {
  render,
  send(message) {
    if (!conn || !conn.send(message)) {
      showNotice(t("reconnecting"));
      render();
      return false;
    }
    // A new attempt: the last error banner is stale (a refusal brings its own).
    if (message.type !== "check" && S.notice) {
      clearNotice();
      render();
    }
    return true;
  },
  /** Send an action once: until it is answered (or PENDING_MS) the action buttons are off,
   * so a double click plays once. */
  action(action) {
    if (!action || S.pending) return;
    S.suggested = null;
    if (!act.send({ type: "action", action })) return;
    S.actedSinceSuggest = true;
    const view = S.state?.view;
    S.pending = { seat: view?.seat, at: view?.history?.length ?? 0,
                  results: S.state?.match?.results?.length ?? 0 };
    clearTimeout(pendingTimer);
    pendingTimer = setTimeout(() => {
      S.pending = null;
      render();
    }, PENDING_MS);
    render();
  },
  review() {
    if (S.reviewing || !act.send({ type: "review" })) return;
    S.reviewing = true;
    render();
  },
  suggest() {
    if (S.suggesting || !act.send({ type: "suggest" })) return;
    S.suggesting = true;
    S.actedSinceSuggest = false;
    render();
  },
  toggle(index) {
    if (S.selection.has(index)) S.selection.delete(index);
    else S.selection.add(index);
    act.selectionChanged();
  },
  clear() {
    S.selection = new Set();
    act.selectionChanged();
  },
  selectionChanged() {
    S.checked = null;
    requestCheck();
    render();
  },
  nextRound() {
    S.sheetAck = S.state?.match?.results?.length ?? 0;
    sessionStorage.setItem(`shengji.sheet.${S.code}`, String(S.sheetAck));
    const seat = S.state?.view?.seat;
    if ((S.state?.match?.waiting ?? []).includes(seat)) act.send({ type: "next_round" });
    render();
  },
  connect,
  formChanged() {
    clearTimeout(formTimer);
    formTimer = setTimeout(() => checkForm(S.form, render), 200);
    render();
  },
  roomFormChanged() {
    clearTimeout(formTimer);
    formTimer = setTimeout(() => checkForm(S.roomForm, render), 200);
    render();
  },
};

/** Ask the server whether the current selection (or friend call) is legal. */
function requestCheck() {
  const kind = S.state?.legal?.kind;
  const action = kind === "call" ? callAction(S) : selectionAction(S);
  if (action && conn?.open) conn.send({ type: "check", action });
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      S.fatal = null;
      break;
    case "room":
      if (message.status === "lobby" && S.room && S.room.status !== "lobby") {
        // A new match in the same room: forget the last match's table and sheets.
        S.state = null;
        resetTitle();
        S.sheetAck = null;
        sessionStorage.removeItem(`shengji.sheet.${S.code}`);
      }
      S.room = message;
      syncRoomForm();
      break;
    case "state":
      onState(message);
      break;
    case "chat":
      // After a reconnection the server sends the recent lines again: keep each line once.
      if (S.chat.some((m) => m.time === message.time && m.member === message.member
                      && m.text === message.text)) return;
      S.chat.push(message);
      S.chat = S.chat.slice(-100);
      if (S.ui.sideTab !== "chat") S.unread += 1;
      break;
    case "checked":
      S.checked = { action: message.action, reason: message.reason ?? null,
                    why: message.why ?? null, code: message.code ?? null };
      break;
    case "suggestion":
      S.suggesting = false;
      S.suggestedBy = { by: message.by, time: message.time };
      onSuggestion(message.action);
      break;
    case "review":
      S.reviewing = false;
      S.review = message;
      break;
    case "error":
      if (!ASIDE_ERRORS.has(message.code)) clearPending();  // else not the action's answer
      S.suggesting = false;
      S.reviewing = false;
      if (message.code === "moved-on" && S.actedSinceSuggest) {
        break;  // a suggestion no longer needed: the player has acted since asking
      }
      if (message.code === "no-room") S.fatal = t("noRoom");
      else if (message.code === "kicked") S.fatal = t("kicked");
      else if (!S.room && conn) {
        // The hello was refused (a bad name...): back to the join form, with the reason.
        conn.stop();
        conn = null;
        S.notice = t("error", { message: errorText(message) });
      } else {
        showNotice(t("error", { message: reasonText(message.why, errorText(message),
          (seat) => seatName(S, seat)) }));
      }
      break;
    default:
      return;
  }
  render();
}

/** Whether the state answers the action in flight: it shows an action of the seat since, or
 * a round went by. */
function answered(message) {
  const pending = S.pending;
  const history = message.view.history ?? [];
  return (message.match?.results?.length ?? 0) !== pending.results
    || history.length < pending.at
    || history.slice(pending.at).some((line) => line.startsWith(`${pending.seat} `));
}

function onState(message) {
  const previous = S.state;
  S.version += 1;
  S.state = message;
  const view = message.view;
  if (S.pending && answered(message)) clearPending();
  if ((previous?.match?.results?.length ?? 0) !== (message.match?.results?.length ?? 0)) {
    S.ui.showSheet = false;
    S.ui.overClosed = false;
    S.review = null;  // another round (or match) finished: its review is asked anew
  }
  const handKey = `${message.match?.round}|${view.phase}|${(view.hand ?? []).join(" ")}`;
  if (handKey !== S.handKey) {
    S.handKey = handKey;
    S.selection = new Set();
    S.checked = null;
    S.suggested = null;
    S.suggestedBy = null;
  }
  const callKey = `${message.match?.round}|${message.legal?.kind === "call"}`;
  if (callKey !== S.callKey) {
    S.callKey = callKey;
    S.callPicks = [];
  }
  if (S.sheetAck === null) {
    const stored = sessionStorage.getItem(`shengji.sheet.${S.code}`);
    const count = message.match?.results?.length ?? 0;
    const waiting = (message.match?.waiting ?? []).includes(view.seat);
    S.sheetAck = stored !== null ? Math.min(Number(stored), count) : count - (waiting ? 1 : 0);
  }
  if (previous?.legal?.kind !== message.legal?.kind) S.ui.showHelp = false;
  if (S.selection.size || message.legal?.kind === "call") {
    S.checked = null;
    requestCheck();
  }
  turnCue(message);
}

function onSuggestion(action) {
  if (!action || !S.state?.view) return;
  const [, verb, ...rest] = action.split(" ");
  if (verb === "play" || verb === "bury" || (verb === "expose" && rest.length)) {
    selectCards(S, rest);
    S.checked = null;
    requestCheck();
  } else if (verb === "call") {
    S.callPicks = rest.join(" ").split(",").map((text) => {
      const parts = text.trim().split(/\s+/);
      const ordinal = parseInt(parts[0], 10) || 1;
      if (parts.length === 3) return { ordinal, colour: parts[1], rank: parts[2], suit: "S" };
      const card = parts[parts.length - 1].toUpperCase();
      return { ordinal, rank: card.slice(0, -1), suit: card.slice(-1), colour: "black" };
    });
    S.checked = null;
    requestCheck();
  } else {
    S.suggested = action;
  }
}

function syncRoomForm() {
  if (!S.presets || !S.room?.you?.host || S.room.status !== "lobby") return;
  const cfg = S.room.config;
  const key = JSON.stringify(cfg);
  if (key === S.roomFormKey) return;
  S.roomFormKey = key;
  S.roomForm = newForm(S.presets, cfg.preset, cfg.table, cfg.rules ?? {});
  S.roomForm.ok = true;
}

function connect() {
  if (conn) return;
  forgetSentAway(S.code);  // joining by choice (the join form, or a name kept from before)
  conn = new Connection(S.code, {
    hello: () => ({ name: (S.name.trim() || "Player").slice(0, 24), lang: lang() }),
    onMessage,
    onStatus: (status) => {
      S.status = status;
      if (status !== "open") S.suggesting = S.reviewing = false;  // a lost answer: ask again
      render();
    },
  });
  conn.start();
}

function header() {
  // No pill once the connection is closed for good (a refused join, an unknown room).
  const text = S.status === "open" ? t("connected") : S.status === "connecting" ? t("connecting")
    : t("reconnecting");
  const status = S.page === "room" && S.status !== "idle" && S.status !== "closed"
    ? h("span", { class: `conn ${S.status}`, id: "conn-status", role: "status", title: text },
      h("span", { class: "conn-text" }, text))
    : null;
  return h("header", { class: "topbar" },
    h("a", { href: "/", class: "brand" }, "升级 ", h("span", {}, "Sheng Ji")),
    S.code ? h("span", { class: "code" }, t("room", { code: S.code })) : null,
    status,
    S.page === "room" && S.state ? muteButton(render) : null,
    h("a", { href: "/how-to-play", id: "how-to-play", target: "_blank", rel: "noopener",
             title: t("howToPlayLabel") }, t("howToPlay")),
    h("button", { type: "button", id: "lang-switch", "aria-label": t("languageLabel"),
                  onclick: () => { setLang(lang() === "zh" ? "en" : "zh"); render(); } },
      t("language")));
}

function body() {
  if (S.page === "home") return renderHome(S, act);
  if (S.fatal) {
    return h("section", { class: "panel" }, h("p", { class: "error", role: "alert" }, S.fatal),
      h("a", { href: "/" }, t("newRoom")));
  }
  if (!conn) return renderJoin(S, act);
  if (!S.room) return h("section", { class: "panel" }, h("p", {}, t("connecting")));
  if (S.room.status === "lobby" || !S.state) {
    return h("div", { class: "lobby-page" }, renderLobby(S, act),
      S.notice ? h("div", { class: "notice", role: "alert", id: "notice" }, S.notice, " ",
        h("button", { type: "button", class: "small",
                      onclick: () => { clearNotice(); render(); } }, t("dismiss"))) : null,
      S.room.you?.host ? null : h("section", { class: "panel", id: "lobby-rules" },
        h("h2", {}, t("rules")), rulesPanel(S, render)),
      h("section", { class: "panel" }, h("h2", {}, t("chat")), chatPanel(S, act)));
  }
  if (S.ui.sideTab === "chat") S.unread = 0;
  return renderTable(S, act);
}

/** Redraw the page from the state (in place: focus, clicks and scrolling survive). */
function render() {
  const root = document.getElementById("app");
  const scroll = [...document.querySelectorAll(".log, .chat-list")].map((el) =>
    el.scrollHeight - el.scrollTop - el.clientHeight < 8);
  document.body.dataset.page = S.page;
  document.body.dataset.phase = S.state?.view?.phase ?? "";
  document.body.dataset.kind = S.state?.legal?.kind ?? "";
  document.body.dataset.status = S.room?.status ?? "";
  document.body.dataset.results = String(S.state?.match?.results?.length ?? 0);
  document.body.dataset.version = String(S.version);
  document.body.dataset.tricks = String(S.state?.view?.tricks?.length ?? 0);
  morph(root, h("div", { id: "app" }, header(), h("main", { id: "main" }, body())));
  // the score sheet's overlay starts below the top bar, which stays in reach above it
  document.documentElement.style.setProperty("--top-bar", `${root.firstChild.offsetHeight}px`);
  fitHand();
  document.querySelectorAll(".log, .chat-list").forEach((el, i) => {
    if (scroll[i] ?? true) el.scrollTop = el.scrollHeight;
  });
}

async function loadPresets() {
  try {
    const response = await fetch("/api/presets");
    if (!response.ok) throw new Error(`${response.status}`);
    S.presets = await response.json();
    if (S.page === "home") {
      S.form = newForm(S.presets, S.presets.presets[0].name);
      checkForm(S.form, render);
    }
    syncRoomForm();
  } catch (error) {
    S.loadError = String(error.message ?? error);
  }
  render();
}

function main() {
  window.addEventListener("resize", fitHand);
  installKeys(S, act);
  const match = location.pathname.match(/^\/r\/([^/]+)\/?$/);
  if (match) {
    S.page = "room";
    S.code = decodeURIComponent(match[1]);
    // a name kept from another room joins by itself, unless this room's host sent us away
    if (savedToken(S.code) || (S.name.trim() && !sentAway(S.code))) connect();
  }
  render();
  loadPresets();
}

main();
