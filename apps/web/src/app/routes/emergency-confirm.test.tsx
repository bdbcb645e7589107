import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { routes } from '../router';

const BASE = {
  trackingCode: 'AB12CD34',
  urgency: 'critical',
  bloodType: 'O-',
  unitsNeeded: 2,
  hospitalName: 'Sassoon General Hospital',
  city: 'Pune',
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  expiresAt: '2026-11-21T11:00:00.000Z',
  searchRadiusKm: null,
  matches: { notified: 0, accepted: 0, declined: 0 },
  donorsOnTheirWay: [],
};
const UNCONFIRMED = {
  ...BASE,
  status: 'unconfirmed',
  history: [{ status: 'unconfirmed', at: '2026-11-21T10:00:00.000Z' }],
  confirmation: { phoneHint: '+91 ••••• ••210', codeExpiresAt: '2026-11-21T10:10:00.000Z' },
};
const PENDING = {
  ...BASE,
  status: 'pending',
  history: [...UNCONFIRMED.history, { status: 'pending', at: '2026-11-21T10:02:00.000Z' }],
  confirmation: null,
};

function renderTracking(server: Record<string, MockRoute>) {
  const api = mockApi(server);
  renderRoutes(routes, { path: '/emergency?track=AB12CD34' });
  return { api, user: userEvent.setup() };
}

describe('/emergency?track= for an unconfirmed request', { timeout: 30_000 }, () => {
  it('asks for the SMS code, says when it is wrong, and shows the request in review once right', async () => {
    const { api, user } = renderTracking({
      'GET /blood-requests/track/AB12CD34': ok(UNCONFIRMED),
      'POST /blood-requests/track/AB12CD34/confirm': (request) =>
        (request.body as { code: string }).code === '482913'
          ? ok(PENDING)
          : fail(400, 'INVALID_PHONE_CODE'),
    });
    // The lazily loaded page can take a while on a busy machine.
    expect(
      await screen.findByRole('heading', { name: 'Waiting for the code' }, { timeout: 20_000 }),
    ).toBeVisible();
    expect(screen.getByText(/We sent a 6-digit code by SMS to \+91 ••••• ••210/)).toBeVisible();
    // Not shareable before it is confirmed.
    expect(screen.queryByRole('link', { name: /Share on WhatsApp/ })).toBeNull();

    const field = screen.getByLabelText(/^Code from the SMS/);
    await user.type(field, '12');
    await user.click(screen.getByRole('button', { name: 'Confirm the request' }));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('Enter the 6-digit code.'));
    expect(api.callsTo('POST /blood-requests/track/AB12CD34/confirm')).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '111111');
    await user.click(screen.getByRole('button', { name: 'Confirm the request' }));
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(expect.stringContaining('is not correct')),
    );
    await user.clear(field);
    await user.type(field, '482 913');
    await user.click(screen.getByRole('button', { name: 'Confirm the request' }));
    expect(await screen.findByRole('heading', { name: 'Being verified' })).toBeVisible();
    expect(api.callsTo('POST /blood-requests/track/AB12CD34/confirm').map((c) => c.body)).toEqual([
      { code: '111111' },
      { code: '482913' },
    ]);
    expect(screen.queryByLabelText(/^Code from the SMS/)).toBeNull();
  });

  it('shares on WhatsApp the link, blood type, hospital and city only', async () => {
    renderTracking({ 'GET /blood-requests/track/AB12CD34': ok(PENDING) });
    const link = await screen.findByRole(
      'link',
      { name: /Share on WhatsApp/ },
      { timeout: 20_000 },
    );
    const href = link.getAttribute('href') ?? '';
    expect(href.startsWith('https://wa.me/?text=')).toBe(true);
    const text = decodeURIComponent(href.slice('https://wa.me/?text='.length));
    expect(text).toBe(
      `Urgent: O- blood needed at Sassoon General Hospital, Pune. Follow the request and help find donors: ${window.location.origin}/emergency?track=AB12CD34`,
    );
    // No phone number (not even its masked hint) and no name: only the code's own characters.
    expect(text).not.toMatch(/\+91|••|\d{5,}/);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });
});
