// The landing of an invite link (#/invite/<token>): the group's name, avatar and member
// count first, then joining; a refusal (expired, used up, revoked, banned) in words.
import { h } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { avatar, modal, spinner, toast } from '../ui.js';
import * as client from '../client.js';
import { go } from '../router.js';
import { state, on } from '../store.js';

/** Resolves once the session is online (a link opened on a fresh page comes before that). */
function whenOnline() {
  if (state.connection?.status === 'online') return Promise.resolve();
  return new Promise((resolve) => {
    const off = on('connection', (s) => {
      if (s.status !== 'online') return;
      off();
      resolve();
    });
  });
}

export function openInvite(token) {
  const body = h('div', { class: 'invite-preview' }, spinner());
  const join = h('button', { type: 'button', class: 'btn btn-primary', dataset: { invite: 'join' }, text: t('invite_join'), disabled: true });
  const dialog = modal({ title: t('invite_title'), content: [body], actions: [join], cls: 'modal--small' });
  dialog.el.dataset.action = 'invite';
  whenOnline().then(() => client.previewInvite(token)).then((preview) => {
    body.replaceChildren(...[
      avatar({ src: preview.avatar, name: preview.name, seed: preview.id, kind: 'group', size: 'xl' }),
      h('h3', { class: 'invite-name', text: preview.name }),
      h('p', { class: 'invite-count', text: t('invite_members', { n: preview.memberCount }) }),
      preview.description ? h('p', { class: 'note', text: preview.description }) : null].filter(Boolean));
    join.disabled = false;
  }, (error) => {
    body.replaceChildren(h('p', { class: 'empty-text', dataset: { error: error.code || 'unknown' }, text: errorText(error) }));
  });
  join.addEventListener('click', async () => {
    join.disabled = true;
    try {
      const info = await client.joinByInvite(token);
      dialog.close();
      go(`#/chats/c/${encodeURIComponent(info.id)}`);
    } catch (error) {
      join.disabled = false;
      toast(errorText(error), 'error');
    }
  });
}
