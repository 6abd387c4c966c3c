// Phone login: a number and an SMS code with length limits and inline hints; "get code"
// counts down from the server's retryAfterSeconds (also after a 429).
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { api } from '../api.js';
import { field, setBusy } from '../ui.js';
import { authFrame, showFailure } from './authframe.js';

const PHONE_RULE = /^(1\d{10}|\+\d{8,15})$/;
const cleanPhone = (value) => value.replace(/[\s-]/g, '');

export function phoneView({ onSignedIn }) {
  let codeLength = 6;
  let countdown = null;
  let secondsLeft = 0;
  const phone = field({ label: t('phone'), name: 'tel', type: 'tel', inputmode: 'tel', autocomplete: 'tel', icon: 'phone', maxlength: 16, placeholder: t('phone_placeholder') });
  const code = field({ label: t('code'), name: 'one-time-code', inputmode: 'numeric', autocomplete: 'one-time-code', icon: 'lock', maxlength: codeLength, placeholder: t('code_placeholder', { n: codeLength }) });
  const getCode = h('button', { type: 'button', class: 'btn btn-secondary get-code', text: t('get_code'), disabled: true });
  phone.box.appendChild(getCode);
  phone.box.classList.add('has-action');
  const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-block', text: t('login_button'), disabled: true });
  const form = h('form', { class: 'auth-form', novalidate: true, 'aria-label': t('phone_login') }, phone.el, code.el, submit,
    h('a', { class: 'auth-switch', href: '#/login' }, icon('user', { size: 18 }), h('span', { text: t('password_login') })));

  const phoneOK = () => PHONE_RULE.test(cleanPhone(phone.input.value));
  const codeOK = () => new RegExp(`^\\d{${codeLength}}$`).test(code.input.value);

  let phoneNote = '';
  let phoneError = '';

  function check() {
    const raw = cleanPhone(phone.input.value);
    if (raw && !phoneOK() && (raw.length >= 11 || document.activeElement !== phone.input)) phone.setError(t('hint_phone'));
    else if (phoneError) phone.setError(phoneError);
    else phone.setHint(phoneNote);
    const c = code.input.value;
    if (c && !codeOK() && (c.length >= codeLength || document.activeElement !== code.input)) code.setError(t('hint_code', { n: codeLength }));
    else if (!c || codeOK()) code.setError('');
    getCode.disabled = !phoneOK() || secondsLeft > 0 || getCode.classList.contains('is-busy');
    submit.disabled = !(phoneOK() && codeOK());
  }

  phone.input.addEventListener('input', () => {
    // Digits only (a leading + for international numbers); a mainland number stops at 11.
    let filtered = phone.input.value.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
    filtered = filtered.startsWith('+') ? filtered.slice(0, 16) : filtered.slice(0, 11);
    if (filtered !== phone.input.value) phone.input.value = filtered;
    phoneError = '';
    phoneNote = '';
    check();
  });
  phone.input.addEventListener('blur', check);
  code.input.addEventListener('input', () => {
    const digits = code.input.value.replace(/\D/g, '').slice(0, codeLength);
    if (digits !== code.input.value) code.input.value = digits;
    check();
  });
  code.input.addEventListener('blur', check);

  function startCountdown(seconds) {
    secondsLeft = Math.max(1, Math.ceil(seconds));
    clearInterval(countdown);
    const paint = () => {
      if (!getCode.isConnected && countdown) {
        clearInterval(countdown);
        return;
      }
      getCode.textContent = secondsLeft > 0 ? t('resend_in', { n: secondsLeft }) : t('get_code');
      check();
    };
    paint();
    countdown = setInterval(() => {
      secondsLeft -= 1;
      if (secondsLeft <= 0) {
        secondsLeft = 0;
        clearInterval(countdown);
      }
      paint();
    }, 1000);
  }

  getCode.addEventListener('click', async () => {
    if (!phoneOK()) return;
    setBusy(getCode, true);
    try {
      const sent = await api.smsRequest(cleanPhone(phone.input.value));
      codeLength = sent.codeLength || 6;
      code.input.maxLength = codeLength;
      code.input.placeholder = t('code_placeholder', { n: codeLength });
      setBusy(getCode, false);
      phoneError = '';
      phoneNote = t('code_sent', { n: Math.round((sent.expiresInSeconds || 600) / 60) });
      startCountdown(sent.retryAfterSeconds || 60);
      code.input.focus();
    } catch (error) {
      setBusy(getCode, false);
      phoneError = errorText(error);
      if (error.code === 'rate_limited' && error.retryAfterSeconds) startCountdown(error.retryAfterSeconds);
      check();
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!phoneOK() || !codeOK()) return;
    setBusy(submit, true, t('logging_in'));
    try {
      onSignedIn(await api.smsVerify(cleanPhone(phone.input.value), code.input.value));
      clearInterval(countdown);
    } catch (error) {
      setBusy(submit, false);
      showFailure(form.parentElement, form, {
        title: t('login_failed'),
        reason: errorText(error),
        onRetry: () => {
          code.input.value = '';
          check();
          code.input.focus();
        },
      });
    }
  });

  const footer = [h('span', { text: t('no_account') }), ' ', h('a', { href: '#/register', text: t('register_link') })];
  const top = h('div', { class: 'auth-avatar' }, h('span', { class: 'avatar avatar--xl avatar--placeholder' }, icon('phone', { size: 40 })));
  return {
    el: authFrame({ title: t('phone_title'), subtitle: t('phone_subtitle'), top, body: form, footer }),
    focus: () => phone.input.focus(),
    destroy: () => clearInterval(countdown),
  };
}
