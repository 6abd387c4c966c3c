// Words for things: user names, system notices in the reader's language, list previews.
import { t, language, everyLanguage } from './i18n.js';
import { emojify } from './emoticons.js';
import { voiceLength } from './time.js';
import { state, displayName } from './store.js';
import { ensureUser } from './client.js';

// Characters of a message's text shown in one line (the pinned bar, the composer, a reply's
// quote made here); the line is cut by the layout anyway, this only bounds what is kept.
const EXCERPT_CHARACTERS = 80;

/** `text` on one line, at most `EXCERPT_CHARACTERS` characters. */
export function shortLine(text) {
  const line = (text || '').replace(/\s+/g, ' ');
  return line.length > EXCERPT_CHARACTERS ? `${line.slice(0, EXCERPT_CHARACTERS)}…` : line;
}

/**
 * A reply's preview of `message` in the server's shape (docs/protocol.md, "Message actions"):
 * what a pending reply shows above its bubble, and a reply's quote once the quoted message is
 * edited or recalled, until the server's copy comes with the next history page.
 */
export function replyPreviewOf(message) {
  const preview = { messageId: message.id, seq: message.seq, sender: message.sender, kind: message.kind };
  if (message.recalled) preview.recalled = true;
  else if (message.text) preview.excerpt = shortLine(message.text);
  return preview;
}

/** A user's display name by id; unknown users read "ID: <id>" until their profile arrives. */
export function userName(id) {
  if (!id) return t('someone');
  const user = state.users.get(id);
  if (!user) ensureUser(id);
  return displayName(user, id);
}

/**
 * The "@name" words of a message that mention someone: each mentioned member by the names the
 * sender may have typed (nickname, username), and "@Everyone" / "@所有人" when it mentions all.
 * Longest first, so "@Ann Lee" wins over "@Ann".
 */
export function mentionWords(message) {
  const names = [];
  for (const id of message.mentions || []) {
    const user = state.users.get(id);
    names.push(userName(id), user?.nickname, user?.username);
  }
  if (message.mentionsAll) names.push(...everyLanguage('mention_all'));
  return [...new Set(names.filter((name) => name && name.trim()).map((name) => `@${name}`))].sort((a, b) => b.length - a.length);
}

// The reader is "You" as the one who acted and "you" as the one acted on.
function who(id, key = 'you') {
  return state.me && id === state.me.id ? t(key) : userName(id);
}

const LATIN_EDGE = /[A-Za-z0-9]/;
const SPACE = /\s/;

/**
 * A notice's sentence: t(key, vars) where, in Chinese, the people in it (`actor`, `target`)
 * are written straight against the words around them (小林加入了群聊) except that a name
 * starting or ending in a Latin letter or digit is set apart by a space on that side
 * (Mei 将 Lin 移出了群聊) — not at the sentence's start or end, nor where the template has a
 * space already. Only the spacing around the template's placeholders is decided here: a
 * name's own characters (two spaces in it included) are kept as they are.
 */
function notice(key, vars) {
  if (language() !== 'zh' || !vars) return t(key, vars);
  const template = t(key);
  return template.replace(/\{(\w+)\}/g, (match, field, at) => {
    if (!(field in vars)) return match;
    const value = String(vars[field]);
    if (field !== 'actor' && field !== 'target') return value;
    const before = template[at - 1];
    const after = template[at + match.length];
    const left = before !== undefined && !SPACE.test(before) && LATIN_EDGE.test(value[0] || '');
    const right = after !== undefined && !SPACE.test(after) && LATIN_EDGE.test(value[value.length - 1] || '');
    return `${left ? ' ' : ''}${value}${right ? ' ' : ''}`;
  });
}

function fieldList(fields) {
  const words = fields.map((f) => t(`field_${f}`));
  if (words.length <= 1) return words.join('');
  return words.slice(0, -1).join(t('list_sep')) + t('list_and') + words[words.length - 1];
}

/** The sentence for a system message, in the reader's language. */
export function systemText(message) {
  return sentence(message);
}

