// The profile page's Security section: change the password, bind / change / remove the
// phone number, the signed-in devices (sign one out, or all others), export the account's
// data with progress, delete the account behind a typed confirmation. Every failure is shown
// next to what caused it, in words.
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { field, setBusy, toast, confirmDialog } from '../ui.js';
import { api } from '../api.js';
import * as client from '../client.js';
import { listTime } from '../time.js';

/** A form's error in this section's words: a wrong password here is the password only. */
function securityError(error) {
  if (error && error.code === 'invalid_credentials') return t('err_wrong_password');
  return errorText(error);
}

function section(titleKey, iconName, ...children) {
  return h('section', { class: 'card security-block', 'aria-label': t(titleKey), dataset: { security: titleKey } },
    h('h3', { class: 'security-title' }, icon(iconName, { size: 18 }), h('span', { text: t(titleKey) })), ...children);
}

function passwordBlock() {
  const current = field({ label: t('current_password'), type: 'password', password: true, autocomplete: 'current-password', name: 'current' });
  const next = field({ label: t('new_password'), type: 'password', password: true, autocomplete: 'new-password', name: 'new', hint: t('hint_password') });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', text: t('change_password') });
  const form = h('form', { class: 'security-form', novalidate: true, dataset: { form: 'password' } }, current.el, next.el, h('div', { class: 'form-actions' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    current.setError('');
    next.setHint(t('hint_password'));
    setBusy(submit, true, t('saving'));
    try {
      const answer = await api.changePassword(current.input.value, next.input.value);
      current.input.value = '';
      next.input.value = '';
      toast(t('password_changed', { n: answer.revoked }));
    } catch (error) {
      const target = error.field === 'new' || error.code === 'invalid_password' ? next : current;
      target.setError(securityError(error));
      target.input.focus();
    } finally {
      setBusy(submit, false);
    }
  });
  return section('security_password', 'lock', form);
}

function phoneBlock(me) {
  const shown = h('p', { class: 'security-phone', dataset: { phone: me.phone || '' }, text: me.phone ? me.phone : t('phone_none') });
  const phone = field({ label: t('new_phone'), type: 'tel', inputmode: 'tel', name: 'phone', autocomplete: 'tel' });
  const code = field({ label: t('sms_code'), inputmode: 'numeric', name: 'code', maxlength: 8, autocomplete: 'one-time-code' });
  code.el.hidden = true;
  const send = h('button', { type: 'button', class: 'btn btn-secondary', dataset: { action: 'phone-send' }, text: t('send_code') });
  const verify = h('button', { type: 'submit', class: 'btn btn-primary', dataset: { action: 'phone-verify' }, text: t('bind_phone'), hidden: true });
  const form = h('form', { class: 'security-form', novalidate: true, dataset: { form: 'phone' } }, phone.el, code.el, h('div', { class: 'form-actions' }, send, verify));
  send.addEventListener('click', async () => {
    phone.setError('');
    setBusy(send, true, t('sending_code'));
    try {
      await api.phoneRequest(phone.input.value.trim());
      code.el.hidden = false;
      verify.hidden = false;
      code.input.focus();
      code.setHint(t('code_sent_to_number'));
    } catch (error) {
      phone.setError(securityError(error));
    } finally {
      setBusy(send, false);
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    code.setError('');
    setBusy(verify, true, t('saving'));
    try {
      // The server's me.updated event brings the account to every view (client.js).
      const account = await api.phoneVerify(phone.input.value.trim(), code.input.value.trim());
      shown.textContent = account.phone;
      shown.dataset.phone = account.phone;
      toast(t('phone_bound'));
      code.input.value = '';
      code.el.hidden = true;
      verify.hidden = true;
    } catch (error) {
      (error.field === 'phone' ? phone : code).setError(securityError(error));
    } finally {
      setBusy(verify, false);
    }
  });
  const parts = [shown, form];
  if (me.phone) {
    const password = field({ label: t('password'), type: 'password', password: true, autocomplete: 'current-password', name: 'unbind-password' });
    const remove = h('button', { type: 'submit', class: 'btn btn-danger-outline', text: t('remove_phone') });
    const unbind = h('form', { class: 'security-form', novalidate: true, dataset: { form: 'unbind' } }, password.el, h('div', { class: 'form-actions' }, remove));
    unbind.addEventListener('submit', async (event) => {
      event.preventDefault();
      password.setError('');
      setBusy(remove, true, t('saving'));
      try {
        await api.phoneUnbind(password.input.value);
        shown.textContent = t('phone_none');
        shown.dataset.phone = '';
        unbind.remove();
        toast(t('phone_removed'));
      } catch (error) {
        password.setError(securityError(error));
      } finally {
        setBusy(remove, false);
      }
    });
    parts.push(unbind);
  }
  return section('security_phone', 'phone', ...parts);
}

function devicesBlock() {
  const list = h('ul', { class: 'device-list', role: 'list', 'aria-label': t('security_devices') });
  const problem = h('p', { class: 'field-msg is-error', 'aria-live': 'polite' });
  const others = h('button', { type: 'button', class: 'btn btn-danger-outline btn-block', dataset: { action: 'sign-out-others' }, text: t('sign_out_others') });
  async function load() {
    problem.textContent = '';
    try {
      const { sessions } = await api.sessions();
      list.replaceChildren(...sessions.map((session) => {
        const name = session.deviceName ? client.deviceLabel(session.deviceName) : session.userAgent || t('unknown_device');
        const details = [session.lastAddress, t('last_used', { time: listTime(session.lastSeenAt) })].filter(Boolean).join(' · ');
        const out = session.current ? h('span', { class: 'chip device-current', text: t('this_device') })
          : h('button', { type: 'button', class: 'btn btn-ghost', dataset: { action: 'sign-out' }, text: t('sign_out') });
        if (!session.current) {
          out.addEventListener('click', async () => {
            setBusy(out, true, t('saving'));
            try {
              await api.revokeSession(session.id);
              await load();
            } catch (error) {
              problem.textContent = securityError(error);
              setBusy(out, false);
            }
          });
        }
        return h('li', { class: 'device', dataset: { session: session.id, current: String(session.current) } },
          h('div', { class: 'device-main' }, h('span', { class: 'device-name', text: name }), h('span', { class: 'device-sub', text: details })), out);
      }));
      others.hidden = sessions.length < 2;
    } catch (error) {
      problem.textContent = securityError(error);
    }
  }
  others.addEventListener('click', async () => {
    if (!(await confirmDialog(t('confirm_sign_out_others_title'), t('confirm_sign_out_others'), { danger: true, confirmText: t('sign_out_others') }))) return;
    setBusy(others, true, t('saving'));
    try {
      const answer = await api.revokeOtherSessions();
      toast(t('signed_out_others', { n: answer.revoked }));
      await load();
    } catch (error) {
      problem.textContent = securityError(error);
    } finally {
      setBusy(others, false);
    }
  });
  load();
  return section('security_devices', 'devices', list, problem, others);
}

function exportBlock() {
  const bar = h('progress', { class: 'export-progress', max: 100, value: 0, hidden: true, 'aria-label': t('export_progress') });
  const status = h('p', { class: 'field-msg', 'aria-live': 'polite', dataset: { export: 'idle' } });
  const start = h('button', { type: 'button', class: 'btn btn-secondary btn-block', dataset: { action: 'export' }, text: t('export_data') });
  let timer = null;
  async function poll() {
    try {
      const answer = await api.exportDownload();
      if (answer.blob) {
        bar.value = 100;
        status.textContent = t('export_ready');
        status.dataset.export = 'ready';
        const link = h('a', { href: URL.createObjectURL(answer.blob), download: 'parley-export.zip', class: 'btn btn-primary btn-block', dataset: { action: 'export-download' }, text: t('export_download') });
        status.after(link);
        setBusy(start, false);
        return;
      }
      bar.value = Math.round((answer.status.progress || 0) * 100);
      status.textContent = t('export_building', { n: bar.value });
      timer = setTimeout(poll, 700);
    } catch (error) {
      status.textContent = securityError(error);
      status.classList.add('is-error');
      status.dataset.export = 'failed';
      setBusy(start, false);
    }
  }
  start.addEventListener('click', async () => {
    clearTimeout(timer);
    status.classList.remove('is-error');
    start.parentElement.querySelector('[data-action="export-download"]')?.remove();
    setBusy(start, true, t('export_starting'));
    try {
      await api.exportStart();
      bar.hidden = false;
      bar.value = 0;
      status.dataset.export = 'building';
      poll();
    } catch (error) {
      status.textContent = securityError(error);
      status.classList.add('is-error');
      setBusy(start, false);
    }
  });
  return section('security_export', 'download', h('p', { class: 'security-note', text: t('export_note') }), bar, status, start);
}

function deleteBlock(me) {
  const word = me.username || t('delete_word');
  // The account's own view does not say whether it has a password: an account with a phone
  // and no username signs in by SMS only; any other is asked for its password first, and
  // switches to a code if the server says it has none.
  let hasPassword = !!me.username || !me.phone;
  const password = field({ label: t('password'), type: 'password', password: true, autocomplete: 'current-password', name: 'delete-password' });
  const code = field({ label: t('sms_code'), inputmode: 'numeric', name: 'delete-code', maxlength: 8, hint: t('delete_code_hint') });
  const useCode = () => {
    hasPassword = false;
    password.el.hidden = true;
    code.el.hidden = false;
  };
  code.el.hidden = true;
  if (!hasPassword) useCode();
  const typed = field({ label: t('delete_type', { word }), name: 'delete-confirm', hint: t('delete_type_hint', { word }) });
  const submit = h('button', { type: 'submit', class: 'btn btn-danger-outline btn-block', text: t('delete_account') });
  const form = h('form', { class: 'security-form', novalidate: true, dataset: { form: 'delete' } },
    h('p', { class: 'security-note', text: t('delete_note') }), password.el, code.el, typed.el, submit);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const secret = hasPassword ? password : code;
    secret.setError('');
    typed.setHint(t('delete_type_hint', { word }));
    if (typed.input.value.trim() !== word) {
      typed.setError(t('delete_type_mismatch', { word }));
      typed.input.focus();
      return;
    }
    setBusy(submit, true, t('deleting_account'));
    try {
      await api.deleteAccount(hasPassword ? { password: secret.input.value } : { code: secret.input.value.trim() });
      await client.end({ revoke: false, reason: t('account_deleted') });
    } catch (error) {
      if (error.code === 'missing_field' && error.field === 'code') {
        useCode();
        code.setError(t('delete_code_hint'));
        code.input.focus();
      } else {
        secret.setError(securityError(error));
      }
      setBusy(submit, false);
    }
  });
  return section('security_delete', 'trash', form);
}

/** The Security section of the profile page for the signed-in account `me`. */
export function securitySection(me) {
  return h('div', { class: 'security', id: 'security' },
    h('h2', { class: 'security-heading', text: t('security_title') }),
    passwordBlock(), phoneBlock(me), devicesBlock(), exportBlock(), deleteBlock(me));
}

