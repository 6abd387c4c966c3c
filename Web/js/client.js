// The signed-in session: the WebSocket, what happens after every (re)connect (sync keyed by
// each conversation's last seq, friends, rooms entered again, the outbox), live events, and
// the operations the views call (with people.js, groups.js and actions.js, re-exported here).
// Views never talk to the network directly.
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
import { loadMet, noteMessagesMet, refreshFriends, refreshRequests, refreshBlocked, addFriend, ensureUser } from './people.js';
import { loadRooms, reenterRooms, forgetRoom, groupInfo } from './groups.js';
import { mentionsMe, replaceMessage, setPins, applyUpdate, actionDone, applyHidden } from './actions.js';

// The views see the whole session through this module.
export * from './people.js';
export * from './groups.js';
export * from './actions.js';

const TOKEN_KEY = 'parley.token';
const ACCOUNT_KEY = 'parley.account';
const LAST_USERNAME_KEY = 'parley.lastUsername';
const AVATARS_KEY = 'parley.avatars';
export const HISTORY_PAGE = 50;
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
  outbox.configure({ call, upload: (file) => api.upload(file), uploadFile: (file, onProgress, resume) => uploadFile(file, currentToken(), onProgress, resume), sent: messageSent });
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
export function scheduleConversationRefresh() {
  if (refreshQueued) return;
  refreshQueued = setTimeout(() => {
    refreshQueued = null;
    refreshConversations().catch(() => {});
  }, 150);
}

// Every page of a list operation: lists are paged by count and bytes (docs/protocol.md).
export async function allPages(op, data, field, cursorField) {
  const items = [];
  let cursor;
  do {
    const page = await call(op, cursor ? { ...data, cursor } : data);
    items.push(...(page[field] || []));
    cursor = page[cursorField];
  } while (cursor);
  return items;
}

// ---- Profile ----

export async function updateProfile(changes) {
  const account = await api.updateMe(changes);
  setMe(account);
  return account;
}

export const uploadImage = (file) => api.upload(file);

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

export function onMessage(m) {
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
  // The quoted message as the sender saw it (its preview), kept with the entry so the pending
  // bubble shows the quote at once and after a reload, before the quoted message is in memory.
  if (extras.replyTo && extras.quote) entry.quote = extras.quote;
  if (extras.mentions?.length) entry.mentions = extras.mentions;
  if (extras.mentionsAll) entry.mentionsAll = true;
  return outbox.enqueue(entry);
}

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
/** A resource's name as people read it ("Chrome on Linux"), and a device's name likewise. */
export const resourceLabel = resources.resourceLabel;
export const deviceLabel = resources.deviceLabel;

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
