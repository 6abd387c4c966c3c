// The WebSocket to /v1/ws: requests with ids matched to their responses, events, the
// `auth` frame first, a ping to notice dead links, and reconnection with exponential
// backoff and jitter. What happens after each (re)connect (sync, rooms, the outbox) is the
// caller's `onReady`.

export class ConnectionError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

const BASE_DELAY = 800;        // first retry after ~0.4–0.8 s
const MAX_DELAY = 15000;       // never wait more than 15 s
const PING_EVERY = 25000;
const PING_TIMEOUT = 10000;
const REQUEST_TIMEOUT = 20000;

export class Connection {
  /**
   * @param {object} options
   * @param {() => string} options.token      the bearer token to authenticate with
   * @param {(event, data) => void} options.onEvent
   * @param {(user) => Promise|void} options.onReady   after every successful auth
   * @param {(state) => void} options.onState  {status: 'connecting'|'online'|'offline'|'stopped', retryAt?, attempt}
   * @param {() => void} options.onUnauthorized  the token no longer works
   */
  constructor(options) {
    this.options = options;
    this.ws = null;
    this.nextId = 1;
    this.pending = new Map();
    this.attempt = 0;
    this.status = 'stopped';
    this.retryTimer = null;
    this.pingTimer = null;
    this.retryAt = 0;
    this.everOnline = false;
    this.wake = () => { if (this.status === 'offline') this.retryNow(); };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', this.wake);
  }

  get url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${scheme}//${location.host}/v1/ws`;
  }

  start() {
    if (this.status !== 'stopped') return;
    this.open();
  }

  stop() {
    this.setStatus('stopped');
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener('online', this.wake);
    document.removeEventListener('visibilitychange', this.wake);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null;
      try { ws.close(1000, 'bye'); } catch { /* already closed */ }
    }
    this.failPending('network');
  }

  retryNow() {
    if (this.status !== 'offline') return;
    clearTimeout(this.retryTimer);
    this.open();
  }

  setStatus(status, extra = {}) {
    this.status = status;
    this.options.onState?.({ status, attempt: this.attempt, everOnline: this.everOnline, ...extra });
  }

  open() {
    this.setStatus('connecting');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => this.authenticate(ws);
    ws.onmessage = (message) => this.receive(message.data);
    ws.onerror = () => { /* onclose follows */ };
    ws.onclose = (event) => this.closed(ws, event);
  }

  async authenticate(ws) {
    try {
      const result = await this.send('auth', { token: this.options.token() }, { allowUnauthenticated: true, timeout: 10000 });
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.everOnline = true;
      this.setStatus('online');
      this.startPing();
      await this.options.onReady?.(result.user);
    } catch (error) {
      if (ws !== this.ws) return;
      if (error.code === 'unauthorized') {
        this.stop();
        this.options.onUnauthorized?.();
      } else {
        try { ws.close(); } catch { /* ignore */ }
      }
    }
  }

  closed(ws, event) {
    if (ws !== this.ws) return;
    this.ws = null;
    clearInterval(this.pingTimer);
    this.failPending('network');
    if (this.status === 'stopped') return;
    if (event.code === 4001) {
      this.stop();
      this.options.onUnauthorized?.();
      return;
    }
    this.scheduleRetry();
  }

  scheduleRetry() {
    // Exponential backoff with jitter: a random delay in [cap/2, cap], cap doubling each time.
    const cap = Math.min(MAX_DELAY, BASE_DELAY * 2 ** this.attempt);
    const delay = Math.round(cap / 2 + Math.random() * (cap / 2));
    this.attempt += 1;
    this.retryAt = Date.now() + delay;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.open(), delay);
    this.setStatus('offline', { retryAt: this.retryAt });
  }

  startPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(async () => {
      if (this.status !== 'online') return;
      try {
        await this.call('ping', {}, { timeout: PING_TIMEOUT });
      } catch (error) {
        if (error.code === 'timeout' && this.ws) this.ws.close();
      }
    }, PING_EVERY);
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame.event) {
      this.options.onEvent?.(frame.event, frame.data);
      return;
    }
    const waiter = this.pending.get(frame.id);
    if (!waiter) return;
    this.pending.delete(frame.id);
    clearTimeout(waiter.timer);
    if (frame.ok) waiter.resolve(frame.data);
    else {
      const error = frame.error || {};
      const failure = new ConnectionError(error.code || 'unknown', error.message);
      failure.field = error.field || null;
      failure.retryAfterSeconds = error.retryAfterSeconds || null;
      waiter.reject(failure);
    }
  }

  /** A request on an authenticated connection; rejects at once with `network` when offline. */
  call(op, data = {}, options = {}) {
    if (this.status !== 'online') return Promise.reject(new ConnectionError('network', 'not connected'));
    return this.send(op, data, options);
  }

  send(op, data, { timeout = REQUEST_TIMEOUT } = {}) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return Promise.reject(new ConnectionError('network', 'not connected'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ConnectionError('timeout', `${op} timed out`));
      }, timeout);
      this.pending.set(id, { resolve, reject, timer });
      try {
        ws.send(JSON.stringify({ id, op, data }));
      } catch {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new ConnectionError('network', 'send failed'));
      }
    });
  }

  failPending(code) {
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new ConnectionError(code));
    }
    this.pending.clear();
  }
}
