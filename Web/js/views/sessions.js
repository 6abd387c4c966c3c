// Sessions (the chats list): one row per conversation, newest activity first, with avatar,
// display name, last message, time and unread badge; updated live.
import { h, rafThrottle, syncChildren } from '../dom.js';
import { icon } from '../icons.js';
import { t } from '../i18n.js';
import { state, on, sortedConversations, conversationTitle } from '../store.js';
import { avatar, badge, connectionBanner, iconButton, emojiText } from '../ui.js';
import { previewText } from '../format.js';
import { listTime } from '../time.js';
import { openActionMenu } from './menu.js';

export function sessionsView() {
  const plus = iconButton('plus', t('menu'), () => openActionMenu(plus), 'topbar-action');
  plus.setAttribute('aria-haspopup', 'menu');
  const search = h('a', { class: 'icon-btn topbar-search sessions-search', href: '#/chats/search', 'aria-label': t('search_title'), title: t('search_title') }, icon('search'));
  const list = h('ul', { class: 'rows', role: 'list', 'aria-label': t('chats_title') });
  const empty = h('div', { class: 'empty', hidden: true },
    h('div', { class: 'empty-art', 'aria-hidden': 'true' }, icon('chats', { size: 40 })),
    h('h2', { class: 'empty-title', text: t('chats_empty_title') }),
    h('p', { class: 'empty-text', text: t('chats_empty') }),
    h('div', { class: 'empty-actions' },
      h('button', { type: 'button', class: 'btn btn-primary', onclick: (e) => openActionMenu(e.currentTarget, 'add_friend') }, icon('userPlus', { size: 18 }), h('span', { text: t('add_friend') })),
      h('a', { class: 'btn btn-secondary', href: '#/discover' }, icon('discover', { size: 18 }), h('span', { text: t('tab_discover') }))));
  const skeleton = h('ul', { class: 'rows skeleton', 'aria-hidden': 'true' },
    [0, 1, 2, 3, 4].map(() => h('li', { class: 'row row--skeleton' }, h('span', { class: 'sk sk-avatar' }), h('span', { class: 'row-main' }, h('span', { class: 'sk sk-line' }), h('span', { class: 'sk sk-line sk-short' })))));
  const el = h('section', { class: 'view view--list', 'aria-label': t('chats_title') },
    h('header', { class: 'topbar' }, h('h1', { class: 'topbar-title', text: t('chats_title') }), search, plus),
    connectionBanner(),
    h('div', { class: 'scroll' }, skeleton, list, empty));
  const rows = new Map();
  let active = null;

  function row(conversation) {
    let item = rows.get(conversation.id);
    if (!item) {
      item = h('li', { class: 'row-item' });
      rows.set(conversation.id, item);
    }
    const title = conversationTitle(conversation);
    const kind = conversation.kind;
    const src = kind === 'user' ? (state.users.get(conversation.peer?.id)?.avatar ?? conversation.peer?.avatar) : conversation.avatar;
    const unread = kind === 'room' ? 0 : (conversation.unread || 0);
    const online = kind === 'user' && state.connection.status === 'online' && state.friends.get(conversation.peer?.id)?.online;
    const time = listTime(conversation.lastMessage?.createdAt || conversation.lastActivityAt);
    const preview = previewText(conversation.lastMessage, conversation) || '\u00a0';
    const mentions = kind === 'room' ? 0 : (conversation.mentions || 0);
    const muted = !!conversation.mute && (conversation.mute.until == null || conversation.mute.until > Date.now());
    const signature = JSON.stringify([title, src, unread, online, conversation.id === active, time, preview, kind, mentions, muted]);
    if (item.dataset.signature === signature) return item;
    item.dataset.signature = signature;
    const link = h('a', {
      class: `row${conversation.id === active ? ' is-active' : ''}${unread ? ' has-unread' : ''}`,
      href: `#/chats/c/${encodeURIComponent(conversation.id)}`,
      'aria-current': conversation.id === active ? 'page' : null,
      dataset: { conversation: conversation.id },
    },
    h('span', { class: 'row-avatar' }, avatar({ src, name: title, seed: kind === 'user' ? conversation.peer?.id : conversation.id, kind }),
      online ? h('span', { class: 'presence-dot', 'aria-label': t('online') }) : null),
    h('span', { class: 'row-main' },
      h('span', { class: 'row-top' },
        h('span', { class: 'row-title' }, kind !== 'user' ? icon(kind === 'group' ? 'group' : 'room', { size: 14, cls: 'row-kind' }) : null, emojiText(title, 'row-name')),
        h('span', { class: 'row-time', text: time })),
      h('span', { class: 'row-bottom' },
        emojiText(preview, 'row-sub'),
        // Unread mentions of the reader, beside the unread count.
        mentions ? h('span', { class: 'badge row-mention', text: '@', title: t('mentioned_n', { n: mentions }),
          'aria-label': t('mentioned_n', { n: mentions }) }) : null,
        muted ? h('span', { class: 'row-muted', title: t('muted'), 'aria-label': t('muted') }, icon('bellOff', { size: 14 })) : null,
        badge(unread, 'row-badge'))));
    item.replaceChildren(link);
    return item;
  }

  const render = rafThrottle(() => {
    const conversations = sortedConversations();
    skeleton.hidden = state.synced || conversations.length > 0;
    empty.hidden = !skeleton.hidden || conversations.length > 0;
    const keep = new Set(conversations.map((c) => c.id));
    for (const id of [...rows.keys()]) if (!keep.has(id)) rows.delete(id);
    syncChildren(list, conversations.map(row));
  });

  const offs = ['conversations', 'users', 'friends', 'synced', 'connection'].map((topic) => on(topic, render));
  render();
  return {
    el,
    setActive(id) {
      if (active === id) return;
      active = id;
      render();
    },
    destroy: () => offs.forEach((off) => off()),
  };
}
