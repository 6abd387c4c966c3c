// The signed-in layout. Phone (< 900 px): one column, a bottom tab bar, details full
// screen. Desktop: a narrow rail, the list (320–360 px) and the open dialogue or profile on
// the right. Views are made once and kept, so switching panes reloads nothing.
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t } from '../i18n.js';
import { state, on, totalUnread, displayName, conversationTitle } from '../store.js';
import { avatar, setBadge, badge } from '../ui.js';
import { isDesktop } from '../dom.js';
import { sessionsView } from './sessions.js';
import { contactsView } from './contacts.js';
import { dialogueView } from './dialogue.js';
import { profileView } from './profile.js';
import { infoView } from './info.js';
import { discoverView } from './discover.js';
import { searchView } from './search.js';
import { format } from '../router.js';

const TABS = [
  { id: 'chats', icon: 'chats', label: 'tab_chats' },
  { id: 'contacts', icon: 'contacts', label: 'tab_contacts' },
  { id: 'discover', icon: 'discover', label: 'tab_discover' },
  { id: 'me', icon: 'me', label: 'tab_me' },
];

export function shellView() {
  const lastRoute = {};
  const tabLinks = new Map();
  const chatsBadge = badge(0, 'tab-badge');
  const requestsBadge = badge(0, 'tab-badge');
  const meSlot = h('span', { class: 'rail-me' });
  const nav = h('nav', { class: 'tabbar', 'aria-label': t('main_navigation') },
    h('div', { class: 'rail-brand', 'aria-hidden': 'true' }, icon('chats', { size: 22 })),
    TABS.map((tab) => {
      const link = h('a', { class: 'tab', href: `#/${tab.id}`, dataset: { tab: tab.id } },
        h('span', { class: 'tab-icon' }, icon(tab.icon, { size: 26 }), tab.id === 'chats' ? chatsBadge : tab.id === 'contacts' ? requestsBadge : null),
        h('span', { class: 'tab-label', text: t(tab.label) }));
      link.addEventListener('click', (event) => {
        // On a desktop a tab comes back to where it was; on a phone to its list.
        const target = isDesktop() && lastRoute[tab.id] ? lastRoute[tab.id] : `#/${tab.id}`;
        event.preventDefault();
        location.hash = target;
      });
      tabLinks.set(tab.id, link);
      return link;
    }),
    meSlot);

  const sessions = sessionsView();
  const contacts = contactsView();
  const dialogue = dialogueView();
  const profile = profileView();
  let discover = null;
  let info = null;
  let search = null;
  const placeholder = h('div', { class: 'placeholder' },
    h('div', { class: 'placeholder-art', 'aria-hidden': 'true' }, icon('chats', { size: 56 })),
    h('h2', { class: 'placeholder-title', text: t('select_chat_title') }),
    h('p', { class: 'placeholder-text', text: t('select_chat') }));
  const listPane = h('div', { class: 'pane list-pane' }, sessions.el, contacts.el);
  const mainPane = h('main', { class: 'pane main-pane' });
  const el = h('div', { class: 'shell' }, nav, listPane, mainPane);

  function paintBadges() {
    const total = totalUnread();
    setBadge(chatsBadge, total);
    setBadge(requestsBadge, state.incoming.length);
    const open = state.openConversation && state.conversations.get(state.openConversation);
    const base = open ? `${conversationTitle(open)} · Parley` : 'Parley';
    document.title = total ? `(${total > 99 ? '99+' : total}) ${base}` : base;
  }

  function paintMe() {
    const me = state.me;
    if (!me) return;
    meSlot.replaceChildren(h('a', { href: '#/me', class: 'rail-avatar', 'aria-label': t('tab_me') }, avatar({ src: me.avatar, name: displayName(me, me.id), seed: me.id, size: 'sm' })));
  }

  function showMain(node) {
    if (mainPane.firstChild !== node || mainPane.childNodes.length !== 1) mainPane.replaceChildren(node);
  }

  function route(r) {
    const { tab, detail } = r;
    lastRoute[tab] = format(r);
    el.dataset.tab = tab;
    el.dataset.detail = detail ? 'yes' : 'no';
    for (const [id, link] of tabLinks) {
      const current = id === tab;
      link.classList.toggle('is-active', current);
      if (current) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    sessions.el.hidden = tab !== 'chats';
    contacts.el.hidden = tab !== 'contacts';
    sessions.setActive(detail && detail.type !== 'user' ? detail.id : null);
    contacts.setActive(detail ? format(r).replace(/\/info$/, '') : null);

    if (info && !(detail && (detail.type === 'info' || detail.type === 'user'))) {
      info.destroy();
      info = null;
    }
    if (search && !(detail && detail.type === 'search' && detail.id === search.conversationId)) {
      search.destroy();
      search = null;
    }
    if (discover && tab !== 'discover') discover.hide();
    if (!detail || detail.type !== 'chat') dialogue.close();

    if (detail && detail.type === 'chat') {
      showMain(dialogue.el);
      dialogue.open(detail.id, tab, detail.seq);
    } else if (detail && detail.type === 'search') {
      const fresh = !search;
      if (fresh) search = searchView({ conversationId: detail.id });
      showMain(search.el);
      if (fresh) requestAnimationFrame(() => search?.focus());
    } else if (detail) {
      if (info) info.destroy();
      info = infoView({ tab, detail });
      showMain(info.el);
    } else if (tab === 'discover') {
      if (!discover) discover = discoverView();
      showMain(discover.el);
      discover.show();
    } else if (tab === 'me') {
      showMain(profile.el);
    } else {
      showMain(placeholder);
    }
    paintBadges();
  }

  const offs = [on('conversations', paintBadges), on('requests', paintBadges), on('me', paintMe), on('users', paintMe)];
  paintBadges();
  paintMe();
  return {
    el,
    route,
    profile,
    destroy() {
      offs.forEach((off) => off());
      for (const view of [sessions, contacts, dialogue, profile, discover, info, search]) view?.destroy?.();
      dialogue.close();
    },
  };
}
