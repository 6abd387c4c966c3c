// Reporting a message or a user to the server's administrators (docs/protocol.md,
// "Reports"): a reason from a fixed list and an optional note.
import { h } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { modal, toast } from '../ui.js';
import * as client from '../client.js';

const REASONS = ['spam', 'abuse', 'illegal', 'other'];
// As the server's default `--max-report-note-bytes`; the server checks it anyway.
const NOTE_BYTES = 1000;

/** Opens the report dialog for `target`: {conversationId, messageId} or {userId}. */
export function reportDialog(target) {
  const name = 'report-reason';
  const choices = h('div', { class: 'report-reasons', role: 'radiogroup', 'aria-label': t('report_reason') },
    REASONS.map((reason, index) => h('label', { class: 'report-reason' },
      h('input', { type: 'radio', name, value: reason, checked: index === 0 }),
      h('span', { text: t(`report_reason_${reason}`) }))));
  const note = h('textarea', { class: 'report-note', rows: 3, maxlength: NOTE_BYTES, placeholder: t('report_note'), 'aria-label': t('report_note') });
  const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel'), onclick: () => dialog.close() });
  const send = h('button', { type: 'button', class: 'btn btn-primary', dataset: { action: 'send-report' }, text: t('report_send'), onclick: submit });
  const dialog = modal({
    title: target.messageId ? t('report_message') : t('report_user'),
    content: [h('p', { class: 'modal-text', text: t('report_intro') }), choices, note],
    actions: [cancel, send], cls: 'modal--small',
  });

  async function submit() {
    const reason = choices.querySelector('input:checked')?.value || 'other';
    const text = note.value.trim();
    if (new TextEncoder().encode(text).length > NOTE_BYTES) {
      dialog.setError(t('report_note_long'));
      return;
    }
    dialog.setBusy();
    try {
      await client.call('report.create', { ...target, reason, ...(text ? { note: text } : {}) });
      dialog.close();
      toast(t('report_sent'));
    } catch (error) {
      dialog.setIdle();
      dialog.setError(errorText(error));
    }
  }
}
