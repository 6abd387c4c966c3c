// The files of sends still waiting to be uploaded, kept in IndexedDB (which holds a File with
// its name and type, where localStorage holds only text) under the user's id and the send's
// client id: the outbox entry (localStorage) survives a reload, a closed tab or a crash, and
// so does what it was to send. Every call settles; a browser without storage keeps nothing
// and the outbox says the file is gone instead.

const DATABASE = 'parley-pending-files';
const FILES = 'files';
let opening = null;

function database() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(FILES);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    opening.catch(() => { opening = null; });
  }
  return opening;
}

/** Runs one request on the file store; resolves with its result once the transaction is done. */
async function run(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(FILES, mode);
    const request = work(transaction.objectStore(FILES));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

const key = (userId, clientId) => `${userId}/${clientId}`;

/** Keeps `file` for the send `clientId` of `userId`. */
export function keep(userId, clientId, file) {
  return run('readwrite', (store) => store.put(file, key(userId, clientId))).then(() => true, () => false);
}

/** The file kept for the send, or null. */
export function restore(userId, clientId) {
  return run('readonly', (store) => store.get(key(userId, clientId))).then((file) => file || null, () => null);
}

/** Drops the file of a send that is done with (sent, or discarded). */
export function forget(userId, clientId) {
  return run('readwrite', (store) => store.delete(key(userId, clientId))).catch(() => {});
}

/** Drops the user's files no send waits for any more (one sent while this page was closed elsewhere). */
export async function prune(userId, waiting) {
  try {
    const keys = await run('readonly', (store) => store.getAllKeys());
    const prefix = `${userId}/`;
    const stale = keys.filter((k) => typeof k === 'string' && k.startsWith(prefix) && !waiting.has(k.slice(prefix.length)));
    for (const k of stale) await run('readwrite', (store) => store.delete(k));
  } catch {
    /* nothing kept, nothing to drop */
  }
}

/** How many files are kept (for tests and diagnostics). */
export function count() {
  return run('readonly', (store) => store.count()).catch(() => 0);
}
