// Notifications while Parley is closed: the service worker (which also keeps the app's
// files for offline use), this browser's push subscription registered with the server, and
// the page's foreground state reported on the connection. Permission is asked only when the
// user turns notifications on in the profile page.
import { api } from './api.js';
import * as client from './client.js';

const SUBSCRIPTION_KEY = 'parley.pushSubscription';

export function startServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('sw.js', { scope: './' }).catch((error) => console.warn('service worker', error));
  // A notification clicked while a Parley tab is open: that tab opens the conversation.
  navigator.serviceWorker.addEventListener('message', (event) => {
    if (event.data?.type === 'open' && event.data.hash) location.hash = event.data.hash;
  });
  document.addEventListener('visibilitychange', () => client.reportVisibility());
}

export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** 'unsupported', 'denied', 'on' or 'off'. */
export function notificationState() {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return Notification.permission === 'granted' && localStorage.getItem(SUBSCRIPTION_KEY) ? 'on' : 'off';
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** Asks the browser's permission (now, not before), subscribes, and registers the subscription. */
export async function enableNotifications() {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return notificationState();
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await api.vapidKey();
  let subscription = await registration.pushManager.getSubscription();
  if (subscription) await subscription.unsubscribe();
  subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
  const { id } = await api.pushSubscribe(subscription.toJSON());
  localStorage.setItem(SUBSCRIPTION_KEY, id);
  return 'on';
}

export async function disableNotifications() {
  const id = localStorage.getItem(SUBSCRIPTION_KEY);
  localStorage.removeItem(SUBSCRIPTION_KEY);
  if (id) await api.pushUnsubscribe(id).catch(() => {});
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  await subscription?.unsubscribe();
  return notificationState();
}

/** Signing out ends the server's copy with the session; the browser's goes too. */
export function forgetSubscription() {
  localStorage.removeItem(SUBSCRIPTION_KEY);
  navigator.serviceWorker?.getRegistration().then((r) => r?.pushManager.getSubscription()).then((s) => s?.unsubscribe()).catch(() => {});
}
