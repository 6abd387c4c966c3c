// Message actions done while disconnected (edit, recall, react, unreact, pin, unpin): kept
// in order, persisted like the outbox of sends (localStorage, per user), and sent after the
// next (re)connect once the sends have gone. Each keeps the client id it was given when the
// user acted, so an action sent twice (its answer lost with the connection) is stored once:
// the server answers a retry with the stored event.
import { state, emit } from './store.js';

/** The operations that may wait; others (forward, hide) need the connection. */
export const QUEUEABLE = new Set(['message.edit', 'message.recall', 'message.react', 'message.unreact', 'conversation.pin', 'conversation.unpin']);
const RETRYABLE = new Set(['network', 'timeout', 'unavailable', 'internal_error']);

let hooks = { call: null, done: null, refused: null };
let userKey = null;
let queue = [];
let flushing = false;
let retryTimer = null;

/** `call(op, data)` sends; `done(op, answer)` applies an answer; `refused(entry, error)` reports a refusal. */
export function configure(value) { hooks = value; }

/** The waiting actions of `userId` from an earlier page. */
export function load(userId) {
  userKey = `parley.actions.${userId}`;
  try {
    const saved = JSON.parse(localStorage.getItem(userKey) || '[]');
    queue = Array.isArray(saved) ? saved.filter((e) => QUEUEABLE.has(e.op) && e.data && e.data.clientId) : [];
  } catch {
    queue = [];
  }
  emit('actions');
}

function save() {
  if (!userKey) return;
  try {
    localStorage.setItem(userKey, JSON.stringify(queue));
  } catch {
    /* storage full: the actions still wait in memory */
  }
}

/** The actions still waiting (oldest first). */
export const pending = () => queue.slice();

/** Whether an action on `messageId` is waiting (the message shows it as pending). */
export const waitingOn = (messageId) => queue.some((e) => e.data.messageId === messageId);

/** Keeps an action to send later; `data` already carries its client id. */
export function enqueue(op, data) {
  queue.push({ op, data, createdAt: Date.now() });
  save();
  emit('actions');
}

/** Sends the waiting actions in order; stops at the first network problem (kept for the next try). */
export async function flush() {
  if (flushing || !queue.length) return;
  flushing = true;
  try {
    while (queue.length) {
      if (state.connection.status !== 'online') return;
      const entry = queue[0];
      try {
        const answer = await hooks.call(entry.op, entry.data);
        queue.shift();
        save();
        hooks.done(entry.op, answer);
      } catch (error) {
        const code = error.code || 'unknown';
        if (RETRYABLE.has(code) || code === 'rate_limited') {
          clearTimeout(retryTimer);
          retryTimer = setTimeout(flush, code === 'rate_limited' ? (error.retryAfterSeconds || 1) * 1000 : 3000);
          return;
        }
        // Refused (the window closed meanwhile, the message is gone…): dropped and said.
        queue.shift();
        save();
        hooks.refused(entry, error);
      }
      emit('actions');
    }
  } finally {
    flushing = false;
  }
}

/** Signed out: the waiting actions (which may hold message text) are dropped. */
export function stop() {
  clearTimeout(retryTimer);
  if (userKey) localStorage.removeItem(userKey);
  queue = [];
  userKey = null;
}
