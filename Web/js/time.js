// Times as Parley shows them. Message times follow seed 000's rule: HH:mm:ss when the
// message is under four hours old, yyyy-MM-dd HH:mm:ss otherwise. Day headers group a
// dialogue by calendar day; the sessions list uses a compact form.
import { t } from './i18n.js';

const FOUR_HOURS = 4 * 60 * 60 * 1000;
const pad = (n) => String(n).padStart(2, '0');

export const hms = (d) => `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
export const hm = (d) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
export const ymd = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** Seed 000's rule. A message "from the future" (clock skew) counts as new. */
export function messageTime(ms, now = Date.now()) {
  const d = new Date(ms);
  return now - ms < FOUR_HOURS ? hms(d) : `${ymd(d)} ${hms(d)}`;
}

export const fullTime = (ms) => { const d = new Date(ms); return `${ymd(d)} ${hms(d)}`; };

/** A key naming the local calendar day of a time. */
export const dayKey = (ms) => ymd(new Date(ms));

function startOfDay(ms) {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

function daysAgo(ms, now) {
  return Math.round((startOfDay(now) - startOfDay(ms)) / 86400000);
}

/** The text of a day header: Today, Yesterday, a weekday within the week, else the date. */
export function dayHeader(ms, now = Date.now()) {
  const ago = daysAgo(ms, now);
  const d = new Date(ms);
  if (ago === 0) return t('today');
  if (ago === 1) return t('yesterday');
  const weekday = t('weekdays').split(',')[d.getDay()];
  if (ago > 1 && ago < 7) return weekday;
  return `${ymd(d)} ${weekday}`;
}

/** Compact time for list rows: 14:05 today, Yesterday, a weekday, or the date. */
export function listTime(ms, now = Date.now()) {
  if (!ms) return '';
  const ago = daysAgo(ms, now);
  const d = new Date(ms);
  if (ago <= 0) return hm(d);
  if (ago === 1) return t('yesterday');
  if (ago < 7) return t('weekdays').split(',')[d.getDay()];
  if (d.getFullYear() === new Date(now).getFullYear()) return `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return ymd(d);
}

/** `m:ss` for a voice note's length in milliseconds. */
export function voiceLength(ms) {
  const seconds = Math.max(0, Math.round((ms || 0) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
