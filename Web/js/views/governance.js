// The moderators' side of a group's or a room's details page (docs/protocol.md, "Group
// governance"): who is who, the menu on a person, and the card of rules and lists. A group's
// owner and admins moderate it (join mode, history, invite links, join requests, mutes,
// removals and bans); a room's creator and the admins the creator appoints kick and ban, and
// only the creator appoints. The page shows each person only what they may do; the server
// checks every step again.
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { state, displayName } from '../store.js';
import { avatar, setBusy, toast, confirmDialog, modal } from '../ui.js';
import * as client from '../client.js';

/** Ranks of the roles: each moderator acts on those below them. */
export const rank = (member) => ({ owner: 2, admin: 1 })[member?.role] || 0;

/** The people of the page with their roles: a group's members; a room's occupants, with its
 *  creator (`ownerId`) as `owner` and its admins as `admin`. */
export async function loadPeople(kind, conversationId) {
  if (kind === 'group') return client.groupMembers(conversationId);
  const [users, admins] = await Promise.all([client.roomOccupants(conversationId), client.roomAdmins(conversationId).catch(() => [])]);
  const ownerId = state.groupInfo.get(conversationId)?.ownerId;
  const adminIds = new Set(admins.map((user) => user.id));
  return users.map((user) => ({ user, role: user.id === ownerId ? 'owner' : adminIds.has(user.id) ? 'admin' : 'member' }));
}

/** What a moderator's card lists (a group's requests, links and bans; a room's admins and
 *  bans), or null when the viewer does not moderate. */
export async function loadModeration(kind, conversationId, members) {
  if (kind === 'group') {
    const role = state.groupInfo.get(conversationId)?.role;
    if (role !== 'owner' && role !== 'admin') return null;
    const [requests, invites, bans] = await Promise.all([
      client.joinRequests(conversationId), client.groupInvites(conversationId), client.groupBans(conversationId)]);
    return { requests, invites, bans };
  }
  const me = state.me?.id;
  const ownerId = state.groupInfo.get(conversationId)?.ownerId;
  if (!me || (ownerId !== me && rank((members || []).find((m) => m.user.id === me)) < 1)) return null;
  const [admins, bans] = await Promise.all([client.roomAdmins(conversationId), client.roomBans(conversationId)]);
  return { admins, bans };
}

/** The label on a person's tile: the group's owner, the room's creator, an admin. */
export function roleTag(kind, member) {
  if (member.role === 'owner') return t(kind === 'room' ? 'creator' : 'owner');
  return member.role === 'admin' ? t('admin') : null;
}

/** The moderator's choices for one person, the lasting ones confirmed first. `owner`: the
 *  viewer owns the group or created the room. `reload(done)` reads the page again and says `done`. */
