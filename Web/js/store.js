// The client's state: who is signed in, conversations and their messages, friends,
// requests, known users, the connection's status. Views subscribe to topics and re-render;
// only client.js and outbox.js change the state.
import { t } from './i18n.js';

const listeners = new Map();

/** Subscribes to a topic; returns the unsubscribe function. */
export function on(topic, fn) {
  if (!listeners.has(topic)) listeners.set(topic, new Set());
  listeners.get(topic).add(fn);
  return () => listeners.get(topic)?.delete(fn);
}

export function emit(topic, payload) {
  for (const fn of [...(listeners.get(topic) || [])]) {
    try {
      fn(payload);
    } catch (error) {
      console.error(`listener of ${topic} failed`, error);
    }
  }
}

export const state = {
  me: null,
  users: new Map(),          // id → User (public profiles we have seen)
  conversations: new Map(),  // id → summary {id, kind, peer?, name?, avatar?, lastMessage?, lastSeq, readSeq, unread, lastActivityAt}
  timelines: new Map(),      // conversation id → {items: [Message] by seq, loaded, hasMore, loading}
  groupInfo: new Map(),      // conversation id → GroupInfo or RoomInfo
  friends: new Map(),        // user id → Friend {user, conversationId, since, online}
  incoming: [],              // FriendRequest[]
  outgoing: [],
  blocked: new Set(),        // user ids
  roomNames: new Set(),      // names of rooms the user is in (entered again after reconnecting)
  met: new Map(),            // user id → {at, where}: people seen in groups, rooms and Discover (strangers unless friends)
  outbox: [],                // pending sends, see outbox.js
  connection: { status: 'stopped' },
  synced: false,             // the first sync of this page finished
  openConversation: null,    // the dialogue on screen
  pins: new Map(),           // conversation id → [PinnedMessage], newest pin first
  limits: null,              // the server's limits (GET /v1/limits) once read; kept across sign-ins
};

/** The server's defaults, used only until `GET /v1/limits` has answered. */
const DEFAULT_LIMITS = Object.freeze({
  maxVoiceSeconds: 120, maxVoiceBytes: 2 * 1024 * 1024, maxFileBytes: 100 * 1024 * 1024, maxImageBytes: 5 * 1024 * 1024,
  maxTextCharacters: 4000, maxTextBytes: 16000, editWindowSeconds: 48 * 3600, recallWindowSeconds: 120,
});

/** What the server allows (docs/protocol.md, "Limits"). */
export function serverLimits() {
  return state.limits || DEFAULT_LIMITS;
}

export function reset() {
  state.me = null;
  state.users.clear();
  state.conversations.clear();
  state.timelines.clear();
  state.groupInfo.clear();
  state.friends.clear();
  state.incoming = [];
  state.outgoing = [];
  state.blocked.clear();
  state.roomNames.clear();
  state.met.clear();
  state.outbox = [];
  state.connection = { status: 'stopped' };
  state.synced = false;
  state.openConversation = null;
  state.pins.clear();
}

// ---- Users and names ----

/** The display rule shared by every Parley client: nickname, else username, else "ID: <id>". */
export function displayName(user, id) {
  if (user) {
    if (user.deleted) return t('deleted_user');
    if (user.nickname && user.nickname.trim()) return user.nickname;
    if (user.username) return user.username;
    return `ID: ${user.id}`;
  }
  return `ID: ${id}`;
}

export function rememberUser(user) {
  if (!user || !user.id) return;
  const known = state.users.get(user.id);
  if (known && JSON.stringify(known) === JSON.stringify(user)) return;
  state.users.set(user.id, user);
  if (state.me && user.id === state.me.id) state.me = { ...state.me, ...user };
  usersChanged();
}

let usersQueued = false;
function usersChanged() {
  if (usersQueued) return;
  usersQueued = true;
  queueMicrotask(() => { usersQueued = false; emit('users'); });
}

// ---- Conversations ----

export function conversationTitle(conversation) {
  if (!conversation) return '';
  if (conversation.kind === 'user') {
    const peer = conversation.peer && state.users.get(conversation.peer.id) || conversation.peer;
    return displayName(peer, conversation.peer?.id);
  }
  return conversation.name || `ID: ${conversation.id}`;
}

export function totalUnread() {
  let total = 0;
  for (const c of state.conversations.values()) if (c.kind !== 'room') total += c.unread || 0;
  return total;
}

export function sortedConversations() {
  return [...state.conversations.values()].sort((a, b) => (b.lastActivityAt || 0) - (a.lastActivityAt || 0));
}

export function timeline(id) {
  let tl = state.timelines.get(id);
  if (!tl) {
    tl = { items: [], loaded: false, hasMore: true, loading: false };
    state.timelines.set(id, tl);
  }
  return tl;
}

export const maxSeq = (tl) => (tl.items.length ? tl.items[tl.items.length - 1].seq : 0);
export const minSeq = (tl) => (tl.items.length ? tl.items[0].seq : 0);

/**
 * Adds messages to a conversation's timeline, keyed by seq (nothing is ever doubled).
 * `newest`: the batch is the newest page; if it does not join what we hold (a gap), the
 * older part is dropped so the timeline stays contiguous, and it has more above.
 */
export function addMessages(id, messages, { newest = false } = {}) {
  if (!messages.length) return false;
  const tl = timeline(id);
  const sorted = [...messages].sort((a, b) => a.seq - b.seq);
  if (newest && tl.items.length && sorted[0].seq > maxSeq(tl) + 1) {
    tl.items = [];
    tl.hasMore = true;
  }
  const seen = new Set(tl.items.map((m) => m.seq));
  let added = false;
  for (const m of sorted) {
    if (seen.has(m.seq)) continue;
    seen.add(m.seq);
    tl.items.push(m);
    added = true;
  }
  if (added) tl.items.sort((a, b) => a.seq - b.seq);
  return added;
}

/** Updates a summary after a message arrived. */
export function noteMessage(conversation, message) {
  if (message.seq >= (conversation.lastSeq || 0)) {
    conversation.lastSeq = message.seq;
    conversation.lastMessage = message;
  }
  conversation.lastActivityAt = Math.max(conversation.lastActivityAt || 0, message.createdAt || 0);
}
