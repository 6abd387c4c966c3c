// Parley's web client: starts the session from the saved token (or shows the login page),
// follows the hash route, and rebuilds the interface when the language changes.
import { h } from './dom.js';
import { t, errorText, applyDocumentLanguage, onLanguageChange } from './i18n.js';
import { setToken } from './api.js';
import { state, on, displayName } from './store.js';
import * as client from './client.js';
import { parse, go } from './router.js';
import { messageTime, dayHeader } from './time.js';
import { toast } from './ui.js';
import { startServiceWorker, forgetSubscription } from './push.js';
import { loginView } from './views/login.js';
import { registerView } from './views/register.js';
import { phoneView } from './views/phone.js';
import { shellView } from './views/shell.js';
import { openInvite } from './views/invite.js';

const root = document.getElementById('app');
let shell = null;
let authPage = null;
let authPageName = null;
let pendingNotice = null;

// An invite link opened while signed out waits here (this tab only) through sign-in or
// registration, and is opened, once, right after.
const PENDING_INVITE = 'parley.pendingInvite';

function keepInvite(token) {
  try { sessionStorage.setItem(PENDING_INVITE, token); } catch { /* storage off: the link is simply lost */ }
}

function takeInvite() {
  try {
    const token = sessionStorage.getItem(PENDING_INVITE);
    sessionStorage.removeItem(PENDING_INVITE);
    return token;
  } catch {
    return null;
  }
}

function signedIn(result) {
  client.begin(result.token, result.user);
  const invite = takeInvite();
  if (result.created && !result.user.username) {
    go('#/me', { replace: true });
    requestAnimationFrame(() => {
      shell?.profile.startEditing();
      if (invite) openInvite(invite);
    });
  } else if (invite) {
    go(`#/invite/${encodeURIComponent(invite)}`, { replace: true });
  } else {
    go('#/chats', { replace: true });
  }
}

function showAuth(name) {
  if (shell) {
    shell.destroy();
    shell = null;
  }
  if (authPage && authPageName === name) return;
  authPage?.destroy?.();
  const make = { login: loginView, register: registerView, phone: phoneView }[name];
  authPage = make({ onSignedIn: signedIn, notice: name === 'login' ? pendingNotice : null });
  pendingNotice = null;
  authPageName = name;
  root.className = 'root root--auth';
  root.replaceChildren(authPage.el);
  requestAnimationFrame(() => authPage?.focus?.());
}

function showApp(route) {
  if (authPage) {
    authPage.destroy?.();
    authPage = null;
    authPageName = null;
  }
  if (!shell) {
    shell = shellView();
    root.className = 'root root--app';
    root.replaceChildren(shell.el);
  }
  shell.route(route);
  if (route.invite) {
    // Shown once: the address becomes the chats list under the preview; a token kept from
    // before a sign-in is used up by this too.
    takeInvite();
    history.replaceState(null, '', '#/chats');
    openInvite(route.invite);
  }
}

function render() {
  const route = parse();
  if (!client.signedIn()) {
    if (route.invite) {
      keepInvite(route.invite);
      pendingNotice = t('invite_sign_in_first');
    }
    if (route.page === 'app') {
      history.replaceState(null, '', '#/login');
      showAuth('login');
    } else {
      showAuth(route.page);
    }
    return;
  }
  if (route.page !== 'app') {
    history.replaceState(null, '', '#/chats');
    showApp(parse('#/chats'));
    return;
  }
  showApp(route);
}

function rebuild() {
  shell?.destroy();
  shell = null;
  authPage?.destroy?.();
  authPage = null;
  authPageName = null;
  render();
}

// Time labels follow the clock: "HH:mm:ss" turns into a full date after four hours.
setInterval(() => {
  for (const el of document.querySelectorAll('[data-ts]')) el.textContent = messageTime(Number(el.dataset.ts));
  for (const el of document.querySelectorAll('.day-header[data-day]')) el.firstChild.textContent = dayHeader(Number(el.dataset.day));
}, 30000);

on('session', ({ signedIn: isIn, reason }) => {
  if (!isIn) {
    forgetSubscription();
    if (reason) pendingNotice = t(reason);
    history.replaceState(null, '', '#/login');
    rebuild();
  }
});
on('notice', (notice) => {
  if (notice.kind === 'friend-request') {
    const from = notice.request.from;
    toast(`${from.nickname || from.username || `ID: ${from.id}`} · ${t('wants_friend')}`);
  }
  // Put out of a room by its creator or an admin (and barred, with `banned`).
  if (notice.kind === 'room-kicked') {
    const actor = state.users.get(notice.kick.actor);
    const by = actor ? displayName(actor, actor.id) : `ID: ${notice.kick.actor}`;
    toast(t(notice.kick.banned ? 'room_banned_toast' : 'room_kicked_toast', { name: notice.name, actor: by }), notice.kick.banned ? 'error' : undefined);
  }
  // An action done offline that the server refused once it could send it.
  if (notice.kind === 'action-refused') toast(errorText(notice.error), 'error');
});
document.addEventListener('parley-retry', () => client.retryConnection());
window.addEventListener('hashchange', render);
onLanguageChange(() => rebuild());

function boot() {
  applyDocumentLanguage();
  const saved = client.savedSession();
  if (saved) {
    setToken(saved.token);
    client.begin(saved.token, saved.account);
  }
  root.removeAttribute('aria-live');
  render();
  startServiceWorker();
}

boot();
