import { deletePushSubscription, savePushSubscription } from './api/notifications';

/**
 * Web push on this device (product spec sections 5 and 8): it needs browser support, a
 * registered service worker and granted permission. Failures carry the spec's reasons; the
 * screen shows them as "Failed to enable notifications: {reason}".
 */
export type PushFailureReason = 'unsupported' | 'denied' | 'notConfigured';

export class PushError extends Error {
  override readonly name = 'PushError';
  readonly reason: PushFailureReason;

  constructor(reason: PushFailureReason) {
    super(
      {
        unsupported: 'This browser does not support notifications',
        denied: 'Notification permission denied',
        notConfigured: 'The server is not set up to send push notifications',
      }[reason],
    );
    this.reason = reason;
  }
}

export function isPushError(error: unknown): error is PushError {
  return error instanceof PushError;
}

/** The service worker registration push needs; null when none is registered (development). */
export async function findServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  try {
    return (await navigator.serviceWorker.getRegistration()) ?? null;
  } catch {
    return null;
  }
}

export function hasServiceWorkerApi(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

/** The current permission, or null when the Notification API is missing. */
export function notificationPermission(): NotificationPermission | null {
  return typeof window !== 'undefined' && 'Notification' in window
    ? window.Notification.permission
    : null;
}

/** The VAPID public key (base64url) as the bytes `pushManager.subscribe` wants. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = (value + '='.repeat((4 - (value.length % 4)) % 4))
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let index = 0; index < raw.length; index++) bytes[index] = raw.charCodeAt(index);
  return bytes;
}

/**
 * Asks for permission (when not yet granted), subscribes through the service worker's push
 * manager with the server's key, and sends the subscription to the server.
 */
export async function enablePush(
  registration: ServiceWorkerRegistration,
  vapidPublicKey: string | null | undefined,
): Promise<PushSubscription> {
  if (!('Notification' in window) || !registration.pushManager) {
    throw new PushError('unsupported');
  }
  const permission =
    window.Notification.permission === 'granted'
      ? 'granted'
      : await window.Notification.requestPermission();
  if (permission !== 'granted') throw new PushError('denied');
  if (!vapidPublicKey) throw new PushError('notConfigured');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(vapidPublicKey),
    }));
  await savePushSubscription(subscription.toJSON());
  return subscription;
}

/** Tells the server to stop, then unsubscribes the browser. */
export async function disablePush(subscription: PushSubscription): Promise<void> {
  await deletePushSubscription(subscription.endpoint);
  await subscription.unsubscribe();
}
