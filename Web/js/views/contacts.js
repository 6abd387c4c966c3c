// Contacts: friend requests (accept / decline), friends, groups and rooms, in sections.
import { h, rafThrottle, syncChildren } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { state, on, displayName } from '../store.js';
import { avatar, connectionBanner, iconButton, setBusy, toast, emojiText } from '../ui.js';
import { openActionMenu } from './menu.js';
import { acceptRequest, declineRequest, ensureUser } from '../client.js';
import { go } from '../router.js';

const STRANGERS_SHOWN = 20;

export function contactsView() {
  const plus = iconButton('plus', t('menu'), () => openActionMenu(plus), 'topbar-action');
  plus.setAttribute('aria-haspopup', 'menu');
  const body = h('div', { class: 'sections' });
  const el = h('section', { class: 'view view--list', 'aria-label': t('contacts_title') },
    h('header', { class: 'topbar' }, h('h1', { class: 'topbar-title', text: t('contacts_title') }), plus),
    connectionBanner(),
    h('div', { class: 'scroll' }, body));
  let active = null;

  function section(key, title, count, rows, emptyText) {
    const list = h('ul', { class: 'rows', role: 'list' }, rows);
    return h('section', { class: 'contact-section', dataset: { section: key }, 'aria-label': title },
      h('h2', { class: 'section-title' }, h('span', { text: title }), count ? h('span', { class: 'section-count', text: String(count) }) : null),
      rows.length ? list : h('p', { class: 'section-empty', text: emptyText }));
  }

  function personRow(user, { href, sub, online, trailing, cls = '' }) {
    const name = displayName(state.users.get(user.id) || user, user.id);
    const current = state.users.get(user.id) || user;
    const inner = [
      h('span', { class: 'row-avatar' }, avatar({ src: current.avatar, name, seed: user.id }),
        online ? h('span', { class: 'presence-dot', 'aria-label': t('online') }) : null),
      h('span', { class: 'row-main' },
        emojiText(name, 'row-name'),
        sub ? emojiText(sub, 'row-sub') : null),
    ];
    const content = href
      ? h('a', { class: `row ${cls}${active === href ? ' is-active' : ''}`, href, 'aria-current': active === href ? 'page' : null }, inner, trailing || icon('chevron', { size: 18, cls: 'row-chevron' }))
      : h('div', { class: `row ${cls}` }, inner, trailing);
    return h('li', { class: 'row-item', dataset: { user: user.id } }, content);
  }

  function requestRow(request) {
    const accept = h('button', { type: 'button', class: 'btn btn-primary btn-small', text: t('accept') });
    const decline = iconButton('close', t('decline'), null, 'decline-btn');
    accept.addEventListener('click', async () => {
      setBusy(accept, true);
      decline.disabled = true;
      try {
        const friend = await acceptRequest(request.id);
        toast(t('now_friends', { name: displayName(friend.user, friend.user.id) }));
      } catch (error) {
        setBusy(accept, false);
        decline.disabled = false;
        toast(errorText(error), 'error');
      }
    });
    decline.addEventListener('click', async () => {
      setBusy(decline, true);
      accept.disabled = true;
      try {
        await declineRequest(request.id);
      } catch (error) {
        setBusy(decline, false);
        accept.disabled = false;
        toast(errorText(error), 'error');
      }
    });
    return personRow(request.from, {
      href: null, sub: request.greeting || t('wants_friend'), cls: 'row--request',
      trailing: h('span', { class: 'row-actions' }, decline, accept),
    });
  }

  function conversationRow(conversation) {
    const href = `#/contacts/c/${encodeURIComponent(conversation.id)}`;
    const info = state.groupInfo.get(conversation.id);
    return h('li', { class: 'row-item' },
      h('a', { class: `row${active === href ? ' is-active' : ''}`, href, 'aria-current': active === href ? 'page' : null },
        h('span', { class: 'row-avatar' }, avatar({ src: conversation.avatar, name: conversation.name, seed: conversation.id, kind: conversation.kind })),
        h('span', { class: 'row-main' },
          emojiText(conversation.name || `ID: ${conversation.id}`, 'row-name'),
          info?.description ? emojiText(info.description, 'row-sub') : null),
        icon('chevron', { size: 18, cls: 'row-chevron' })));
  }

  const render = rafThrottle(() => {
    const sections = [];
    const requests = [...state.incoming.map(requestRow),
      ...state.outgoing.map((r) => personRow(r.to, { href: `#/contacts/u/${encodeURIComponent(r.to.id)}`, sub: t('waiting'), cls: 'row--outgoing' }))];
    if (requests.length) sections.push(section('requests', t('requests'), state.incoming.length, requests, ''));
    const friends = [...state.friends.values()].sort((a, b) => displayName(a.user, a.user.id).localeCompare(displayName(b.user, b.user.id)));
    sections.push(section('friends', t('friends'), friends.length, friends.map((f) => personRow(f.user, {
      href: `#/contacts/u/${encodeURIComponent(f.user.id)}`,
      sub: (state.users.get(f.user.id) || f.user).signature || (f.online ? t('online') : ''),
      online: f.online,
    })), t('friends_empty')));
    const conversations = [...state.conversations.values()].sort((a, b) => (a.name || '').localeCompare(b.name || ''));
    const groups = conversations.filter((c) => c.kind === 'group');
    const rooms = conversations.filter((c) => c.kind === 'room');
    sections.push(section('groups', t('groups'), groups.length, groups.map(conversationRow), t('groups_empty')));
    sections.push(section('rooms', t('rooms'), rooms.length, rooms.map(conversationRow), t('rooms_empty')));
    // Seed 000's fourth kind: people met in a group, a room or on Discover who are not
    // friends, the most recent first; a name not fetched yet reads "ID: <id>".
    const asked = new Set([...state.incoming.map((r) => r.from.id), ...state.outgoing.map((r) => r.to.id)]);
    const strangers = [...state.met]
      .filter(([id]) => id !== state.me?.id && !state.friends.has(id) && !state.blocked.has(id) && !asked.has(id))
      .sort((a, b) => b[1].at - a[1].at)
      .slice(0, STRANGERS_SHOWN);
    for (const [id] of strangers) ensureUser(id);
    sections.push(section('strangers', t('strangers'), strangers.length, strangers.map(([id, seen]) => personRow(
      state.users.get(id) || { id },
      { href: `#/contacts/u/${encodeURIComponent(id)}`, sub: t(`met_${seen.where}`) },
    )), t('strangers_empty')));
    const focused = document.activeElement;
    const keepFocus = body.contains(focused) && focused.closest('[data-user]')?.dataset.user;
    syncChildren(body, sections);
    if (keepFocus) body.querySelector(`[data-user="${CSS.escape(keepFocus)}"] a, [data-user="${CSS.escape(keepFocus)}"] button`)?.focus();
  });

  const offs = ['friends', 'requests', 'conversations', 'users', 'group', 'met'].map((topic) => on(topic, render));
  render();
  return {
    el,
    setActive(href) {
      if (active === href) return;
      active = href;
      render();
    },
    destroy: () => offs.forEach((off) => off()),
  };
}

export function openContact(userId) {
  go(`#/contacts/u/${encodeURIComponent(userId)}`);
}
