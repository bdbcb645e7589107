import { afterEach, describe, expect, it, vi } from 'vitest';
import { releasePushSubscription } from './release-push';

function stubServiceWorker(
  subscription: { endpoint: string; unsubscribe: () => Promise<boolean> } | null,
) {
  const registration = { pushManager: { getSubscription: vi.fn(async () => subscription) } };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: vi.fn(async () => registration) },
  });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('releasePushSubscription', () => {
  it("unsubscribes this browser and returns the subscription's endpoint", async () => {
    const unsubscribe = vi.fn(async () => true);
    stubServiceWorker({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', unsubscribe });
    await expect(releasePushSubscription()).resolves.toBe(
      'https://fcm.googleapis.com/fcm/send/abc',
    );
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('returns null without a subscription or without a service worker', async () => {
    stubServiceWorker(null);
    await expect(releasePushSubscription()).resolves.toBeNull();
    Reflect.deleteProperty(navigator, 'serviceWorker');
    await expect(releasePushSubscription()).resolves.toBeNull();
  });
});
