// The signed-in session: the WebSocket, what happens after every (re)connect (sync keyed by
// each conversation's last seq, friends, rooms entered again, the outbox), live events, and
// the operations the views call. Views never talk to the network directly.
import { api, setToken, currentToken } from './api.js';
import { uploadFile } from './files.js';
import { Connection, ConnectionError } from './connection.js';
import * as outbox from './outbox.js';
import * as receipts from './receipts.js';
import * as lastSeen from './lastseen.js';
import * as resources from './resources.js';
import * as actions from './actionqueue.js';
import {
  state, emit, reset, rememberUser, timeline, addMessages, noteMessage, maxSeq, minSeq,
} from './store.js';

const TOKEN_KEY = 'parley.token';
const ACCOUNT_KEY = 'parley.account';
const LAST_USERNAME_KEY = 'parley.lastUsername';
const AVATARS_KEY = 'parley.avatars';
const HISTORY_PAGE = 50;
// The sessions list as last seen, per account on this device, so the app opened with no
// network (the service worker serves its files) shows it, read-only, under the banner.
const LIST_CACHE_PREFIX = 'parley.sessions.';
const LIST_CACHE_KEEP = 200;

let connection = null;
let readyRun = 0;

// ---- Remembered login (the login page shows the last user's avatar) ----

function avatarBook() {
  try {
    return JSON.parse(localStorage.getItem(AVATARS_KEY) || '{}');
  } catch {
    return {};
  }
}

export function lastUsername() {
  return localStorage.getItem(LAST_USERNAME_KEY) || '';
}

/** The avatar this device last saw for a username, and the name to draw initials from. */
export function rememberedAvatar(username) {
  if (!username) return null;
  return avatarBook()[username.toLowerCase()] || null;
}

function rememberLogin(account) {
  if (!account || !account.username) return;
  localStorage.setItem(LAST_USERNAME_KEY, account.username);
  const book = avatarBook();
  book[account.username.toLowerCase()] = { avatar: account.avatar || '', name: account.nickname || account.username, id: account.id };
  localStorage.setItem(AVATARS_KEY, JSON.stringify(book));
}

// ---- Session lifecycle ----

export function savedSession() {
  const token = localStorage.getItem(TOKEN_KEY);
  if (!token) return null;
  let account = null;
  try {
    account = JSON.parse(localStorage.getItem(ACCOUNT_KEY) || 'null');
  } catch {
    account = null;
  }
  return account ? { token, account } : null;
}

export const signedIn = () => !!connection;

/** The server's limits (`GET /v1/limits`), read once a page: the voice recorder stops at its longest length. */
function loadLimits() {
  if (state.limits) return;
  api.limits().then((limits) => { state.limits = limits; }).catch(() => { /* the defaults stand in; the next sign-in asks again */ });
}

export function begin(token, account) {
  localStorage.setItem(TOKEN_KEY, token);
  setToken(token);
  reset();
  lastSeen.clear();
  resources.clear();
  setMe(account);
  loadLimits();
  loadRooms();
  loadMet();
  loadListCache();
  outbox.load(account.id);
  outbox.configure({ call, upload: (file) => api.upload(file), uploadFile: (file, onProgress) => uploadFile(file, currentToken(), onProgress), sent: messageSent });
  actions.load(account.id);
  actions.configure({ call, done: actionDone, refused: (entry, error) => emit('notice', { kind: 'action-refused', op: entry.op, error }) });
  connection = new Connection({
    token: () => token,
    onEvent,
    onReady,
    onState: (s) => {
      // Events may have been missed while away: resources are asked again.
      if (s.status !== 'online' && state.connection.status === 'online') resources.clear();
      state.connection = s;
      emit('connection', s);
      // A connection starts active: one opened while the page is hidden says otherwise.
      if (s.status === 'online' && document.visibilityState === 'hidden') reportVisibility();
    },
    onUnauthorized: () => end({ revoke: false, reason: 'session_ended' }),
  });
  connection.start();
  emit('session', { signedIn: true });
}

