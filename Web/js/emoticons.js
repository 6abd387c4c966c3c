// Text smileys as emoji (seed 001): ":)" becomes 🙂 before display. A smiley counts only
// when it stands apart from letters and digits, so "http://", "10:30" or "a:b" stay as typed.

export const EMOTICONS = [
  [':-)', '🙂'], [':)', '🙂'], ['(:', '🙂'],
  [':-(', '🙁'], [':(', '🙁'],
  [';-)', '😉'], [';)', '😉'],
  [':-D', '😄'], [':D', '😄'], ['XD', '😆'], ['xD', '😆'],
  [':-P', '😛'], [':P', '😛'], [':-p', '😛'], [':p', '😛'],
  ['<3', '❤️'], ['</3', '💔'],
  [":'(", '😢'], [":'-(", '😢'],
  [':-O', '😮'], [':O', '😮'], [':-o', '😮'], [':o', '😮'],
  [':-*', '😘'], [':*', '😘'],
  ['B-)', '😎'], ['8-)', '😎'],
  [':-|', '😐'], [':|', '😐'],
  [':-/', '😕'], [':/', '😕'],
  ['>:(', '😠'], ['>:-(', '😠'],
  ['^_^', '😊'], ['^^', '😊'], ['T_T', '😭'], ['-_-', '😑'], ['o_O', '😳'], ['O_o', '😳'],
  [':3', '😺'], ['(y)', '👍'], ['(Y)', '👍'],
];

const MAP = new Map(EMOTICONS);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternatives = [...MAP.keys()].sort((a, b) => b.length - a.length).map(escape).join('|');
// Not preceded by a letter, digit or another smiley character; not followed by a letter or digit.
const PATTERN = new RegExp(`(?<![A-Za-z0-9:;<>^_/\\\\])(${alternatives})(?![A-Za-z0-9])`, 'g');

/** Splits text into [{text}|{emoji, source}] pieces. */
export function splitEmoticons(text) {
  const parts = [];
  let last = 0;
  PATTERN.lastIndex = 0;
  for (const match of text.matchAll(PATTERN)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ emoji: MAP.get(match[1]), source: match[1] });
    last = match.index + match[1].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** The text with every smiley replaced by its emoji (for previews and titles). */
export function emojify(text) {
  return splitEmoticons(text).map((p) => p.emoji || p.text).join('');
}

/** A palette for the input bar's emoji picker. */
export const PALETTE = ['🙂', '😄', '😂', '😉', '😊', '😍', '😘', '😎', '🤔', '😮', '😢', '😭', '😠', '😴', '🙄', '😅',
  '👍', '👏', '🙏', '💪', '👋', '🤝', '❤️', '💔', '🎉', '🔥', '✨', '🌸', '☕', '🍵', '🍜', '🍰', '⚽', '🎵', '🐱', '🐶'];

// Emoji already in the text (typed or pasted), so they can be drawn with the colour emoji
// font rather than whatever monochrome glyph a text font happens to have.
const EMOJI_SEQUENCE = /(?:\p{Regional_Indicator}{2}|[#*0-9]\uFE0F\u20E3|\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)*)/gu;

/** Splits text into [{text}|{emoji}] pieces around emoji characters. */
export function splitEmoji(text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(EMOJI_SEQUENCE)) {
    // ©, ® and ™ are pictographic but read better as text.
    if (/^[\u00a9\u00ae\u2122]$/.test(match[0])) continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ emoji: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
