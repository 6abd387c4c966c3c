// Message search: over all of the user's chats, or within one. Hits come newest first with
// the chat's name, the sender, the time and the server's snippet, its matched words marked
// (inserted as text, never as HTML); "Load more" follows `nextBefore`. A hit opens its
// conversation scrolled to the message (#/chats/c/<id>/at/<seq>).
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { state, conversationTitle } from '../store.js';
import { connectionBanner, iconButton, spinner } from '../ui.js';
import { userName } from '../format.js';
import { messageTime, fullTime } from '../time.js';
import * as client from '../client.js';
import { go } from '../router.js';

/** Results asked for per page (the server caps it at its `--max-search-page`). */
const PAGE = 20;

/** The search page; `conversationId` limits it to one chat, null searches all of them. */
export function searchView({ conversationId = null } = {}) {
  let query = '';
  let nextBefore = null;
  let run = 0;
  let busy = false;

  const backTarget = conversationId ? `#/chats/c/${encodeURIComponent(conversationId)}` : '#/chats';
  const back = iconButton('back', t('back'), () => go(backTarget), 'topbar-back');
  const scopeName = () => {
    const conversation = conversationId && state.conversations.get(conversationId);
    return conversation ? conversationTitle(conversation) : null;
  };
  const title = h('h1', { class: 'topbar-title', id: 'search-title', text: t('search_title') });
  const subtitle = h('p', { class: 'topbar-subtitle', text: conversationId ? t('search_in', { name: scopeName() || '' }) : t('search_all') });
  const input = h('input', {
    type: 'search', class: 'search-input', name: 'query', maxlength: 200, enterkeyhint: 'search',
    placeholder: t('search_placeholder'), 'aria-label': t('search_placeholder'),
  });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-small search-submit', text: t('search_button') });
  const form = h('form', { class: 'search-form', role: 'search', 'aria-label': t('search_title') },
    h('span', { class: 'search-icon', 'aria-hidden': 'true' }, icon('search', { size: 18 })), input, submit);
  const status = h('p', { class: 'search-status', role: 'status', 'aria-live': 'polite' });
  // Hidden while empty: a list with no items is not a list to a screen reader.
  const results = h('ul', { class: 'rows search-results', role: 'list', 'aria-label': t('search_results'), hidden: true });
  const more = h('button', { type: 'button', class: 'btn btn-secondary search-more', hidden: true, text: t('search_more') });
  const el = h('section', { class: 'view view--search', 'aria-labelledby': 'search-title' },
    h('header', { class: 'topbar topbar--dialogue' }, back, h('div', { class: 'topbar-heading' }, title, subtitle)),
    connectionBanner(),
    form,
    h('div', { class: 'scroll search-scroll' }, status, results, h('div', { class: 'search-more-row' }, more)));

  /** The snippet as text nodes, the matched parts in <mark>. */
  function snippet(parts, message) {
    const line = h('span', { class: 'search-snippet' });
    const list = Array.isArray(parts) && parts.length ? parts : [{ text: message.text || '', match: false }];
    for (const part of list) {
      const text = String(part?.text ?? '');
      line.append(part?.match ? h('mark', { class: 'search-match', text }) : document.createTextNode(text));
    }
    return line;
  }

  function hitRow(hit) {
    const message = hit.message;
    const conversation = state.conversations.get(message.conversationId);
    const chat = conversation ? conversationTitle(conversation) : t('search_unknown_chat');
    const sender = message.sender === state.me?.id ? t('you') : userName(message.sender);
    const link = h('a', {
      class: 'row search-hit',
      href: `#/chats/c/${encodeURIComponent(message.conversationId)}/at/${message.seq}`,
      dataset: { conversation: message.conversationId, seq: String(message.seq), message: message.id },
    },
    h('span', { class: 'row-main' },
      h('span', { class: 'row-top' },
        h('span', { class: 'row-title' }, h('span', { class: 'row-name search-chat', text: conversationId ? sender : chat })),
        h('time', { class: 'row-time', datetime: new Date(message.createdAt).toISOString(), title: fullTime(message.createdAt), text: messageTime(message.createdAt) })),
      conversationId ? null : h('span', { class: 'search-sender', text: sender }),
      snippet(hit.snippet, message)));
    return h('li', { class: 'row-item' }, link);
  }

  function showStatus(text, kind = '') {
    status.textContent = text;
    status.className = `search-status${kind ? ` search-status--${kind}` : ''}`;
    status.hidden = !text;
  }

  async function load(first) {
    if (busy && !first) return;
    const mine = first ? ++run : run;
    busy = true;
    more.hidden = true;
    if (first) {
      results.replaceChildren();
      results.hidden = true;
      nextBefore = null;
    }
    showStatus('');
    status.append(spinner('spinner--sm'), h('span', { text: t('searching') }));
    status.hidden = false;
    try {
      const data = { query, limit: PAGE };
      if (conversationId) data.conversationId = conversationId;
      if (!first && nextBefore) data.before = nextBefore;
      const page = await client.call('message.search', data);
      if (mine !== run) return;
      const hits = Array.isArray(page?.hits) ? page.hits.filter((hit) => hit?.message?.conversationId) : [];
      results.append(...hits.map(hitRow));
      nextBefore = page?.nextBefore ?? null;
      more.hidden = !nextBefore;
      const count = results.children.length;
      results.hidden = count === 0;
      if (count) showStatus(t('search_count', { n: count }));
      else showStatus(nextBefore ? t('search_none_yet') : t('search_empty'), 'empty');
    } catch (error) {
      if (mine !== run) return;
      showStatus(errorText(error), 'error');
      more.hidden = !nextBefore;
    } finally {
      if (mine === run) busy = false;
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    query = input.value.trim();
    if (!query) {
      input.focus();
      return;
    }
    load(true);
  });
  more.addEventListener('click', () => load(false));
  showStatus('');

  return {
    el,
    conversationId,
    focus: () => input.focus({ preventScroll: true }),
    destroy() { run++; },
  };
}