export function memberMenu({ kind, conversationId, member, name, owner, reload }) {
  const room = kind === 'room';
  // `ask`: the confirmation's string key (its title is the key's `_title` string), or null.
  const run = async (ask, confirmText, work, done) => {
    dialog.close();
    if (ask && !(await confirmDialog(t(`${ask}_title`), t(ask, { name }), { danger: true, confirmText }))) return;
    try {
      await work();
      await reload(done);
    } catch (error) {
      toast(errorText(error, { kind }), 'error');
    }
  };
  const button = (key, iconName, cls, onclick) => {
    // The older names of the owner's two choices stay, for scripts and tests that use them.
    const manage = { make_owner: 'transfer', remove_member: 'remove' }[key] || key;
    const b = h('button', { type: 'button', class: `btn ${cls} btn-block`, dataset: { manage } }, icon(iconName, { size: 18 }), h('span', { text: t(key) }));
    b.addEventListener('click', onclick);
    return b;
  };
  const target = { conversationId, userId: member.user.id };
  const simple = (op) => () => run(null, null, () => client.moderate(op, target), t('done_toast'));
  const choices = [];
  if (owner) {
    choices.push(member.role === 'admin'
      ? button('remove_admin', 'spark', 'btn-secondary', simple(`${kind}.admin.remove`))
      : button('make_admin', 'spark', 'btn-secondary', simple(`${kind}.admin.add`)));
    if (!room) {
      choices.push(button('make_owner', 'spark', 'btn-secondary', () => run('confirm_make_owner', t('make_owner'),
        () => client.transferGroup(conversationId, member.user.id), t('owner_changed_toast', { name }))));
    }
  }
  if (room) {
    choices.push(button('kick_member', 'logout', 'btn-danger-outline', () => run('confirm_kick_member', t('kick_member'),
      () => client.moderate('room.kick', target), t('member_kicked_toast', { name }))));
  } else {
    choices.push(member.mutedUntil
      ? button('unmute_member', 'bell', 'btn-secondary', simple('group.unmute'))
      : button('mute_member', 'bellOff', 'btn-secondary', () => run(null, null,
        () => client.moderate('group.mute', { ...target, until: Date.now() + 3_600_000 }), t('done_toast'))));
    choices.push(button('remove_member', 'trash', 'btn-danger-outline', () => run('confirm_remove_member', t('remove_member'),
      () => client.removeMember(conversationId, member.user.id), t('member_removed_toast', { name }))));
  }
  choices.push(button('ban_member', 'block', 'btn-danger-outline', () => run(room ? 'confirm_room_ban' : 'confirm_ban_member', t('ban_member'),
    () => client.moderate(`${kind}.ban`, target), t('done_toast'))));
  const dialog = modal({ title: name, content: [h('div', { class: 'action-stack' }, choices)], cls: 'modal--small' });
  dialog.el.dataset.action = 'manage-member';
}