/** The kind of the message's conversation; a room one was put out of is known by its info. */
function kindOf(message) {
  const conversation = state.conversations.get(message.conversationId);
  if (conversation) return conversation.kind;
  return state.groupInfo.get(message.conversationId)?.occupantCount != null ? 'room' : null;
}

function sentence(message) {
  const s = message.system || {};
  const actor = s.actor ? who(s.actor) : t('someone');
  const target = s.target ? who(s.target, 'you_object') : t('someone');
  const name = s.name || '';
  switch (s.type) {
    case 'friend_added':
      return s.actor && state.me && s.actor === state.me.id ? notice('sys_friend_added_self') : notice('sys_friend_added', { actor });
    case 'matched': return notice('sys_matched');
    case 'group_created': return notice('sys_group_created', { actor, name });
    case 'member_joined': return notice('sys_member_joined', { actor });
    case 'member_left': return notice('sys_member_left', { actor });
    case 'group_disbanded': return notice('sys_group_disbanded', { actor });
    case 'member_removed':
      // In a room the creator or an admin put someone out of it, not out of a group.
      return notice(kindOf(message) === 'room' ? 'sys_room_member_removed' : 'sys_member_removed', { actor, target });
    case 'owner_changed': return notice('sys_owner_changed', { actor, target });
    case 'info_changed': {
      if ((s.fields || []).length && (s.fields || []).every((f) => f === 'joinMode' || f === 'showHistory')) {
        return notice('sys_policy_changed', { actor });
      }
      const fields = (s.fields || []).filter((f) => ['name', 'avatar', 'description'].includes(f));
      const others = fields.filter((f) => f !== 'name');
      const room = kindOf(message) === 'room' ? 'room_' : '';
      if (fields.includes('name') && name) {
        return others.length ? notice(`sys_${room}renamed_and`, { actor, name, fields: fieldList(others) }) : notice(`sys_${room}renamed`, { actor, name });
      }
      return notice(`sys_${room}info_changed`, { actor, fields: fieldList(others.length ? others : fields) || t('details') });
    }
    case 'room_created': return notice('sys_room_created', { actor, name });
    case 'room_entered': return notice('sys_room_entered', { actor });
    case 'room_left': return notice('sys_room_left', { actor });
    case 'message_recalled': return notice('sys_message_recalled', { actor });
    case 'message_edited': return notice('sys_message_edited', { actor });
    case 'reaction_added': return notice('sys_reaction_added', { actor, emoji: s.emoji || '' });
    case 'reaction_removed': return notice('sys_reaction_removed', { actor });
    case 'message_pinned': return notice('sys_message_pinned', { actor });
    case 'message_unpinned': return notice('sys_message_unpinned', { actor });
    case 'message_listened': return notice('sys_message_listened', { actor });
    case 'admin_added': return notice('sys_admin_added', { actor, target });
    case 'admin_removed': return notice('sys_admin_removed', { actor, target });
    case 'member_banned': return notice('sys_member_banned', { actor, target });
    case 'member_unbanned': return notice('sys_member_unbanned', { actor, target });
    case 'member_muted': return notice('sys_member_muted', { actor, target });
    case 'member_unmuted': return notice('sys_member_unmuted', { actor, target });
    case 'join_requested': return notice('sys_join_requested', { actor });
    case 'join_declined': return notice('sys_join_declined', { actor, target });
    default: return notice('sys_unknown');
  }
}


/** One line for a message in the sessions list. */
export function previewText(message, conversation) {
  if (!message) return '';
  if (message.kind === 'system') return systemText(message);
  if (message.recalled) return t('sys_message_recalled', { actor: who(message.recalled.by) });
  const body = message.kind === 'image' ? t('image_preview')
    : message.kind === 'voice' ? t('voice_preview', { length: voiceLength(message.voice?.durationMs) })
      : message.kind === 'file' ? t('file_preview', { name: message.file?.name || '' })
        : emojify((message.text || '').replace(/\s+/g, ' '));
  if (conversation && conversation.kind !== 'user' && message.sender) {
    if (state.me && message.sender === state.me.id) return t('you_prefix') + body;
    return `${userName(message.sender)}${language() === 'zh' ? '：' : ': '}${body}`;
  }
  return body;
}
