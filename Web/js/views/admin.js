// The administrators' pages (docs/protocol.md, "Admin API"), opened from the Me page and
// shown only to accounts with the admin role: the reports queue (the reported content with
// its context; resolve, remove the message, suspend its author), user lookup with suspend and
// unsuspend, the server's statistics and the audit log.
import { h } from '../dom.js';
import { t, errorText } from '../i18n.js';
import { request } from '../api.js';
import { field, modal, toast, userNameText } from '../ui.js';
import { userName } from '../format.js';
import { ensureUser } from '../client.js';
import { fullTime } from '../time.js';

const OUTCOMES = ['dismissed', 'content_removed', 'user_suspended', 'other'];
const get = (path) => request('GET', path);
const post = (path, body) => request('POST', path, { body: body ?? {} });
// The app's own yyyy-MM-dd HH:mm:ss in either language, not the browser locale's.
const when = (ms) => fullTime(ms);

/** Whether the signed-in account is an administrator (false on any failure). */
export async function isAdministrator() {
  try {
    return (await get('/v1/admin/me')).admin === true;
  } catch {
    return false;
  }
}

/** Opens the admin pages. */
export function openAdmin() {
  const tabs = [['reports', t('admin_reports')], ['users', t('admin_users')], ['stats', t('admin_stats')], ['audit', t('admin_audit')]];
  const pane = h('div', { class: 'admin-pane', role: 'tabpanel' });
  const bar = h('div', { class: 'segmented admin-tabs', role: 'tablist', 'aria-label': t('admin_title') },
    tabs.map(([name, label]) => h('button', { type: 'button', role: 'tab', class: 'segment', dataset: { tab: name }, text: label,
      onclick: () => show(name) })));
  const dialog = modal({ title: t('admin_title'), content: [bar, pane], cls: 'modal--wide admin-modal' });

  function show(name) {
    for (const button of bar.children) {
      const on = button.dataset.tab === name;
      button.classList.toggle('is-on', on);
      button.setAttribute('aria-selected', String(on));
    }
    pane.replaceChildren(h('p', { class: 'note', text: t('admin_loading') }));
    const render = { reports, users, stats, audit }[name];
    render().catch((error) => pane.replaceChildren(h('p', { class: 'modal-error', text: errorText(error) })));
  }

  /** Runs an admin action; on success shows `done` and redraws the current tab. */
  async function act(action, done, redraw) {
    try {
      await action();
      toast(done);
      redraw();
    } catch (error) {
      toast(errorText(error), 'error');
    }
  }

  /** Asks for a reason (and, for a suspension, days); resolves null when cancelled. */
  function askReason(title, { days = false } = {}) {
    return new Promise((resolve) => {
      const reason = field({ label: t('admin_reason'), maxlength: 500 });
      const length = days ? field({ label: t('admin_days'), type: 'number', min: 1, value: '7', hint: t('admin_days_hint') }) : null;
      let answered = false;
      const finish = (value) => {
        if (answered) return;
        answered = true;
        resolve(value);
        ask.close();
      };
      const ok = h('button', { type: 'button', class: 'btn btn-primary', dataset: { action: 'confirm-reason' }, text: t('confirm'), onclick: () => {
        if (!reason.input.value.trim()) {
          reason.setError(t('admin_reason_needed'));
          return;
        }
        const n = length ? Number(length.input.value) : 0;
        finish({ reason: reason.input.value.trim(), until: n > 0 ? Date.now() + n * 86400000 : undefined });
      } });
      const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel'), onclick: () => finish(null) });
      const ask = modal({ title, content: [reason.el, length?.el], actions: [cancel, ok], cls: 'modal--small', onClose: () => finish(null) });
    });
  }

  async function suspend(userId, redraw) {
    const answer = await askReason(t('admin_suspend'), { days: true });
    if (answer) await act(() => post(`/v1/admin/users/${userId}/suspend`, answer), t('admin_suspended_done'), redraw);
  }

  // ---- Reports ----

  async function reports() {
    const status = pane.dataset.status || 'open';
    const page = await get(`/v1/admin/reports?status=${status}`);
    const filter = h('div', { class: 'segmented admin-filter' }, ['open', 'resolved'].map((s) => h('button', {
      type: 'button', class: `segment${s === status ? ' is-on' : ''}`, text: t(`admin_status_${s}`),
      onclick: () => { pane.dataset.status = s; show('reports'); } })));
    const list = h('div', { class: 'admin-list', dataset: { list: 'reports' } });
    for (const report of page.reports) list.appendChild(reportCard(report));
    pane.replaceChildren(filter, page.reports.length ? list : h('p', { class: 'note', text: t('admin_no_reports') }));
  }

  function reportCard(report) {
    const redraw = () => show('reports');
    // Live names: a profile not yet known fills in when it arrives.
    const who = (label, id) => (ensureUser(id), h('p', { class: 'admin-line' }, `${t(label)}: `,
      id ? userNameText(id) : '—', id ? ` (ID ${id})` : ''));
    const snapshot = report.snapshot;
    const content = snapshot
      ? h('blockquote', { class: 'admin-snapshot', text: snapshot.text ?? (snapshot.kind === 'image' ? t('image_preview') : '') })
      : null;
    const context = h('div', { class: 'admin-context' });
    const buttons = h('div', { class: 'admin-actions' });
    const button = (label, name, onclick, cls = 'btn-secondary') => buttons.appendChild(
      h('button', { type: 'button', class: `btn btn-small ${cls}`, dataset: { action: name }, text: label, onclick }));
    if (report.target === 'message') {
      button(t('admin_context'), 'context', async () => {
        try {
          const around = await get(`/v1/admin/conversations/${report.conversationId}/messages/${report.messageId}`);
          const line = (m, current) => h('li', { class: current ? 'is-reported' : '', text: `${m.sender ? userName(m.sender) : '·'}: ${m.recalled ? t('quoted_recalled') : (m.text ?? m.system?.type ?? '')}` });
          context.replaceChildren(h('ol', { class: 'admin-context-list' },
            around.before.map((m) => line(m, false)), around.message ? line(around.message, true) : null, around.after.map((m) => line(m, false))));
        } catch (error) {
          toast(errorText(error), 'error');
        }
      });
      if (report.status === 'open') {
        button(t('admin_remove_message'), 'remove', async () => {
          const answer = await askReason(t('admin_remove_message'));
          if (answer) await act(() => post(`/v1/admin/conversations/${report.conversationId}/messages/${report.messageId}/remove`, { reason: answer.reason }), t('admin_removed_done'), redraw);
        }, 'btn-danger-outline');
      }
    }
    if (report.userId && report.status === 'open') button(t('admin_suspend_author'), 'suspend', () => suspend(report.userId, redraw), 'btn-danger-outline');
    if (report.status === 'open') {
      const outcome = h('select', { class: 'admin-outcome', 'aria-label': t('admin_outcome') },
        OUTCOMES.map((o) => h('option', { value: o, text: t(`admin_outcome_${o}`) })));
      buttons.appendChild(outcome);
      button(t('admin_resolve'), 'resolve', () => act(() => post(`/v1/admin/reports/${report.id}/resolve`, { outcome: outcome.value }),
        t('admin_resolved_done'), redraw), 'btn-primary');
    }
    return h('article', { class: 'card admin-card', dataset: { report: report.id } },
      h('p', { class: 'admin-card-head' },
        h('strong', { text: t(`report_reason_${report.reason}`) }), h('span', { text: ` · ${t(`admin_target_${report.target}`)} · ${when(report.createdAt)}` })),
      who('admin_reported_user', report.userId),
      who('admin_reporter', report.reporterId),
      report.note ? h('p', { class: 'admin-line', text: `${t('admin_note')}: ${report.note}` }) : null,
      content,
      report.outcome ? h('p', { class: 'admin-line', text: `${t('admin_outcome')}: ${t(`admin_outcome_${report.outcome}`)}` }) : null,
      buttons, context);
  }

  // ---- Users ----

  async function users() {
    const search = field({ label: t('admin_user_search'), icon: 'search', value: pane.dataset.query || '' });
    const results = h('div', { class: 'admin-list', dataset: { list: 'users' } });
    const form = h('form', { class: 'admin-search', onsubmit: async (event) => {
      event.preventDefault();
      pane.dataset.query = search.input.value.trim();
      await fill();
    } }, search.el, h('button', { type: 'submit', class: 'btn btn-primary', text: t('admin_search') }));
    async function fill() {
      if (!pane.dataset.query) return;
      try {
        const found = await get(`/v1/admin/users?q=${encodeURIComponent(pane.dataset.query)}`);
        results.replaceChildren(...found.users.map(userRow));
        if (!found.users.length) results.replaceChildren(h('p', { class: 'note', text: t('admin_no_users') }));
      } catch (error) {
        results.replaceChildren(h('p', { class: 'modal-error', text: errorText(error) }));
      }
    }
    pane.replaceChildren(form, results);
    await fill();
  }

  function userRow(user) {
    // Account: the public profile's fields and the phone, side by side.
    const profile = user.account;
    const redraw = () => show('users');
    const state = user.suspension
      ? t('admin_suspended_until', { until: user.suspension.until ? when(user.suspension.until) : t('admin_indefinitely'), reason: user.suspension.reason })
      : (user.online ? t('online') : t('offline'));
    const action = user.suspension
      ? h('button', { type: 'button', class: 'btn btn-small btn-secondary', dataset: { action: 'unsuspend' }, text: t('admin_unsuspend'),
        onclick: () => act(() => post(`/v1/admin/users/${profile.id}/unsuspend`), t('admin_unsuspended_done'), redraw) })
      : h('button', { type: 'button', class: 'btn btn-small btn-danger-outline', dataset: { action: 'suspend' }, text: t('admin_suspend'),
        onclick: () => suspend(profile.id, redraw) });
    return h('div', { class: 'card admin-card', dataset: { user: profile.id } },
      h('p', { class: 'admin-card-head' }, h('strong', { text: profile.nickname || profile.username || `ID ${profile.id}` }),
        h('span', { text: ` @${profile.username ?? ''} · ID ${profile.id}${user.admin ? ` · ${t('admin_badge')}` : ''}` })),
      h('p', { class: 'admin-line', dataset: { state: user.suspension ? 'suspended' : 'active' }, text: state }),
      h('div', { class: 'admin-actions' }, action));
  }

  // ---- Statistics and the audit log ----

  async function stats() {
    const s = await get('/v1/admin/stats');
    const row = (key, value) => h('div', { class: 'kv-row' }, h('span', { class: 'kv-label', text: t(key) }), h('span', { class: 'kv-value', dataset: { stat: key }, text: String(value) }));
    pane.replaceChildren(h('div', { class: 'card kv-list' },
      row('admin_stat_users', s.users), row('admin_stat_active', s.activeToday), row('admin_stat_connections', s.connections),
      row('admin_stat_messages', s.messagesToday), row('admin_stat_reports', s.openReports),
      row('admin_stat_store', `${(s.storeBytes / 1048576).toFixed(1)} MiB`)));
  }

  async function audit() {
    const page = await get('/v1/admin/audit');
    pane.replaceChildren(h('table', { class: 'admin-audit' },
      h('thead', {}, h('tr', {}, ['admin_audit_time', 'admin_audit_admin', 'admin_audit_action', 'admin_audit_target', 'admin_reason']
        .map((key) => h('th', { text: t(key) })))),
      h('tbody', {}, page.entries.map((e) => h('tr', { dataset: { action: e.action } },
        h('td', { text: when(e.createdAt) }), h('td', { text: e.adminId ? `ID ${e.adminId}` : (e.actor || t('admin_console')) }),
        h('td', { text: e.action }), h('td', { text: e.target }), h('td', { text: e.reason ?? '' }))))));
  }

  show('reports');
  return dialog;
}
