// Shared pieces of the interface: avatars, badges, fields, buttons with spinners, modal
// dialogs with a "processing…" layer, toasts, the lightbox and the connection banner.
import { h, safeURL, uid, setTextWithEmoji } from './dom.js';
import { splitEmoji } from './emoticons.js';
import { icon } from './icons.js';
import { t } from './i18n.js';
import { state, on, displayName } from './store.js';

// ---- Avatars ----

function hashColour(seed) {
  let hash = 0;
  for (const ch of String(seed || '')) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return hash % 8;
}

function initial(name) {
  const clean = String(name || '').replace(/^ID: /, '#').trim();
  const first = Array.from(clean)[0] || '?';
  return first.toUpperCase();
}

/** An avatar: the picture when there is one that loads, else a coloured tile with an initial. */
export function avatar({ src, name, seed, kind = 'user', size = 'md', cls = '' } = {}) {
  const el = h('span', { class: `avatar avatar--${size} av-c${hashColour(seed ?? name)} ${cls}`.trim(), 'aria-hidden': 'true' });
  const fallback = () => {
    el.replaceChildren();
    if (kind === 'group') el.appendChild(icon('group', { cls: 'avatar-icon' }));
    else if (kind === 'room') el.appendChild(icon('room', { cls: 'avatar-icon' }));
    else el.appendChild(h('span', { class: 'avatar-initial', text: initial(name) }));
  };
  const url = safeURL(src);
  if (url) {
    const img = h('img', { alt: '', loading: 'lazy', decoding: 'async', draggable: 'false', referrerpolicy: 'no-referrer' });
    img.addEventListener('error', fallback, { once: true });
    img.src = url;
    el.appendChild(img);
    el.classList.add('has-img');
  } else {
    fallback();
  }
  return el;
}

// Elements that show a user's name or avatar follow the users cache as profiles arrive.
const bound = [];
on('users', () => {
  for (let i = bound.length - 1; i >= 0; i--) {
    const entry = bound[i];
    if (!entry.el.isConnected) {
      if (entry.seen) bound.splice(i, 1);
      continue;
    }
    entry.seen = true;
    entry.render(entry.el);
  }
});

/** Calls render(el) now and again whenever a user profile changes, while el is on screen. */
export function live(el, render) {
  render(el);
  bound.push({ el, render, seen: false });
  return el;
}

export function userAvatar(id, size = 'md', cls = '') {
  const holder = h('span', { class: 'avatar-holder' });
  let lastKey = null;
  return live(holder, (el) => {
    const user = state.users.get(id);
    const key = `${user?.avatar || ''}|${displayName(user, id)}`;
    if (key === lastKey) return;
    lastKey = key;
    el.replaceChildren(avatar({ src: user?.avatar, name: displayName(user, id), seed: id, size, cls }));
  });
}

export function userNameText(id, cls = '') {
  return live(h('span', { class: cls }), (el) => {
    setTextWithEmoji(el, displayName(state.users.get(id), id), splitEmoji);
  });
}

/** A span whose text shows emoji in colour. */
export function emojiText(text, cls = '', tag = 'span') {
  return setTextWithEmoji(h(tag, { class: cls }), text, splitEmoji);
}

// ---- Badges and spinners ----

export function badgeText(count) {
  return count > 99 ? '99+' : String(count);
}

export function badge(count, cls = '') {
  const el = h('span', { class: `badge ${cls}`.trim() });
  setBadge(el, count);
  return el;
}

export function setBadge(el, count) {
  el.textContent = count > 0 ? badgeText(count) : '';
  el.hidden = !(count > 0);
  el.setAttribute('aria-label', count > 0 ? t('unread_n', { n: count }) : '');
}

export const spinner = (cls = '') => h('span', { class: `spinner ${cls}`.trim(), 'aria-hidden': 'true' });

/** Puts a button into its waiting state (spinner, disabled, a label for screen readers). */
export function setBusy(button, busy, busyText) {
  if (busy) {
    if (!button.savedChildren) button.savedChildren = [...button.childNodes];
    button.disabled = true;
    button.classList.add('is-busy');
    button.setAttribute('aria-busy', 'true');
    const label = busyText || button.textContent.trim();
    button.replaceChildren(spinner(), label ? h('span', { text: label }) : '');
  } else {
    button.classList.remove('is-busy');
    button.removeAttribute('aria-busy');
    if (button.savedChildren) button.replaceChildren(...button.savedChildren);
    button.savedChildren = null;
    button.disabled = false;
  }
}

export function iconButton(name, label, onclick, cls = '') {
  return h('button', { type: 'button', class: `icon-btn ${cls}`.trim(), 'aria-label': label, title: label, onclick }, icon(name));
}

// ---- Form fields ----

/**
 * A labelled input with a message line under it. Options: label, type, value, placeholder,
 * maxlength, inputmode, autocomplete, name, icon, password (adds the show/hide toggle),
 * multiline.
 */
