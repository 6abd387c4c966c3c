// Message actions in the dialogue (docs/protocol.md, "Message actions"): the per-message
// menu (hover button, right-click, long-press, keyboard), reaction chips with who reacted,
// the quote above a reply, and the forward dialog. The dialogue view wires them to its
// composer (reply, edit) and its scrolling (jump to the quoted message).
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { state, sortedConversations, conversationTitle } from '../store.js';
import { modal, toast, confirmDialog } from '../ui.js';
import { userName, shortLine } from '../format.js';
import { voiceLength } from '../time.js';
import * as client from '../client.js';
import { reportDialog } from './report.js';

/** The quick reactions offered first in the menu. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🎉'];
// As the server's defaults (`--edit-window`, `--recall-window`): outside them the server
// refuses anyway, the menu only stops offering what would fail.
const EDIT_WINDOW = 48 * 3600 * 1000;
const RECALL_WINDOW = 2 * 60 * 1000;
const LONG_PRESS = 500;

/** Action system types: applied to the message they name, never shown as lines. */
export const ACTION_TYPES = new Set(['message_edited', 'message_recalled', 'reaction_added', 'reaction_removed',
  'message_pinned', 'message_unpinned', 'message_listened']);

/** The short text of a message for quotes and the pinned bar. */
export function excerptOf(message) {
  if (!message) return t('quoted_missing');
  if (message.recalled) return t('quoted_recalled');
  if (message.kind === 'image') return t('image_preview');
  if (message.kind === 'voice') return t('voice_preview', { length: voiceLength(message.voice?.durationMs) });
  if (message.kind === 'file') return t('file_preview', { name: message.file?.name || '' });
  return shortLine(message.text);
}

/** The quote above a reply's bubble; a click jumps to the quoted message. */
export function quoteBlock(reply, onJump) {
  const name = reply.sender ? userName(reply.sender) : '';
  const text = reply.recalled ? t('quoted_recalled') : reply.kind === 'image' ? t('image_preview') : reply.kind === 'voice' ? t('voice_note') : (reply.excerpt || t('quoted_missing'));
  const quote = h('button', { type: 'button', class: 'bubble-quote', title: t('jump_to_quoted'), 'aria-label': `${t('jump_to_quoted')}: ${name} ${text}` },
    name ? h('span', { class: 'bubble-quote-name', text: name }) : null,
    h('span', { class: 'bubble-quote-text', text }));
  quote.addEventListener('click', (event) => {
    event.stopPropagation();
    if (reply.seq) onJump(reply.seq);
    else toast(t('quoted_missing'));
  });
  return quote;
}

/** Reaction chips under a bubble: the emoji, how many, who (title); a click toggles one's own. */
export function reactionChips(message) {
  const me = state.me?.id;
  const chips = (message.reactions || []).map((reaction) => {
    const mine = reaction.users.includes(me);
    const names = reaction.users.map((id) => (id === me ? t('you') : userName(id))).join(', ');
    const label = t('reacted_by', { emoji: reaction.emoji, names });
    const chip = h('button', { type: 'button', class: `reaction-chip${mine ? ' is-mine' : ''}`, title: label, 'aria-label': label,
      'aria-pressed': String(mine) },
    h('span', { class: 'reaction-emoji', text: reaction.emoji }), h('span', { class: 'reaction-count', text: String(reaction.users.length) }));
    chip.addEventListener('click', (event) => {
      event.stopPropagation();
      run(() => (mine ? client.unreact(message, reaction.emoji) : client.react(message, reaction.emoji)));
    });
    return chip;
  });
  return chips.length ? h('div', { class: 'reactions' }, chips) : null;
}

async function run(action, done) {
  try {
    // null: done offline, it waits for the connection (actionqueue.js).
    if ((await action()) === null) toast(t('action_queued'));
    else if (done) toast(done);
  } catch (error) {
    toast(errorText(error), 'error');
  }
}

let openMenu = null;

