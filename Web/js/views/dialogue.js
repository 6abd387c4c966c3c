// The dialogue: header (back, name, details), messages as bubbles (self right in the accent
// colour, others left in white with avatars and, in groups and rooms, names), day headers,
// time labels, centred grey system notices, images with reserved size and a lightbox,
// emoticons as emoji, older history loaded on scroll without moving the view, a "new
// message" button, and the composer (Enter sends, Shift+Enter breaks the line).
import { h, rafThrottle, syncChildren, safeURL, prefersReducedMotion, isDesktop, setTextWithEmoji } from '../dom.js';
import { icon } from '../icons.js';
import { t, errorText } from '../i18n.js';
import { state, on, timeline, conversationTitle, minSeq } from '../store.js';
import { userAvatar, userNameText, live, connectionBanner, iconButton, openLightbox, toast, spinner, setBusy } from '../ui.js';
import { systemText } from '../format.js';
import { splitEmoticons, splitEmoji, PALETTE } from '../emoticons.js';
import { messageTime, fullTime, dayKey, dayHeader } from '../time.js';
import { entriesFor } from '../outbox.js';
import * as client from '../client.js';
import { go } from '../router.js';
import { openActionForm } from './menu.js';
import { fileTile } from '../files.js';
import { bindMedia, signedMediaURL } from '../media.js';
import { ACTION_TYPES, attachMenu, openMessageMenu, quoteBlock, reactionChips, excerptOf } from './messageactions.js';
import { userName, replyPreviewOf, mentionWords } from '../format.js';
import { typingUsers, tickState } from '../receipts.js';
import { voiceRecorder, voiceBubble } from '../voice.js';

const RUN_GAP = 5 * 60 * 1000;
/** Shown as a centred notice (a recalled message is one too): it ends a run of bubbles. */
const isNotice = (message) => message.kind === 'system' || !!message.recalled;
// A room notice pair "X left" then "X entered" this close together is a reload or a
// reconnect, not news: both are left out.
const ROOM_BOUNCE = 2 * 60 * 1000;
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'“”‘’，。！？]+/gi;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The first of `mentions` in `plain` (the longer where two start at one place), or null. */
function firstMention(plain, mentions) {
  let first = null;
  for (const word of mentions) {
    const index = plain.indexOf(word);
    if (index < 0) continue;
    if (!first || index < first.index || (index === first.index && word.length > first.word.length)) first = { index, word };
  }
  return first;
}

/** Text with clickable links and smileys shown as emoji. */
export function renderRichText(container, text, mentions = []) {
  let last = 0;
  const addPlain = (plain) => {
    // A mention ("@Ann", one of `mentions`) stands out in the accent colour.
    const at = mentions.length ? firstMention(plain, mentions) : null;
    if (at) {
      const { index, word } = at;
      if (index > 0) addPlain(plain.slice(0, index));
      container.appendChild(h('span', { class: 'mention', text: word }));
      addPlain(plain.slice(index + word.length));
      return;
    }
    for (const part of splitEmoticons(plain)) {
      if (part.emoji) container.appendChild(h('span', { class: 'emoji', title: part.source, text: part.emoji }));
      else {
        for (const piece of splitEmoji(part.text)) {
          if (piece.emoji) container.appendChild(h('span', { class: 'emoji', text: piece.emoji }));
          else container.appendChild(document.createTextNode(piece.text));
        }
      }
    }
  };
  for (const match of text.matchAll(URL_PATTERN)) {
    let url = match[0];
    const trailing = url.match(/[.,;:!?)\]]+$/);
    if (trailing) url = url.slice(0, -trailing[0].length);
    if (match.index > last) addPlain(text.slice(last, match.index));
    const href = safeURL(url);
    if (href) container.appendChild(h('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow', text: url }));
    else addPlain(url);
    last = match.index + url.length;
  }
  if (last < text.length) addPlain(text.slice(last));
}

const EMOJI_ONLY = /^(?:\p{Extended_Pictographic}(?:\uFE0F|\u200D\p{Extended_Pictographic}|\p{Emoji_Modifier})*\s*){1,3}$/u;
const isEmojiOnly = (text) => {
  const shown = splitEmoticons(text.trim()).map((p) => p.emoji || p.text).join('');
  return shown.length > 0 && shown.length <= 24 && EMOJI_ONLY.test(shown);
};

function imageBox(image) {
  const w = image?.width || 0;
  const hgt = image?.height || 0;
  const maxW = Math.min(260, Math.round(window.innerWidth * 0.6));
  const maxH = 300;
  if (!w || !hgt) return { width: Math.min(200, maxW), height: 150 };
  const scale = Math.min(1, maxW / w, maxH / hgt);
  return { width: Math.max(60, Math.round(w * scale)), height: Math.max(40, Math.round(hgt * scale)) };
}

/** Renders closer together than this reuse the group read count already asked. */
const READ_COUNT_REASK_MS = 500;

