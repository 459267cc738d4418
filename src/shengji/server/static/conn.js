// The room's WebSocket: hello with the seat token kept in localStorage per room, automatic
// reconnection with backoff, one JSON object per message.

const TOKEN_PREFIX = "shengji.token.";
const SENT_AWAY_PREFIX = "shengji.sentAway.";

/** The seat token this browser holds for room `code`, or null. */
export function savedToken(code) {
  return localStorage.getItem(TOKEN_PREFIX + code);
}

/** Whether the host of room `code` sent this browser away: opening the room's link again
 * then shows the join form instead of joining by itself. */
export function sentAway(code) {
  return localStorage.getItem(SENT_AWAY_PREFIX + code) === "1";
}

/** Join room `code` by choice again (the join form), after being sent away. */
export function forgetSentAway(code) {
  localStorage.removeItem(SENT_AWAY_PREFIX + code);
}

export class Connection {
  /**
   * @param {string} code the room code
   * @param {{hello: () => object, onMessage: (msg: object) => void,
   *          onStatus: (status: string) => void}} handlers
   */
  constructor(code, handlers) {
    this.code = code;
    this.handlers = handlers;
    this.ws = null;
    this.backoff = 500;
    this.stopped = false;
    this.timer = null;
    window.addEventListener("online", () => this.reconnectNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    });
  }

  /** Open the connection (and keep it open until stop()). */
  start() {
    this.stopped = false;
    this.connect();
  }

  /** Close for good (an unknown room, or leaving the page). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  /** True while the socket is open and greeted. */
  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send one message; false (and nothing sent) while disconnected. */
  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  reconnectNow() {
    if (this.stopped || this.open) return;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    clearTimeout(this.timer);
    this.backoff = 500;
    this.connect();
  }

  connect() {
    clearTimeout(this.timer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    this.handlers.onStatus("connecting");
    ws.addEventListener("open", () => {
      this.backoff = 500;
      const hello = { type: "hello", token: savedToken(this.code), ...this.handlers.hello() };
      ws.send(JSON.stringify(hello));
      this.handlers.onStatus("open");
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "welcome" && message.token) {
        localStorage.setItem(TOKEN_PREFIX + this.code, message.token);
      }
      if (message.type === "error" && (message.code === "no-room" || message.code === "kicked")) {
        this.stopped = true;  // gone for good: no reconnecting
        localStorage.removeItem(TOKEN_PREFIX + this.code);
        if (message.code === "kicked") localStorage.setItem(SENT_AWAY_PREFIX + this.code, "1");
      }
      this.handlers.onMessage(message);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) {
        this.handlers.onStatus("closed");
        return;
      }
      this.handlers.onStatus("reconnecting");
      const wait = this.backoff * (0.75 + Math.random() / 2);
      this.backoff = Math.min(this.backoff * 2, 8000);
      this.timer = setTimeout(() => this.connect(), wait);
    });
  }
}
