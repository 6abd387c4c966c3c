// The frame shared by the login, phone login and register pages: a centred card on phone
// and desktop, a language switch, and the "failed" result screen.
import { h } from '../dom.js';
import { icon } from '../icons.js';
import { t, language, setLanguage } from '../i18n.js';

export function authFrame({ title, subtitle, top = null, body, footer }) {
  const langButton = h('button', {
    type: 'button', class: 'auth-lang', 'aria-label': t('language'), title: t('language'),
    onclick: () => setLanguage(language() === 'zh' ? 'en' : 'zh'),
  }, icon('globe', { size: 18 }), h('span', { text: language() === 'zh' ? 'English' : '中文' }));
  const heading = h('h1', { class: 'auth-title', text: title });
  const card = h('section', { class: 'auth-card', 'aria-labelledby': 'auth-title' },
    top,
    heading,
    subtitle ? h('p', { class: 'auth-subtitle', text: subtitle }) : null,
    body,
    footer ? h('div', { class: 'auth-footer' }, footer) : null);
  heading.id = 'auth-title';
  const brand = h('div', { class: 'auth-brand' }, h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, icon('chats', { size: 22 })), h('span', { class: 'brand-name', text: 'Parley' }));
  return h('main', { class: 'auth' }, h('div', { class: 'auth-topline' }, brand, langButton), card,
    h('p', { class: 'auth-tagline', text: t('tagline') }));
}

/** Replaces a card's form with a failure screen; "Try again" puts the form back. */
export function showFailure(card, form, { title, reason, onRetry }) {
  const again = h('button', { type: 'button', class: 'btn btn-primary btn-block', text: t('try_again') });
  const panel = h('div', { class: 'auth-result', role: 'alert' },
    h('div', { class: 'auth-result-icon' }, icon('alert', { size: 40 })),
    h('h2', { class: 'auth-result-title', text: title }),
    h('p', { class: 'auth-result-text', text: reason }),
    again);
  form.hidden = true;
  form.after(panel);
  again.addEventListener('click', () => {
    panel.remove();
    form.hidden = false;
    onRetry?.();
  });
  again.focus();
}

export const USERNAME_RULE = /^[A-Za-z0-9_.-]{3,32}$/;
export const passwordBytes = (p) => new TextEncoder().encode(p).length;
