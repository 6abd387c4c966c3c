// Contact info: a user's profile (read-only, with add / remove friend and block), or a
// group's or room's details. Any member may edit a group (anyone inside, a room); everyone in it then sees a
// system notice. Members (groups) and occupants (rooms) are listed, with their roles; those who
// moderate (a group's owner and admins, a room's creator and admins) get a menu per person and
// a card of rules and lists (views/governance.js).
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { state, on, displayName } from '../store.js';
import { avatar, field, setBusy, connectionBanner, iconButton, toast, confirmDialog, spinner, emojiText } from '../ui.js';
import { ymd } from '../time.js';
import * as client from '../client.js';
import { go } from '../router.js';
import { openActionForm } from './menu.js';
import { hobbyChips, kvRow } from './profile.js';
import { reportDialog } from './report.js';
import { loadPeople, loadModeration, memberMenu, governanceCard, rank, roleTag } from './governance.js';

export function infoView({ tab, detail }) {
  const conversationId = detail.type === 'info' ? detail.id : null;
  let userId = detail.type === 'user' ? detail.id : null;
  let editing = false;
  let members = null;
  let loadError = null;
  // For those who moderate: a group's join requests, invite links and bans; a room's admins and bans.
  let moderation = null;
  const offs = [];

  const backTarget = () => (conversationId ? `#/${tab}/c/${encodeURIComponent(conversationId)}` : `#/${tab}`);
  const back = iconButton('back', t('back'), () => {
    if (!conversationId && tab === 'chats' && history.length > 1) history.back();
    else go(backTarget());
  }, 'topbar-back');
  const title = h('h1', { class: 'topbar-title', text: t('details') });
  const editButton = h('button', { type: 'button', class: 'btn btn-ghost topbar-text-btn', hidden: true }, icon('edit', { size: 18 }), h('span', { text: t('edit') }));
  const content = h('div', { class: 'profile-page' }, h('div', { class: 'loading-block' }, spinner()));
  const el = h('section', { class: 'view view--info', 'aria-labelledby': 'info-title' },
    h('header', { class: 'topbar topbar--dialogue' }, back, h('div', { class: 'topbar-heading' }, title), editButton),
    connectionBanner(),
    h('div', { class: 'scroll' }, content));
  title.id = 'info-title';
  let currentForm = null;
  editButton.addEventListener('click', () => {
    if (editing && currentForm) currentForm.requestSubmit();
    else {
      editing = true;
      render();
    }
  });

  const conversation = () => (conversationId ? state.conversations.get(conversationId) : null);
  const kind = () => {
    const c = conversation();
    if (userId) return 'user';
    if (c) return c.kind;
    const info = state.groupInfo.get(conversationId);
    return info && 'occupantCount' in info ? 'room' : 'group';
  };

  // ---- A user ----

  /** "Last seen …" of someone offline, when the server tells it (their privacy choice). */
  function lastSeenRow(id, friend) {
    if (id === state.me?.id || friend?.online) return null;
    const seen = client.lastSeenLabel(id);
    return seen ? kvRow(t('last_seen'), seen) : null;
  }

  /** The devices and Jabber clients a friend is online on, each with its show and status. */
  function resourcesRow(id, friend) {
    if (!friend?.online) return null;
    const devices = client.resourcesOf(id);
    if (!devices.length) return null;
    return kvRow(t('online_on'), h('ul', { class: 'resource-list' },
      ...devices.map((r) => h('li', { class: 'resource-item', text: client.describeResource(r) }))));
  }

  function userPage() {
    const user = state.users.get(userId);
    if (!user) {
      content.replaceChildren(loadError ? h('p', { class: 'empty-text', text: errorText({ code: loadError }) }) : h('div', { class: 'loading-block' }, spinner()));
      return;
    }
    const name = displayName(user, user.id);
    title.textContent = t('profile_of');
    const friend = state.friends.get(user.id);
    const isBlocked = state.blocked.has(user.id);
    const outgoing = state.outgoing.find((r) => r.to.id === user.id);
    const incoming = state.incoming.find((r) => r.from.id === user.id);
    const heroCard = h('div', { class: 'hero card' },
      avatar({ src: user.avatar, name, seed: user.id, size: 'xl' }),
      h('div', { class: 'hero-text' },
        emojiText(name, 'hero-name', 'h2'),
        user.username ? h('p', { class: 'hero-handle', text: `@${user.username}` }) : null,
        h('p', { class: 'hero-id' }, h('span', { class: 'id-chip', text: `ID ${user.id}` }),
          friend ? h('span', { class: `presence-label${friend.online ? ' is-online' : ''}`, text: friend.online ? t('online') : t('offline') }) : null)));
    const rows = h('div', { class: 'card kv-list' },
      kvRow(t('signature'), user.signature),
      kvRow(t('age'), user.age ? String(user.age) : ''),
      kvRow(t('hobbies'), user.hobbies && user.hobbies.length ? hobbyChips(user.hobbies) : ''),
      friend ? kvRow(t('friends'), t('friend_since', { date: ymd(new Date(friend.since)) })) : null,
      lastSeenRow(user.id, friend),
      resourcesRow(user.id, friend));
    const actions = h('div', { class: 'action-stack' });
    const action = (label, iconName, cls, handler) => {
      const button = h('button', { type: 'button', class: `btn ${cls} btn-block` }, icon(iconName, { size: 18 }), h('span', { text: label }));
      button.addEventListener('click', async () => {
        setBusy(button, true);
        try {
          await handler();
        } catch (error) {
          toast(errorText(error), 'error');
        } finally {
          if (button.isConnected) setBusy(button, false);
        }
      });
      actions.appendChild(button);
      return button;
    };
    if (isBlocked) {
      actions.appendChild(h('p', { class: 'note', text: t('blocked_note') }));
      action(t('unblock'), 'block', 'btn-secondary', () => client.unblock(user.id));
    } else {
      if (friend) {
        action(t('send_message'), 'chats', 'btn-primary', async () => go(`#/chats/c/${encodeURIComponent(friend.conversationId)}`));
      } else if (incoming) {
        action(t('accept'), 'check', 'btn-primary', () => client.acceptRequest(incoming.id));
      } else if (outgoing) {
        const waiting = h('button', { type: 'button', class: 'btn btn-secondary btn-block', disabled: true }, icon('clock', { size: 18 }), h('span', { text: t('waiting') }));
        actions.appendChild(waiting);
      } else {
        action(t('add_friend'), 'userPlus', 'btn-primary', async () => {
          const result = await client.requestFriend({ userId: user.id });
          toast(result.friend ? t('now_friends', { name }) : t('request_sent', { name }));
        });
      }
      if (friend) actions.appendChild(muteButton(friend.conversationId));
      if (friend) {
        action(t('remove_friend'), 'trash', 'btn-secondary', async () => {
          if (await confirmDialog(t('confirm_remove_title'), t('confirm_remove', { name }), { danger: true, confirmText: t('remove_friend') })) await client.removeFriend(user.id);
        });
      }
      action(t('block'), 'block', 'btn-danger-outline', async () => {
        if (await confirmDialog(t('confirm_block_title'), t('confirm_block', { name }), { danger: true, confirmText: t('block') })) await client.block(user.id);
      });
    }
    if (user.id !== state.me?.id) action(t('report_user'), 'info', 'btn-secondary', async () => reportDialog({ userId: user.id }));
    content.replaceChildren(heroCard, rows, actions);
  }

  // ---- A group or a room ----

  function conversationPage() {
    const k = kind();
    const c = conversation();
    const info = state.groupInfo.get(conversationId) || {};
    if (k === 'user' && c?.peer) {
      // Its profile is fetched once, by `load`: fetching on every render made each answer a
      // render and each render a request.
      userId = c.peer.id;
      userPage();
      return;
    }
    const name = info.name || c?.name || '';
    title.textContent = t('details');
    editButton.hidden = !((k === 'group' || k === 'room') && c);
    editButton.replaceChildren(icon(editing ? 'check' : 'edit', { size: 18 }), h('span', { text: t(editing ? 'save' : 'edit') }));
    if (!editing) currentForm = null;
    if (!name && !c && (loadError === 'not_found' || loadError === 'not_member')) {
      // Opened from a link to a room or group one is not in: no name was typed, so "check
      // the name" would mislead; a room is entered by its name.
      const enter = h('button', { type: 'button', class: 'btn btn-primary', text: t('enter_by_name'), onclick: () => openActionForm('enter_room') });
      content.replaceChildren(h('div', { class: 'not-in-block' }, h('p', { class: 'empty-text', text: t('not_in_unknown') }), enter));
      return;
    }
    if (!name) {
      content.replaceChildren(loadError ? h('p', { class: 'empty-text', text: errorText({ code: loadError }) }) : h('div', { class: 'loading-block' }, spinner()));
      return;
    }
    const countText = k === 'group'
      ? (info.memberCount != null ? t('members_n', { n: info.memberCount }) : '')
      : (info.occupantCount != null ? t('occupants_n', { n: info.occupantCount }) : '');
    const heroCard = h('div', { class: 'hero card' },
      avatar({ src: info.avatar || c?.avatar, name, seed: conversationId, kind: k, size: 'xl' }),
      h('div', { class: 'hero-text' },
        emojiText(name, 'hero-name', 'h2'),
        h('p', { class: 'hero-handle' }, icon(k === 'group' ? 'group' : 'room', { size: 16 }), h('span', { text: `${t(k === 'group' ? 'kind_group' : 'kind_room')}${countText ? ` · ${countText}` : ''}` })),
        h('p', { class: 'hero-id' }, h('span', { class: 'id-chip', text: `ID ${conversationId}` }))));

    const parts = [heroCard];
    if (editing && (k === 'group' || k === 'room')) {
      parts.push(groupEditor(info, k));
    } else {
      parts.push(h('div', { class: 'card kv-list' },
        kvRow(t('description'), info.description),
        info.createdAt ? kvRow(t('created_at'), ymd(new Date(info.createdAt))) : null));
    }
    parts.push(peopleCard(k, info));
    if ((k === 'group' || k === 'room') && moderation) parts.push(governanceCard({ kind: k, conversationId, info, moderation, reload }));
    // Rooms notify nobody (only those inside hear them), so only groups can be muted.
    if (k === 'group' && c) parts.push(muteButton(conversationId));
    const leave = h('button', { type: 'button', class: 'btn btn-danger-outline btn-block' }, icon('logout', { size: 18 }), h('span', { text: t(k === 'group' ? 'leave_group' : 'leave_room') }));
    leave.hidden = !c;
    leave.addEventListener('click', async () => {
      if (k === 'group' && !(await confirmDialog(t('confirm_leave_group_title'), t('confirm_leave_group', { name }), { danger: true, confirmText: t('leave_group') }))) return;
      setBusy(leave, true);
      try {
        if (k === 'group') await client.leaveGroup(conversationId);
        else await client.leaveRoom(conversationId);
        go(`#/${tab}`);
      } catch (error) {
        setBusy(leave, false);
        toast(errorText(error), 'error');
      }
    });
    parts.push(leave);
    if (k === 'group' && c && state.me && info.ownerId === state.me.id) {
      // Only the owner ends the group, for everyone.
      const disband = h('button', { type: 'button', class: 'btn btn-danger-outline btn-block', dataset: { action: 'disband' } },
        icon('trash', { size: 18 }), h('span', { text: t('disband_group') }));
      disband.addEventListener('click', async () => {
        if (!(await confirmDialog(t('confirm_disband_group_title'), t('confirm_disband_group', { name }), { danger: true, confirmText: t('disband_group') }))) return;
        setBusy(disband, true);
        try {
          await client.disbandGroup(conversationId);
          go(`#/${tab}`);
        } catch (error) {
          setBusy(disband, false);
          toast(errorText(error), 'error');
        }
      });
      parts.push(disband);
    }
    content.replaceChildren(...parts);
  }

  function muteButton(id) {
    const muted = () => !!state.conversations.get(id)?.mute;
    const button = h('button', { type: 'button', class: 'btn btn-secondary btn-block', dataset: { action: 'mute' }, 'aria-pressed': String(muted()) },
      icon(muted() ? 'bell' : 'bellOff', { size: 18 }), h('span', { text: t(muted() ? 'unmute' : 'mute') }));
    button.addEventListener('click', async () => {
      setBusy(button, true);
      try {
        const now = await client.setMuted(id, !muted());
        toast(t(now ? 'muted_toast' : 'unmuted_toast'));
        render();
      } catch (error) {
        setBusy(button, false);
        toast(errorText(error), 'error');
      }
    });
    return button;
  }

  function peopleCard(k, info) {
    const heading = h('h3', { class: 'card-title', text: k === 'group' ? t('members') : t('occupants') });
    if (!members) return h('section', { class: 'card people' }, heading, h('div', { class: 'loading-block' }, spinner()));
    // Those who moderate manage those below them (an admin the others, the owner or creator everyone).
    const mine = state.me && members.find((m) => m.user.id === state.me.id);
    const myRank = moderation ? rank(mine) : 0;
    const grid = h('ul', { class: 'people-grid', role: 'list' }, members.map((m) => {
      const user = state.users.get(m.user.id) || m.user;
      const name = displayName(user, user.id);
      const manage = myRank > 0 && user.id !== state.me.id && myRank > rank(m)
        ? iconButton('more', t('manage_member', { name }), () => memberMenu({ kind: k, conversationId, member: m, name, owner: myRank === 2, reload }), 'person-manage')
        : null;
      const tag = roleTag(k, m);
      return h('li', { class: 'person-cell', dataset: { role: m.role || 'member' } },
        h('a', { class: 'person', href: `#/${tab}/u/${encodeURIComponent(user.id)}`, title: name },
          avatar({ src: user.avatar, name, seed: user.id, size: 'lg' }),
          h('span', { class: 'person-name', text: name }),
          tag ? h('span', { class: 'person-tag', text: tag }) : null,
          m.mutedUntil ? h('span', { class: 'person-tag person-tag--muted', text: t('muted_tag') }) : null),
        manage);
    }));
    return h('section', { class: 'card people' }, heading, grid);
  }

  function groupEditor(info, k) {
    const name = field({ label: t(k === 'room' ? 'room_name' : 'group_name'), value: info.name || '', maxlength: 32, hint: t('hint_name_rule') });
    const description = field({ label: t('description'), value: info.description || '', maxlength: 200, multiline: true, rows: 3 });
    const avatarUrl = field({ label: t('avatar_url'), value: info.avatar || '', maxlength: 512, type: 'url', placeholder: 'https://', hint: t('hint_avatar_url') });
    const fileInput = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/gif,image/webp', class: 'visually-hidden', tabindex: '-1', 'aria-hidden': 'true' });
    const upload = h('button', { type: 'button', class: 'btn btn-secondary upload-btn' }, icon('camera', { size: 18 }), h('span', { text: t('upload_avatar') }));
    upload.addEventListener('click', () => fileInput.click());
    fileInput.addEventListener('change', async () => {
      const file = fileInput.files[0];
      fileInput.value = '';
      if (!file) return;
      setBusy(upload, true, t('uploading'));
      try {
        avatarUrl.input.value = (await client.uploadImage(file)).url;
      } catch (error) {
        avatarUrl.setError(errorText(error));
      } finally {
        setBusy(upload, false);
      }
    });
    avatarUrl.el.appendChild(h('div', { class: 'field-extra' }, upload, fileInput));
    const save = h('button', { type: 'submit', class: 'btn btn-primary', text: t('save') });
    const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel'), onclick: () => { editing = false; render(); } });
    const form = h('form', { class: 'card edit-form', novalidate: true, 'aria-label': t('edit') },
      h('p', { class: 'note', text: t(k === 'room' ? 'room_edit_note' : 'group_edit_note') }), name.el, description.el, avatarUrl.el, h('div', { class: 'form-actions' }, cancel, save));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const changes = {};
      const newName = name.input.value.trim();
      if (Array.from(newName).length < 2 || Array.from(newName).length > 32) {
        name.setError(t('hint_name_rule'));
        name.input.focus();
        return;
      }
      if (newName !== info.name) changes.name = newName;
      const newDescription = description.input.value.trim();
      if (newDescription !== (info.description || '')) changes.description = newDescription || null;
      const newAvatar = avatarUrl.input.value.trim();
      if (newAvatar !== (info.avatar || '')) changes.avatar = newAvatar || null;
      if (!Object.keys(changes).length) {
        editing = false;
        render();
        return;
      }
      setBusy(save, true, t('saving'));
      cancel.disabled = true;
      try {
        if (k === 'room') await client.updateRoom(conversationId, changes);
        else await client.updateGroup(conversationId, changes);
        editing = false;
        toast(t('saved'));
        render();
      } catch (error) {
        setBusy(save, false);
        cancel.disabled = false;
        const target = error.field === 'description' ? description : error.field === 'avatar' ? avatarUrl : name;
        target.setError(errorText(error));
        target.input.focus();
      }
    });
    requestAnimationFrame(() => name.input.focus());
    currentForm = form;
    return form;
  }

  /** Reads the people and what the viewer moderates again, then shows the page (and `done`). */
  async function reload(done) {
    const k = kind();
    members = await loadPeople(k, conversationId);
    moderation = await loadModeration(k, conversationId, members).catch(() => null);
    if (done) toast(done);
    if (!editing) render();
  }

  function render() {
    if (userId && !conversationId) userPage();
    else conversationPage();
  }

  async function load() {
    try {
      if (userId && !conversationId) {
        if (state.me && userId === state.me.id) {
          go('#/me', { replace: true });
          return;
        }
        await client.fetchUser(userId);
      } else {
        const k = kind();
        const peer = k === 'user' ? conversation()?.peer : null;
        if (peer) await client.fetchUser(peer.id);
        if (k === 'group') await client.groupInfo(conversationId);
        if (k === 'group' || k === 'room') {
          members = await loadPeople(k, conversationId);
          moderation = await loadModeration(k, conversationId, members).catch(() => null);
        }
      }
      loadError = null;
    } catch (error) {
      loadError = error.code;
      if (!members) members = [];
    }
    render();
  }

  for (const topic of ['users', 'friends', 'requests', 'conversations', 'group', 'lastseen', 'resources']) offs.push(on(topic, () => { if (!editing) render(); }));
  offs.push(on('room-occupancy', (id) => { if (id === conversationId) load(); }));
  // Someone joined or left a group: list its members again.
  let memberTimer = null;
  offs.push(on('group', (id) => {
    if (id !== conversationId || kind() !== 'group' || !members) return;
    const info = state.groupInfo.get(id);
    if (!info || info.memberCount === members.length) return;
    clearTimeout(memberTimer);
    memberTimer = setTimeout(async () => {
      try {
        members = await loadPeople('group', conversationId);
        if (!editing) render();
      } catch { /* shown on the next visit */ }
    }, 200);
  }));
  offs.push(on('synced', () => load()));
  render();
  load();
  return {
    el,
    destroy: () => offs.forEach((off) => off()),
  };
}
