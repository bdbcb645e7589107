/**
 * Sign-out on this device (issue #14): unsubscribes the browser from web push, so the next
 * person on a shared phone never receives the previous donor's alerts, and returns the
 * subscription's endpoint for the logout call (the server removes its row too). Null when this
 * browser had no subscription or no service worker. Kept apart from push.ts so the app shell can
 * use it without loading the notifications API code.
 */
export async function releasePushSubscription(): Promise<string | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager?.getSubscription();
  if (!subscription) return null;
  const { endpoint } = subscription;
  await subscription.unsubscribe();
  return endpoint;
}
