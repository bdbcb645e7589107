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
    pincode: null,
    latitude: null,
    longitude: null,
    notes: null,
    ...overrides,
  };
}

async function renderDashboard(
  server: Record<string, MockRoute>,
  bloodRequests = true,
  path = '/dashboard',
) {
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
  const rendered = renderRoutes(routes, { path, flags: { bloodRequests } });
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

  it('comes first on the dashboard, Critical first and then by needed-by', async () => {
    await renderDashboard({
      'GET /blood-requests': ok({
        items: [
          matched({ id: 'r-u', urgency: 'urgent', hospitalName: 'Urgent Hospital' }),
          matched({
            id: 'r-late',
            hospitalName: 'Later Hospital',
            requiredBy: '2026-11-30T10:00:00.000Z',
          }),
          matched({
            id: 'r-soon',
            hospitalName: 'Sooner Hospital',
            requiredBy: '2026-11-22T18:30:00.000Z',
          }),
          matched({ id: 'r-closed', status: 'fulfilled', hospitalName: 'Closed Hospital' }),
        ],
        total: 4,
        page: 1,
        pageSize: 50,
      }),
    });
    const heading = await screen.findByRole('heading', { name: 'Requests for you' });
    const stat = await screen.findByText('Total donations');
    // The section precedes the stats in the page (reading and tab order, not only on screen).
    expect(heading.compareDocumentPosition(stat) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const cards = screen.getAllByRole('article');
    expect(cards.map((card) => within(card).getByText(/Hospital,/).textContent)).toEqual([
      expect.stringContaining('Sooner Hospital'),
      expect.stringContaining('Later Hospital'),
      expect.stringContaining('Urgent Hospital'),
    ]);
    // 18:30 UTC is midnight in India: the next day there.
    expect(within(cards[0]!).getByText(/Needed by 23 Nov 2026, 12:00\sam/i)).toBeVisible();
  });

  it('comes after the cards when nothing waits for the donor', async () => {
    await renderDashboard({
      'GET /blood-requests': ok({ items: [], total: 0, page: 1, pageSize: 50 }),
    });
    const heading = await screen.findByRole('heading', { name: 'Requests for you' });
    const stat = screen.getByText('Total donations');
    expect(heading.compareDocumentPosition(stat) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy();
  });

  it('marks and focuses the request an alert opened', async () => {
    await renderDashboard(LIST, true, '/dashboard?request=r-2');
    const marked = await screen.findByText('The request you were alerted about');
    const card = marked.closest('article')!;
    expect(card).toHaveAttribute('aria-current', 'true');
    expect(within(card).getByText(/KEM Hospital/)).toBeVisible();
    await waitFor(() => expect(card).toHaveFocus());
    const others = screen.getAllByRole('article').filter((article) => article !== card);
    expect(others).toHaveLength(1);
    expect(others[0]).not.toHaveAttribute('aria-current');
  });

  it('says politely when the alerted request is closed or not for this donor', async () => {
    await renderDashboard(
      {
        'GET /blood-requests': ok({
          items: [matched(), matched({ id: 'r-9', status: 'fulfilled' })],
          total: 2,
          page: 1,
          pageSize: 50,
        }),
      },
      true,
      '/dashboard?request=r-9',
    );
    expect(
      await screen.findByText(/no longer looking for donors\. Thank you for being ready to help/),
    ).toBeVisible();
    expect(screen.queryByText('The request you were alerted about')).not.toBeInTheDocument();
  });

  it('says so when the alerted request is not in the donor’s list at all', async () => {
    await renderDashboard(LIST, true, '/dashboard?request=someone-else');
    expect(await screen.findByText(/is not open for you any more/)).toBeVisible();
  });

  it('after accepting shows the way there: address, maps, notes, needed-by and a phone', async () => {
    const { user } = await renderDashboard({
      ...LIST,
      'POST /blood-requests/r-1/respond': ok({
        request: {
          ...matched({ requiredBy: '2026-11-22T04:30:00.000Z' }),
          response: 'accepted',
          contactName: 'Sunita Patil',
          contactPhone: '+919876543210',
          address: 'Sassoon Road',
          pincode: '411001',
          latitude: 18.5284,
          longitude: 73.8739,
          notes: 'Blood bank, ground floor, ask for Dr Joshi',
        },
      }),
    });
    const [card] = await screen.findAllByRole('article', { name: 'O+, 2 units' });
    await user.click(within(card!).getByRole('button', { name: 'I can donate' }));
    const maps = await within(card!).findByRole('link', { name: /Directions to Ruby Hall Clinic/ });
    expect(maps).toHaveAttribute(
      'href',
      'https://www.google.com/maps/search/?api=1&query=18.5284%2C73.8739',
    );
    expect(within(card!).getByText('Address: Sassoon Road 411001')).toBeVisible();
    expect(within(card!).getByText(/Notes: Blood bank, ground floor/)).toBeVisible();
    expect(within(card!).getByText(/Needed by 22 Nov 2026, 10:00\sam/i)).toBeVisible();
    expect(within(card!).getByText(/Call Sunita Patil/)).toBeVisible();
    expect(within(card!).getByRole('link', { name: '+91 98765 43210' })).toHaveAttribute(
      'href',
      'tel:+919876543210',
    );
  });

  it('lets an accepted donor withdraw after confirming; the contact disappears', async () => {
    const { user, api } = await renderDashboard({
      'GET /blood-requests': ok({
        items: [
          matched({
            response: 'accepted',
            contactName: 'Sunita Patil',
            contactPhone: '+919876543210',
            address: 'Sassoon Road',
          }),
        ],
        total: 1,
        page: 1,
        pageSize: 50,
      }),
      'POST /blood-requests/r-1/respond': ok({
        request: { ...matched(), response: 'withdrawn' },
      }),
    });
    const withdraw = await screen.findByRole('button', { name: 'I can no longer come' });
    await user.click(withdraw);
    const dialog = screen.getByRole('alertdialog', { name: 'Withdraw your acceptance?' });
    // Keeping the acceptance sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Keep my acceptance' }));
    expect(api.callsTo('POST /blood-requests/r-1/respond')).toHaveLength(0);
    expect(screen.getByText(/Call Sunita Patil/)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'I can no longer come' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes, withdraw' }),
    );
    expect(
      await screen.findByText('You withdrew. The requester has been told you are not coming.'),
    ).toBeVisible();
    expect(api.callsTo('POST /blood-requests/r-1/respond')[0]!.body).toEqual({
      response: 'withdrawn',
    });
    expect(screen.queryByText(/Sunita Patil/)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain('98765');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('is not shown when the bloodRequests flag is off', async () => {
    const { api } = await renderDashboard(LIST, false);
    await screen.findByRole('heading', { level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Requests for you' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /blood-requests')).toHaveLength(0);
  });
});
