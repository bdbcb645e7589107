import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Availability, MatchedBloodRequest } from '@bdms/shared';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { routes } from '../../app/router';

const DONOR = makeUser({ id: 'u-1' });

const AVAILABILITY: Availability = {
  available: true,
  until: null,
  confirmedAt: '2026-10-01T09:00:00.000Z',
  expiresAt: '2026-12-30T09:00:00.000Z',
  needsReconfirmation: false,
};

function matched(overrides: Partial<MatchedBloodRequest> = {}) {
  return {
    view: 'matched' as const,
    id: 'r-1',
    status: 'verified' as const,
    urgency: 'critical' as const,
    bloodType: 'O+' as const,
    unitsNeeded: 2,
    hospitalName: 'Ruby Hall Clinic',
    city: 'Pune',
    state: 'Maharashtra',
    distanceKm: 4.5,
    distanceApproximate: false,
    requiredBy: null,
    createdAt: '2026-11-21T08:00:00.000Z',
    notifiedAt: '2026-11-21T08:05:00.000Z',
    response: null,
    respondedAt: null,
    contactName: null,
    contactPhone: null,
    address: null,
    ...overrides,
  };
}

async function renderDashboard(server: Record<string, MockRoute>, bloodRequests = true) {
  await seedSession(DONOR);
  const api = mockApi({
    'GET /auth/me': ok({ user: DONOR }),
    'GET /users/u-1/stats': ok({
      totalDonations: 0,
      lastDonationAt: null,
      nextEligibleAt: null,
      livesImpacted: 0,
      requestsResponded: 0,
    }),
    'GET /users/u-1/questionnaire': ok({ questionnaire: null }),
    'GET /users/u-1/availability': ok(AVAILABILITY),
    'GET /users/u-1/activity': ok({ items: [], total: 0, page: 1, pageSize: 5 }),
    'GET /users/u-1/donations': ok({ items: [], total: 0, page: 1, pageSize: 3 }),
    ...server,
  });
  const rendered = renderRoutes(routes, { path: '/dashboard', flags: { bloodRequests } });
  return { ...rendered, api, user: userEvent.setup() };
}

const LIST = {
  'GET /blood-requests': ok({
    items: [matched(), matched({ id: 'r-2', hospitalName: 'KEM Hospital' })],
    total: 2,
    page: 1,
    pageSize: 50,
  }),
};

describe('Requests for you (donor dashboard)', () => {
  it('lists matched requests without any contact, and accepting reveals it', async () => {
    const { user, api } = await renderDashboard({
      ...LIST,
      'POST /blood-requests/r-1/respond': ok({
        request: {
          ...matched(),
          response: 'accepted',
          contactName: 'Sunita Patil',
          contactPhone: '+919876543210',
          address: 'Ruby Hall Clinic, Sassoon Road, Pune',
        },
      }),
    });
    const [card] = await screen.findAllByRole('article', { name: 'O+, 2 units' });
    if (!card) throw new Error('no card');
    expect(screen.getByRole('heading', { name: 'Requests for you' })).toBeVisible();
    expect(within(card).getByText(/Ruby Hall Clinic, Pune · 4.5 km from you/)).toBeVisible();
    expect(document.body.textContent).not.toContain('+91');
    await user.click(within(card).getByRole('button', { name: 'I can donate' }));
    expect(await within(card).findByRole('link', { name: '+91 98765 43210' })).toHaveAttribute(
      'href',
      'tel:+919876543210',
    );
    expect(within(card).getByText(/Sassoon Road/)).toBeVisible();
    expect(api.callsTo('POST /blood-requests/r-1/respond')[0]!.body).toEqual({
      response: 'accepted',
    });
  });

  it('says the distance is approximate when the request is placed at its PIN code', async () => {
    await renderDashboard({
      'GET /blood-requests': ok({
        items: [matched({ distanceKm: 12, distanceApproximate: true })],
        total: 1,
        page: 1,
        pageSize: 20,
      }),
    });
    const [card] = await screen.findAllByRole('article', { name: 'O+, 2 units' });
    expect(within(card!).getByText(/about 12 km from you \(place approximate\)/)).toBeVisible();
  });

  it('removes the card after declining', async () => {
    const { user } = await renderDashboard({
      ...LIST,
      'POST /blood-requests/r-2/respond': ok({
        request: { ...matched({ id: 'r-2' }), response: 'declined' },
      }),
    });
    expect(await screen.findByText(/KEM Hospital/)).toBeVisible();
    const cards = screen.getAllByRole('article', { name: 'O+, 2 units' });
    await user.click(within(cards[1]!).getByRole('button', { name: "I can't this time" }));
    await waitFor(() => expect(screen.queryByText(/KEM Hospital/)).not.toBeInTheDocument());
    expect(screen.getByText(/Ruby Hall Clinic/)).toBeVisible();
  });

  it('is not shown when the bloodRequests flag is off', async () => {
    const { api } = await renderDashboard(LIST, false);
    await screen.findByRole('heading', { level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Requests for you' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /blood-requests')).toHaveLength(0);
  });
});
