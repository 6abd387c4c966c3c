// On which devices and Jabber clients a person is online (docs/protocol.md, `user.resources`
// and the `presence.resource` event): asked of the server once per person while they are
// online, kept current by the events, and shown as "phone (away) · Chrome on Linux".
import { emit } from './store.js';
import { t } from './i18n.js';

/** user id → Map(resource name → presence) once answered; a pending Promise while asking. */
const known = new Map();

/** Forgets everyone (signed out, or the connection was lost: events may have been missed). */
export function clear() {
  known.clear();
}

/** Forgets a user (they went offline, or a friendship ended). */
export function forget(userId) {
  if (known.get(userId) instanceof Promise) return;
  if (known.delete(userId)) emit('resources', userId);
}

/** A `presence.resource` event: a resource of the user (or a friend) came, changed or went. */
export function apply(event, me) {
  const userId = event.userId || me;
  if (!userId) return;
  const map = known.get(userId);
  // Not asked yet: the first look asks for all of them. Being asked: the answer has it.
  if (!map || map instanceof Promise) return;
  if (event.available) map.set(event.resource, event);
  else map.delete(event.resource);
  emit('resources', userId);
}

/**
 * The user's resources available now, native devices first, or [] (not known yet: then they
 * are asked, and `resources` is emitted when the answer comes).
 */
export function list(call, userId) {
  const map = known.get(userId);
  if (map === undefined) {
    const asking = call('user.resources', { userId })
      .then((answer) => { known.set(userId, new Map((answer.resources || []).filter((r) => r.available).map((r) => [r.resource, r]))); })
      .catch(() => { known.set(userId, new Map()); })
      .finally(() => emit('resources', userId));
    known.set(userId, asking);
    return [];
  }
  if (map instanceof Promise) return [];
  return [...map.values()].sort((a, b) => {
    const native = (r) => (r.client === 'parley' ? 0 : 1);
    return native(a) - native(b) || a.resource.localeCompare(b.resource);
  });
}

// The browsers and systems the server names a device after when it was given no name (its
// `DeviceName.derive`, from the User-Agent). The wire says nothing of who chose a name: a
// made-up one is exactly "<browser> on <system>" of these; any other name was typed.
const MADE_UP_BROWSERS = new Set(['Edge', 'Opera', 'Firefox', 'Chromium', 'Chrome', 'Safari']);
const MADE_UP_SYSTEMS = new Set(['Android', 'iPhone', 'iPad', 'Windows', 'macOS', 'ChromeOS', 'Linux']);

/**
 * A device's name as people read it: one the server made up from the browser ("Chrome on
 * Linux") in the reader's language ("Linux 上的 Chrome"); one the user typed ("Bob on
 * holiday", "Bob's iPhone") as typed.
 */
export function deviceLabel(name) {
  const made = /^(\S+) on (\S+)$/.exec(name);
  const madeUp = made && MADE_UP_BROWSERS.has(made[1]) && MADE_UP_SYSTEMS.has(made[2]);
  return madeUp ? t('device_on', { browser: made[1], system: made[2] }) : name;
}

/**
 * A resource's name as people read it. A native device's resource is its device name as
 * written (spaces and punctuation kept, only what a Jabber resource may not hold left out),
 * with the session's tag after a dot ("Bob's iPhone.k3f9x2"): shown without the tag ("Bob's
 * iPhone"). A Jabber client's resource is the name its user chose and is shown as it is.
 * Only the display changes; the resource itself (the Jabber address's last part) stays what
 * the server made.
 */
export function resourceLabel(resource) {
  if (resource.client !== 'parley') return resource.resource;
  const device = resource.resource.replace(/\.[^.]*$/, '');
  return device.trim() ? deviceLabel(device) : resource.resource;
}

/** One resource as text: its name, what kind of client it is, and its show and status. */
export function describe(resource) {
  const kind = resource.client === 'xmpp' ? t('resource_jabber') : t('resource_device');
  const state = [resource.show ? t(`resource_show_${resource.show}`) : '', resource.status || ''].filter(Boolean).join(': ');
  return `${resourceLabel(resource)} (${[kind, state].filter(Boolean).join(', ')})`;
}
