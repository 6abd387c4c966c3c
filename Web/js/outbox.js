// Sends that have not been acknowledged yet. Each has a client id chosen once, so sending
// it again after a lost acknowledgement never doubles it (the server returns the stored
// message). Entries survive reloads (localStorage) and are retried, in order, after every
// (re)connect. A refusal by the server marks the entry failed; the user can retry it. The
// file of an image, voice note or file not yet uploaded waits in IndexedDB
// (pendingfiles.js), so a reload loses none; a large file's resumable upload goes on from
// where the server stands.
import { state, emit } from './store.js';
import * as pendingFiles from './pendingfiles.js';

let hooks = { call: null, upload: null, uploadFile: null, sent: null };
let userKey = null;
let userId = null;
/** Settles once the files of the entries loaded from storage are back in memory. */
let filesBack = Promise.resolve();
let flushing = false;
let again = false;
let retryTimer = null;

const RETRYABLE = new Set(['network', 'timeout', 'unavailable', 'internal_error']);

export function configure(value) { hooks = value; }

export function load(id) {
  userId = id;
  userKey = `parley.outbox.${id}`;
  let saved = [];
  try {
    saved = JSON.parse(localStorage.getItem(userKey) || '[]');
  } catch {
    saved = [];
  }
  state.outbox = saved.map((e) => ({ ...e, state: e.state === 'failed' ? 'failed' : 'pending' }));
  // Files not uploaded yet come back from IndexedDB (with a fresh preview); one that is gone
  // fails its send with `file_lost`, which the user discards or sends again.
  const owner = id;
  filesBack = Promise.all(state.outbox.filter(needsFile).map(async (entry) => {
    const file = await pendingFiles.restore(owner, entry.clientId);
    if (userId !== owner || !state.outbox.includes(entry)) return;
    if (file) {
      entry.file = file;
      if (entry.kind !== 'file') entry.preview = URL.createObjectURL(file);
    } else {
      entry.state = 'failed';
      entry.error = 'file_lost';
    }
    emit('outbox', entry.conversationId);
  })).then(() => pendingFiles.prune(owner, new Set(state.outbox.map((e) => e.clientId))));
}

/** A media send whose bytes are not on the server yet. */
const needsFile = (entry) => entry.kind !== 'text' && !entry.mediaId;

function save() {
  if (!userKey) return;
  const stored = state.outbox
    // What lives only as long as the page: the file (in IndexedDB instead), its preview, the
    // upload in flight and its progress.
    .map(({ file, preview, abort, progressView, progress, ...rest }) => ({ ...rest, state: rest.state === 'failed' ? 'failed' : 'pending' }));
  try {
    localStorage.setItem(userKey, JSON.stringify(stored));
  } catch {
    /* storage full: the entries still live in memory */
  }
}

export function newClientId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const entriesFor = (conversationId) => state.outbox.filter((e) => e.conversationId === conversationId);

export function enqueue(entry) {
  const full = { ...entry, clientId: newClientId(), createdAt: Date.now(), state: 'pending', error: null };
  state.outbox.push(full);
  if (full.file && userId) pendingFiles.keep(userId, full.clientId, full.file);
  save();
  emit('outbox', full.conversationId);
  flush();
  return full;
}

export function retry(clientId) {
  const entry = state.outbox.find((e) => e.clientId === clientId);
  if (!entry) return;
  entry.state = 'pending';
  entry.error = null;
  save();
  emit('outbox', entry.conversationId);
  flush();
}

export function discard(clientId) {
  const entry = state.outbox.find((e) => e.clientId === clientId);
  if (!entry) return;
  state.outbox = state.outbox.filter((e) => e !== entry);
  entry.abort?.();
  if (entry.preview) URL.revokeObjectURL(entry.preview);
  if (userId) pendingFiles.forget(userId, clientId);
  save();
  emit('outbox', entry.conversationId);
}