export function field(options) {
  const id = uid('f');
  const messageId = `${id}-msg`;
  const input = options.multiline
    ? h('textarea', { id, name: options.name, rows: options.rows || 3, maxlength: options.maxlength, placeholder: options.placeholder || '', 'aria-describedby': messageId })
    : h('input', {
      id, name: options.name, type: options.type || 'text', placeholder: options.placeholder || '',
      maxlength: options.maxlength, inputmode: options.inputmode, autocomplete: options.autocomplete || 'off',
      autocapitalize: options.autocapitalize || 'off', spellcheck: 'false', 'aria-describedby': messageId,
      min: options.min, max: options.max, pattern: options.pattern,
    });
  if (options.value != null) input.value = options.value;
  const box = h('div', { class: 'input-box' }, options.icon ? icon(options.icon, { cls: 'input-icon' }) : null, input);
  if (options.password) {
    const toggle = h('button', { type: 'button', class: 'input-toggle', 'aria-label': t('show_password'), title: t('show_password'), 'aria-pressed': 'false' }, icon('eye'));
    toggle.addEventListener('click', () => {
      const show = input.type === 'password';
      input.type = show ? 'text' : 'password';
      toggle.replaceChildren(icon(show ? 'eyeOff' : 'eye'));
      const label = show ? t('hide_password') : t('show_password');
      toggle.setAttribute('aria-label', label);
      toggle.title = label;
      toggle.setAttribute('aria-pressed', String(show));
      input.focus();
    });
    box.appendChild(toggle);
    box.classList.add('has-toggle');
  }
  const message = h('p', { class: 'field-msg', id: messageId, 'aria-live': 'polite' });
  const labelEl = h('label', { class: 'field-label', htmlFor: id, text: options.label });
  if (options.optional) labelEl.appendChild(h('span', { class: 'field-optional', text: ` · ${t('optional')}` }));
  const el = h('div', { class: `field ${options.cls || ''}`.trim() }, labelEl, box, message);
  const api = {
    el, input, box,
    setError(text) {
      message.textContent = text || '';
      message.classList.toggle('is-error', !!text);
      message.classList.remove('is-hint');
      el.classList.toggle('has-error', !!text);
      input.setAttribute('aria-invalid', text ? 'true' : 'false');
    },
    setHint(text) {
      message.textContent = text || '';
      message.classList.remove('is-error');
      message.classList.toggle('is-hint', !!text);
      el.classList.remove('has-error');
      input.setAttribute('aria-invalid', 'false');
    },
  };
  if (options.hint) api.setHint(options.hint);
  return api;
}

// ---- Modal dialogs ----

const openModals = [];
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && openModals.length) {
    const top = openModals[openModals.length - 1];
    if (!top.busy) {
      event.preventDefault();
      top.close();
    }
  }
});

/**
 * Opens a dialog. content: nodes; actions: buttons. Returns {el, body, close, busy(text),
 * idle(), setError(text)}. Esc, the close button and the backdrop close it unless busy.
 */
export function modal({ title, content = [], actions = [], onClose, cls = '', dismissable = true }) {
  const titleId = uid('dlg');
  const previousFocus = document.activeElement;
  const error = h('p', { class: 'modal-error', role: 'alert', hidden: true });
  const body = h('div', { class: 'modal-body' }, content, error);
  const busyLayer = h('div', { class: 'modal-busy', hidden: true, role: 'status' }, spinner('spinner--lg'), h('span', { class: 'modal-busy-text' }));
  const closeButton = dismissable ? iconButton('close', t('close'), () => handle.close(), 'modal-close') : null;
  const dialog = h('div', { class: `modal ${cls}`.trim(), role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId },
    h('div', { class: 'modal-head' }, h('h2', { class: 'modal-title', id: titleId, text: title }), closeButton),
    body,
    actions.length ? h('div', { class: 'modal-actions' }, actions) : null,
    busyLayer);
  const backdrop = h('div', { class: 'modal-backdrop' }, dialog);
  backdrop.addEventListener('pointerdown', (event) => {
    if (event.target === backdrop && dismissable && !handle.busy) handle.close();
  });
  dialog.addEventListener('keydown', (event) => trapFocus(event, dialog));
  const handle = {
    el: dialog, body, busy: false, closed: false,
    close() {
      if (handle.closed) return;
      handle.closed = true;
      const index = openModals.indexOf(handle);
      if (index >= 0) openModals.splice(index, 1);
      backdrop.classList.add('is-leaving');
      setTimeout(() => backdrop.remove(), 160);
      if (previousFocus && previousFocus.focus && previousFocus.isConnected) previousFocus.focus();
      onClose?.();
    },
    setBusy(text) {
      handle.busy = true;
      busyLayer.querySelector('.modal-busy-text').textContent = text || t('processing');
      busyLayer.hidden = false;
      dialog.setAttribute('aria-busy', 'true');
    },
    setIdle() {
      handle.busy = false;
      busyLayer.hidden = true;
      dialog.removeAttribute('aria-busy');
    },
    setError(text) {
      error.textContent = text || '';
      error.hidden = !text;
    },
  };
  openModals.push(handle);
  document.body.appendChild(backdrop);
  requestAnimationFrame(() => {
    const first = dialog.querySelector('input, textarea, select, button.btn-primary, button:not(.modal-close)');
    (first || dialog).focus?.();
  });
  return handle;
}