export function dialogueView() {
  let id = null;
  let tab = 'chats';
  let stick = true;
  let newCount = 0;
  let lastKey = null;
  const rows = new Map();     // key → {el, state}
  const days = new Map();     // day key → header element

  const back = iconButton('back', t('back'), () => go(`#/${tab}`), 'topbar-back');
  const title = h('h1', { class: 'topbar-title dialogue-title' });
  const subtitle = h('p', { class: 'topbar-subtitle' });
  const info = iconButton('more', t('details'), () => go(`#/${tab}/c/${encodeURIComponent(id)}/info`), 'topbar-action');
  const searchHere = h('a', { class: 'icon-btn topbar-search dialogue-search', 'aria-label': t('search_in_chat'), title: t('search_in_chat') }, icon('search'));
  const header = h('header', { class: 'topbar topbar--dialogue' }, back, h('div', { class: 'topbar-heading' }, title, subtitle), searchHere, info);

  const historyTop = h('div', { class: 'history-top' });
  const list = h('div', { class: 'message-list' });
  const skeleton = h('div', { class: 'message-skeleton', 'aria-hidden': 'true' },
    ['l', 'r', 'l', 'l', 'r'].map((side, i) => h('div', { class: `sk-bubble sk-bubble--${side} sk-w${i % 3}` })));
  const emptyNote = h('div', { class: 'dialogue-empty', hidden: true },
    icon('smile', { size: 32, cls: 'dialogue-empty-smile' }), icon('offline', { size: 32, cls: 'dialogue-empty-offline' }), h('p', { text: t('no_messages') }));
  const scroller = h('div', { class: 'messages', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', tabindex: '0' }, historyTop, skeleton, emptyNote, list);
  const pill = h('button', { type: 'button', class: 'new-pill', hidden: true }, icon('back', { size: 16, cls: 'new-pill-icon' }), h('span'));
  // The newest pinned message, above the messages; a click jumps to it (the next click to
  // the one pinned before it).
  const pinnedBar = h('button', { type: 'button', class: 'pinned-bar', hidden: true, 'aria-label': t('pinned_bar_label') },
    icon('spark', { size: 16, cls: 'pinned-bar-icon' }), h('span', { class: 'pinned-bar-count' }), h('span', { class: 'pinned-bar-text' }));
  let pinnedIndex = 0;
  const body = h('div', { class: 'dialogue-body' }, scroller, pill);

  // The composer.
  const fileInput = h('input', { type: 'file', accept: IMAGE_TYPES.join(','), class: 'visually-hidden', tabindex: '-1', 'aria-hidden': 'true', multiple: true });
  // On a phone the file button alone stays (it sends pictures as images too): four buttons
  // left the text box too narrow for its placeholder.
  const imageButton = iconButton('image', t('send_image'), () => fileInput.click(), 'composer-btn composer-btn--image');
  // Any file (files.js): its own input, so the image picker keeps offering images only.
  const anyFileInput = h('input', { type: 'file', class: 'visually-hidden', tabindex: '-1', 'aria-hidden': 'true', multiple: true });
  const fileButton = iconButton('file', t('send_file'), () => anyFileInput.click(), 'composer-btn');
  const emojiButton = iconButton('smile', t('emoji'), () => toggleEmoji(), 'composer-btn');
  emojiButton.setAttribute('aria-expanded', 'false');
  const textarea = h('textarea', { class: 'composer-input', rows: 1, maxlength: 4000, placeholder: t('say_something'), 'aria-label': t('message_input'), enterkeyhint: 'send' });
  const sendButton = h('button', { type: 'submit', class: 'send-btn', 'aria-label': t('send'), title: t('send'), disabled: true }, icon('send', { size: 20 }));
  const emojiPanel = h('div', { class: 'emoji-panel', hidden: true, role: 'group', 'aria-label': t('emoji') },
    PALETTE.map((emoji) => h('button', { type: 'button', class: 'emoji-choice', text: emoji, 'aria-label': emoji, onclick: () => insertText(emoji) })));
  // Replying to or editing a message: a bar above the composer says which, with a cancel.
  const contextText = h('span', { class: 'composer-context-text' });
  const contextCancel = iconButton('close', t('cancel_reply'), () => clearContext(), 'composer-context-cancel');
  const contextBar = h('div', { class: 'composer-context', hidden: true }, contextText, contextCancel);
  // @ suggestions in groups.
  const mentionList = h('div', { class: 'mention-list', role: 'listbox', 'aria-label': t('mention_suggestions'), hidden: true });
  const recorder = voiceRecorder({
    send: (blob, durationMs, waveform) => {
      if (!id) return;
      client.sendVoice(id, blob, durationMs, waveform);
      scrollToBottom(false);
      render();
    },
    onState: (recording) => composer.classList.toggle('is-recording', recording),
  });
  const composer = h('form', { class: 'composer', 'aria-label': t('message_input') }, fileInput, anyFileInput, emojiPanel, contextBar, mentionList, recorder.bar, recorder.mic, imageButton, fileButton, emojiButton, textarea, sendButton);
  const enterAgain = h('button', { type: 'button', class: 'btn btn-primary btn-small', text: t('enter_again') });
  const outsideText = h('span', { text: t('not_in_room') });
  const outside = h('div', { class: 'not-member', hidden: true }, outsideText, enterAgain);
  // A conversation one can no longer post to says why instead of offering a composer.
  const cannotPost = h('div', { class: 'not-member cannot-post', role: 'status', hidden: true }, icon('alert', { size: 18 }), h('span', { class: 'cannot-post-text' }));
  const el = h('section', { class: 'view view--dialogue', 'aria-labelledby': 'dialogue-title' }, header, connectionBanner(), pinnedBar, body, outside, cannotPost, composer);
  title.id = 'dialogue-title';

  // ---- Header ----

  let roomLookedUp = false;

  function paintHeader() {
    const conversation = state.conversations.get(id);
    const infoData = state.groupInfo.get(id);
    const tl = timeline(id);
    const unknown = !conversation && !infoData?.name;
    const titleText = conversation ? conversationTitle(conversation)
      : (infoData?.name || (tl.error ? t('unknown_conversation') : '…'));
    setTextWithEmoji(title, titleText, splitEmoji);
    let sub = '';
    if (conversation?.kind === 'user') {
      const friend = state.friends.get(conversation.peer?.id);
      // Presence is only known while connected.
      sub = friend && state.connection.status === 'online' ? (friend.online ? t('online') : client.lastSeenLabel(friend.user.id) || t('offline')) : '';
      // Where they are online: each device or Jabber client, with its show.
      const devices = friend?.online ? client.resourcesOf(friend.user.id) : [];
      if (devices.length) sub += ` · ${devices.map((r) => (r.show ? `${client.resourceLabel(r)} (${t(`resource_show_${r.show}`)})` : client.resourceLabel(r))).join(', ')}`;
    } else if (conversation?.kind === 'group' || (!conversation && infoData?.memberCount != null)) {
      if (infoData?.memberCount != null) sub = t('members_n', { n: infoData.memberCount });
    } else if (conversation?.kind === 'room') {
      if (infoData?.occupantCount != null) sub = t('occupants_n', { n: infoData.occupantCount });
    }
    // Someone typing replaces the subtitle while they type.
    const typists = typingUsers(id).filter((user) => user !== state.me?.id);
    subtitle.classList.toggle('is-typing', typists.length > 0);
    if (typists.length === 1) sub = t('typing_one', { name: userName(typists[0]) });
    else if (typists.length === 2) sub = t('typing_two', { name: userName(typists[0]), other: userName(typists[1]) });
    else if (typists.length > 2) sub = t('typing_many', { name: userName(typists[0]), n: typists.length - 1, all: typists.length });
    subtitle.textContent = sub;
    subtitle.hidden = !sub;
    subtitle.classList.toggle('is-online', sub === t('online') || sub.startsWith(`${t('online')} · `));
    const isRoomOutside = (conversation == null && (infoData && 'occupantCount' in infoData))
      || (tl.error === 'not_member' && conversation?.kind !== 'user') || (unknown && tl.error === 'not_found');
    outside.hidden = !isRoomOutside;
    // A room link opened from outside: ask the room's name once, so "Enter again" can enter.
    if (unknown && isRoomOutside && !roomLookedUp && state.connection.status === 'online') {
      roomLookedUp = true;
      client.findRoom(id).catch(() => {});
    }
    // Opened from a link without ever having been inside: only the name enters a room.
    outsideText.textContent = unknown ? t('not_in_unknown') : t('not_in_room');
    enterAgain.textContent = unknown ? t('enter_by_name') : t('enter_again');
    const reason = isRoomOutside ? null : cannotPostReason(conversation);
    cannotPost.hidden = !reason;
    cannotPost.querySelector('.cannot-post-text').textContent = reason ? t(reason) : '';
    composer.hidden = isRoomOutside || !!reason;
  }

  // The group whose details (the member count under the title) were asked for.
  let detailsAsked = null;

  /**
   * Reads an open group's details once, as opening it from the list does: a group opened
   * straight from its link (before the chats list came, or while offline) is asked when its
   * conversation arrives or the connection comes back.
   */
  function askGroupDetails() {
    if (state.conversations.get(id)?.kind !== 'group' || state.groupInfo.get(id)?.memberCount != null) return;
    if (detailsAsked === id || state.connection.status !== 'online') return;
    const asked = id;
    detailsAsked = asked;
    client.groupInfo(asked).catch(() => { if (detailsAsked === asked) detailsAsked = null; });
  }

  /** Why the user cannot post here now (a string key), or null when they can. */
  function cannotPostReason(conversation) {
    if (conversation?.kind !== 'user' || !state.synced) return null;
    const peer = conversation.peer?.id;
    if (peer && state.blocked.has(peer)) return 'cannot_post_blocked';
    if (peer && !state.friends.has(peer)) return 'cannot_post_not_friends';
    return null;
  }

  enterAgain.addEventListener('click', async () => {
    const name = state.groupInfo.get(id)?.name;
    if (!name) {
      openActionForm('enter_room');
      return;
    }
    setBusy(enterAgain, true);
    try {
      await client.enterRoom(name);
    } catch (error) {
      toast(error.code === 'banned' ? t('err_room_banned') : errorText(error), 'error');
    } finally {
      setBusy(enterAgain, false);
    }
  });

  // ---- Rows ----

  function keyOf(message) {
    return state.me && message.sender === state.me.id && message.clientId ? `c:${message.clientId}` : `s:${message.seq}`;
  }

  const menuHooks = {
    reply: (message) => startContext('reply', message),
    edit: (message) => startContext('edit', message),
    jump: (seq) => jumpTo(seq),
  };

  function buildRow(message, conversation) {
    if (message.recalled) {
      // The tombstone, as a notice in the message's place.
      const when = h('span', { class: 'msg-system-time', dataset: { ts: message.createdAt }, text: messageTime(message.createdAt) });
      const text = live(h('span', { class: 'msg-system-text' }), (span) => {
        span.textContent = systemText({ ...message, system: { type: 'message_recalled', actor: message.recalled.by } });
      });
      return h('div', { class: 'msg msg--system msg--recalled', dataset: { seq: message.seq } }, when, text);
    }
    if (message.kind === 'system') {
      // Seed 000 shows a notice's time with its text.
      const when = h('span', { class: 'msg-system-time', dataset: { ts: message.createdAt }, text: messageTime(message.createdAt) });
      const text = live(h('span', { class: 'msg-system-text' }), (span) => { span.textContent = systemText(message); });
      return h('div', { class: 'msg msg--system', dataset: { seq: message.seq } }, when, text);
    }
    const mine = state.me && message.sender === state.me.id;
    const bubble = h('div', { class: 'bubble' });
    if (message.kind === 'image') {
      const box = imageBox(message.image);
      const img = h('img', { alt: t('image'), width: box.width, height: box.height, loading: 'lazy', decoding: 'async', draggable: 'false' });
      // The height follows the width (chat.css): a bubble narrower than `box` keeps the shape.
      img.style.width = `${box.width}px`;
      const broken = () => {
        // A picture that cannot be decoded (an upload the server refused, say) must not
        // leave an empty bubble.
        if (img.classList.contains('is-broken')) return;
        img.classList.add('is-broken');
        const stand = h('span', { class: 'image-unavailable' }, icon('image', { size: 28 }), h('span', { text: t('image_unavailable') }));
        stand.style.width = `${box.width}px`;
        stand.style.height = `${box.height}px`;
        img.replaceWith(stand);
      };
      if (message.preview) {
        img.src = message.preview;
        img.addEventListener('error', broken, { once: true });
      } else {
        // The server's thumbnail of a large picture (the box above keeps its place while it
        // loads), through a signed link renewed if it expired while the chat was open (media.js).
        const thumbnail = safeURL(message.image?.thumbnail);
        const full = safeURL(message.image?.url);
        const fallback = thumbnail ? () => bindMedia(img, 'src', full, { onFail: broken }) : broken;
        bindMedia(img, 'src', thumbnail || full, { onFail: fallback });
      }
      const open = h('button', { type: 'button', class: 'bubble-image', 'aria-label': t('open_image') }, img);
      // The whole picture opens on click; a thumbnail stands in while it loads.
      open.addEventListener('click', async () => {
        const full = message.preview || safeURL(message.image?.url);
        let src = img.currentSrc || img.src;
        if (!message.preview && full) src = await signedMediaURL(full).catch(() => src);
        openLightbox(src, t('image'));
      });
      bubble.classList.add('bubble--image');
      bubble.appendChild(open);
    } else if (message.kind === 'voice') {
      bubble.classList.add('bubble--voice');
      bubble.appendChild(voiceBubble(message, {
        mine,
        src: message.preview || safeURL(message.voice?.url),
        listened: !message.id || client.listenedByMe(message),
        onFirstPlay: () => client.markListened(message),
      }));
      // The sender sees who played it: "Listened" in a 1:1, a count in a group.
      const heard = mine ? (message.listenedBy || []).length : 0;
      if (heard) {
        bubble.appendChild(h('span', { class: 'voice-listened', text: conversation?.kind === 'user' ? t('voice_listened') : t('voice_listened_by', { count: heard }) }));
      }
    } else if (message.kind === 'file') {
      bubble.classList.add('bubble--file');
      bubble.appendChild(fileTile(message.file, { pending: message.pendingEntry, onCancel: () => client.discardSend(message.clientId) }));
      if (message.text) bubble.appendChild(h('p', { class: 'bubble-text', text: message.text }));
    } else {
      const text = message.text || '';
      if (isEmojiOnly(text) && !message.replyTo) bubble.classList.add('bubble--jumbo');
      const p = h('p', { class: 'bubble-text' });
      // A mentioned member's name may arrive after the bubble: the text follows the users cache.
      let words = null;
      const paint = (el) => {
        const now = mentionWords(message);
        if (words && now.join('\n') === words.join('\n')) return;
        words = now;
        el.replaceChildren();
        renderRichText(el, text, now);
      };
      if (message.mentions?.length) live(p, paint);
      else paint(p);
      bubble.appendChild(p);
    }
    if (message.forwarded) bubble.prepend(h('span', { class: 'bubble-forwarded', text: t('forwarded') }));
    if (message.replyTo) bubble.prepend(quoteBlock(message.replyTo, (seq) => jumpTo(seq)));
    if (client.mentionsMe(message)) bubble.classList.add('bubble--mention');
    bubble.title = fullTime(message.createdAt);
    // Touch has no hover: a tap on the bubble shows its full date and time.
    bubble.addEventListener('click', (event) => {
      if (event.target.closest('a, button')) return;
      const shown = row.classList.toggle('show-full-time');
      time.textContent = shown ? fullTime(message.createdAt) : messageTime(message.createdAt);
      if (shown) delete time.dataset.ts;
      else time.dataset.ts = message.createdAt;
    });
    const status = h('span', { class: 'msg-status' });
    const time = h('div', { class: 'msg-time', dataset: { ts: message.createdAt }, text: messageTime(message.createdAt) });
    // An edit, reaction, recall or pin done offline waits for the connection (actionqueue.js).
    const edited = message.id && client.actionWaiting(message.id) ? h('span', { class: 'msg-edited msg-action-waiting', text: t('action_waiting') })
      : message.editedAt ? h('span', { class: 'msg-edited', text: t('edited') }) : null;
    // Only stored messages have actions (a pending send has no id yet).
    const menuButton = message.id ? h('button', { type: 'button', class: 'msg-menu-btn', 'aria-label': t('message_actions'), title: t('message_actions') },
      icon('more', { size: 18 })) : null;
    if (message.id) {
      attachMenu(bubble, message, menuHooks);
      menuButton.addEventListener('click', (event) => {
        event.stopPropagation();
        openMessageMenu(message, menuButton, menuHooks);
      });
    }
    const side = mine ? userAvatar(state.me.id, 'sm') : userAvatar(message.sender, 'sm');
    const row = h('div', { class: `msg ${mine ? 'msg--self' : 'msg--other'}`, dataset: message.seq ? { seq: message.seq } : {} },
      h('div', { class: 'msg-avatar' }, side),
      h('div', { class: 'msg-body' },
        // Seed 001 names the sender of every message; the name shows once per run.
        userNameText(mine ? state.me.id : message.sender, 'msg-sender'),
        h('div', { class: 'msg-line' }, bubble, status, menuButton),
        reactionChips(message),
        h('p', { class: 'msg-error', hidden: true }),
        edited ? h('div', { class: 'msg-time-line' }, time, edited) : time));
    if (!mine && message.sender) {
      row.querySelector('.msg-avatar').addEventListener('click', () => go(`#/${tab}/u/${encodeURIComponent(message.sender)}`));
      row.querySelector('.msg-avatar').classList.add('is-clickable');
    }
    return row;
  }

  /**
   * Ticks on the user's own 1:1 bubbles (one: sent, two: delivered, two coloured: read); the
   * ticks say it all, so a 1:1 chat has no line under the bubble. In a group, the newest own
   * message says how many read it (a tap lists who).
   */
  function paintTicks() {
    const conversation = state.conversations.get(id);
    let lastOwnGroup = null;
    for (const entry of rows.values()) {
      const m = entry.message;
      if (!m || entry.state !== 'sent') continue;
      const tick = tickState(conversation, m);
      let mark = entry.el.querySelector('.msg-ticks');
      if (tick && !mark) {
        mark = h('span', { class: 'msg-ticks', role: 'img' });
        entry.el.querySelector('.msg-line')?.append(mark);
      }
      if (mark) {
        mark.dataset.tick = tick || '';
        mark.textContent = tick === 'sent' ? '✓' : tick ? '✓✓' : '';
        mark.setAttribute('aria-label', tick ? t(`tick_${tick}`) : '');
        mark.title = tick ? t(`tick_${tick}`) : '';
      }
      if (conversation?.kind === 'group' && m.seq && m.sender === state.me?.id && (!lastOwnGroup || m.seq > lastOwnGroup.message.seq)) lastOwnGroup = entry;
    }
    for (const note of list.querySelectorAll('.msg-read-note')) {
      if (note.closest('.msg') !== lastOwnGroup?.el) note.remove();
    }
    if (lastOwnGroup) paintReadCount(lastOwnGroup);
  }

  /**
   * "Read by N of M" under the user's newest group message, asked again when the dialogue
   * renders (at most every READ_COUNT_REASK_MS: renders come in bursts); a tap lists the readers.
   */
  function paintReadCount(entry) {
    const m = entry.message;
    let note = entry.el.querySelector('.msg-read-note');
    if (!note) {
      note = h('button', { type: 'button', class: 'msg-read-note msg-read-count' });
      note.addEventListener('click', async () => {
        try {
          const page = await client.readers(id, m.seq);
          const names = page.readers.map((user) => userName(user.id)).join(', ');
          toast(t('read_by_list', { n: page.count, m: page.of, names: names || '—' }));
        } catch (error) {
          toast(errorText(error), 'error');
        }
      });
      entry.el.querySelector('.msg-body')?.append(note);
    }
    if (note.dataset.seq === String(m.seq) && note.dataset.asked && Date.now() - Number(note.dataset.asked) < READ_COUNT_REASK_MS) return;
    note.dataset.seq = String(m.seq);
    note.dataset.asked = String(Date.now());
    client.readers(id, m.seq).then((page) => {
      note.textContent = t('read_by', { n: page.count, m: page.of });
    }).catch(() => {});
  }

  function paintStatus(entry, pending) {
    const stateName = pending ? pending.state : 'sent';
    if (entry.state === stateName && entry.error === (pending?.error || null)) return;
    entry.state = stateName;
    entry.error = pending?.error || null;
    entry.el.dataset.state = stateName;
    const status = entry.el.querySelector('.msg-status');
    const errorLine = entry.el.querySelector('.msg-error');
    if (!status) return;
    status.replaceChildren();
    if (stateName === 'pending' || stateName === 'sending') {
      status.appendChild(h('span', { class: 'msg-pending', role: 'img', 'aria-label': t('pending'), title: t('pending') }, icon('clock', { size: 16 })));
    } else if (stateName === 'failed') {
      const retry = h('button', { type: 'button', class: 'msg-retry', 'aria-label': t('failed_retry'), title: t('failed_retry') }, icon('alert', { size: 20 }));
      retry.addEventListener('click', () => client.retrySend(pending.clientId));
      const remove = h('button', { type: 'button', class: 'msg-delete', 'aria-label': t('delete_failed_label'), title: t('delete_failed_label') }, icon('trash', { size: 18 }));
      remove.addEventListener('click', () => client.discardSend(pending.clientId));
      status.append(retry, remove);
    }
    if (errorLine) {
      errorLine.hidden = stateName !== 'failed';
      errorLine.textContent = stateName === 'failed' ? t('failed_reason', { reason: errorText({ code: pending.error }) }) : '';
    }
  }

  function dayHeaderEl(ms) {
    const key = dayKey(ms);
    let header = days.get(key);
    if (!header) {
      header = h('div', { class: 'day-header', dataset: { day: ms } }, h('span', { text: dayHeader(ms) }));
      days.set(key, header);
    }
    return header;
  }

  // ---- Rendering with a fixed anchor ----

  function atBottom() {
    return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 48;
  }

  function anchor() {
    const top = scroller.getBoundingClientRect().top;
    for (const child of list.children) {
      if (child.classList.contains('day-header')) continue; // shared by a day: it moves with prepends
      const rect = child.getBoundingClientRect();
      // The bubble, not the row: a row that stops starting a run (older messages by the
      // same sender arrived above it) loses its name line and margin above the bubble.
      const target = child.querySelector('.msg-line') || child;
      if (rect.bottom > top) return { el: target, offset: target.getBoundingClientRect().top };
    }
    return null;
  }

  const render = rafThrottle(() => renderNow());

  /**
   * A pending reply's quote, as the server will show it: from the quoted message in memory (so
   * a recall or an edit since shows), else as it was when the reply was written; none when
   * neither is known (the server's copy brings it).
   */
  function pendingQuote(entry, tl) {
    if (!entry.replyTo) return undefined;
    const quoted = tl.items.find((m) => m.id === entry.replyTo);
    return quoted ? replyPreviewOf(quoted) : entry.quote;
  }

  function renderNow() {
    if (!id) return;
    const conversation = state.conversations.get(id);
    const tl = timeline(id);
    const me = state.me?.id;
    // Action events changed the messages they name; hidden messages are "deleted for me".
    const items = tl.items.filter((m) => !m.hidden && !(m.kind === 'system' && ACTION_TYPES.has(m.system?.type)))
      .map((message) => ({ key: keyOf(message), message, pending: null }));
    const sent = new Set(tl.items.filter((m) => m.sender === me && m.clientId).map((m) => m.clientId));
    for (const entry of entriesFor(id)) {
      if (sent.has(entry.clientId)) continue;
      items.push({
        key: `c:${entry.clientId}`, pending: entry,
        message: { kind: entry.kind, text: entry.text, image: entry.image, voice: entry.voice, preview: entry.preview, sender: me, createdAt: entry.createdAt, clientId: entry.clientId,
          file: entry.fileInfo, pendingEntry: entry.kind === 'file' ? entry : undefined, replyTo: pendingQuote(entry, tl) },
      });
    }

    const wasAtBottom = stick;
    const keep = wasAtBottom ? null : anchor();

    const bounced = roomBounces(items);
    const nodes = [];
    let previous = null;
    let previousDay = null;
    const rowEntries = [];
    for (const item of items) {
      if (bounced.has(item.key)) continue;
      const m = item.message;
      const day = dayKey(m.createdAt);
      if (day !== previousDay) {
        nodes.push(dayHeaderEl(m.createdAt));
        previousDay = day;
        previous = null;
      }
      let entry = rows.get(item.key);
      // A message's state (edit, recall, reactions) changes its row: built again.
      // Who listened changes only the sender's row: the listener's must not be rebuilt
      // (and its playback cut) when their own play comes back from the server.
      const listened = m.kind === 'voice' && m.sender === me ? m.listenedBy : null;
      const signature = JSON.stringify([m.text, m.editedAt, m.recalled, m.reactions, m.replyTo, m.id, !!m.id && client.actionWaiting(m.id), listened]);
      if (entry && entry.signature !== signature) {
        rows.delete(item.key);
        entry = null;
      }
      if (!entry) {
        entry = { el: buildRow(m, conversation), state: null, error: null, signature };
        entry.el.dataset.key = item.key;
        rows.set(item.key, entry);
      }
      entry.message = m;
      if (m.kind !== 'system' && !m.recalled) paintStatus(entry, item.pending);
      const runStart = !previous || isNotice(previous) || isNotice(m) || previous.sender !== m.sender
        || m.createdAt - previous.createdAt > RUN_GAP;
      entry.el.classList.toggle('run-start', runStart);
      if (rowEntries.length && runStart) rowEntries[rowEntries.length - 1].el.classList.add('run-end');
      if (rowEntries.length && !runStart) rowEntries[rowEntries.length - 1].el.classList.remove('run-end');
      rowEntries.push(entry);
      nodes.push(entry.el);
      previous = m;
    }
    if (rowEntries.length) rowEntries[rowEntries.length - 1].el.classList.add('run-end');
    // Day headers are shared between rows of a day; the last of a day also ends a run.
    for (let i = 0; i < nodes.length - 1; i++) if (nodes[i + 1].classList.contains('day-header')) nodes[i].classList.add('run-end');
    syncChildren(list, nodes);
    for (const [key, entry] of rows) if (!entry.el.isConnected) rows.delete(key);

    skeleton.hidden = !(tl.loading && !tl.loaded);
    const failed = !tl.loaded && !tl.loading && tl.error && tl.error !== 'not_member';
    // Opened offline (a reload with the server away): nothing to show yet, and it says why.
    const waiting = !tl.loaded && !tl.loading && !failed && state.connection.status !== 'online';
    emptyNote.hidden = !((tl.loaded && items.length === 0) || failed || waiting);
    emptyNote.classList.toggle('dialogue-empty--offline', waiting);
    emptyNote.querySelector('p').textContent = failed ? errorText({ code: tl.error }) : waiting ? t('messages_when_online') : t('no_messages');
    historyTop.replaceChildren();
    if (tl.loaded && tl.loading && items.length) historyTop.append(spinner('spinner--sm'), h('span', { text: t('loading_earlier') }));
    else if (tl.loaded && !tl.hasMore && items.length) historyTop.append(h('span', { text: t('beginning') }));

    if (wasAtBottom) scroller.scrollTop = scroller.scrollHeight;
    else if (keep && keep.el.isConnected) scroller.scrollTop += keep.el.getBoundingClientRect().top - keep.offset;

    const newest = items[items.length - 1];
    if (newest && lastKey && newest.key !== lastKey && !wasAtBottom) {
      const fresh = items.slice(items.findIndex((i) => i.key === lastKey) + 1);
      const fromOthers = fresh.filter((i) => i.message.sender !== me).length;
      if (fromOthers) {
        newCount += fromOthers;
        paintPill();
      }
    }
    lastKey = newest ? newest.key : null;
    paintHeader();
    paintTicks();
    paintPins();
    afterScroll();
    // Fill a short screen with older history.
    if (tl.loaded && tl.hasMore && !tl.loading && scroller.scrollHeight <= scroller.clientHeight + 80) client.loadOlder(id);
  }

  /**
   * The keys of room notices left out: a leave and a re-entry by the same person within
   * ROOM_BOUNCE, and a notice that repeats the one shown before it for that person.
   */
  function roomBounces(items) {
    const hidden = new Set();
    const last = new Map(); // actor → the last room notice of theirs still shown
    for (const item of items) {
      const m = item.message;
      const type = m.kind === 'system' ? m.system?.type : null;
      if (type !== 'room_entered' && type !== 'room_left') continue;
      const actor = m.system.actor || '';
      const before = last.get(actor);
      if (before && before.type === type) {
        hidden.add(item.key);
      } else if (before && before.type === 'room_left' && type === 'room_entered' && m.createdAt - before.createdAt <= ROOM_BOUNCE) {
        hidden.add(item.key);
        hidden.add(before.key);
        last.set(actor, before.previous);
      } else {
        last.set(actor, { type, createdAt: m.createdAt, key: item.key, previous: before });
      }
    }
    return hidden;
  }

  function paintPins() {
    const pins = state.pins.get(id) || [];
    pinnedBar.hidden = pins.length === 0;
    if (!pins.length) return;
    if (pinnedIndex >= pins.length) pinnedIndex = 0;
    const pin = pins[pinnedIndex];
    pinnedBar.querySelector('.pinned-bar-count').textContent = t('pinned_messages', { n: pins.length });
    pinnedBar.querySelector('.pinned-bar-text').textContent = excerptOf(pin.message);
  }

  pinnedBar.addEventListener('click', () => {
    const pins = state.pins.get(id) || [];
    if (!pins.length) return;
    jumpTo(pins[pinnedIndex % pins.length].message.seq);
    pinnedIndex = (pinnedIndex + 1) % pins.length;
    paintPins();
  });

  /**
   * Scrolls to the message at `seq` and highlights it; older pages load until it is there.
   * `smooth: false` jumps at once: a smooth scroll from the bottom would still read as "at
   * the bottom" to the scroll handler, and the next render would pull the view back down.
   */
  async function jumpTo(seq, { smooth = true } = {}) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const row = list.querySelector(`.msg[data-seq="${seq}"]`);
      if (row) {
        stick = false;
        row.scrollIntoView({ block: 'center', behavior: !smooth || prefersReducedMotion() ? 'auto' : 'smooth' });
        row.classList.add('is-highlighted');
        setTimeout(() => row.classList.remove('is-highlighted'), 1600);
        return;
      }
      const tl = timeline(id);
      if (!tl.hasMore || minSeq(tl) <= seq) break;
      await client.loadOlder(id);
      renderNow();
    }
    toast(t('quoted_missing'));
  }

  /**
   * A search hit opened the conversation at `seq`: once its newest page is in (bounded wait),
   * the same jump as a quoted message's, then the route drops `/at/<seq>` so going back or
   * reopening the chat does not jump again.
   */
  async function jumpWhenLoaded(conversationId, seq) {
    for (let wait = 0; wait < 100 && id === conversationId && !timeline(conversationId).loaded; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (id !== conversationId) return;
    history.replaceState(null, '', `#/${tab}/c/${encodeURIComponent(conversationId)}`);
    renderNow();
    await jumpTo(seq, { smooth: false });
  }

  // ---- Reply and edit ----

  let context = null; // {mode: 'reply' | 'edit', message}

  function startContext(mode, message) {
    context = { mode, message };
    contextText.textContent = mode === 'edit' ? t('editing_message')
      : `${t('replying_to', { name: message.sender === state.me?.id ? t('you') : userName(message.sender) })}: ${excerptOf(message)}`;
    contextBar.hidden = false;
    contextBar.dataset.mode = mode;
    if (mode === 'edit') {
      textarea.value = message.text || '';
    }
    autosize();
    textarea.focus();
  }

  function clearContext() {
    const wasEdit = context?.mode === 'edit';
    context = null;
    contextBar.hidden = true;
    if (wasEdit) {
      textarea.value = '';
      autosize();
    }
  }

  // ---- @ mentions (groups) ----

  let members = null;        // the group's members, fetched on the first @
  let mentioned = new Map(); // "@Name" → user id (or 'all')
  let suggestions = [];
  let suggestionIndex = 0;

  async function groupMembers() {
    if (!members) members = (await client.groupMembers(id)).map((m) => m.user);
    return members;
  }

  async function updateMentions() {
    const conversation = state.conversations.get(id);
    const before = textarea.value.slice(0, textarea.selectionStart ?? textarea.value.length);
    const match = conversation?.kind === 'group' ? before.match(/(?:^|\s)@([^\s@]{0,32})$/u) : null;
    if (!match) {
      mentionList.hidden = true;
      suggestions = [];
      return;
    }
    const query = match[1].toLowerCase();
    const everyone = await groupMembers().catch(() => []);
    const me = state.me?.id;
    suggestions = everyone.filter((u) => u.id !== me)
      .map((u) => ({ id: u.id, name: userName(u.id) }))
      .filter((u) => u.name.toLowerCase().includes(query))
      .slice(0, 8);
    if (state.groupInfo.get(id)?.ownerId === me && t('mention_all').toLowerCase().includes(query)) {
      suggestions.unshift({ id: 'all', name: t('mention_all') });
    }
    suggestionIndex = 0;
    paintMentions();
  }

  function paintMentions() {
    mentionList.replaceChildren(...suggestions.map((s, index) => h('button', {
      type: 'button', role: 'option', class: `mention-option${index === suggestionIndex ? ' is-active' : ''}`,
      'aria-selected': String(index === suggestionIndex), text: `@${s.name}`, dataset: { user: s.id },
      onmousedown: (event) => event.preventDefault(),
      onclick: () => chooseMention(s),
    })));
    mentionList.hidden = suggestions.length === 0;
  }

  function chooseMention(s) {
    const caret = textarea.selectionStart ?? textarea.value.length;
    const before = textarea.value.slice(0, caret);
    const at = before.lastIndexOf('@');
    textarea.setRangeText(`@${s.name} `, at, caret, 'end');
    mentioned.set(`@${s.name}`, s.id);
    mentionList.hidden = true;
    suggestions = [];
    autosize();
    textarea.focus();
  }

  function paintPill() {
    pill.hidden = newCount === 0;
    pill.querySelector('span').textContent = newCount === 1 ? t('new_message') : t('new_messages_n', { n: newCount });
  }

  function scrollToBottom(smooth) {
    stick = true;
    scroller.scrollTo({ top: scroller.scrollHeight, behavior: smooth && !prefersReducedMotion() ? 'smooth' : 'auto' });
    newCount = 0;
    paintPill();
  }

  pill.addEventListener('click', () => scrollToBottom(true));

  function afterScroll() {
    stick = atBottom();
    state.readingAtBottom = stick;
    if (stick && newCount) {
      newCount = 0;
      paintPill();
    }
    if (stick && id && document.visibilityState === 'visible') client.markRead(id);
    const tl = timeline(id);
    if (scroller.scrollTop < 400 && tl.loaded && tl.hasMore && !tl.loading) client.loadOlder(id);
  }

  scroller.addEventListener('scroll', afterScroll, { passive: true });
  const onVisible = () => { if (document.visibilityState === 'visible' && id) afterScroll(); };
  document.addEventListener('visibilitychange', onVisible);
  const onResize = () => { if (stick) scroller.scrollTop = scroller.scrollHeight; };
  window.addEventListener('resize', onResize);

  // ---- Composer ----

  function autosize() {
    textarea.style.height = 'auto';
    textarea.style.height = `${Math.min(textarea.scrollHeight, 140)}px`;
    sendButton.disabled = !textarea.value.trim();
  }

  function insertText(text) {
    const start = textarea.selectionStart ?? textarea.value.length;
    const end = textarea.selectionEnd ?? textarea.value.length;
    textarea.setRangeText(text, start, end, 'end');
    autosize();
    textarea.focus();
  }

  function toggleEmoji(force) {
    const show = force ?? emojiPanel.hidden;
    emojiPanel.hidden = !show;
    emojiButton.setAttribute('aria-expanded', String(show));
  }

  function sendCurrent() {
    const text = textarea.value;
    if (!text.trim() || !id) return;
    const trimmed = text.replace(/\s+$/, '');
    if (context?.mode === 'edit') {
      const target = context.message;
      client.editMessage(target, trimmed).then((done) => { if (done === null) toast(t('action_queued')); })
        .catch((error) => toast(errorText(error), 'error'));
      clearContext();
      render();
      return;
    }
    const ids = [...mentioned].filter(([name]) => trimmed.includes(name)).map(([, user]) => user);
    client.sendText(id, trimmed, {
      replyTo: context?.mode === 'reply' ? context.message.id : undefined,
      quote: context?.mode === 'reply' ? replyPreviewOf(context.message) : undefined,
      mentions: ids.filter((user) => user !== 'all'),
      mentionsAll: ids.includes('all'),
    });
    mentioned = new Map();
    clearContext();
    client.draftChanged(id, '');
    textarea.value = '';
    autosize();
    toggleEmoji(false);
    scrollToBottom(false);
    render();
  }

  textarea.addEventListener('input', () => {
    autosize();
    updateMentions();
    if (id && context?.mode !== 'edit') client.draftChanged(id, textarea.value.trim());
  });
  textarea.addEventListener('keydown', (event) => {
    if (suggestions.length && !mentionList.hidden) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        suggestionIndex = (suggestionIndex + (event.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length;
        paintMentions();
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && !event.isComposing) {
        event.preventDefault();
        chooseMention(suggestions[suggestionIndex]);
        return;
      }
      if (event.key === 'Escape') {
        event.stopPropagation();
        mentionList.hidden = true;
        suggestions = [];
        return;
      }
    }
    if (event.key === 'Escape' && context) {
      event.stopPropagation();
      clearContext();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing && event.keyCode !== 229) {
      event.preventDefault();
      sendCurrent();
    } else if (event.key === 'Escape' && !emojiPanel.hidden) {
      event.stopPropagation();
      toggleEmoji(false);
    }
  });
  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    sendCurrent();
    textarea.focus();
  });

  // Pictures the page can show go as images; anything else as a file message.
  async function sendFiles(files, { imagesOnly = false } = {}) {
    for (const file of files) {
      if (IMAGE_TYPES.includes(file.type)) {
        await client.sendImage(id, file);
      } else if (imagesOnly) {
        toast(t('err_unsupported_media_type'), 'error');
      } else {
        client.sendFile(id, file);
      }
    }
    scrollToBottom(false);
    render();
  }
  fileInput.addEventListener('change', () => {
    const files = [...fileInput.files];
    fileInput.value = '';
    sendFiles(files, { imagesOnly: true });
  });
  anyFileInput.addEventListener('change', () => {
    const files = [...anyFileInput.files];
    anyFileInput.value = '';
    sendFiles(files);
  });
  textarea.addEventListener('paste', (event) => {
    const files = [...(event.clipboardData?.files || [])].filter((f) => f.type.startsWith('image/'));
    if (files.length) {
      event.preventDefault();
      sendFiles(files);
    }
  });
  body.addEventListener('dragover', (event) => { if (event.dataTransfer?.types.includes('Files')) event.preventDefault(); });
  body.addEventListener('drop', (event) => {
    const files = [...(event.dataTransfer?.files || [])];
    if (files.length) {
      event.preventDefault();
      sendFiles(files);
    }
  });

  // ---- Subscriptions ----

  const offs = [
    on('timeline', (changed) => { if (changed === id) render(); }),
    on('outbox', (changed) => { if (changed === id) render(); }),
    on('actions', () => render()),
    on('conversations', () => {
      if (!id) return;
      askGroupDetails();
      paintHeader();
    }),
    on('friends', () => { if (id) paintHeader(); }),
    on('lastseen', () => { if (id) paintHeader(); }),
    on('resources', () => { if (id) paintHeader(); }),
    on('connection', () => {
      if (!id) return;
      askGroupDetails();
      paintHeader();
      render();
    }),
    on('group', (changed) => { if (changed === id) paintHeader(); }),
    on('pins', (changed) => { if (changed === id) paintPins(); }),
    on('users', () => { if (id) paintHeader(); }),
    on('typing', (changed) => { if (changed === id) paintHeader(); }),
    on('receipt', (changed) => { if (changed === id) paintTicks(); }),
    on('room-occupancy', (changed) => {
      if (changed === id && state.groupInfo.has(id)) client.roomOccupants(id).catch(() => {});
    }),
  ];

  function reset() {
    // Leaving a conversation with a draft: the others stop seeing the user type at once.
    if (id) client.draftChanged(id, '');
    recorder.cancel();
    rows.clear();
    days.clear();
    list.replaceChildren();
    newCount = 0;
    lastKey = null;
    stick = true;
    paintPill();
    textarea.value = '';
    autosize();
    toggleEmoji(false);
    context = null;
    contextBar.hidden = true;
    members = null;
    mentioned = new Map();
    mentionList.hidden = true;
    pinnedIndex = 0;
  }

  return {
    el,
    open(conversationId, fromTab, seq = null) {
      tab = fromTab;
      searchHere.href = `#/chats/c/${encodeURIComponent(conversationId)}/search`;
      if (conversationId !== id) {
        reset();
        id = conversationId;
      }
      state.openConversation = id;
      const conversation = state.conversations.get(id);
      askGroupDetails();
      if (conversation?.kind === 'room') client.roomOccupants(id).catch(() => {});
      const tl = timeline(id);
      if (!tl.loaded && !tl.loading && state.connection.status === 'online') client.loadNewest(id);
      paintHeader();
      renderNow();
      if (seq != null) jumpWhenLoaded(id, seq);
      else if (isDesktop()) requestAnimationFrame(() => textarea.focus({ preventScroll: true }));
    },
    close() {
      if (state.openConversation === id) state.openConversation = null;
      state.readingAtBottom = false;
    },
    refreshTitle: paintHeader,
    destroy() {
      offs.forEach((off) => off());
      recorder.destroy();
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('resize', onResize);
    },
  };
}

