// Parley's service worker: keeps the app's own files so it opens with no network (the
// page then shows the sessions list it saved, under the connection banner), and shows push
// notifications, one per conversation, replaced as its count grows; a click opens it.
// Nothing under /v1/ (the API, media, the WebSocket) ever goes through the cache: a signed
// media link (?exp=…&sig=…) is never kept here, so none outlives its expiry.

const CACHE = 'parley-shell-v1';
// Every file of the app (Tests/e2e/test_web_push.py checks the list against Web/).
const SHELL = [
  './', 'index.html', 'manifest.webmanifest', 'favicon.svg',
  'icons/icon-192.png', 'icons/icon-512.png', 'icons/maskable-512.png', 'icons/apple-touch-icon.png',
  'css/auth.css', 'css/base.css', 'css/chat.css', 'css/components.css', 'css/discover.css', 'css/layout.css',
  'css/lists.css', 'css/profile.css',
  'js/actions.js', 'js/api.js', 'js/app.js', 'js/client.js', 'js/connection.js', 'js/dom.js', 'js/emoticons.js', 'js/format.js', 'js/groups.js', 'js/people.js',
  'js/i18n.js', 'js/icons.js', 'js/outbox.js', 'js/pendingfiles.js', 'js/actionqueue.js', 'js/files.js', 'js/lastseen.js', 'js/media.js', 'js/resources.js', 'js/push.js', 'js/receipts.js', 'js/router.js',
  'js/store.js', 'js/time.js', 'js/ui.js', 'js/voice.js',
  'js/views/admin.js', 'js/views/authframe.js', 'js/views/contacts.js', 'js/views/dialogue.js', 'js/views/discover.js', 'js/views/governance.js', 'js/views/info.js', 'js/views/invite.js',
  'js/views/login.js', 'js/views/menu.js', 'js/views/messageactions.js', 'js/views/phone.js', 'js/views/profile.js', 'js/views/register.js',
  'js/views/report.js', 'js/views/search.js', 'js/views/security.js', 'js/views/sessions.js', 'js/views/shell.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { cache: 'reload' }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

const scopePath = new URL(self.registration.scope).pathname;

function isApp(url) {
  if (url.origin !== self.location.origin || !url.pathname.startsWith(scopePath)) return false;
  const path = url.pathname.slice(scopePath.length);
  return !path.startsWith('v1/') && path !== 'metrics' && path !== 'healthz';
}

// The network first, so a deploy shows at once; the saved copy when there is no network.
self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || !isApp(url)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok && response.type === 'basic') cache.put(request, response.clone());
      return response;
    } catch (error) {
      const saved = await cache.match(request, { ignoreSearch: true })
        || (request.mode === 'navigate' ? await cache.match('index.html') : undefined);
      if (saved) return saved;
      throw error;
    }
  })());
});

// The service worker has no page to read the language from: the browser's is used.
const zh = (self.navigator.language || '').toLowerCase().startsWith('zh');
const WORDS = zh
  ? { app: 'Parley', message: '新消息', messages: (n) => `${n} 条新消息`, friend_request: '想加你为好友',
      friend_added: '你们已经是好友了', matched: '你们互相喜欢，已成为好友' }
  : { app: 'Parley', message: 'New message', messages: (n) => `${n} new messages`, friend_request: 'wants to be your friend',
      friend_added: 'You are now friends', matched: 'You liked each other: now friends' };

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const id = data.conversationId;
  const title = data.conversationName || data.sender || WORDS.app;
  const lines = [];
  if (data.type && data.type !== 'message' && WORDS[data.type]) lines.push(WORDS[data.type]);
  if (data.type === 'friend_request' && data.preview) lines.push(data.preview);
  else if (data.conversationName && data.sender) lines.push(data.sender + (data.preview ? `: ${data.preview}` : ''));
  else if (data.preview) lines.push(data.preview);
  if (!lines.length) lines.push(data.count > 1 ? WORDS.messages(data.count) : WORDS.message);
  else if (data.count > 1) lines.push(WORDS.messages(data.count));
  event.waitUntil(self.registration.showNotification(title, {
    body: lines.join('\n'),
    // One notification per conversation, replaced (and announced again) as messages come.
    tag: id ? `conversation-${id}` : data.type === 'friend_request' ? 'friend-requests' : 'parley',
    renotify: true,
    icon: 'icons/icon-192.png',
    badge: 'icons/icon-192.png',
    timestamp: Date.now(),
    data: { conversationId: id, type: data.type },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const id = event.notification.data?.conversationId;
  const hash = id ? `#/chats/c/${encodeURIComponent(id)}` : '#/contacts';
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((client) => new URL(client.url).pathname.startsWith(scopePath));
    if (open) {
      open.postMessage({ type: 'open', hash });
      return open.focus();
    }
    return self.clients.openWindow(scopePath + hash);
  })());
});
