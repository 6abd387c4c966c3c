// The "+" action menu: add friend, create group, join group, create room, enter room. Each
// opens a small form; while the server works a "processing…" layer covers it, and errors
// say what went wrong next to the field at fault.
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { state } from '../store.js';
import { field, modal, toast } from '../ui.js';
import { go } from '../router.js';
import * as client from '../client.js';
import { USERNAME_RULE } from './authframe.js';

const ACTIONS = [
  { id: 'add_friend', icon: 'userPlus' },
  { id: 'create_group', icon: 'group' },
  { id: 'join_group', icon: 'enter' },
  { id: 'create_room', icon: 'room' },
  { id: 'enter_room', icon: 'enter' },
];

let openMenu = null;

export function openActionMenu(anchor, direct = null) {
  if (direct) {
    openActionForm(direct);
    return;
  }
  if (openMenu) {
    openMenu.close();
    return;
  }
  const items = ACTIONS.map((action) => h('button', {
    type: 'button', class: 'menu-item', role: 'menuitem', dataset: { action: action.id },
    onclick: () => { close(); openActionForm(action.id); },
  }, icon(action.icon, { size: 20 }), h('span', { text: t(action.id) })));
  const menu = h('div', { class: 'popover-menu', role: 'menu', 'aria-label': t('menu') }, items);
  const rect = anchor.getBoundingClientRect();
  menu.style.top = `${Math.round(rect.bottom + 6)}px`;
  menu.style.right = `${Math.max(8, Math.round(window.innerWidth - rect.right))}px`;
  const layer = h('div', { class: 'popover-layer' }, menu);
  layer.addEventListener('pointerdown', (event) => { if (event.target === layer) close(); });
  menu.addEventListener('keydown', (event) => {
    const index = items.indexOf(document.activeElement);
    if (event.key === 'ArrowDown') { event.preventDefault(); items[(index + 1) % items.length].focus(); }
    if (event.key === 'ArrowUp') { event.preventDefault(); items[(index - 1 + items.length) % items.length].focus(); }
    if (event.key === 'Escape' || event.key === 'Tab') { event.preventDefault(); close(); anchor.focus(); }
  });
  function close() {
    layer.remove();
    anchor.setAttribute('aria-expanded', 'false');
    openMenu = null;
  }
  document.body.appendChild(layer);
  anchor.setAttribute('aria-expanded', 'true');
  items[0].focus();
  openMenu = { close };
}

function nameProblem(value) {
  const name = value.trim();
  if (!name) return t('hint_name_empty');
  if (Array.from(name).length < 2 || Array.from(name).length > 32) return t('hint_name_rule');
  return null;
}

export function openActionForm(action) {
  const fields = {};
  const content = [];
  let submitText = t('create');
  if (action === 'add_friend') {
    fields.name = field({ label: t('friend_username'), name: 'friend-username', icon: 'user', maxlength: 32, hint: t('hint_username_lookup') });
    fields.greeting = field({ label: t('greeting'), name: 'greeting', maxlength: 200, placeholder: t('greeting_placeholder'), optional: true });
    submitText = t('send_request');
  } else {
    const isRoom = action.endsWith('room');
    fields.name = field({ label: t(isRoom ? 'room_name' : 'group_name'), name: 'name', icon: isRoom ? 'room' : 'group', maxlength: 32, hint: t('hint_name_rule') });
    if (action.startsWith('create')) {
      fields.description = field({ label: t('description'), name: 'description', maxlength: 200, multiline: true, rows: 2, optional: true });
    } else {
      submitText = t(action === 'join_group' ? 'join' : 'enter');
    }
  }
  content.push(...Object.values(fields).map((f) => f.el));
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', text: submitText });
  const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel') });
  const form = h('form', { class: 'modal-form', novalidate: true }, content, h('div', { class: 'modal-actions' }, cancel, submit));
  const dialog = modal({ title: t(action), content: [form], cls: 'modal--form', onClose: null });
  dialog.el.dataset.action = action;
  cancel.addEventListener('click', () => dialog.close());
  fields.name.input.addEventListener('input', () => {
    dialog.setError('');
    fields.name.setHint(t(action === 'add_friend' ? 'hint_username_lookup' : 'hint_name_rule'));
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    dialog.setError('');
    const name = fields.name.input.value.trim();
    const problem = action === 'add_friend'
      ? (!name ? t('hint_username_empty') : !USERNAME_RULE.test(name) ? t('hint_username_rule') : null)
      : nameProblem(name);
    if (problem) {
      fields.name.setError(problem);
      fields.name.input.focus();
      return;
    }
    if (action === 'add_friend' && state.me?.username && name.toLowerCase() === state.me.username.toLowerCase()) {
      fields.name.setError(t('err_self'));
      return;
    }
    dialog.setBusy(t('processing'));
    try {
      const description = fields.description?.input.value.trim();
      let conversationId = null;
      if (action === 'add_friend') {
        const result = await client.requestFriend({ username: name }, fields.greeting.input.value.trim());
        if (result.friend) {
          toast(t('now_friends', { name }));
          conversationId = result.friend.conversationId;
        } else {
          toast(t('request_sent', { name }));
        }
      } else if (action === 'create_group') {
        conversationId = (await client.createGroup(name, description)).id;
      } else if (action === 'join_group') {
        conversationId = (await client.joinGroup(name)).id;
      } else if (action === 'create_room') {
        conversationId = (await client.createRoom(name, description)).id;
      } else if (action === 'enter_room') {
        conversationId = (await client.enterRoom(name)).id;
      }
      dialog.setIdle();
      dialog.close();
      if (conversationId) go(`#/chats/c/${encodeURIComponent(conversationId)}`);
    } catch (error) {
      dialog.setIdle();
      let text = errorText(error);
      if (action === 'add_friend' && error.code === 'not_found') text = t('err_user_not_found');
      if (action === 'enter_room' && error.code === 'banned') text = t('err_room_banned');
      if (action === 'add_friend' && error.code === 'invalid_field' && error.field !== 'greeting') text = t('err_self');
      const onName = ['not_found', 'name_taken', 'invalid_name', 'already_friends', 'blocked', 'invalid_username'].includes(error.code)
        || (error.code === 'invalid_field' && error.field !== 'greeting' && error.field !== 'description');
      if (onName) {
        fields.name.setError(text);
        fields.name.input.focus();
      } else if (error.field === 'greeting' && fields.greeting) {
        fields.greeting.setError(text);
      } else if (error.field === 'description' && fields.description) {
        fields.description.setError(text);
      } else {
        dialog.setError(text);
      }
    }
  });
  return dialog;
}
