// Discover: a stack of cards (picture, name, age, hobby chips over a dark gradient). Drag
// with a mouse or a finger (pointer events): the card follows with a slight rotation,
// LIKE / NOPE stamps fade in, and past a threshold (or on a flick) it flies off, otherwise
// it springs back. Round buttons pass / undo / like; keys ← → and Backspace. A match shows
// both avatars and "Say hi", which opens the conversation.
import { h, prefersReducedMotion } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { state, on, displayName } from '../store.js';
import { avatar, connectionBanner, toast, spinner, modal, emojiText } from '../ui.js';
import * as client from '../client.js';
import { go } from '../router.js';

const VISIBLE = 3;
const FLY_MS = 320;

export function discoverView() {
  let cards = [];          // the deck, top card first
  let cursor = null;
  let exhausted = false;
  let loading = false;
  let loadedOnce = false;
  let busy = false;
  let active = false;
  const history = [];      // swiped cards, for undo
  let swipes = Promise.resolve();
  let undoQueued = false;

  const stack = h('div', { class: 'card-stack', 'aria-live': 'polite' });
  const passButton = roundButton('close', t('pass'), 'round--pass', () => swipe(-1));
  const undoButton = roundButton('undo', t('undo'), 'round--undo', () => undo());
  const likeButton = roundButton('heart', t('like'), 'round--like', () => swipe(1));
  const actions = h('div', { class: 'deck-actions' }, passButton, undoButton, likeButton);
  const hint = h('p', { class: 'deck-hint', text: t('discover_keys') });
  const el = h('section', { class: 'view view--discover', 'aria-labelledby': 'discover-title' },
    // Seed 004's top bar of round buttons: one's own profile, the title, the chats.
    h('header', { class: 'topbar topbar--discover' },
      roundButton('me', t('open_profile'), 'round--top', () => go('#/me')),
      h('h1', { class: 'topbar-title', id: 'discover-title', text: t('discover_title') }),
      roundButton('chats', t('open_chats'), 'round--top', () => go('#/chats'))),
    connectionBanner(),
    h('div', { class: 'discover-body' }, stack, actions, hint));

  function roundButton(name, label, cls, onclick) {
    const size = cls === 'round--undo' ? 22 : cls === 'round--top' ? 22 : 30;
    return h('button', { type: 'button', class: `round ${cls}`, 'aria-label': label, title: label, onclick }, icon(name, { size }));
  }

  // ---- Cards ----

  function cardArt(user) {
    const name = displayName(user, user.id);
    const photo = h('div', { class: 'card-photo' });
    photo.appendChild(avatar({ src: user.avatar, name, seed: user.id, size: 'card' }));
    return photo;
  }

  function buildCard(user) {
    const name = displayName(user, user.id);
    const chips = (user.hobbies || []).slice(0, 5).map((hobby) => h('li', { class: 'chip chip--glass', text: hobby }));
    return h('article', { class: 'swipe-card', dataset: { user: user.id }, 'aria-label': name },
      cardArt(user),
      h('div', { class: 'card-shade', 'aria-hidden': 'true' }),
      h('div', { class: 'card-info' },
        h('h2', { class: 'card-name' }, h('span', { text: name }), user.age ? h('span', { class: 'card-age', text: t('age_years', { n: user.age }) }) : null),
        user.signature ? emojiText(user.signature, 'card-signature', 'p') : null,
        chips.length ? h('ul', { class: 'chips', role: 'list' }, chips) : null),
      h('div', { class: 'stamp stamp--like', 'aria-hidden': 'true', text: t('stamp_like') }),
      h('div', { class: 'stamp stamp--nope', 'aria-hidden': 'true', text: t('stamp_nope') }));
  }

  const built = new Map();
  function cardFor(user) {
    if (!built.has(user.id)) built.set(user.id, buildCard(user));
    return built.get(user.id);
  }

  function paint() {
    const shown = cards.slice(0, VISIBLE);
    const nodes = shown.map(cardFor).reverse(); // the top card last, so it is drawn above
    // A focused card that flies off must hand focus on, or keys would go to a detached node.
    const hadFocus = stack.contains(document.activeElement);
    stack.replaceChildren(...nodes);
    shown.forEach((user, depth) => {
      const card = cardFor(user);
      card.dataset.depth = String(depth);
      card.classList.toggle('is-top', depth === 0);
      card.style.transform = '';
      card.style.transition = '';
      card.querySelector('.stamp--like').style.opacity = '0';
      card.querySelector('.stamp--nope').style.opacity = '0';
      card.tabIndex = depth === 0 ? 0 : -1;
      card.setAttribute('aria-hidden', depth === 0 ? 'false' : 'true');
    });
    if (!shown.length) {
      if (loading || !loadedOnce) stack.appendChild(h('div', { class: 'deck-empty' }, spinner('spinner--lg')));
      else {
        const again = h('button', { type: 'button', class: 'btn btn-secondary', text: t('reload_deck') });
        again.addEventListener('click', () => { exhausted = false; cursor = null; load(); });
        stack.appendChild(h('div', { class: 'deck-empty' },
          h('div', { class: 'empty-art', 'aria-hidden': 'true' }, icon('discover', { size: 40 })),
          h('h2', { class: 'empty-title', text: t('deck_empty_title') }),
          h('p', { class: 'empty-text', text: t('deck_empty') }), again));
      }
    }
    passButton.disabled = likeButton.disabled = !shown.length || busy;
    undoButton.disabled = !history.length || busy;
    const top = shown[0];
    if (top) attachDrag(cardFor(top), top);
    if (hadFocus) (top ? cardFor(top) : likeButton).focus({ preventScroll: true });
  }

  async function load() {
    if (loading || exhausted || state.connection.status !== 'online') return;
    loading = true;
    paint();
    try {
      const page = await client.deck(cursor);
      const known = new Set(cards.map((c) => c.id));
      for (const user of page.cards) if (!known.has(user.id) && user.id !== state.me?.id) cards.push(user);
      cursor = page.nextCursor || null;
      exhausted = !cursor;
      loadedOnce = true;
    } catch (error) {
      if (error.code !== 'network') toast(errorText(error), 'error');
    } finally {
      loading = false;
      paint();
    }
  }

  // ---- Dragging ----

  function attachDrag(card, user) {
    if (card.dataset.dragReady) return;
    card.dataset.dragReady = '1';
    let drag = null;
    const like = card.querySelector('.stamp--like');
    const nope = card.querySelector('.stamp--nope');
    card.addEventListener('pointerdown', (event) => {
      if (busy || !card.classList.contains('is-top') || (event.pointerType === 'mouse' && event.button !== 0)) return;
      drag = { x: event.clientX, y: event.clientY, t: performance.now(), dx: 0, dy: 0, lastX: event.clientX, lastT: performance.now(), v: 0 };
      card.setPointerCapture(event.pointerId);
      card.classList.add('is-dragging');
      card.style.transition = 'none';
    });
    card.addEventListener('pointermove', (event) => {
      if (!drag) return;
      const now = performance.now();
      drag.dx = event.clientX - drag.x;
      drag.dy = event.clientY - drag.y;
      drag.v = (event.clientX - drag.lastX) / Math.max(1, now - drag.lastT);
      drag.lastX = event.clientX;
      drag.lastT = now;
      const rotation = Math.max(-18, Math.min(18, drag.dx * 0.06));
      card.style.transform = `translate(${drag.dx}px, ${drag.dy * 0.4}px) rotate(${rotation}deg)`;
      like.style.opacity = String(Math.max(0, Math.min(1, drag.dx / 110)));
      nope.style.opacity = String(Math.max(0, Math.min(1, -drag.dx / 110)));
      const next = stack.querySelector('.swipe-card[data-depth="1"]');
      if (next) next.style.transform = `scale(${0.95 + 0.05 * Math.min(1, Math.abs(drag.dx) / 160)}) translateY(${12 - 12 * Math.min(1, Math.abs(drag.dx) / 160)}px)`;
    });
    const release = () => {
      if (!drag) return;
      const { dx, dy, v } = drag;
      drag = null;
      card.classList.remove('is-dragging');
      const threshold = card.offsetWidth * 0.3;
      if (Math.abs(dx) > threshold || (Math.abs(v) > 0.6 && Math.abs(dx) > 40)) {
        decide(user, card, Math.sign(dx || v), dy);
      } else {
        card.style.transition = prefersReducedMotion() ? 'none' : 'transform 420ms cubic-bezier(.2,1.6,.4,1)';
        card.style.transform = '';
        like.style.opacity = '0';
        nope.style.opacity = '0';
        const next = stack.querySelector('.swipe-card[data-depth="1"]');
        if (next) {
          next.style.transition = 'transform 300ms ease';
          next.style.transform = '';
        }
      }
    };
    card.addEventListener('pointerup', release);
    card.addEventListener('pointercancel', release);
  }

  function flyOff(card, direction, dy = 0) {
    return new Promise((resolve) => {
      const stamp = card.querySelector(direction > 0 ? '.stamp--like' : '.stamp--nope');
      stamp.style.opacity = '1';
      if (prefersReducedMotion()) {
        resolve();
        return;
      }
      card.style.transition = `transform ${FLY_MS}ms ease-in, opacity ${FLY_MS}ms ease-in`;
      const distance = Math.max(window.innerWidth, 600);
      card.style.transform = `translate(${direction * distance}px, ${dy + 60}px) rotate(${direction * 28}deg)`;
      card.style.opacity = '0';
      setTimeout(resolve, FLY_MS);
    });
  }

  async function decide(user, card, direction, dy = 0) {
    if (busy) return;
    busy = true;
    paintButtons();
    await flyOff(card, direction, dy);
    card.style.opacity = '';
    cards = cards.filter((c) => c.id !== user.id);
    built.delete(user.id);
    busy = false;
    paint();
    if (undoQueued) {
      undoQueued = false;
      queueMicrotask(undo);
    }
    if (cards.length < 3) load();
    history.push(user);
    paint();
    // Swipes reach the server in order, and an undo waits for the swipe it takes back.
    const request = swipes.then(async () => {
      try {
        if (direction > 0) {
          const result = await client.like(user.id);
          if (result.matched) showMatch(user, result.friend);
        } else {
          await client.pass(user.id);
        }
      } catch (error) {
        history.splice(history.lastIndexOf(user), 1);
        cards.unshift(user);
        toast(errorText(error), 'error');
        paint();
      }
    });
    swipes = request;
    await request;
  }

  function paintButtons() {
    passButton.disabled = likeButton.disabled = undoButton.disabled = busy;
  }

  function swipe(direction) {
    const top = cards[0];
    if (!top || busy) return;
    decide(top, cardFor(top), direction);
  }

  async function undo() {
    if (busy) {
      undoQueued = true; // pressed while a card was flying: do it right after
      return;
    }
    if (!history.length) return;
    busy = true;
    paintButtons();
    try {
      await swipes;
      const result = await client.undoSwipe();
      history.pop();
      busy = false;
      if (!result.card) {
        paint();
        return;
      }
      cards = [result.card, ...cards.filter((c) => c.id !== result.card.id)];
      built.delete(result.card.id);
      paint();
      const top = cardFor(result.card);
      if (!prefersReducedMotion() && top.isConnected) {
        top.style.transition = 'none';
        top.style.transform = 'translateX(-120%) rotate(-20deg)';
        requestAnimationFrame(() => requestAnimationFrame(() => {
          top.style.transition = `transform ${FLY_MS}ms cubic-bezier(.2,1.2,.4,1)`;
          top.style.transform = '';
        }));
      }
    } catch (error) {
      busy = false;
      toast(errorText(error), 'error');
      paint();
    }
  }

  // ---- A match ----

  function showMatch(user, friend) {
    const name = displayName(user, user.id);
    const me = state.me;
    const sayHi = h('button', { type: 'button', class: 'btn btn-primary btn-block say-hi' }, icon('chats', { size: 18 }), h('span', { text: t('say_hi') }));
    const keep = h('button', { type: 'button', class: 'btn btn-ghost btn-block keep-swiping', text: t('keep_swiping') });
    const dialog = modal({
      title: t('matched_title'),
      cls: 'modal--match',
      content: [
        h('div', { class: 'match-avatars' },
          avatar({ src: me.avatar, name: displayName(me, me.id), seed: me.id, size: 'xl', cls: 'match-me' }),
          h('span', { class: 'match-heart' }, icon('heart', { size: 26 })),
          avatar({ src: user.avatar, name, seed: user.id, size: 'xl', cls: 'match-them' })),
        h('p', { class: 'match-text', text: t('matched_text', { name }) }),
        sayHi, keep,
      ],
    });
    sayHi.addEventListener('click', () => {
      dialog.close();
      go(`#/chats/c/${encodeURIComponent(friend.conversationId)}`);
    });
    keep.addEventListener('click', () => dialog.close());
    requestAnimationFrame(() => sayHi.focus());
  }

  // ---- Keys ----

  const onKey = (event) => {
    if (!active || document.querySelector('.modal-backdrop, .lightbox, .popover-layer')) return;
    const target = event.target;
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    if (event.key === 'ArrowLeft') { event.preventDefault(); swipe(-1); }
    else if (event.key === 'ArrowRight') { event.preventDefault(); swipe(1); }
    else if (event.key === 'Backspace') { event.preventDefault(); undo(); }
  };
  document.addEventListener('keydown', onKey);
  const offs = [on('synced', () => { if (active && !cards.length) load(); })];

  return {
    el,
    show() {
      active = true;
      if (!loadedOnce || (!cards.length && !exhausted)) load();
      else paint();
    },
    hide() { active = false; },
    destroy() {
      active = false;
      document.removeEventListener('keydown', onKey);
      offs.forEach((off) => off());
    },
  };
}
