import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AppNotification } from '@bdms/shared';
import type { User } from '../../features/auth';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { routes } from '../router';

function notification(overrides: Partial<AppNotification> = {}): AppNotification {
  return {
    id: 'n-1',
    type: 'donor.approved',
    title: 'Registration approved',
    message: 'You can now receive blood requests.',
    link: '/dashboard',
    readAt: null,
    createdAt: '2026-11-02T10:00:00.000Z',
    ...overrides,
  };
}

const NOTIFICATIONS = [
  notification(),
  notification({
    id: 'n-2',
    title: 'Document verified',
    message: 'Your ID proof is verified.',
    link: null,
  }),
  notification({
    id: 'n-3',
    title: 'Welcome',
    message: 'Thank you for registering.',
    link: null,
    readAt: '2026-10-01T10:00:00.000Z',
  }),
];

function page(items: AppNotification[]) {
  return {
    items,
    total: items.length,
    page: 1,
    pageSize: 20,
    unread: items.filter((item) => !item.readAt).length,
  };
}

async function renderNotifications({
  user = makeUser(),
  server = {},
  items = NOTIFICATIONS,
}: { user?: User; server?: Record<string, MockRoute>; items?: AppNotification[] } = {}) {
  await seedSession(user);
  let current = items.map((item) => ({ ...item }));
  const api = mockApi({
    'GET /auth/me': ok({ user }),
    'GET /notifications': () => ok(page(current)),
    'POST /notifications/read-all': () => {
      const updated = current.filter((item) => !item.readAt).length;
      current = current.map((item) => ({ ...item, readAt: item.readAt ?? 'now' }));
      return ok({ updated });
    },
    'GET /users/u-1/stats': ok({
      totalDonations: 0,
      lastDonationAt: null,
      nextEligibleAt: null,
      livesImpacted: 0,
      requestsResponded: 0,
    }),
    'GET /users/u-1/questionnaire': ok({ questionnaire: null }),
    'GET /users/u-1/availability': ok({
      available: true,
      until: null,
      confirmedAt: null,
      expiresAt: null,
      needsReconfirmation: false,
    }),
    ...Object.fromEntries(
      items.map((item) => [
        `POST /notifications/${item.id}/read`,
        () => {
          current = current.map((entry) =>
            entry.id === item.id ? { ...entry, readAt: 'now' } : entry,
          );
          return ok({ notification: { ...item, readAt: 'now' } });
        },
      ]),
    ),
    ...server,
  });
  const rendered = renderRoutes(routes, { path: '/notifications' });
  await screen.findByRole('heading', { level: 1, name: 'Notifications' });
  return { ...rendered, api, user: userEvent.setup() };
}

afterEach(() => {
  delete (navigator as { serviceWorker?: unknown }).serviceWorker;
});

