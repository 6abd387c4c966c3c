// Signed links to uploads (docs/protocol.md, "Media access"). A message names its upload by
// path (/v1/media/<id>), which a browser cannot fetch without a sign-in: before a picture,
// a recording or a download link is shown, the page asks the server for a short-lived
// signed link (media.url) and keeps it until shortly before it expires. When one has
// expired anyway (a chat left open for hours), a load error asks for a new one once.

import { call } from './client.js';

// An upload, or its thumbnail (which the upload's signed link opens as well).
const MEDIA_PATH = /^\/v1\/media\/([A-Za-z0-9_-]{1,64})(\/thumbnail)?$/;
// mediaId -> { url, expiresAt, freshUntil } once known, or the promise of one.
const links = new Map();
const pending = new Map();

/** The upload id of one of our plain media paths, or null. */
export function mediaIdOf(path) {
  const match = typeof path === 'string' ? path.match(MEDIA_PATH) : null;
  return match ? match[1] : null;
}

/** `path` with the query (expiry and signature) of its upload's signed link `url`. */
const signedPath = (path, url) => path + url.slice(url.indexOf('?'));

/** A known signed link for `path` that is still fresh, else null. */
export function knownMediaURL(path) {
  const id = mediaIdOf(path);
  const known = id && links.get(id);
  return known && Date.now() < known.freshUntil ? signedPath(path, known.url) : null;
}

/**
 * Resolves to a link the browser may fetch for `path`: a signed one for our uploads (asked
 * for when none is fresh, or always with `fresh`), `path` itself for anything else.
 */
export async function signedMediaURL(path, { fresh = false } = {}) {
  const id = mediaIdOf(path);
  if (!id) return path;
  if (!fresh) {
    const known = knownMediaURL(path);
    if (known) return known;
  }
  if (pending.has(id)) return signedPath(path, await pending.get(id));
  const asked = (async () => {
    try {
      const link = await call('media.url', { mediaId: id });
      const now = Date.now();
      // Asked again once three quarters of its time have passed: never handed out about to expire.
      const freshUntil = now + Math.max(0, (link.expiresAt - now) * 0.75);
      links.set(id, { url: link.url, expiresAt: link.expiresAt, freshUntil });
      return link.url;
    } finally {
      pending.delete(id);
    }
  })();
  pending.set(id, asked);
  return signedPath(path, await asked);
}

/**
 * Points `element[attribute]` (an <img>'s or <audio>'s src) at `path` through a signed link,
 * at once when one is known. A load error asks for a new link and tries once more (the
 * link may have expired while the page was open); `onFail` runs when that fails too.
 */
export function bindMedia(element, attribute, path, { onFail = null } = {}) {
  if (!path) {
    onFail?.();
    return;
  }
  let retried = !mediaIdOf(path);
  const set = (url) => { element[attribute] = url; };
  // Gives up once: the listener goes, so whatever `onFail` binds next starts afresh.
  const fail = () => {
    element.removeEventListener('error', failed);
    onFail?.();
  };
  const failed = () => {
    if (retried) {
      fail();
      return;
    }
    retried = true;
    signedMediaURL(path, { fresh: true }).then(set, fail);
  };
  element.addEventListener('error', failed);
  const known = knownMediaURL(path);
  if (known) set(known);
  else signedMediaURL(path).then(set, fail);
}

/**
 * A download link (<a href download>) to `path` saved under `name`: its href is a signed
 * link, renewed on click when it is no longer fresh, so a link shown long ago still works.
 */
export function bindDownload(anchor, path, name) {
  const suffix = name ? `name=${encodeURIComponent(name)}` : '';
  const withName = (url) => url + (suffix ? `${url.includes('?') ? '&' : '?'}${suffix}` : '');
  if (!mediaIdOf(path)) {
    anchor.href = withName(path);
    return;
  }
  const known = knownMediaURL(path);
  if (known) anchor.href = withName(known);
  else signedMediaURL(path).then((url) => { anchor.href = withName(url); }, () => {});
  anchor.addEventListener('click', (event) => {
    if (knownMediaURL(path) && anchor.href.endsWith(withName(knownMediaURL(path)))) return;
    // Stale or not yet there: get a fresh link, then follow it.
    event.preventDefault();
    signedMediaURL(path, { fresh: true }).then((url) => {
      anchor.href = withName(url);
      anchor.click();
    }, () => {});
  });
}
