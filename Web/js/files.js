// Files of any type in a conversation: the upload with its progress and a cancel, and the
// tile a file message shows (an icon by type, the name, the size, a download link).
// The name is shown as text and passed to the server as ?name=, which makes it safe for the
// saved file; nothing here ever treats it as markup or a path.

import { h, safeURL } from './dom.js';
import { icon } from './icons.js';
import { t } from './i18n.js';
import { bindDownload } from './media.js';

/** A size as file managers show it: 512 B, 3 KB, 1.2 MB (powers of 1024). */
export function formatSize(bytes) {
  if (!(bytes >= 1024)) return `${Math.max(0, bytes | 0)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (value < 10) {
    const tenths = Math.round(value * 10);
    return tenths % 10 === 0 ? `${tenths / 10} ${units[unit]}` : `${(tenths / 10).toFixed(1)} ${units[unit]}`;
  }
  return `${Math.round(value)} ${units[unit]}`;
}

/** The icon for a MIME type. */
function iconFor(type = '') {
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/') || type.startsWith('video/')) return 'media';
  return 'file';
}

/**
 * The tile of a file message. `pending` is the outbox entry of a send not yet stored: its
 * upload shows a progress bar and a cancel button (`onCancel`).
 */
export function fileTile(file, { pending = null, onCancel = null } = {}) {
  const name = file?.name || t('file');
  const meta = h('span', { class: 'file-size', text: formatSize(file?.size || 0) });
  const children = [icon(iconFor(file?.type), { size: 28, cls: 'file-icon' }),
    h('span', { class: 'file-meta' }, h('span', { class: 'file-name', text: name, title: name }), meta)];
  const url = pending ? null : safeURL(file?.url);
  if (url) {
    const link = h('a', { class: 'file-download', download: name, rel: 'noopener', 'aria-label': t('file_download', { name }), title: t('file_download', { name }) },
      icon('download', { size: 20 }));
    // Through a signed link, renewed on click when stale (media.js).
    bindDownload(link, url, file?.name);
    children.push(link);
  }
  const tile = h('div', { class: 'file-tile', dataset: { type: file?.type || '' } }, children);
  if (pending && !pending.mediaId) {
    const bar = h('progress', { class: 'file-progress', max: '1', value: String(pending.progress || 0), 'aria-label': t('file_uploading', { name }) });
    const cancel = h('button', { type: 'button', class: 'file-cancel', 'aria-label': t('file_cancel'), title: t('file_cancel') }, icon('close', { size: 18 }));
    cancel.addEventListener('click', (event) => {
      event.stopPropagation();
      onCancel?.();
    });
    // The upload reports here directly: a progress step need not repaint the dialogue.
    pending.progressView = (fraction) => {
      bar.value = fraction;
      meta.textContent = `${formatSize(Math.round((file?.size || 0) * fraction))} / ${formatSize(file?.size || 0)}`;
    };
    tile.append(bar, cancel);
  }
  return tile;
}

/**
 * Uploads `blob` to POST /v1/files with `token`, reporting progress (0…1) to `onProgress`.
 * Returns {promise, abort}; the promise resolves to the media info or rejects with
 * {code, message} (`cancelled` after abort). XMLHttpRequest, because fetch reports no upload
 * progress; the browser streams the file from disk, so memory stays flat here too.
 */
export function uploadFile(blob, token, onProgress) {
  const xhr = new XMLHttpRequest();
  const promise = new Promise((resolve, reject) => {
    xhr.open('POST', '/v1/files');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText || 'null');
      } catch {
        body = null;
      }
      if (xhr.status === 201 && body) {
        onProgress?.(1);
        resolve(body);
      } else {
        const error = body?.error || {};
        reject({ code: error.code || (xhr.status === 413 ? 'payload_too_large' : 'unknown'), message: error.message || `HTTP ${xhr.status}`,
          retryAfterSeconds: Number(xhr.getResponseHeader('Retry-After')) || undefined });
      }
    });
    xhr.addEventListener('error', () => reject({ code: 'network', message: 'the upload failed' }));
    xhr.addEventListener('abort', () => reject({ code: 'cancelled', message: 'the upload was cancelled' }));
    xhr.send(blob);
  });
  return { promise, abort: () => xhr.abort() };
}
