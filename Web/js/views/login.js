// Login: the last user's avatar and name remembered on this device, a show/hide password
// button, the button enabled only for valid input, per-field messages, a "logging in"
// state and a "login failed" screen with the reason.
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { api } from '../api.js';
import { avatar, field, setBusy } from '../ui.js';
import { lastUsername, rememberedAvatar } from '../client.js';
import { authFrame, showFailure, USERNAME_RULE, passwordBytes } from './authframe.js';

export function loginView({ onSignedIn, notice }) {
  const avatarSlot = h('div', { class: 'auth-avatar', 'aria-hidden': 'true' });
  const lastLabel = h('p', { class: 'auth-last', hidden: true });
  const username = field({ label: t('username'), name: 'username', autocomplete: 'username', icon: 'user', maxlength: 32, value: lastUsername() });
  const password = field({ label: t('password'), name: 'password', type: 'password', autocomplete: 'current-password', icon: 'lock', password: true, maxlength: 256 });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-block', text: t('login_button'), disabled: true });
  const status = h('p', { class: 'auth-notice', role: 'status', hidden: !notice, text: notice || '' });
  const form = h('form', { class: 'auth-form', novalidate: true, 'aria-label': t('login_button') },
    status, username.el, password.el, submit,
    h('a', { class: 'auth-switch', href: '#/phone' }, icon('phone', { size: 18 }), h('span', { text: t('phone_login') })));
  const touched = { username: false, password: false };

  function paintAvatar() {
    const name = username.input.value.trim();
    const remembered = rememberedAvatar(name);
    avatarSlot.replaceChildren(remembered
      ? avatar({ src: remembered.avatar, name: remembered.name || name, seed: remembered.id, size: 'xl' })
      : h('span', { class: 'avatar avatar--xl avatar--placeholder' }, icon('user', { size: 44 })));
    lastLabel.hidden = !(remembered && name && name.toLowerCase() === lastUsername().toLowerCase());
    lastLabel.textContent = t('last_user');
  }

  function check() {
    const name = username.input.value.trim();
    const pass = password.input.value;
    const nameOK = USERNAME_RULE.test(name);
    const passOK = passwordBytes(pass) >= 8 && passwordBytes(pass) <= 256;
    if (touched.username) {
      if (!name) username.setError(t('hint_username_empty'));
      else if (!nameOK) username.setError(t('hint_username_rule'));
      else username.setError('');
    }
    if (touched.password) {
      if (!pass) password.setError(t('hint_password_empty'));
      else if (!passOK) password.setError(t('hint_password_rule'));
      else password.setError('');
    }
    submit.disabled = !(nameOK && passOK);
    return nameOK && passOK;
  }

  username.input.addEventListener('input', () => { paintAvatar(); if (username.input.value) touched.username = true; check(); });
  username.input.addEventListener('blur', () => { touched.username = true; check(); });
  password.input.addEventListener('input', () => { if (password.input.value) touched.password = true; check(); });
  password.input.addEventListener('blur', () => { touched.password = true; check(); });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    touched.username = touched.password = true;
    if (!check()) return;
    status.hidden = true;
    setBusy(submit, true, t('logging_in'));
    username.input.disabled = password.input.disabled = true;
    form.setAttribute('aria-busy', 'true');
    try {
      const result = await api.login(username.input.value.trim(), password.input.value);
      onSignedIn(result);
    } catch (error) {
      setBusy(submit, false);
      username.input.disabled = password.input.disabled = false;
      form.removeAttribute('aria-busy');
      showFailure(form.parentElement, form, {
        title: t('login_failed'),
        reason: errorText(error),
        onRetry: () => {
          password.input.value = '';
          touched.password = false;
          password.setError('');
          check();
          password.input.focus();
        },
      });
    }
  });

  paintAvatar();
  check();
  const footer = [h('span', { text: t('no_account') }), ' ', h('a', { href: '#/register', text: t('register_link') })];
  const el = authFrame({ title: t('login_title'), subtitle: t('login_subtitle'), top: [avatarSlot, lastLabel], body: form, footer });
  return {
    el,
    focus: () => (username.input.value ? password.input : username.input).focus(),
  };
}
