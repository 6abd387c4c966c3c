// Hash routes, so the static file server only ever serves index.html:
//   #/login  #/register  #/phone
//   #/chats  #/chats/c/<id>  #/chats/c/<id>/info  #/chats/u/<userId>
//   #/chats/search  #/chats/c/<id>/search (message search, all chats or one)
//   #/chats/c/<id>/at/<seq> (the conversation, scrolled to the message at seq)
//   #/contacts  #/contacts/u/<userId>  #/contacts/c/<id>  #/contacts/c/<id>/info
//   #/discover  #/me
//   #/invite/<token> (an invite link: the chats, with the group's preview on top)

const TABS = ['chats', 'contacts', 'discover', 'me'];
const AUTH = ['login', 'register', 'phone'];

export function parse(hash = location.hash) {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [first, kind, id, extra, at] = parts;
  if (AUTH.includes(first)) return { page: first };
  if (first === 'invite' && kind) return { page: 'app', tab: 'chats', detail: null, invite: kind };
  const tab = TABS.includes(first) ? first : 'chats';
  let detail = null;
  if (tab === 'chats' && kind === 'search') detail = { type: 'search', id: null };
  if ((tab === 'chats' || tab === 'contacts') && kind && id) {
    const seq = extra === 'at' && /^\d+$/.test(at ?? '') ? Number(at) : null;
    if (kind === 'c' && extra === 'search') detail = { type: 'search', id };
    else if (kind === 'c') detail = { type: extra === 'info' ? 'info' : 'chat', id, seq };
    else if (kind === 'u') detail = { type: 'user', id };
  }
  return { page: 'app', tab, detail };
}

export function format(route) {
  if (route.page !== 'app') return `#/${route.page}`;
  let hash = `#/${route.tab}`;
  if (route.detail) {
    const d = route.detail;
    if (d.type === 'search') hash += d.id ? `/c/${encodeURIComponent(d.id)}/search` : '/search';
    else hash += d.type === 'user' ? `/u/${encodeURIComponent(d.id)}` : `/c/${encodeURIComponent(d.id)}${d.type === 'info' ? '/info' : ''}`;
  }
  return hash;
}

export function go(hash, { replace = false } = {}) {
  if (!hash.startsWith('#')) hash = `#/${hash.replace(/^\//, '')}`;
  if (location.hash === hash) {
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    return;
  }
  if (replace) {
    history.replaceState(null, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = hash;
  }
}

export const current = () => parse();
