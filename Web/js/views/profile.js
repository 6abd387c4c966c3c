// Me: id, username, nickname, avatar (upload or URL), signature, age and hobbies, with an
// edit mode; the language switch; log out.
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText, languageSetting, setLanguage } from '../i18n.js';
import { state, on, displayName } from '../store.js';
import { avatar, field, setBusy, connectionBanner, toast, emojiText, confirmDialog } from '../ui.js';
import * as client from '../client.js';
import { USERNAME_RULE } from './authframe.js';
import { notificationState, enableNotifications, disableNotifications } from '../push.js';
import { securitySection } from './security.js';
import { openAdmin, isAdministrator } from './admin.js';

export function hobbyChips(hobbies, cls = '') {
  return h('ul', { class: `chips ${cls}`.trim(), role: 'list' }, (hobbies || []).map((hobby) => h('li', { class: 'chip', text: hobby })));
}

export function kvRow(label, value, { mono = false } = {}) {
  // Text values go through emojiText so emoji such as ☕ show in colour, as in the header.
  const valueEl = value instanceof Node ? value
    : emojiText(value || t('not_set'), `kv-value${mono ? ' is-mono' : ''}${value ? '' : ' is-empty'}`);
  // Each pair is its own <dl> so the list reads the same to every checker and screen reader.
  return h('dl', { class: 'kv' }, h('dt', { class: 'kv-label', text: label }), h('dd', { class: 'kv-data' }, valueEl));
}

