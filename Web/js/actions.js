// Message actions (edit, recall, react, pin, hide, forward, listened): sent at once when
// online, else held in the action queue (actionqueue.js) with their client ids until the
// connection is back. Part of the signed-in session (client.js), which re-exports everything
// here for the views.
import { state, emit } from './store.js';
import * as queue from './actionqueue.js';
import { call, onMessage } from './client.js';
import { replyPreviewOf } from './format.js';

// ---- Message actions (docs/protocol.md, "Message actions") ----

/** Whether a message mentions the signed-in user (by id or @all), not their own. */
export function mentionsMe(m) {
  const me = state.me?.id;
  if (!me || m.sender === me || m.recalled) return false;
  return m.mentionsAll === true || (m.mentions || []).includes(me);
}

/** A message in its new state, where the timeline and the sessions list hold it. */
export function replaceMessage(m) {
  const tl = state.timelines.get(m.conversationId);
  if (tl) {
    const index = tl.items.findIndex((item) => item.seq === m.seq);
    if (index >= 0) tl.items[index] = m;
    // The replies quoting it show it as it is now: an edit's text, a recall's placeholder
    // (never the recalled words).
    let quoted = false;
    tl.items.forEach((item, at) => {
      if (item.replyTo?.messageId !== m.id || !m.id) return;
      tl.items[at] = { ...item, replyTo: replyPreviewOf(m) };
      quoted = true;
    });
    if (index >= 0 || quoted) emit('timeline', m.conversationId);
  }
  const conversation = state.conversations.get(m.conversationId);
  if (conversation?.lastMessage?.id === m.id) {
    conversation.lastMessage = m;
    emit('conversations');
  }
}

export function setPins(id, pinned) {
  state.pins.set(id, pinned);
  emit('pins', id);
}

/** An action made here or elsewhere: the event joins the sequence, the message its state. */
export function applyUpdate(update) {
  const conversation = state.conversations.get(update.event.conversationId);
  const isNew = conversation && update.event.seq > (conversation.lastSeq || 0);
  onMessage(update.event);
  // A recalled message that was still unread stops counting, as on the server.
  const target = update.message;
  if (isNew && update.event.system?.type === 'message_recalled' && conversation.kind !== 'room'
      && target.sender !== state.me?.id && target.seq > (conversation.readSeq || 0) && conversation.unread > 0) {
    conversation.unread -= 1;
    emit('conversations');
  }
  replaceMessage(update.message);
  const type = update.event.system?.type;
  if (type === 'message_pinned' || type === 'message_unpinned') refreshPins(update.event.conversationId);
}

async function refreshPins(id) {
  try {
    const page = await call('message.history', { conversationId: id, limit: 1 });
    setPins(id, page.pinned || []);
  } catch {
    /* the next open of the conversation shows them */
  }
}

const actionId = () => (crypto.randomUUID ? crypto.randomUUID() : `a-${Date.now()}-${Math.random().toString(36).slice(2)}`);

/**
 * Sends a message action; while disconnected (or when the connection drops on the way) it
 * waits in the action queue with its client id and goes out on reconnect: then this returns
 * null and the message shows the action as waiting.
 */
async function act(op, data) {
  const request = { ...data, clientId: actionId() };
  if (state.connection.status !== 'online') return queueAction(op, request);
  try {
    const answer = await call(op, request);
    return actionDone(op, answer);
  } catch (error) {
    if (error.code === 'network' || error.code === 'timeout') return queueAction(op, request);
    throw error;
  }
}

function queueAction(op, request) {
  queue.enqueue(op, request);
  if (request.messageId) emit('timeline', request.conversationId);
  return null;
}

/** A message action's answer (now, or from the queue after a reconnect), applied. */
export function actionDone(op, answer) {
  if (op === 'conversation.pin' || op === 'conversation.unpin') {
    onMessage(answer.update.event);
    replaceMessage(answer.update.message);
    setPins(answer.update.event.conversationId, answer.pinned);
    return answer.pinned;
  }
  applyUpdate(answer);
  emit('timeline', answer.message.conversationId);
  return answer.message;
}

/** Whether an action on the message waits for the connection (shown on the bubble). */
export const actionWaiting = (messageId) => queue.waitingOn(messageId);

export const editMessage = (m, text) => act('message.edit', { conversationId: m.conversationId, messageId: m.id, text });
export const recallMessage = (m) => act('message.recall', { conversationId: m.conversationId, messageId: m.id });
export const react = (m, emoji) => act('message.react', { conversationId: m.conversationId, messageId: m.id, emoji });
export const unreact = (m, emoji) => act('message.unreact', { conversationId: m.conversationId, messageId: m.id, emoji });

export async function hideMessage(m) {
  await call('message.hide', { conversationId: m.conversationId, messageId: m.id });
  applyHidden(m.conversationId, m.id);
}

export function applyHidden(conversationId, messageId) {
  const tl = state.timelines.get(conversationId);
  const index = tl ? tl.items.findIndex((item) => item.id === messageId) : -1;
  if (index < 0) return;
  const m = tl.items[index];
  tl.items[index] = { id: m.id, conversationId: m.conversationId, seq: m.seq, sender: m.sender, kind: m.kind, createdAt: m.createdAt, hidden: true };
  emit('timeline', conversationId);
}

export async function forwardMessage(m, to) {
  const copy = await call('message.forward', { conversationId: m.conversationId, messageId: m.id, to, clientId: actionId() });
  onMessage(copy);
  return copy;
}

export const pinMessage = (m, unpin = false) => act(unpin ? 'conversation.unpin' : 'conversation.pin',
  { conversationId: m.conversationId, messageId: m.id });

// Voice notes played here whose play the server did not keep (read receipts off on either
// side): remembered on this device, so the unplayed dot stays away.
const HEARD_KEY = 'parley.voice.heard';
const HEARD_LIMIT = 500;

function heardHere() {
  try {
    return JSON.parse(localStorage.getItem(HEARD_KEY) || '[]');
  } catch {
    return [];
  }
}

/** Whether this device played the voice note `m` (or the server says the user did). */
export function listenedByMe(m) {
  const me = state.me?.id;
  return Boolean(me && (m.listenedBy || []).includes(me)) || heardHere().includes(m.id);
}

/** The user played someone's voice note for the first time: the server marks it listened. */
export async function markListened(m) {
  try {
    localStorage.setItem(HEARD_KEY, JSON.stringify([...heardHere().filter((id) => id !== m.id), m.id].slice(-HEARD_LIMIT)));
  } catch {
    /* storage full: the server's mark is enough */
  }
  try {
    const result = await call('message.listened', { conversationId: m.conversationId, messageId: m.id, clientId: actionId() });
    if (result.event) onMessage(result.event);
    replaceMessage(result.message);
  } catch {
    /* not marked: the dot comes back on another device, nothing else is lost */
  }
}
