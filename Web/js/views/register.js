// Register: username, password, password again; every empty field and the mismatch get
// their own message; "registering…" on the button and a "registration failed" screen.
import { h } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { api } from '../api.js';
import { field, setBusy } from '../ui.js';
import { authFrame, showFailure, USERNAME_RULE, passwordBytes } from './authframe.js';

export function registerView({ onSignedIn }) {
  const username = field({ label: t('username'), name: 'username', autocomplete: 'username', icon: 'user', maxlength: 32, hint: t('hint_username_rule') });
  const password = field({ label: t('password'), name: 'new-password', type: 'password', autocomplete: 'new-password', icon: 'lock', password: true, maxlength: 256, hint: t('hint_password_rule') });
  const again = field({ label: t('password_again'), name: 'password-again', type: 'password', autocomplete: 'new-password', icon: 'lock', password: true, maxlength: 256 });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-block', text: t('register_button') });
  const form = h('form', { class: 'auth-form', novalidate: true, 'aria-label': t('register_button') }, username.el, password.el, again.el, submit);
  const touched = new Set();

  function validate(all = false) {
    const name = username.input.value.trim();
    const pass = password.input.value;
    const repeat = again.input.value;
    const problems = {};
    if (!name) problems.username = t('hint_username_empty');
    else if (!USERNAME_RULE.test(name)) problems.username = t('hint_username_rule');
    if (!pass) problems.password = t('hint_password_empty');
    else if (passwordBytes(pass) < 8 || passwordBytes(pass) > 256) problems.password = t('hint_password_rule');
    if (!repeat) problems.again = t('hint_password_again_empty');
    else if (repeat !== pass) problems.again = t('hint_password_mismatch');
    const show = (key, f, hint) => {
      if (!all && !touched.has(key)) return;
      if (problems[key]) f.setError(problems[key]);
      else if (hint) f.setHint(hint);
      else f.setError('');
    };
    show('username', username, t('hint_username_rule'));
    show('password', password, t('hint_password_rule'));
    show('again', again, null);
    // Like Login's, the button waits until every field has something in it; what is wrong
    // with filled fields is said when it is pressed.
    submit.disabled = !name || !pass || !repeat;
    return problems;
  }

  for (const [key, f] of [['username', username], ['password', password], ['again', again]]) {
    // Leaving a field, even empty, names its problem (the button cannot be pressed yet).
    f.input.addEventListener('blur', () => { touched.add(key); validate(); });
    f.input.addEventListener('input', () => { if (touched.has(key) || (key === 'again' && f.input.value.length >= password.input.value.length)) touched.add(key); validate(); });
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const problems = validate(true);
    const firstBad = ['username', 'password', 'again'].find((k) => problems[k]);
    if (firstBad) {
      ({ username, password, again })[firstBad].input.focus();
      return;
    }
    setBusy(submit, true, t('registering'));
    for (const f of [username, password, again]) f.input.disabled = true;
    try {
      onSignedIn(await api.register(username.input.value.trim(), password.input.value));
    } catch (error) {
      setBusy(submit, false);
      for (const f of [username, password, again]) f.input.disabled = false;
      showFailure(form.parentElement, form, {
        title: t('register_failed'),
        reason: errorText(error),
        onRetry: () => {
          if (error.code === 'username_taken' || error.code === 'invalid_username') {
            username.setError(errorText(error));
            username.input.focus();
          } else {
            password.input.focus();
          }
        },
      });
    }
  });

  validate();
  const footer = [h('span', { text: t('have_account') }), ' ', h('a', { href: '#/login', text: t('login_link') })];
  return {
    el: authFrame({ title: t('register_title'), subtitle: t('register_subtitle'), body: form, footer }),
    focus: () => username.input.focus(),
  };
}