function closeMenu() {
  if (!openMenu) return;
  const { el, returnFocus } = openMenu;
  openMenu = null;
  el.remove();
  document.removeEventListener('pointerdown', outside, true);
  if (returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
}

function outside(event) {
  if (openMenu && !openMenu.el.contains(event.target)) closeMenu();
}

/**
 * Opens the menu of `message` next to `anchor`. `hooks`: reply(message), edit(message),
 * jump(seq); what is offered depends on who the reader is and the message's age.
 */
export function openMessageMenu(message, anchor, hooks) {
  closeMenu();
  const me = state.me?.id;
  const conversation = state.conversations.get(message.conversationId);
  const mine = message.sender === me;
  const age = Date.now() - (message.createdAt || 0);
  const owner = conversation?.kind === 'group' && state.groupInfo.get(message.conversationId)?.ownerId === me;
  const pinned = (state.pins.get(message.conversationId) || []).some((p) => p.message.id === message.id);
  const items = [];
  const add = (name, label, action) => items.push(h('button', { type: 'button', role: 'menuitem', class: 'msg-menu-item', dataset: { action: name },
    onclick: () => { closeMenu(); action(); } }, h('span', { text: label })));
  add('reply', t('action_reply'), () => hooks.reply(message));
  if (message.kind === 'text') {
    add('copy', t('action_copy'), () => copyText(message.text || ''));
  }
  add('forward', t('action_forward'), () => forwardDialog(message));
  if (mine && message.kind === 'text' && age < EDIT_WINDOW) add('edit', t('action_edit'), () => hooks.edit(message));
  if ((mine && age < RECALL_WINDOW) || owner) {
    add('recall', t('action_recall'), () => run(() => client.recallMessage(message)));
  }
  // The look and feel's fixed order: … recall, delete for me, pin (report, not in it, last).
  // Asked first: it leaves every one of the reader's devices and cannot be undone.
  add('hide', t('action_hide'), async () => {
    if (await confirmDialog(t('confirm_hide_message_title'), t('confirm_hide_message'), { danger: true, confirmText: t('action_hide') })) {
      run(() => client.hideMessage(message));
    }
  });
  add('pin', pinned ? t('action_unpin') : t('action_pin'), () => run(() => client.pinMessage(message, pinned)));
  if (!mine && message.sender) {
    add('report', t('action_report'), () => reportDialog({ conversationId: message.conversationId, messageId: message.id }));
  }
  const quick = h('div', { class: 'msg-menu-reactions', role: 'group', 'aria-label': t('action_react') },
    QUICK_REACTIONS.map((emoji) => h('button', { type: 'button', role: 'menuitem', class: 'msg-menu-emoji', text: emoji, 'aria-label': `${t('action_react')} ${emoji}`,
      onclick: () => {
        closeMenu();
        const already = (message.reactions || []).some((r) => r.emoji === emoji && r.users.includes(me));
        run(() => (already ? client.unreact(message, emoji) : client.react(message, emoji)));
      } })));
  const el = h('div', { class: 'msg-menu', role: 'menu', 'aria-label': t('message_actions') }, quick, items);
  document.body.appendChild(el);
  const rect = anchor.getBoundingClientRect();
  const width = el.offsetWidth || 220;
  const height = el.offsetHeight || 300;
  const left = Math.max(8, Math.min(window.innerWidth - width - 8, mine ? rect.right - width : rect.left));
  const below = rect.bottom + 6 + height < window.innerHeight;
  el.style.left = `${left}px`;
  el.style.top = `${Math.max(8, below ? rect.bottom + 6 : rect.top - height - 6)}px`;
  openMenu = { el, returnFocus: anchor };
  document.addEventListener('pointerdown', outside, true);
  const focusables = () => [...el.querySelectorAll('button')];
  el.addEventListener('keydown', (event) => {
    const list = focusables();
    const index = list.indexOf(document.activeElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      closeMenu();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowRight') {
      event.preventDefault();
      list[(index + 1) % list.length].focus();
    } else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') {
      event.preventDefault();
      list[(index - 1 + list.length) % list.length].focus();
    } else if (event.key === 'Tab') {
      closeMenu();
    }
  });
  requestAnimationFrame(() => el.querySelector('.msg-menu-item')?.focus({ preventScroll: true }));
}

/** Right-click, long-press and keyboard (Enter, the menu key, Shift+F10) open the menu. */
export function attachMenu(target, message, hooks) {
  target.tabIndex = 0;
  target.addEventListener('contextmenu', (event) => {
    event.preventDefault();
    openMessageMenu(message, target, hooks);
  });
  target.addEventListener('keydown', (event) => {
    if (event.target !== target) return;
    if (event.key === 'Enter' || event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      event.preventDefault();
      openMessageMenu(message, target, hooks);
    }
  });
  let timer = null;
  target.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'touch') return;
    timer = setTimeout(() => {
      timer = null;
      openMessageMenu(message, target, hooks);
    }, LONG_PRESS);
  });
  const cancel = () => { clearTimeout(timer); timer = null; };
  target.addEventListener('pointerup', cancel);
  target.addEventListener('pointermove', cancel);
  target.addEventListener('pointercancel', cancel);
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Without the clipboard API (a plain-http page): a selected text area and the old command.
    const area = h('textarea', { class: 'visually-hidden' });
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand?.('copy');
    area.remove();
  }
  toast(t('copied'));
}

/** Chooses a conversation to forward `message` to. */
function forwardDialog(message) {
  const choices = sortedConversations().filter((c) => c.kind !== 'room' || state.roomNames.has(c.name));
  const list = h('div', { class: 'forward-list', role: 'list' }, choices.map((c) => h('button', {
    type: 'button', class: 'forward-choice', role: 'listitem', dataset: { conversation: c.id }, text: conversationTitle(c),
    onclick: async () => {
      dialog.setBusy();
      try {
        await client.forwardMessage(message, c.id);
        dialog.close();
        toast(t('forwarded_done'));
      } catch (error) {
        dialog.setIdle();
        dialog.setError(errorText(error));
      }
    },
  })));
  const dialog = modal({ title: t('forward_to'), content: [list], cls: 'modal--small' });
}