export async function end({ revoke = true, reason = null } = {}) {
  if (revoke) {
    try {
      await api.logout();
    } catch {
      /* the token dies with the local copy either way */
    }
  }
  connection?.stop();
  connection = null;
  outbox.stop();
  actions.stop();
  if (state.me) localStorage.removeItem(LIST_CACHE_PREFIX + state.me.id);
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(ACCOUNT_KEY);
  setToken(null);
  reset();
  lastSeen.clear();
  resources.clear();
  emit('session', { signedIn: false, reason });
}

export function retryConnection() {
  connection?.retryNow();
}

/** A request on the WebSocket; rejects with {code: 'network'} while offline. */
export function call(op, data = {}, options) {
  if (!connection) return Promise.reject(new ConnectionError('network'));
  return connection.call(op, data, options);
}

function setMe(account) {
  state.me = { ...account };
  localStorage.setItem(ACCOUNT_KEY, JSON.stringify(account));
  rememberLogin(account);
  rememberUser(publicProfile(account));
  emit('me', state.me);
}

function publicProfile(account) {
  const { phone, ...user } = account;
  return user;
}

// ---- After every (re)connect ----

async function onReady(account) {
  const run = ++readyRun;
  setMe(account);
  try {
    if (!state.synced && state.conversations.size === 0) {
      const list = await call('conversation.list');
      if (run !== readyRun) return;
      applyConversationList(list.conversations);
    }
    const since = {};
    for (const c of state.conversations.values()) {
      if (c.kind === 'room') continue;
      const tl = state.timelines.get(c.id);
      since[c.id] = tl && tl.loaded ? maxSeq(tl) : (c.lastSeq || 0);
    }
    const result = await call('sync', { since });
    if (run !== readyRun) return;
    applySync(result);
    await Promise.all([refreshFriends(), refreshRequests(), refreshBlocked(), reenterRooms()]);
    if (run !== readyRun) return;
    state.synced = true;
    emit('synced');
    // A dialogue open since before the drop: fill what it missed.
    const open = state.openConversation;
    if (open) {
      const tl = timeline(open);
      if (!tl.loaded) loadNewest(open);
    }
  } catch (error) {
    // A dropped connection retries the whole sequence on the next connect.
    if (error.code !== 'network' && error.code !== 'timeout') console.warn('sync failed', error);
  } finally {
    // Sends go out once rooms are entered again (a room refuses messages from outside).
    // Actions done offline follow, in order, once the sends are out (an action may name a
    // message that was waiting there).
    if (run === readyRun) outbox.flush().then(() => { if (run === readyRun) actions.flush(); });
  }
}

function applyConversationList(list) {
  const next = new Map();
  for (const summary of list) {
    const known = state.conversations.get(summary.id);
    next.set(summary.id, { ...known, ...summary });
    if (summary.peer) rememberUser(summary.peer);
    if (summary.kind === 'room' && summary.name) state.roomNames.add(summary.name);
  }
  // Rooms are not in sync's list; keep those we are in.
  for (const [id, c] of state.conversations) {
    if (c.kind === 'room' && !next.has(id) && state.roomNames.has(c.name)) next.set(id, c);
  }
  state.conversations = next;
  emit('conversations');
  saveListCache();
}

function loadListCache() {
  try {
    const cached = JSON.parse(localStorage.getItem(LIST_CACHE_PREFIX + state.me.id) || '[]');
    for (const summary of cached) {
      if (summary.kind === 'room') continue;
      state.conversations.set(summary.id, summary);
      if (summary.peer) rememberUser(summary.peer);
    }
  } catch {
    /* a damaged copy is only a cache: the next sync replaces it */
  }
}

function saveListCache() {
  if (!state.me) return;
  const rows = [...state.conversations.values()].filter((c) => c.kind !== 'room')
    .sort((a, b) => (b.lastActivityAt || 0) - (a.lastActivityAt || 0)).slice(0, LIST_CACHE_KEEP);
  try {
    localStorage.setItem(LIST_CACHE_PREFIX + state.me.id, JSON.stringify(rows));
  } catch {
    /* storage full: the list still works online */
  }
}

// ---- Notifications: foreground state and mutes ----

