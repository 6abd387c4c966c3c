// People: whom this user has met (seed 000's strangers), friends, friend requests and blocks,
// other users' profiles and the Discover deck. Part of the signed-in session (client.js),
// which re-exports everything here for the views.
import { state, emit, rememberUser } from './store.js';
import { call, allPages, refreshConversations, scheduleConversationRefresh } from './client.js';

// ---- People met (seed 000's strangers) ----

// The contacts page lists strangers: people seen in a group, a room or on Discover who are
// not friends. The server keeps no such list, so this client remembers whom it has seen,
// newest first, per account on this device.
const MET_KEEP = 60;

function metKey() {
  return state.me ? `parley.met.${state.me.id}` : null;
}

export function loadMet() {
  state.met.clear();
  try {
    for (const [id, seen] of JSON.parse(localStorage.getItem(metKey()) || '[]')) {
      if (typeof id === 'string' && seen && typeof seen.at === 'number') state.met.set(id, seen);
    }
  } catch {
    /* a damaged list starts again */
  }
}

/** Notes people seen in `where` ('group', 'room' or 'discover'), at `at` (ms) or now. */
export function noteMet(ids, where, at = Date.now()) {
  let changed = false;
  for (const id of ids) {
    if (!id || id === state.me?.id) continue;
    const known = state.met.get(id);
    if (known && known.at >= at) continue;
    state.met.set(id, { at, where });
    changed = true;
  }
  if (!changed) return;
  if (state.met.size > MET_KEEP) {
    const newest = [...state.met].sort((a, b) => b[1].at - a[1].at).slice(0, MET_KEEP);
    state.met = new Map(newest);
  }
  try {
    localStorage.setItem(metKey(), JSON.stringify([...state.met]));
  } catch {
    /* storage full: the list still lives in memory */
  }
  emit('met');
}

/** Notes the people behind a group's or room's messages. */
export function noteMessagesMet(conversation, messages) {
  if (!conversation || (conversation.kind !== 'group' && conversation.kind !== 'room')) return;
  for (const m of messages) noteMet([m.sender || m.system?.actor], conversation.kind, m.createdAt || Date.now());
}

// ---- Friends, requests, blocks ----

export async function refreshFriends() {
  const friends = await allPages('friend.list', {}, 'friends', 'nextCursor');
  state.friends = new Map(friends.map((f) => [f.user.id, f]));
  for (const f of friends) rememberUser(f.user);
  emit('friends');
}

export async function refreshRequests() {
  const [incoming, outgoing] = await Promise.all([
    allPages('friend.requests', { direction: 'incoming' }, 'incoming', 'nextIncomingCursor'),
    allPages('friend.requests', { direction: 'outgoing' }, 'outgoing', 'nextOutgoingCursor'),
  ]);
  state.incoming = incoming;
  state.outgoing = outgoing;
  for (const r of [...incoming, ...outgoing]) {
    rememberUser(r.from);
    rememberUser(r.to);
  }
  emit('requests');
}

export async function refreshBlocked() {
  const users = await allPages('block.list', {}, 'users', 'nextCursor');
  state.blocked = new Set(users.map((u) => u.id));
  for (const u of users) rememberUser(u);
  emit('friends');
}

export function addFriend(friend) {
  state.friends.set(friend.user.id, friend);
  rememberUser(friend.user);
  state.incoming = state.incoming.filter((r) => r.from.id !== friend.user.id);
  state.outgoing = state.outgoing.filter((r) => r.to.id !== friend.user.id);
  emit('friends');
  emit('requests');
  scheduleConversationRefresh();
}

/** Asks someone to be friends; resolves {request} or {friend} (they had asked already). */
export async function requestFriend(target, greeting) {
  const data = { ...target };
  if (greeting) data.greeting = greeting;
  const result = await call('friend.request', data);
  if (result.friend) {
    addFriend(result.friend);
    await refreshConversations().catch(() => {});
  } else if (result.request) {
    rememberUser(result.request.to);
    state.outgoing = [result.request, ...state.outgoing.filter((r) => r.id !== result.request.id)];
    emit('requests');
  }
  return result;
}

export async function acceptRequest(requestId) {
  const friend = await call('friend.accept', { requestId });
  addFriend(friend);
  await refreshConversations().catch(() => {});
  return friend;
}

export async function declineRequest(requestId) {
  await call('friend.decline', { requestId });
  state.incoming = state.incoming.filter((r) => r.id !== requestId);
  emit('requests');
}

export async function removeFriend(userId) {
  await call('friend.remove', { userId });
  state.friends.delete(userId);
  emit('friends');
}

export async function block(userId) {
  await call('block.add', { userId });
  state.blocked.add(userId);
  state.friends.delete(userId);
  state.incoming = state.incoming.filter((r) => r.from.id !== userId);
  state.outgoing = state.outgoing.filter((r) => r.to.id !== userId);
  emit('friends');
  emit('requests');
}

export async function unblock(userId) {
  await call('block.remove', { userId });
  state.blocked.delete(userId);
  emit('friends');
}

// ---- Users ----

const fetching = new Set();

/** Makes sure a user's profile is known; fetches it in the background when not. */
export function ensureUser(id) {
  if (!id || state.users.has(id) || fetching.has(id)) return;
  fetching.add(id);
  call('user.get', { id })
    .then((user) => rememberUser(user))
    .catch(() => {})
    .finally(() => fetching.delete(id));
}

export async function fetchUser(id) {
  const user = await call('user.get', { id });
  rememberUser(user);
  return user;
}
// ---- Discover ----

export async function deck(cursor) {
  const page = await call('discover.deck', cursor ? { cursor, limit: 20 } : { limit: 20 });
  for (const user of page.cards) rememberUser(user);
  return page;
}
export async function pass(userId) {
  const result = await call('discover.pass', { userId });
  noteMet([userId], 'discover');
  return result;
}
export const undoSwipe = () => call('discover.undo', {});

export async function like(userId) {
  const result = await call('discover.like', { userId });
  noteMet([userId], 'discover');
  if (result.matched && result.friend) addFriend(result.friend);
  return result;
}
