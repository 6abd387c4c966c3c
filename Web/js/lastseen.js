// "Last seen" of other people (docs/protocol.md, "Last seen"): asked of the server once per
// person (`user.lastSeen`), again when their presence changes, and shown as a relative time.
// What the server does not tell (their privacy choice, or ours) shows as nothing.
import { emit } from './store.js';
import { t } from './i18n.js';
import { hm, ymd } from './time.js';

/** user id → { online, lastSeenAt } once answered; a pending Promise while asking. */
const known = new Map();
const MINUTE = 60_000;

/** Forgets what is known of a user (their presence changed): the next look asks again. */
export function forget(userId) {
  if (known.get(userId) instanceof Promise) return;
  known.delete(userId);
  emit('lastseen', userId);
}

/** Forgets everyone (signed out). */
export function clear() {
  known.clear();
}

/**
 * The "last seen …" line for a user who is offline, or '' (online, hidden, never seen, or
 * not known yet: then it is asked, and `lastseen` is emitted when the answer comes).
 */
export function label(call, userId, now = Date.now()) {
  const seen = known.get(userId);
  if (seen === undefined) {
    const asking = call('user.lastSeen', { userId })
      .then((answer) => { known.set(userId, { online: answer.online, lastSeenAt: answer.lastSeenAt }); })
      .catch(() => { known.set(userId, {}); })
      .finally(() => emit('lastseen', userId));
    known.set(userId, asking);
    return '';
  }
  if (seen instanceof Promise || seen.online || seen.lastSeenAt == null) return '';
  return relative(seen.lastSeenAt, now);
}

/**
 * "last seen just now / 5 minutes ago / 3 hours ago / yesterday at 14:05 / on 2026-11-02".
 * The server keeps the time to the minute, rounded down: the person was there until some
 * moment of the minute starting at `ms`, so the time since is counted from its end (someone
 * who left a second ago is "just now", never "1 minute ago").
 */
export function relative(ms, now = Date.now()) {
  const ago = Math.max(0, now - (ms + MINUTE));
  if (ago < MINUTE) return t('last_seen_just_now');
  if (ago < 60 * MINUTE) return t('last_seen_minutes', { n: Math.floor(ago / MINUTE) });
  const then = new Date(ms);
  const today = new Date(now);
  today.setHours(0, 0, 0, 0);
  if (ms >= today.getTime()) return t('last_seen_hours', { n: Math.floor(ago / (60 * MINUTE)) });
  if (ms >= today.getTime() - 24 * 60 * MINUTE) return t('last_seen_yesterday', { time: hm(then) });
  return t('last_seen_on', { date: ymd(then) });
}