function trapFocus(event, container) {
  if (event.key !== 'Tab') return;
  const focusable = [...container.querySelectorAll('button, [href], input, textarea, select, [tabindex]:not([tabindex="-1"])')]
    .filter((el) => !el.disabled && el.offsetParent !== null);
  if (!focusable.length) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * Asks a yes/no question; resolves true when confirmed. `title` names the action as a
 * question ("Leave the group?"), `text` says what follows from it.
 */
export function confirmDialog(title, text, { confirmText = t('confirm'), danger = false } = {}) {
  return new Promise((resolve) => {
    let answered = false;
    const finish = (value) => {
      if (answered) return;
      answered = true;
      resolve(value);
      dialog.close();
    };
    const ok = h('button', { type: 'button', class: `btn ${danger ? 'btn-danger' : 'btn-primary'}`, text: confirmText, onclick: () => finish(true) });
    const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel'), onclick: () => finish(false) });
    const dialog = modal({ title, content: [h('p', { class: 'modal-text', text })], actions: [cancel, ok], cls: 'modal--small modal--confirm', onClose: () => finish(false) });
  });
}

// ---- Toasts ----

let toastHost = null;
export function toast(text, kind = 'info') {
  if (!toastHost || !toastHost.isConnected) {
    toastHost = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(toastHost);
  }
  const el = h('div', { class: `toast toast--${kind}` }, icon(kind === 'error' ? 'alert' : 'check', { size: 18 }), h('span', { text }));
  toastHost.appendChild(el);
  setTimeout(() => {
    el.classList.add('is-leaving');
    setTimeout(() => el.remove(), 200);
  }, kind === 'error' ? 4500 : 2800);
}

// ---- Lightbox ----

export function openLightbox(src, alt) {
  const img = h('img', { class: 'lightbox-img', alt: alt || t('image') });
  img.src = src;
  const close = () => {
    document.removeEventListener('keydown', onKey, true);
    backdrop.remove();
    if (opener && opener.isConnected) opener.focus();
  };
  const onKey = (event) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
    }
  };
  const opener = document.activeElement;
  const closeButton = iconButton('close', t('close'), close, 'lightbox-close');
  const backdrop = h('div', { class: 'lightbox', role: 'dialog', 'aria-modal': 'true', 'aria-label': t('image') }, img, closeButton);
  backdrop.addEventListener('click', (event) => { if (event.target !== img) close(); });
  document.addEventListener('keydown', onKey, true);
  document.body.appendChild(backdrop);
  closeButton.focus();
}

// ---- The connection banner ----

// Views are built once and kept while off screen (a dialogue left for the list comes back
// later), so a banner stays in this set even while detached: dropping it then would leave it
// showing a stale state when its view returns. Weak references let banners of destroyed
// views go with them.
const banners = new Set();
let countdown = null;
let connectingSince = 0;

/** A slim status line under a top bar; every banner on screen shows the same state. */
export function connectionBanner() {
  const text = h('span', { class: 'conn-text' });
  const retry = h('button', { type: 'button', class: 'conn-retry', text: t('retry_now') });
  const el = h('div', { class: 'conn-banner', role: 'status', 'aria-live': 'polite', hidden: true },
    icon('offline', { size: 16, cls: 'conn-icon' }), spinner('spinner--sm conn-spinner'), text, retry);
  retry.addEventListener('click', () => el.dispatchEvent(new CustomEvent('parley-retry', { bubbles: true })));
  banners.add(new WeakRef(el));
  paintBanner(el);
  return el;
}

function bannerState() {
  const c = state.connection || {};
  if (c.status === 'offline') {
    const seconds = Math.max(1, Math.ceil(((c.retryAt || Date.now()) - Date.now()) / 1000));
    return { show: true, kind: 'offline', text: t('retrying_in', { n: seconds }) };
  }
  if (c.status === 'connecting' && (c.everOnline || Date.now() - connectingSince > 1200)) {
    return { show: true, kind: 'connecting', text: t('connecting') };
  }
  return { show: false };
}

function paintBanner(el) {
  const s = bannerState();
  el.hidden = !s.show;
  el.dataset.kind = s.kind || '';
  el.querySelector('.conn-text').textContent = s.text || '';
  el.querySelector('.conn-retry').textContent = t('retry_now');
}

function paintAll() {
  for (const ref of [...banners]) {
    const el = ref.deref();
    if (el) paintBanner(el);
    else banners.delete(ref);
  }
}

on('connection', (c) => {
  if (c.status === 'connecting' && !connectingSince) connectingSince = Date.now();
  if (c.status === 'online' || c.status === 'stopped') connectingSince = 0;
  paintAll();
  clearInterval(countdown);
  if (c.status === 'offline' || c.status === 'connecting') countdown = setInterval(paintAll, 500);
});
