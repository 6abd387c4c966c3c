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
 * progress; the browser streams the file from disk, so memory stays flat here too. A large
 * file goes in pieces: `resume.uploadId` names an upload begun earlier (before a reload) to
 * go on with, and `resume.started(id)` hears the id of one begun now.
 */
export function uploadFile(blob, token, onProgress, resume = {}) {
  if (blob.size > RESUMABLE_ABOVE) return uploadInPieces(blob, token, onProgress, resume);
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

/** Files larger than this go through a resumable upload, in pieces of `PIECE_BYTES`. */
export const RESUMABLE_ABOVE = 8 * 1024 * 1024;
export const PIECE_BYTES = 8 * 1024 * 1024;
/** Failures in a row (a dropped connection, a server restarting) before giving up. */
const MAX_FAILURES = 8;

/** One XMLHttpRequest as a promise of {status, body, offset}; `onSent` gets bytes sent so far. */
function exchange(method, url, token, { body = null, headers = {}, onSent = null, keep } = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    keep?.(xhr);
    xhr.open(method, url);
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onSent) xhr.upload.addEventListener('progress', (event) => onSent(event.loaded));
    xhr.addEventListener('load', () => {
      let parsed = null;
      try {
        parsed = JSON.parse(xhr.responseText || 'null');
      } catch {
        parsed = null;
      }
      resolve({ status: xhr.status, body: parsed, offset: Number(xhr.getResponseHeader('Upload-Offset')),
        retryAfterSeconds: Number(xhr.getResponseHeader('Retry-After')) || undefined });
    });
    xhr.addEventListener('error', () => reject({ code: 'network', message: 'the upload failed' }));
    xhr.addEventListener('abort', () => reject({ code: 'cancelled', message: 'the upload was cancelled' }));
    xhr.send(body);
  });
}

/**
 * A resumable upload (docs/protocol.md, "Resumable uploads"): the file goes in pieces, each
 * a slice the browser reads from disk; after a dropped connection or a server restart the
 * upload asks where the server stands and goes on from there, so only the piece in flight
 * is sent again. Same {promise, abort} as `uploadFile`.
 */
function uploadInPieces(blob, token, onProgress, resume) {
  let current = null;
  let cancelled = false;
  let uploadId = null;
  const refusal = (reply) => ({
    code: reply.body?.error?.code || (reply.status === 413 ? 'payload_too_large' : 'unknown'),
    message: reply.body?.error?.message || `HTTP ${reply.status}`, retryAfterSeconds: reply.retryAfterSeconds,
  });
  const keep = (xhr) => { current = xhr; };
  const promise = (async () => {
    let offset = 0;
    // An upload begun before a reload: on from where the server stands, if it still has it
    // (an expired or finished one is gone, and the file goes again from the start).
    if (resume.uploadId) {
      const known = await exchange('GET', `/v1/file-uploads/${encodeURIComponent(resume.uploadId)}`, token, { keep })
        .catch(() => null);
      if (known?.status === 200 && known.body) {
        uploadId = resume.uploadId;
        offset = known.body.offset || 0;
      }
    }
    if (!uploadId) {
      const created = await exchange('POST', '/v1/file-uploads', token, {
        body: JSON.stringify({ size: blob.size, name: blob.name || undefined }), headers: { 'Content-Type': 'application/json' }, keep,
      });
      if (created.status !== 201 || !created.body) throw refusal(created);
      uploadId = created.body.id;
      offset = created.body.offset || 0;
      resume.started?.(uploadId);
    }
    const path = `/v1/file-uploads/${encodeURIComponent(uploadId)}`;
    let failures = 0;
    onProgress?.(offset / blob.size);
    for (;;) {
      if (cancelled) throw { code: 'cancelled', message: 'the upload was cancelled' };
      const end = Math.min(blob.size, offset + PIECE_BYTES);
      let reply;
      try {
        const start = offset;
        reply = await exchange('PATCH', path, token, {
          body: blob.slice(start, end), headers: { 'Upload-Offset': String(start), 'Content-Type': 'application/octet-stream' },
          onSent: (sent) => onProgress?.(Math.min(end, start + sent) / blob.size), keep,
        });
      } catch (error) {
        if (error.code === 'cancelled' || ++failures >= MAX_FAILURES) throw error;
        reply = null;
      }
      if (reply && reply.status === 201 && reply.body?.media) {
        onProgress?.(1);
        return reply.body.media;
      }
      if (reply && reply.status === 200 && reply.body) {
        offset = reply.body.offset;
        failures = 0;
        continue;
      }
      if (reply && reply.status !== 409 && reply.status < 500) throw refusal(reply);
      if (reply && ++failures >= MAX_FAILURES) throw refusal(reply);
      // Lost or out of step: wait a little, then ask where the upload stands.
      await new Promise((resume) => setTimeout(resume, Math.min(4000, 250 * 2 ** failures)));
      try {
        const status = await exchange('GET', path, token, { keep });
        if (status.status === 200 && status.body) offset = status.body.offset;
        else if (status.status < 500) throw refusal(status);
      } catch (error) {
        if (error.code !== 'network') throw error;
        if (++failures >= MAX_FAILURES) throw error;
      }
    }
  })();
  const abort = () => {
    cancelled = true;
    current?.abort();
    // The server would drop it after its expiry anyway; say so now.
    if (uploadId) exchange('DELETE', `/v1/file-uploads/${encodeURIComponent(uploadId)}`, token).catch(() => {});
  };
  return { promise, abort };
}