/** The moderator's card: a group's rules and lists, or a room's admins and bans. */
export function governanceCard({ kind, conversationId, info, moderation, reload }) {
  // Buttons show a spinner; a select or checkbox is only held still meanwhile.
  const hold = (control, busy) => (control.tagName === 'BUTTON' ? setBusy(control, busy) : (control.disabled = busy));
  const act = async (control, work, done = t('done_toast')) => {
    hold(control, true);
    try {
      await work();
      await reload(done);
    } catch (error) {
      toast(errorText(error, { kind }), 'error');
      // The page as the server has it: a refused change of a select or box is undone.
      await reload(null).catch(() => {});
    } finally {
      if (control.isConnected) hold(control, false);
    }
  };
  const person = (user, cls, ...extra) => {
    const name = displayName(state.users.get(user.id) || user, user.id);
    return h('li', { class: cls, dataset: { user: user.id } },
      avatar({ src: user.avatar, name, seed: user.id, size: 'sm' }), h('span', { class: 'row-name', text: name }), ...extra);
  };
  const bans = [
    h('h4', { class: 'card-subtitle', text: t('banned_list') }),
    moderation.bans.length
      ? h('ul', { class: 'ban-list', role: 'list' }, moderation.bans.map((ban) => {
        const lift = h('button', { type: 'button', class: 'btn btn-secondary btn-small', dataset: { ban: 'lift' }, text: t('unban') });
        lift.addEventListener('click', () => act(lift, () => client.moderate(`${kind}.unban`, { conversationId, userId: ban.user.id })));
        return person(ban.user, 'ban-row', ban.reason ? h('span', { class: 'row-note', text: ban.reason }) : null, lift);
      }))
      : h('p', { class: 'empty-text', text: t('no_bans') })];
  if (kind === 'room') {
    const creator = info.ownerId && state.me && info.ownerId === state.me.id;
    const adminRow = (user) => {
      const remove = creator ? h('button', { type: 'button', class: 'btn btn-secondary btn-small', dataset: { admin: 'remove' }, text: t('remove_admin') }) : null;
      remove?.addEventListener('click', () => act(remove, () => client.moderate('room.admin.remove', { conversationId, userId: user.id })));
      return person(user, 'admin-row', remove);
    };
    return h('section', { class: 'card governance', 'aria-label': t('room_moderation'), dataset: { kind } },
      h('h3', { class: 'card-title', text: t('room_moderation') }),
      h('p', { class: 'note', text: t(creator ? 'room_moderation_creator' : 'room_moderation_admin') }),
      h('h4', { class: 'card-subtitle', text: t('room_admins') }),
      moderation.admins.length ? h('ul', { class: 'admin-list', role: 'list' }, moderation.admins.map(adminRow)) : h('p', { class: 'empty-text', text: t('no_room_admins') }),
      ...bans);
  }
  const mode = h('select', { class: 'input', name: 'joinMode', 'aria-label': t('join_mode') },
    ['open', 'approval', 'invite'].map((value) => h('option', { value, text: t(`join_${value}`), selected: (info.joinMode || 'open') === value })));
  mode.addEventListener('change', () => act(mode, () => client.updateGroup(conversationId, { joinMode: mode.value })));
  const history = h('input', { type: 'checkbox', name: 'showHistory', checked: !!info.showHistory });
  history.addEventListener('change', () => act(history, () => client.updateGroup(conversationId, { showHistory: history.checked })));
  const linkRow = (invite) => {
    const url = `${location.origin}${location.pathname}#/invite/${encodeURIComponent(invite.token)}`;
    const copy = h('button', { type: 'button', class: 'btn btn-secondary btn-small', dataset: { invite: 'copy' }, text: t('copy_link') });
    copy.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(url); } catch { /* shown below anyway */ }
      toast(t('link_copied'));
    });
    const revoke = h('button', { type: 'button', class: 'btn btn-danger-outline btn-small', dataset: { invite: 'revoke' }, text: t('revoke_link') });
    revoke.addEventListener('click', () => act(revoke, () => client.revokeInvite(invite.token)));
    return h('li', { class: 'invite-row', dataset: { token: invite.token } },
      h('code', { class: 'invite-url', text: url }), h('span', { class: 'invite-uses', text: t('link_uses', { uses: invite.uses }) }), copy, revoke);
  };
  const create = h('button', { type: 'button', class: 'btn btn-secondary', dataset: { invite: 'create' }, text: t('create_invite') });
  create.addEventListener('click', () => act(create, () => client.createInvite(conversationId)));
  const requestRow = (request) => {
    const accept = h('button', { type: 'button', class: 'btn btn-primary btn-small', dataset: { request: 'accept' }, text: t('accept') });
    accept.addEventListener('click', () => act(accept, () => client.moderate('group.request.accept', { conversationId, userId: request.user.id })));
    const decline = h('button', { type: 'button', class: 'btn btn-secondary btn-small', dataset: { request: 'decline' }, text: t('decline') });
    decline.addEventListener('click', () => act(decline, () => client.moderate('group.request.decline', { conversationId, userId: request.user.id })));
    const row = person(request.user, 'request-row', accept, decline);
    row.querySelector('.row-name').classList.add('request-name');
    return row;
  };
  return h('section', { class: 'card governance', 'aria-label': t('governance'), dataset: { kind } },
    h('h3', { class: 'card-title', text: t('governance') }),
    h('label', { class: 'field' }, h('span', { class: 'field-label', text: t('join_mode') }), mode),
    h('label', { class: 'toggle-row' }, history, h('span', { text: t('show_history') })),
    h('h4', { class: 'card-subtitle', text: t('invite_links') }),
    moderation.invites.length ? h('ul', { class: 'invite-list', role: 'list' }, moderation.invites.map(linkRow)) : h('p', { class: 'empty-text', text: t('no_invites') }),
    create,
    h('h4', { class: 'card-subtitle', text: t('join_requests') }),
    moderation.requests.length ? h('ul', { class: 'request-list', role: 'list' }, moderation.requests.map(requestRow)) : h('p', { class: 'empty-text', text: t('no_requests') }),
    ...bans);
}
