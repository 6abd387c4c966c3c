// Ticks, the typing line and privacy choices (docs/protocol.md, "Receipts and typing").
import { state, emit } from './store.js';

/** Who types where: conversation id → Map(user id → local expiry timer). */
const typing = new Map();
/** When this client last told the server it is typing, per conversation. */
const lastStart = new Map();
/** A typing repeat every 3 s keeps it alive within the server's 6 s timeout. */
const REFRESH_MS = 3000;
/** If the server's `typing: false` is lost (a dropped connection), the line still ends. */
const LOCAL_EXPIRY_MS = 8000;

/** A `typing` event. */
export function onTyping(data) {
  let people = typing.get(data.conversationId);
  if (!people) typing.set(data.conversationId, (people = new Map()));
  clearTimeout(people.get(data.userId));
  if (data.typing) {
    people.set(data.userId, setTimeout(() => onTyping({ ...data, typing: false }), LOCAL_EXPIRY_MS));
  } else {
    people.delete(data.userId);
  }
  emit('typing', data.conversationId);
}

/** A message from someone ends their typing. */
export function messageFrom(conversationId, userId) {
  if (typing.get(conversationId)?.has(userId)) onTyping({ conversationId, userId, typing: false });
}

/** A `conversation.receipt` event: the other person's markers move on. */
export function onReceipt(data) {
  const conversation = state.conversations.get(data.conversationId);
  if (conversation) {
    if (data.readSeq != null) conversation.peerReadSeq = Math.max(conversation.peerReadSeq || 0, data.readSeq);
    if (data.deliveredSeq != null) conversation.peerDeliveredSeq = Math.max(conversation.peerDeliveredSeq || 0, data.deliveredSeq);
  }
  emit('receipt', data.conversationId);
}

/** Markers a history page brought. */
export function adoptMarkers(conversationId, page) {
  const conversation = state.conversations.get(conversationId);
  if (!conversation || (page.peerReadSeq == null && page.peerDeliveredSeq == null)) return;
  onReceipt({ conversationId, readSeq: page.peerReadSeq, deliveredSeq: page.peerDeliveredSeq });
}

/** The users typing in a conversation, in the order they started. */
export function typingUsers(conversationId) {
  return [...(typing.get(conversationId)?.keys() || [])];
}

/** 'sent', 'delivered' or 'read' for one of the user's own 1:1 messages; null otherwise. */
export function tickState(conversation, message) {
  if (conversation?.kind !== 'user' || !message.seq || !state.me || message.sender !== state.me.id) return null;
  const read = conversation.peerReadSeq || 0;
  if (message.seq <= read) return 'read';
  return message.seq <= Math.max(conversation.peerDeliveredSeq || 0, read) ? 'delivered' : 'sent';
}

/** The draft changed: tell the server (at most every REFRESH_MS); an empty draft stops. */
export function draftChanged(call, conversationId, text) {
  const last = lastStart.get(conversationId);
  if (!text) {
    if (last == null) return;
    lastStart.delete(conversationId);
    call('typing.stop', { conversationId }).catch(() => {});
    return;
  }
  const now = Date.now();
  if (last != null && now - last < REFRESH_MS) return;
  lastStart.set(conversationId, now);
  call('typing.start', { conversationId }).catch(() => {});
}

/** Forgets everything (signed out). */
export function resetReceipts() {
  for (const people of typing.values()) for (const timer of people.values()) clearTimeout(timer);
  typing.clear();
  lastStart.clear();
}