export function profileView() {
  let editing = false;
  const editButton = h('button', { type: 'button', class: 'btn btn-ghost topbar-text-btn' }, icon('edit', { size: 18 }), h('span', { text: t('edit') }));
  const content = h('div', { class: 'profile-page' });
  const el = h('section', { class: 'view view--profile', 'aria-labelledby': 'me-title' },
    h('header', { class: 'topbar' }, h('h1', { class: 'topbar-title', id: 'me-title', text: t('me_title') }), editButton),
    connectionBanner(),
    h('div', { class: 'scroll' }, content));

  let currentForm = null;
  let administrator = false;
  isAdministrator().then((yes) => {
    administrator = yes;
    if (yes && !editing) render();
  });
  // In edit mode the top bar's button saves, so it is in reach without scrolling.
  editButton.addEventListener('click', () => {
    if (editing && currentForm) {
      currentForm.requestSubmit();
      return;
    }
    editing = true;
    render();
  });

  function hero(me, src = me.avatar) {
    return h('div', { class: 'hero card' },
      avatar({ src, name: displayName(me, me.id), seed: me.id, size: 'xl' }),
      h('div', { class: 'hero-text' },
        emojiText(displayName(me, me.id), 'hero-name', 'h2'),
        me.username ? h('p', { class: 'hero-handle', text: `@${me.username}` }) : null,
        me.signature ? emojiText(me.signature, 'hero-signature', 'p') : null));
  }

  function settingsCard() {
    const current = languageSetting();
    const options = [['auto', t('lang_auto')], ['zh', '中文'], ['en', 'English']];
    const group = h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': t('language') },
      options.map(([value, label]) => h('button', {
        type: 'button', role: 'radio', class: `segment${current === value ? ' is-on' : ''}`,
        'aria-checked': String(current === value), dataset: { lang: value }, text: label,
        onclick: () => setLanguage(value),
      })));
    const logout = h('button', { type: 'button', class: 'btn btn-danger-outline btn-block logout' }, icon('logout', { size: 18 }), h('span', { text: t('logout') }));
    logout.addEventListener('click', async () => {
      if (!(await confirmDialog(t('confirm_logout_title'), t('confirm_logout'), { danger: true, confirmText: t('logout') }))) return;
      setBusy(logout, true, t('logging_out'));
      await client.end();
    });
    return [
      h('div', { class: 'card settings' },
        h('div', { class: 'setting' }, h('span', { class: 'setting-label' }, icon('globe', { size: 20 }), h('span', { text: t('language') })), group),
        ...notificationSettings()),
      privacyCard(),
      logout,
    ];
  }

  // The switch asks the browser's permission only when flipped on.
  function notificationSettings() {
    const status = notificationState();
    const toggle = h('input', { type: 'checkbox', role: 'switch', class: 'switch', id: 'notifications-switch',
      checked: status === 'on', 'aria-checked': String(status === 'on'), disabled: status === 'unsupported' || status === 'denied' });
    const note = h('p', { class: 'note setting-note', id: 'notifications-note',
      text: status === 'unsupported' ? t('notifications_unsupported') : status === 'denied' ? t('notifications_denied') : t('notifications_hint') });
    toggle.setAttribute('aria-describedby', 'notifications-note');
    toggle.addEventListener('change', async () => {
      toggle.disabled = true;
      try {
        const now = toggle.checked ? await enableNotifications() : await disableNotifications();
        toast(now === 'on' ? t('notifications_on') : now === 'denied' ? t('notifications_denied') : t('notifications_off'));
      } catch (error) {
        toast(errorText(error), 'error');
      }
      render();
    });
    const current = state.me?.notificationPreview || 'full';
    const previews = [['full', t('preview_full')], ['sender', t('preview_sender')], ['nothing', t('preview_nothing')]];
    const preview = h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': t('notification_preview') },
      previews.map(([value, label]) => h('button', {
        type: 'button', role: 'radio', class: `segment${current === value ? ' is-on' : ''}`,
        'aria-checked': String(current === value), dataset: { preview: value }, text: label,
        onclick: async () => {
          try {
            await client.updateProfile({ notificationPreview: value });
          } catch (error) {
            toast(errorText(error), 'error');
          }
        },
      })));
    return [
      h('div', { class: 'setting' },
        h('label', { class: 'setting-label', for: 'notifications-switch' }, icon('bell', { size: 20 }), h('span', { text: t('notifications') })), toggle),
      note,
      h('div', { class: 'setting' }, h('span', { class: 'setting-label' }, icon('bell', { size: 20 }), h('span', { text: t('notification_preview') })), preview),
    ];
  }

  /** Read receipts, typing and last seen (`privacy.get` / `privacy.set`), saved on each change. */
  function privacyCard() {
    const receipts = h('input', { type: 'checkbox', class: 'privacy-read-receipts', disabled: true });
    const typing = h('input', { type: 'checkbox', class: 'privacy-typing', disabled: true });
    const lastSeen = h('select', { class: 'privacy-last-seen', disabled: true, 'aria-label': t('privacy_last_seen') },
      ['everyone', 'friends', 'nobody'].map((value) => h('option', { value, text: t(`last_seen_${value}`) })));
    const save = async () => {
      try {
        await client.setPrivacy({ readReceipts: receipts.checked, typing: typing.checked, lastSeen: lastSeen.value });
        toast(t('privacy_saved'));
      } catch (error) {
        toast(errorText(error), 'error');
      }
    };
    for (const input of [receipts, typing, lastSeen]) input.addEventListener('change', save);
    client.privacy().then((settings) => {
      receipts.checked = settings.readReceipts;
      typing.checked = settings.typing;
      lastSeen.value = settings.lastSeen;
      for (const input of [receipts, typing, lastSeen]) input.disabled = false;
    }).catch(() => {});
    const row = (control, label) => h('label', { class: 'setting setting--privacy' }, h('span', { class: 'setting-label', text: label }), control);
    return h('div', { class: 'card settings privacy-settings', role: 'group', 'aria-label': t('privacy_title') },
      h('h2', { class: 'settings-title', text: t('privacy_title') }),
      row(receipts, t('privacy_read_receipts')),
      row(typing, t('privacy_typing')),
      row(lastSeen, t('privacy_last_seen')));
  }

  function viewMode(me) {
    const rows = h('div', { class: 'card kv-list' },
      kvRow(t('id'), me.id, { mono: true }),
      kvRow(t('username'), me.username),
      kvRow(t('nickname'), me.nickname),
      kvRow(t('signature'), me.signature),
      kvRow(t('age'), me.age ? String(me.age) : ''),
      kvRow(t('hobbies'), me.hobbies && me.hobbies.length ? hobbyChips(me.hobbies) : ''),
      me.phone ? kvRow(t('phone_field'), me.phone, { mono: true }) : null);
    const notice = me.username ? null : h('div', { class: 'notice card' }, icon('info', { size: 20 }), h('p', { text: t('set_username_hint') }));
    // Only administrators see the way to the admin pages (the server decides who they are).
    const adminEntry = administrator
      ? h('div', { class: 'card admin-entry' }, h('button', { type: 'button', class: 'btn btn-secondary btn-block', dataset: { action: 'open-admin' },
        onclick: () => openAdmin() }, icon('info', { size: 18 }), h('span', { text: t('admin_open') })))
      : '';
    content.replaceChildren(hero(me), notice || '', rows, securitySection(me), adminEntry, ...settingsCard());
  }

  function editMode(me) {
    const f = {};
    if (!me.username) f.username = field({ label: t('username'), maxlength: 32, icon: 'user', hint: t('username_once'), autocomplete: 'username' });
    f.nickname = field({ label: t('nickname'), value: me.nickname || '', maxlength: 32, hint: t('hint_nickname') });
    f.avatar = field({ label: t('avatar_url'), value: me.avatar || '', maxlength: 512, type: 'url', hint: t('hint_avatar_url'), placeholder: 'https://' });
    f.signature = field({ label: t('signature'), value: me.signature || '', maxlength: 200, multiline: true, rows: 2, placeholder: t('signature_placeholder'), hint: t('hint_signature') });
    f.age = field({ label: t('age'), value: me.age ? String(me.age) : '', type: 'number', inputmode: 'numeric', min: 1, max: 150, hint: t('hint_age') });
    f.hobbies = field({ label: t('hobbies'), value: (me.hobbies || []).join(', '), maxlength: 300, hint: t('hobbies_hint') });
    const fileInput = h('input', { type: 'file', accept: 'image/png,image/jpeg,image/gif,image/webp', class: 'visually-hidden', tabindex: '-1', 'aria-hidden': 'true' });
    const upload = h('button', { type: 'button', class: 'btn btn-secondary upload-btn' }, icon('camera', { size: 18 }), h('span', { text: t('upload_avatar') }));
    const heroSlot = h('div', {}, hero(me));
    const refreshHero = () => heroSlot.replaceChildren(hero(me, f.avatar.input.value.trim()));
    f.avatar.input.addEventListener('change', refreshHero);
    upload.addEventListener('click', () => fileInput.click());
    fileInput.addEventListener('change', async () => {
      const file = fileInput.files[0];
      fileInput.value = '';
      if (!file) return;
      setBusy(upload, true, t('uploading'));
      try {
        const media = await client.uploadImage(file);
        f.avatar.input.value = media.url;
        f.avatar.setHint(t('hint_avatar_url'));
        refreshHero();
      } catch (error) {
        f.avatar.setError(errorText(error));
      } finally {
        setBusy(upload, false);
      }
    });
    f.avatar.el.appendChild(h('div', { class: 'field-extra' }, upload, fileInput));

    const save = h('button', { type: 'submit', class: 'btn btn-primary', text: t('save') });
    const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel'), onclick: () => { editing = false; render(); } });
    const form = h('form', { class: 'card edit-form', novalidate: true, 'aria-label': t('edit_profile') },
      Object.values(f).map((x) => x.el), h('div', { class: 'form-actions' }, cancel, save));

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      for (const x of Object.values(f)) x.setError('');
      const changes = {};
      let bad = null;
      const flag = (key, text) => { f[key].setError(text); bad = bad || key; };
      if (f.username) {
        const name = f.username.input.value.trim();
        if (name) {
          if (!USERNAME_RULE.test(name)) flag('username', t('hint_username_rule'));
          else changes.username = name;
        }
      }
      const text = (key, limit) => {
        const value = f[key].input.value.trim();
        if (Array.from(value).length > limit) flag(key, t(`hint_${key}`));
        if (value !== (me[key] || '')) changes[key] = value ? value : null;
      };
      text('nickname', 32);
      text('signature', 200);
      const avatarValue = f.avatar.input.value.trim();
      if (avatarValue && !/^https?:\/\//i.test(avatarValue) && !avatarValue.startsWith('/v1/media/')) flag('avatar', t('hint_avatar_url'));
      if (avatarValue !== (me.avatar || '')) changes.avatar = avatarValue || null;
      const ageText = f.age.input.value.trim();
      if (ageText) {
        const age = Number(ageText);
        if (!Number.isInteger(age) || age < 1 || age > 150) flag('age', t('hint_age'));
        else if (age !== me.age) changes.age = age;
      } else if (me.age) changes.age = null;
      const hobbies = f.hobbies.input.value.split(/[,，、]/).map((x) => x.trim()).filter(Boolean);
      if (hobbies.length > 10 || hobbies.some((x) => Array.from(x).length > 24)) flag('hobbies', t('hint_hobbies'));
      if (JSON.stringify(hobbies) !== JSON.stringify(me.hobbies || [])) changes.hobbies = hobbies;
      if (bad) {
        f[bad].input.focus();
        return;
      }
      if (!Object.keys(changes).length) {
        editing = false;
        render();
        return;
      }
      setBusy(save, true, t('saving'));
      cancel.disabled = true;
      editButton.disabled = true;
      try {
        await client.updateProfile(changes);
        editing = false;
        editButton.disabled = false;
        toast(t('saved'));
        render();
      } catch (error) {
        setBusy(save, false);
        cancel.disabled = false;
        editButton.disabled = false;
        const key = error.field && f[error.field] ? error.field : (error.code === 'username_taken' || error.code === 'invalid_username') && f.username ? 'username' : null;
        if (key) {
          f[key].setError(errorText(error));
          f[key].input.focus();
        } else {
          toast(errorText(error), 'error');
        }
      }
    });
    currentForm = form;
    content.replaceChildren(heroSlot, form);
    requestAnimationFrame(() => (f.username || f.nickname).input.focus());
  }

  function render() {
    const me = state.me;
    if (!me) return;
    if (!editing) currentForm = null;
    editButton.replaceChildren(icon(editing ? 'check' : 'edit', { size: 18 }), h('span', { text: t(editing ? 'save' : 'edit') }));
    if (editing) editMode(me);
    else viewMode(me);
  }

  const off = on('me', () => { if (!editing) render(); });
  render();
  return {
    el,
    startEditing() {
      editing = true;
      render();
    },
    destroy: off,
  };
}