/** The server has this send (an acknowledgement, a live event or sync): drop it. */
export function acknowledge(clientId) {
  const entry = state.outbox.find((e) => e.clientId === clientId);
  if (!entry) return null;
  state.outbox = state.outbox.filter((e) => e !== entry);
  if (userId && entry.kind !== 'text') pendingFiles.forget(userId, clientId);
  save();
  emit('outbox', entry.conversationId);
  return entry;
}

/** Sends every pending entry in order; stops at the first network problem. */
export async function flush() {
  if (flushing) {
    again = true;
    return;
  }
  flushing = true;
  try {
    await filesBack;
    do {
      again = false;
      for (const entry of [...state.outbox]) {
        if (entry.state !== 'pending' || !state.outbox.includes(entry)) continue;
        if (state.connection.status !== 'online') return;
        if (!(await sendOne(entry))) return;
      }
    } while (again);
  } finally {
    flushing = false;
  }
}

async function sendOne(entry) {
  entry.state = 'sending';
  emit('outbox', entry.conversationId);
  try {
    if (entry.kind === 'file' && !entry.mediaId) {
      // Streamed from disk by the browser, with progress to the tile and a cancel.
      const upload = hooks.uploadFile(entry.file, (fraction) => {
        entry.progress = fraction;
        entry.progressView?.(fraction);
      }, {
        // A resumable upload's id, kept so that after a reload it goes on where it stood.
        uploadId: entry.uploadId,
        started: (id) => {
          entry.uploadId = id;
          save();
        },
      });
      entry.abort = upload.abort;
      const media = await upload.promise;
      entry.abort = null;
      entry.mediaId = media.id;
      entry.fileInfo = { ...entry.fileInfo, mediaId: media.id, url: media.url, size: media.size, type: media.type };
      save();
    }
    if ((entry.kind === 'image' || entry.kind === 'voice') && !entry.mediaId) {
      const media = await hooks.upload(entry.file);
      entry.mediaId = media.id;
      if (entry.kind === 'image') entry.image = { mediaId: media.id, url: media.url, width: media.width, height: media.height };
      else entry.voice = { ...entry.voice, mediaId: media.id, url: media.url };
      save();
    }
    const data = entry.kind === 'text'
      ? { conversationId: entry.conversationId, clientId: entry.clientId, kind: 'text', text: entry.text }
      : entry.kind === 'file'
        ? { conversationId: entry.conversationId, clientId: entry.clientId, kind: 'file', mediaId: entry.mediaId, name: entry.fileInfo?.name }
        : { conversationId: entry.conversationId, clientId: entry.clientId, kind: entry.kind, mediaId: entry.mediaId };
    // A voice note's length and waveform were measured while it was recorded.
    if (entry.kind === 'voice') {
      data.durationMs = entry.voice.durationMs;
      data.waveform = entry.voice.waveform;
    }
    // A reply and mentions (message actions) travel with the send.
    if (entry.replyTo) data.replyTo = entry.replyTo;
    if (entry.mentions) data.mentions = entry.mentions;
    if (entry.mentionsAll) data.mentionsAll = true;
    const message = await hooks.call('message.send', data);
    if (!state.outbox.includes(entry)) return true;
    hooks.sent(message, entry);
    acknowledge(entry.clientId);
    return true;
  } catch (error) {
    if (!state.outbox.includes(entry)) return true;
    const code = error.code || 'unknown';
    if (RETRYABLE.has(code) || code === 'rate_limited') {
      entry.state = 'pending';
      emit('outbox', entry.conversationId);
      const wait = code === 'rate_limited' ? (error.retryAfterSeconds || 1) * 1000 : 3000;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(flush, wait);
      return false;
    }
    entry.state = 'failed';
    entry.error = code;
    save();
    emit('outbox', entry.conversationId);
    return true;
  }
}

export function stop() {
  clearTimeout(retryTimer);
  userKey = null;
  userId = null;
}
