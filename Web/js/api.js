// Parley's HTTP API (/v1/): JSON in and out, the bearer token on every authenticated call.

export class ApiError extends Error {
  constructor(code, message, { status = 0, field = null, retryAfterSeconds = null } = {}) {
    super(message || code);
    this.code = code;
    this.status = status;
    this.field = field;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

let token = null;
export const setToken = (value) => { token = value; };
/** The session token, for requests made outside `request` (an upload with progress). */
export const currentToken = () => token;

/** Sends a request; resolves with the parsed body (null for 204), rejects with ApiError. */
export async function request(method, path, { body, raw, auth = true, timeout = 30000 } = {}) {
  const headers = {};
  if (auth && token) headers.Authorization = `Bearer ${token}`;
  let payload;
  if (raw !== undefined) {
    payload = raw;
    headers['Content-Type'] = raw.type || 'application/octet-stream';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] = 'application/json';
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  let response;
  try {
    response = await fetch(path, { method, headers, body: payload, signal: controller.signal, credentials: 'omit', cache: 'no-store' });
  } catch (error) {
    throw new ApiError(error.name === 'AbortError' ? 'timeout' : 'network', String(error));
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    const retry = error.retryAfterSeconds ?? (Number(response.headers.get('Retry-After')) || null);
    throw new ApiError(error.code || (response.status >= 500 ? 'internal_error' : 'unknown'), error.message,
      { status: response.status, field: error.field || null, retryAfterSeconds: retry });
  }
  return data;
}

export const api = {
  register: (username, password) => request('POST', '/v1/auth/register', { body: { username, password }, auth: false }),
  login: (username, password) => request('POST', '/v1/auth/login', { body: { username, password }, auth: false }),
  smsRequest: (phone) => request('POST', '/v1/auth/sms/request', { body: { phone }, auth: false }),
  smsVerify: (phone, code) => request('POST', '/v1/auth/sms/verify', { body: { phone, code }, auth: false }),
  logout: () => request('POST', '/v1/auth/logout', { timeout: 5000 }),
  me: () => request('GET', '/v1/me'),
  vapidKey: () => request('GET', '/v1/push/vapid-key', { auth: false }),
  limits: () => request('GET', '/v1/limits', { auth: false }),
  pushSubscribe: (subscription) => request('POST', '/v1/push/subscriptions', { body: subscription }),
  pushUnsubscribe: (id) => request('DELETE', `/v1/push/subscriptions/${encodeURIComponent(id)}`),
  updateMe: (changes) => request('PATCH', '/v1/me', { body: changes }),
  /** Uploads an image (a File or Blob); resolves {id, url, type, width, height, size}. */
  upload: (blob) => request('POST', '/v1/media', { raw: blob, timeout: 120000 }),
  // Account security (docs/protocol.md)
  changePassword: (current, next) => request('POST', '/v1/me/password', { body: { current, new: next } }),
  phoneRequest: (phone) => request('POST', '/v1/me/phone/request', { body: { phone } }),
  phoneVerify: (phone, code) => request('POST', '/v1/me/phone/verify', { body: { phone, code } }),
  phoneUnbind: (password) => request('DELETE', '/v1/me/phone', { body: { password } }),
  sessions: () => request('GET', '/v1/auth/sessions'),
  revokeSession: (id) => request('DELETE', `/v1/auth/sessions/${encodeURIComponent(id)}`),
  revokeOtherSessions: () => request('DELETE', '/v1/auth/sessions'),
  deleteAccount: (proof) => request('DELETE', '/v1/me', { body: proof }),
  exportStart: () => request('POST', '/v1/me/export'),
  /** The export: {blob} once ready, else {status} (building, with its progress). */
  exportDownload: async () => {
    const response = await fetch('/v1/me/export', { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'omit', cache: 'no-store' });
    if (response.status === 200) return { blob: await response.blob() };
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    if (response.status === 202) return { status: data || { progress: 0 } };
    const error = (data && data.error) || {};
    throw new ApiError(error.code || 'unknown', error.message, { status: response.status, field: error.field || null });
  },
};
