// Groups and rooms: entering, leaving, their info and members, and their governance (owner,
// creator, admins, bans, invites). Part of the signed-in session (client.js), which
// re-exports everything here for the views.
import { state, emit, rememberUser, timeline, addMessages, noteMessage, minSeq } from './store.js';
import { call, allPages, refreshConversations, HISTORY_PAGE } from './client.js';
import { ensureUser, noteMet, noteMessagesMet } from './people.js';

// ---- Rooms ----

function roomsKey() {
  return state.me ? `parley.rooms.${state.me.id}` : null;
}

export function loadRooms() {
  try {
    state.roomNames = new Set(JSON.parse(localStorage.getItem(roomsKey()) || '[]'));
  } catch {
    state.roomNames = new Set();
  }
}

function saveRooms() {
  if (roomsKey()) localStorage.setItem(roomsKey(), JSON.stringify([...state.roomNames]));
}

export async function reenterRooms() {
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
export function forgetRoom(id, keepHistory = false) {
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
  return inGroup(await call('group.create', data));
}

export async function joinGroup(name) {
  return inGroup(await call('group.join', { name }));
}

/** A group the user is now in (created, joined or joined by a link): kept, and in the chats list. */
async function inGroup(info) {
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
  return inGroup(await call('group.invite.join', { token }));
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