/** Tells the server whether this page is in front (push notifications go to users whose every connection is in the background). */
export function reportVisibility() {
  const active = document.visibilityState !== 'hidden';
  call('client.state', { state: active ? 'active' : 'inactive' }).catch(() => {});
}

/** Mutes or unmutes a conversation's push notifications; the sessions list shows it. */
export async function setMuted(id, muted) {
  const mute = muted ? await call('conversation.mute', { conversationId: id }) : (await call('conversation.unmute', { conversationId: id }), null);
  applyMute(id, mute);
  return mute;
}

/** A mute set here, or on another device (`conversation.muted`), shown in the sessions list. */
function applyMute(id, mute) {
  const known = state.conversations.get(id);
  if (!known) return;
  const next = { ...known };
  if (mute) next.mute = mute;
  else delete next.mute;
  state.conversations.set(id, next);
  emit('conversations');
  saveListCache();
}

function applySync(result) {
  applyConversationList(result.conversations || []);
  const truncated = new Set(result.truncated || []);
  const byConversation = new Map();
  for (const m of result.messages || []) {
    if (!byConversation.has(m.conversationId)) byConversation.set(m.conversationId, []);
    byConversation.get(m.conversationId).push(m);
    if (state.me && m.sender === state.me.id && m.clientId) outbox.acknowledge(m.clientId);
  }
  for (const [id, messages] of byConversation) {
    const tl = state.timelines.get(id);
    if (!tl || !tl.loaded) continue;
    addMessages(id, messages, { newest: truncated.has(id) });
    if (truncated.has(id)) tl.hasMore = true;
    emit('timeline', id);
  }
  for (const m of result.updated || []) replaceMessage(m);
  // A conversation the answer had no room for at all: its open timeline reloads the newest.
  for (const id of truncated) {
    const tl = state.timelines.get(id);
    if (tl && tl.loaded && !byConversation.has(id)) {
      tl.hasMore = true;
      loadNewest(id);
    }
  }
  state.incoming = result.friendRequests || [];
  // More requests than the sync answer had room for: fetch the whole list.
  if (result.friendRequestsCursor) refreshRequests().catch(() => {});
  for (const r of state.incoming) rememberUser(r.from);
  emit('requests');
  const open = state.openConversation;
  if (open && state.readingAtBottom) markRead(open);
}

export async function refreshConversations() {
  const list = await call('conversation.list');
  applyConversationList(list.conversations);
}

let refreshQueued = null;
function scheduleConversationRefresh() {
  if (refreshQueued) return;
  refreshQueued = setTimeout(() => {
    refreshQueued = null;
    refreshConversations().catch(() => {});
  }, 150);
}

// ---- People met (seed 000's strangers) ----

// The contacts page lists strangers: people seen in a group, a room or on Discover who are
// not friends. The server keeps no such list, so this client remembers whom it has seen,
// newest first, per account on this device.
const MET_KEEP = 60;

function metKey() {
  return state.me ? `parley.met.${state.me.id}` : null;
}