describe('/notifications', () => {
  it('lists notifications, newest first, with the unread ones marked', async () => {
    await renderNotifications();
    const list = await screen.findByRole('list', { name: 'Your notifications' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Unread: Registration approved');
    expect(items[1]).toHaveTextContent('Unread: Document verified');
    expect(items[2]).not.toHaveTextContent('Unread');
    expect(screen.getByText('You have 2 unread notifications.')).toBeVisible();
  });

  it('shows the unread count in the header', async () => {
    await renderNotifications();
    expect(await screen.findByRole('link', { name: 'Notifications: 2 unread' })).toHaveAttribute(
      'href',
      '/notifications',
    );
  });

  it('marks a notification read when it is opened, and follows its link', async () => {
    const { user, api, router } = await renderNotifications();
    const list = await screen.findByRole('list', { name: 'Your notifications' });
    await user.click(within(list).getByRole('link', { name: /Registration approved/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(api.callsTo('POST /notifications/n-1/read')).toHaveLength(1);
  });

  it('marks a notification without a link read when it is clicked', async () => {
    const { user, api } = await renderNotifications();
    const list = await screen.findByRole('list', { name: 'Your notifications' });
    await user.click(within(list).getByRole('button', { name: /Document verified/ }));
    await waitFor(() => expect(api.callsTo('POST /notifications/n-2/read')).toHaveLength(1));
    expect(await screen.findByText('You have 1 unread notification.')).toBeVisible();
    expect(await screen.findByRole('link', { name: 'Notifications: 1 unread' })).toBeVisible();
    expect(within(list).getAllByRole('listitem')[1]).not.toHaveTextContent('Unread');
  });

  it('marks all as read', async () => {
    const { user, api } = await renderNotifications();
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByText("You're all caught up.")).toBeVisible();
    expect(api.callsTo('POST /notifications/read-all')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeVisible();
  });

  it('says when there is nothing yet', async () => {
    await renderNotifications({ items: [] });
    expect(
      await screen.findByText(
        "No notifications yet. We'll tell you here when something needs your attention.",
      ),
    ).toBeVisible();
  });
});

describe('push notifications', () => {
  function fakeServiceWorker(pushManager: Partial<PushManager> | undefined = {}) {
    const registration = { pushManager } as unknown as ServiceWorkerRegistration;
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => registration },
    });
  }

  const subscription = {
    endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
    toJSON: () => ({
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
      expirationTime: null,
      keys: { p256dh: 'key', auth: 'secret' },
    }),
    unsubscribe: vi.fn(async () => true),
  } as unknown as PushSubscription;

  it('explains that push needs the service worker when none is registered', async () => {
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => undefined },
    });
    await renderNotifications();
    expect(await screen.findByText(/need the app's background service/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Enable push notifications' })).toBeNull();
  });

  it('says exactly why when the browser has no Notification API', async () => {
    fakeServiceWorker({ getSubscription: async () => null });
    const { user } = await renderNotifications();
    await user.click(await screen.findByRole('button', { name: 'Enable push notifications' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to enable notifications: This browser does not support notifications',
    );
  });

  it('says exactly why when permission is denied', async () => {
    fakeServiceWorker({ getSubscription: async () => null });
    vi.stubGlobal('Notification', {
      permission: 'default',
      requestPermission: vi.fn(async () => 'denied'),
    });
    const { user, api } = await renderNotifications();
    await user.click(await screen.findByRole('button', { name: 'Enable push notifications' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to enable notifications: Notification permission denied',
    );
    expect(api.callsTo('POST /notifications/push-subscription')).toHaveLength(0);
  });

  it('subscribes with the server key, sends the subscription, and turns it off again', async () => {
    const subscribe = vi.fn(async () => subscription);
    fakeServiceWorker({ getSubscription: async () => null, subscribe });
    vi.stubGlobal('Notification', {
      permission: 'default',
      requestPermission: vi.fn(async () => 'granted'),
    });
    const { user, api, queryClient } = await renderNotifications({
      server: {
        'POST /notifications/push-subscription': ok({ subscribed: true }),
        'DELETE /notifications/push-subscription': ok({ subscribed: false }),
      },
    });
    queryClient.setQueryData(['config'], {
      ...(queryClient.getQueryData(['config']) as object),
      vapidPublicKey: 'BLDsq5qeBoNlTQx71rEth15TxIMdl1slvNhclUK9VZPc',
    });
    await user.click(await screen.findByRole('button', { name: 'Enable push notifications' }));
    expect(
      await screen.findAllByText('Push notifications are on for this device.'),
    ).not.toHaveLength(0);
    expect(subscribe).toHaveBeenCalledWith(
      expect.objectContaining({
        userVisibleOnly: true,
        applicationServerKey: expect.any(Uint8Array),
      }),
    );
    expect(api.callsTo('POST /notifications/push-subscription')[0]!.body).toEqual({
      subscription: subscription.toJSON(),
    });

    await user.click(screen.getByRole('button', { name: 'Turn off push notifications' }));
    expect(await screen.findByRole('button', { name: 'Enable push notifications' })).toBeVisible();
    expect(api.callsTo('DELETE /notifications/push-subscription')[0]!.body).toEqual({
      subscription: { endpoint: subscription.endpoint },
    });
    expect(subscription.unsubscribe).toHaveBeenCalled();
  });
});