function loadMet() {
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
function noteMet(ids, where, at = Date.now()) {
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
function noteMessagesMet(conversation, messages) {
  if (!conversation || (conversation.kind !== 'group' && conversation.kind !== 'room')) return;
  for (const m of messages) noteMet([m.sender || m.system?.actor], conversation.kind, m.createdAt || Date.now());
}

// ---- Rooms ----

function roomsKey() {
  return state.me ? `parley.rooms.${state.me.id}` : null;
}

function loadRooms() {
  try {
    state.roomNames = new Set(JSON.parse(localStorage.getItem(roomsKey()) || '[]'));
  } catch {
    state.roomNames = new Set();
  }
}

function saveRooms() {
  if (roomsKey()) localStorage.setItem(roomsKey(), JSON.stringify([...state.roomNames]));
}

async function reenterRooms() {
  for (const name of [...state.roomNames]) {
    try {
      applyRoomEntry(await call('room.enter', { name }));
    } catch (error) {
      // Gone, or barred from it while away: it leaves the list instead of failing the sign-in.
      if (error.code === 'not_found' || error.code === 'banned') {
        state.roomNames.delete(name);
        saveRooms();
      } else {
        throw error;
      }
    }
  }
}

function applyRoomEntry({ room, messages }) {
  state.groupInfo.set(room.id, room);
  state.roomNames.add(room.name);
  saveRooms();
  const conversation = state.conversations.get(room.id) || { id: room.id, kind: 'room', lastSeq: 0, readSeq: 0, unread: 0 };
  Object.assign(conversation, { name: room.name, avatar: room.avatar, kind: 'room', unread: 0 });
  if (!conversation.lastActivityAt) conversation.lastActivityAt = Date.now();
  state.conversations.set(room.id, conversation);
  const tl = timeline(room.id);
  const wasLoaded = tl.loaded;
  addMessages(room.id, messages || [], { newest: true });
  if (!wasLoaded) tl.hasMore = (messages || []).length >= HISTORY_PAGE;
  tl.loaded = true;
  tl.error = null;
  if (minSeq(tl) <= 1) tl.hasMore = false;
  for (const m of messages || []) {
    noteMessage(conversation, m);
    if (m.sender) ensureUser(m.sender);
  }
  noteMessagesMet(conversation, messages || []);
  emit('conversations');
  emit('timeline', room.id);
  emit('group', room.id);
}

export async function createRoom(name, description) {
  const data = { name };
  if (description) data.description = description;
  const entry = await call('room.create', data);
  applyRoomEntry(entry);
  return entry.room;
}

// A room's public information by id, without entering it (a room link opened from outside).
export async function findRoom(id) {
  const info = await call('room.find', { conversationId: id });
  state.groupInfo.set(id, { ...(state.groupInfo.get(id) || {}), ...info });
  emit('group', id);
  return info;
}

export async function enterRoom(name) {
  const entry = await call('room.enter', { name });
  applyRoomEntry(entry);
  return entry.room;
}

export async function leaveRoom(id) {
  await call('room.leave', { conversationId: id });
  forgetRoom(id);
}

/** Out of a room (left, or put out): it leaves the list and is not entered again on reconnect.
 *  Its info stays, so an open dialogue says "not in this room" and can enter again; one put
 *  out keeps what it read (`keepHistory`), the notice of their removal last. */
function forgetRoom(id, keepHistory = false) {
  const conversation = state.conversations.get(id);
  const name = conversation?.name || state.groupInfo.get(id)?.name;
  if (name) state.roomNames.delete(name);
  saveRooms();
  state.conversations.delete(id);
  if (!keepHistory) state.timelines.delete(id);
  emit('conversations');
  emit('timeline', id);
}

export async function roomOccupants(id) {
  const result = { users: await allPages('room.occupants', { conversationId: id }, 'users', 'nextCursor') };
  for (const u of result.users) rememberUser(u);
  noteMet(result.users.map((u) => u.id), 'room');
  const info = state.groupInfo.get(id);
  if (info) {
    info.occupantCount = result.users.length;
    emit('group', id);
  }
  return result.users;
}

// ---- Groups ----

export async function createGroup(name, description) {
  const data = { name };
  if (description) data.description = description;
  const info = await call('group.create', data);
  state.groupInfo.set(info.id, info);
  await refreshConversations();
  return info;
}

export async function joinGroup(name) {
  const info = await call('group.join', { name });
  state.groupInfo.set(info.id, info);
  await refreshConversations();
  return info;
}

export async function groupInfo(id) {
  const info = await call('group.get', { conversationId: id });
  applyGroupInfo(info);
  return info;
}

function applyGroupInfo(info) {
  state.groupInfo.set(info.id, info);
  const conversation = state.conversations.get(info.id);
  if (conversation) {
    conversation.name = info.name;
    conversation.avatar = info.avatar;
    emit('conversations');
  }
  emit('group', info.id);
}

export async function updateGroup(id, changes) {
  const info = await call('group.update', { conversationId: id, ...changes });
  applyGroupInfo(info);
  return info;
}

export async function updateRoom(id, changes) {
  const info = await call('room.update', { conversationId: id, ...changes });
  applyGroupInfo(info);
  return info;
}

export async function groupMembers(id) {
  const members = [];
  let cursor;
  do {
    const page = await call('group.members', cursor ? { conversationId: id, cursor, limit: 200 } : { conversationId: id, limit: 200 });
    for (const m of page.members) rememberUser(m.user);
    members.push(...page.members);
    cursor = page.nextCursor;
  } while (cursor);
  noteMet(members.map((m) => m.user.id), 'group');
  return members;
}

/** The owner removes a member; everyone gets a `member_removed` notice. */
export async function removeMember(id, userId) {
  await call('group.remove', { conversationId: id, userId });
  await groupInfo(id).catch(() => {});
}

/** The owner hands the group to another member; everyone gets an `owner_changed` notice. */
export async function transferGroup(id, userId) {
  const info = await call('group.transfer', { conversationId: id, userId });
  applyGroupInfo(info);
  return info;
}

// ---- Group governance (docs/protocol.md, "Group governance") ----

/** A group's owner and admins, a room's creator and admins: the change is a notice in the
 *  conversation; the page reads its people again. A group's info (its counts) is read again too. */
export async function moderate(op, data) {
  await call(op, data);
  if (data.conversationId && op.startsWith('group.')) await groupInfo(data.conversationId).catch(() => {});
}

export const joinRequests = async (id) => (await call('group.requests', { conversationId: id })).requests;
export const groupInvites = async (id) => (await call('group.invites', { conversationId: id })).invites;
export const groupBans = async (id) => (await call('group.bans', { conversationId: id })).bans;
export const roomBans = async (id) => (await call('room.bans', { conversationId: id })).bans;
/** A room's admins (its creator, RoomInfo's `ownerId`, is not among them); anyone inside may read them. */
export const roomAdmins = async (id) => {
  const { users } = await call('room.admins', { conversationId: id });
  for (const u of users) rememberUser(u);
  return users;
};
export const createInvite = (id, options = {}) => call('group.invite.create', { conversationId: id, ...options });
export const revokeInvite = (token) => call('group.invite.revoke', { token });
export const previewInvite = (token) => call('group.invite.preview', { token });

/** Joins through a link; the group shows in the chats list. */
export async function joinByInvite(token) {
  const info = await call('group.invite.join', { token });
  state.groupInfo.set(info.id, info);
  await refreshConversations();
  return info;
}

/** The owner (or a server administrator) disbands the group; it leaves every member's list. */
export async function disbandGroup(id) {
  await call('group.disband', { conversationId: id });
  state.conversations.delete(id);
  state.timelines.delete(id);
  state.groupInfo.delete(id);
  emit('conversations');
}

export async function leaveGroup(id) {
  await call('group.leave', { conversationId: id });
  state.conversations.delete(id);
  state.timelines.delete(id);
  state.groupInfo.delete(id);
  emit('conversations');
}

// ---- Friends, requests, blocks ----

// Every page of a list operation: lists are paged by count and bytes (docs/protocol.md).
async function allPages(op, data, field, cursorField) {
  const items = [];
  let cursor;
  do {
    const page = await call(op, cursor ? { ...data, cursor } : data);
    items.push(...(page[field] || []));
    cursor = page[cursorField];
  } while (cursor);
  return items;
}

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

function addFriend(friend) {
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

// ---- Profile ----

export async function updateProfile(changes) {
  const account = await api.updateMe(changes);
  setMe(account);
  return account;
}

export const uploadImage = (file) => api.upload(file);

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

// ---- Messages ----

export async function loadNewest(id) {
  const tl = timeline(id);
  if (tl.loading) return;
  tl.loading = true;
  tl.error = null;
  emit('timeline', id);
  try {
    const page = await call('message.history', { conversationId: id, limit: HISTORY_PAGE, events: true });
    receipts.adoptMarkers(id, page);
    addMessages(id, page.messages, { newest: true });
    setPins(id, page.pinned || []);
    if (!tl.loaded) tl.hasMore = page.hasMore;
    tl.loaded = true;
    if (minSeq(tl) <= 1) tl.hasMore = false;
    for (const m of page.messages) if (m.sender) ensureUser(m.sender);
    const conversation = state.conversations.get(id);
    if (conversation) for (const m of page.messages) noteMessage(conversation, m);
    noteMessagesMet(conversation, page.messages);
  } catch (error) {
    tl.error = error.code;
  } finally {
    tl.loading = false;
    emit('timeline', id);
  }
}

export async function loadOlder(id) {
  const tl = timeline(id);
  if (tl.loading || !tl.hasMore || !tl.loaded || !tl.items.length) return;
  tl.loading = true;
  emit('timeline', id);
  try {
    const page = await call('message.history', { conversationId: id, before: minSeq(tl), limit: HISTORY_PAGE, events: true });
    addMessages(id, page.messages);
    tl.hasMore = page.hasMore && page.messages.length > 0;
    if (minSeq(tl) <= 1) tl.hasMore = false;
    for (const m of page.messages) if (m.sender) ensureUser(m.sender);
  } catch {
    /* scrolling up again retries */
  } finally {
    tl.loading = false;
    emit('timeline', id);
  }
}

async function fillGap(id, before) {
  try {
    const page = await call('message.history', { conversationId: id, before, limit: 100, events: true });
    if (addMessages(id, page.messages)) emit('timeline', id);
  } catch {
    /* the next sync fills it */
  }
}

/**
 * Whether a message counts as unread, by the server's rule: anything from others, notices
 * included, but not an action on an earlier message (edit, recall, reaction, pin, listened
 * mark: a notice with `messageId`) nor a recalled message.
 */
function countsAsUnread(m) {
  if (m.sender && m.sender === state.me?.id) return false;
  if (m.recalled) return false;
  return !(m.kind === 'system' && m.system && m.system.messageId);
}

function onMessage(m) {
  if (m.sender) ensureUser(m.sender);
  if (m.sender) receipts.messageFrom(m.conversationId, m.sender);
  if (state.me && m.sender === state.me.id && m.clientId) outbox.acknowledge(m.clientId);
  const conversation = state.conversations.get(m.conversationId);
  const tl = state.timelines.get(m.conversationId);
  if (tl && tl.loaded) {
    const top = maxSeq(tl);
    addMessages(m.conversationId, [m]);
    if (tl.items.length > 1 && m.seq > top + 1) fillGap(m.conversationId, m.seq);
    emit('timeline', m.conversationId);
  }
  if (!conversation) {
    scheduleConversationRefresh();
    return;
  }
  const isNew = m.seq > (conversation.lastSeq || 0);
  noteMessage(conversation, m);
  noteMessagesMet(conversation, [m]);
  if (isNew && countsAsUnread(m) && conversation.kind !== 'room') {
    if (isReading(m.conversationId)) markRead(m.conversationId);
    else {
      conversation.unread = (conversation.unread || 0) + 1;
      if (mentionsMe(m)) conversation.mentions = (conversation.mentions || 0) + 1;
    }
  }
  if (m.kind === 'system' && m.system) {
    const type = m.system.type;
    if (type === 'info_changed' && conversation.kind === 'room') {
      if (m.system.name) conversation.name = m.system.name;
      emit('conversations');
    } else if (type === 'info_changed' && conversation.kind === 'group') {
      if (m.system.name) conversation.name = m.system.name;
      groupInfo(m.conversationId).catch(() => {});
    } else if (conversation.kind === 'room') {
      // Who is in the room or who moderates it changed: an open details page reads it again.
      // One put out of it hears `room.kicked` next, which takes the room off the list.
      if (['room_entered', 'room_left', 'member_removed', 'member_banned', 'member_unbanned', 'admin_added', 'admin_removed'].includes(type)) {
        emit('room-occupancy', m.conversationId);
      }
    } else if (type === 'member_removed' && m.system.target === state.me?.id) {
      // Removed from the group: it leaves the list (the server stops sending its messages).
      state.conversations.delete(m.conversationId);
      state.groupInfo.delete(m.conversationId);
    } else if (['member_joined', 'member_left', 'member_removed', 'owner_changed'].includes(type)) {
      if (state.groupInfo.has(m.conversationId)) groupInfo(m.conversationId).catch(() => {});
    }
  }
  emit('conversations');
}

function messageSent(message) {
  onMessage(message);
}

function isReading(id) {
  return state.openConversation === id && state.readingAtBottom && document.visibilityState === 'visible';
}

const readTimers = new Map();

/** Marks a conversation read up to its newest message (debounced a little). */
export function markRead(id) {
  const conversation = state.conversations.get(id);
  if (!conversation || conversation.kind === 'room') return;
  const seq = conversation.lastSeq || 0;
  if (!seq || ((conversation.readSeq || 0) >= seq && !conversation.unread)) return;
  if (conversation.unread || conversation.mentions) {
    conversation.unread = 0;
    conversation.mentions = 0;
    emit('conversations');
  }
  clearTimeout(readTimers.get(id));
  readTimers.set(id, setTimeout(() => {
    readTimers.delete(id);
    call('conversation.read', { conversationId: id, seq: conversation.lastSeq })
      .then(applyRead)
      .catch(() => { /* sync sets it right after reconnecting */ });
  }, 250));
}

function applyRead(read) {
  const conversation = state.conversations.get(read.conversationId);
  if (!conversation) return;
  conversation.readSeq = Math.max(conversation.readSeq || 0, read.readSeq);
  conversation.unread = read.unread;
  if (!read.unread) conversation.mentions = 0;
  emit('conversations');
}

export function sendText(conversationId, text, extras = {}) {
  const entry = { conversationId, kind: 'text', text };
  if (extras.replyTo) entry.replyTo = extras.replyTo;
  if (extras.mentions?.length) entry.mentions = extras.mentions;
  if (extras.mentionsAll) entry.mentionsAll = true;
  return outbox.enqueue(entry);
}

// ---- Message actions (docs/protocol.md, "Message actions") ----

/** Whether a message mentions the signed-in user (by id or @all), not their own. */
export function mentionsMe(m) {
  const me = state.me?.id;
  if (!me || m.sender === me || m.recalled) return false;
  return m.mentionsAll === true || (m.mentions || []).includes(me);
}

/** A message in its new state, where the timeline and the sessions list hold it. */
function replaceMessage(m) {
  const tl = state.timelines.get(m.conversationId);
  if (tl) {
    const index = tl.items.findIndex((item) => item.seq === m.seq);
    if (index >= 0) {
      tl.items[index] = m;
      emit('timeline', m.conversationId);
    }
  }
  const conversation = state.conversations.get(m.conversationId);
  if (conversation?.lastMessage?.id === m.id) {
    conversation.lastMessage = m;
    emit('conversations');
  }
}

function setPins(id, pinned) {
  state.pins.set(id, pinned);
  emit('pins', id);
}

/** An action made here or elsewhere: the event joins the sequence, the message its state. */
function applyUpdate(update) {
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
  actions.enqueue(op, request);
  if (request.messageId) emit('timeline', request.conversationId);
  return null;
}

/** A message action's answer (now, or from the queue after a reconnect), applied. */
function actionDone(op, answer) {
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
export const actionWaiting = (messageId) => actions.waitingOn(messageId);

export const editMessage = (m, text) => act('message.edit', { conversationId: m.conversationId, messageId: m.id, text });
export const recallMessage = (m) => act('message.recall', { conversationId: m.conversationId, messageId: m.id });
export const react = (m, emoji) => act('message.react', { conversationId: m.conversationId, messageId: m.id, emoji });
export const unreact = (m, emoji) => act('message.unreact', { conversationId: m.conversationId, messageId: m.id, emoji });

export async function hideMessage(m) {
  await call('message.hide', { conversationId: m.conversationId, messageId: m.id });
  applyHidden(m.conversationId, m.id);
}

function applyHidden(conversationId, messageId) {
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

export async function sendImage(conversationId, file) {
  const preview = URL.createObjectURL(file);
  let width = 0;
  let height = 0;
  try {
    const bitmap = await createImageBitmap(file);
    width = bitmap.width;
    height = bitmap.height;
    bitmap.close();
  } catch {
    /* not decodable here; the server decides */
  }
  return outbox.enqueue({ conversationId, kind: 'image', file, preview, image: { width, height } });
}

/** Sends a file of any type: uploaded with progress (the tile shows it), then a `file` message. */
export function sendFile(conversationId, file) {
  return outbox.enqueue({ conversationId, kind: 'file', file, fileInfo: { name: file.name, size: file.size, type: file.type } });
}

/** Sends a recorded voice note (`voice.js` measured its length and waveform). */
export function sendVoice(conversationId, blob, durationMs, waveform) {
  const preview = URL.createObjectURL(blob);
  return outbox.enqueue({ conversationId, kind: 'voice', file: blob, preview, voice: { durationMs, waveform } });
}

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

export const retrySend = (clientId) => outbox.retry(clientId);
export const discardSend = (clientId) => outbox.discard(clientId);

// ---- Events ----

function onEvent(name, data) {
  switch (name) {
    case 'message.new':
      onMessage(data);
      break;
    case 'conversation.read':
      applyRead(data);
      break;
    case 'friend.request':
      rememberUser(data.from);
      state.incoming = [data, ...state.incoming.filter((r) => r.id !== data.id)];
      emit('requests');
      emit('notice', { kind: 'friend-request', request: data });
      break;
    case 'friend.added':
      addFriend(data);
      break;
    case 'friend.removed':
      state.friends.delete(data.userId);
      resources.forget(data.userId);
      emit('friends');
      break;
    case 'presence': {
      lastSeen.forget(data.userId);
      resources.forget(data.userId);
      const friend = state.friends.get(data.userId);
      if (friend) {
        friend.online = data.online;
        emit('friends');
      }
      break;
    }
    case 'me.updated':
      setMe(data);
      break;
    case 'message.updated':
      applyUpdate(data);
      break;
    case 'message.hidden':
      applyHidden(data.conversationId, data.messageId);
      break;
    case 'group.disbanded':
      // Disbanded by its owner or an administrator: gone from every list, its history too.
      state.conversations.delete(data.conversationId);
      state.timelines.delete(data.conversationId);
      state.groupInfo.delete(data.conversationId);
      emit('conversations');
      break;
    case 'room.kicked':
      forgetRoom(data.conversationId, true);
      emit('notice', { kind: 'room-kicked', kick: data, name: state.groupInfo.get(data.conversationId)?.name || '' });
      break;
    case 'typing':
      receipts.onTyping(data);
      break;
    case 'conversation.receipt':
      receipts.onReceipt(data);
      break;
    case 'conversation.muted':
      applyMute(data.conversationId, data.mute || null);
      break;
    case 'presence.resource':
      resources.apply(data, state.me?.id);
      break;
    default:
      break; // events this client does not know are ignored
  }
}

/** The draft of a conversation changed: the others see the user typing. */
export function draftChanged(conversationId, text) {
  receipts.draftChanged(call, conversationId, text);
}

/** The "last seen …" line of an offline user, or '' (see lastseen.js); asked while connected. */
export function lastSeenLabel(userId) {
  if (state.connection.status !== 'online') return '';
  return lastSeen.label(call, userId);
}

/** The devices and Jabber clients a friend (or the user) is online on, while connected (see resources.js). */
export function resourcesOf(userId) {
  if (state.connection.status !== 'online') return [];
  return resources.list(call, userId);
}

/** One resource as text: its name, kind, show and status. */
export const describeResource = resources.describe;

/** The user's privacy choices (`privacy.get`). */
export function privacy() {
  return call('privacy.get', {});
}

/** Replaces the user's privacy choices (`privacy.set`). */
export function setPrivacy(settings) {
  // Whose last seen this user may see can change with it (hiding one's own hides others').
  return call('privacy.set', settings).then((saved) => { lastSeen.clear(); emit('lastseen', null); return saved; });
}

/** Who of a group has read a message (`message.readers`). */
export function readers(conversationId, seq, cursor) {
  return call('message.readers', cursor ? { conversationId, seq, cursor } : { conversationId, seq });
}
