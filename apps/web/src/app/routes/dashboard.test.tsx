import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Availability, DonorStats, FeatureFlags } from '@bdms/shared';
import type { User } from '../../features/auth';
import {
  DonorDashboard,
  type DashboardDonor,
} from '../../features/donors/components/dashboard/donor-dashboard';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes, renderWithApp } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { routes } from '../router';

const DAY = 86_400_000;
const ALL_FLAGS = { donorDashboard: true, donationHistory: true, certificateGeneration: true };

function stats(overrides: Partial<DonorStats> = {}): DonorStats {
  return {
    totalDonations: 3,
    lastDonationAt: '2026-03-10T09:00:00.000Z',
    nextEligibleAt: null,
    livesImpacted: 6,
    requestsResponded: 0,
    ...overrides,
  };
}

function availability(overrides: Partial<Availability> = {}): Availability {
  return {
    available: true,
    until: null,
    confirmedAt: '2026-10-01T09:00:00.000Z',
    expiresAt: '2026-12-30T09:00:00.000Z',
    needsReconfirmation: false,
    ...overrides,
  };
}

function donorApi(server: Record<string, MockRoute> = {}) {
  return mockApi({
    'GET /users/u-1/stats': ok(stats()),
    'GET /users/u-1/questionnaire': ok({ questionnaire: null }),
    'GET /users/u-1/availability': ok(availability()),
    'GET /users/u-1/activity': ok({ items: [], total: 0, page: 1, pageSize: 5 }),
    'GET /users/u-1/donations': ok({ items: [], total: 0, page: 1, pageSize: 3 }),
    ...server,
  });
}

async function renderDashboard(
  user: User = makeUser(),
  {
    server = {},
    flags = ALL_FLAGS,
    path = '/dashboard',
  }: { server?: Record<string, MockRoute>; flags?: Partial<FeatureFlags>; path?: string } = {},
) {
  await seedSession(user);
  const api = donorApi({ 'GET /auth/me': ok({ user }), ...server });
  const rendered = renderRoutes(routes, { path, flags });
  await screen.findByRole('heading', { name: 'Availability' });
  return { ...rendered, api, user: userEvent.setup() };
}

function renderBanner(donor: DashboardDonor) {
  donorApi();
  renderWithApp(<DonorDashboard donor={donor} flags={ALL_FLAGS} />, {
    supportEmail: 'help@bdms.example',
  });
}

describe('dashboard status banner', () => {
  it('welcomes an approved donor by name with the blood type', async () => {
    await renderDashboard(makeUser({ bloodType: 'B-' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Hello, Asha Rao')).toBeInTheDocument();
    expect(screen.getByText('B-')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: "You're a verified donor" })).toBeInTheDocument();
  });

  it('is titled for donors at /donor/dashboard', async () => {
    await renderDashboard(makeUser(), { path: '/donor/dashboard' });
    expect(screen.getByRole('heading', { level: 1, name: 'Donor Dashboard' })).toBeInTheDocument();
  });

  it('tells a pending donor that the registration is being reviewed', async () => {
    renderBanner({ id: 'u-1', status: 'pending', onboardingCompleted: true });
    const banner = await screen.findByRole('region', {
      name: 'Your registration is being reviewed',
    });
    expect(within(banner).getByRole('link', { name: 'See your registration' })).toHaveAttribute(
      'href',
      '/onboarding',
    );
  });

  it('asks a donor who has not finished to complete the registration', async () => {
    renderBanner({ id: 'u-1', status: 'pending', onboardingCompleted: false });
    const banner = await screen.findByRole('region', { name: 'Finish your registration' });
    expect(within(banner).getByRole('link', { name: 'Complete Registration' })).toBeVisible();
  });

  it('shows a suspended donor the reason and whom to write to', async () => {
    renderBanner({ id: 'u-1', status: 'suspended', suspensionReason: 'Missed two confirmations.' });
    const banner = await screen.findByRole('region', { name: 'Your account is suspended' });
    expect(banner).toHaveTextContent('Reason: Missed two confirmations.');
    expect(banner).toHaveTextContent("you won't receive blood requests");
    expect(within(banner).getByRole('link', { name: 'help@bdms.example' })).toHaveAttribute(
      'href',
      'mailto:help@bdms.example',
    );
  });

  it('shows a rejected donor the reason and the way to fix it', async () => {
    renderBanner({ id: 'u-1', status: 'rejected', rejectionReason: 'The ID proof is expired.' });
    const banner = await screen.findByRole('region', {
      name: 'Your registration was not approved',
    });
    expect(banner).toHaveTextContent('Reason: The ID proof is expired.');
    expect(within(banner).getByRole('link', { name: 'Fix my registration' })).toHaveAttribute(
      'href',
      '/onboarding',
    );
  });
});

describe('dashboard cards', () => {
  it('shows the last donation, total donations and lives impacted', async () => {
    await renderDashboard();
    const last = screen.getByRole('region', { name: 'Last donation' });
    expect(await within(last).findByText('10 March 2026')).toBeVisible();
    expect(
      within(screen.getByRole('region', { name: 'Total donations' })).getByText('3'),
    ).toBeVisible();
    expect(
      within(screen.getByRole('region', { name: 'Lives impacted' })).getByText('6'),
    ).toBeVisible();
  });

  it('counts down the days to the next donation', async () => {
    const next = new Date(Date.now() + 10 * DAY);
    await renderDashboard(makeUser(), {
      server: { 'GET /users/u-1/stats': ok(stats({ nextEligibleAt: next.toISOString() })) },
    });
    expect(await screen.findByText('10 days to go')).toBeVisible();
    const card = screen.getByRole('region', { name: 'Next donation' });
    expect(within(card).getByText('10 days to go')).toBeVisible();
    const date = new Intl.DateTimeFormat('en-IN', {
      dateStyle: 'long',
      timeZone: 'Asia/Kolkata',
    }).format(next);
    expect(within(card).getByText(`You can donate again from ${date}.`)).toBeVisible();
    // The availability card says why the donor gets no requests meanwhile.
    expect(screen.getByText(new RegExp(`hidden from blood requests until ${date}`))).toBeVisible();
  });

  it('says "You can donate now" once the day has come', async () => {
    await renderDashboard(makeUser(), {
      server: {
        'GET /users/u-1/stats': ok(
          stats({ nextEligibleAt: new Date(Date.now() - DAY).toISOString() }),
        ),
      },
    });
    expect(await screen.findByText('You can donate now')).toBeVisible();
    expect(
      within(screen.getByRole('region', { name: 'Next donation' })).getByText('You can donate now'),
    ).toBeVisible();
  });

  it('shows the five newest activities with a link to the history', async () => {
    await renderDashboard(makeUser(), {
      server: {
        'GET /users/u-1/activity': ok({
          items: [
            { id: 'a1', at: '2026-11-02T10:00:00.000Z', action: 'donor.approved', message: 'x' },
            {
              id: 'a2',
              at: '2026-11-01T10:00:00.000Z',
              action: 'some.new_thing',
              message: 'Something new happened.',
            },
          ],
          total: 2,
          page: 1,
          pageSize: 5,
        }),
      },
    });
    const card = screen.getByRole('region', { name: 'Recent activity' });
    expect(await within(card).findByText('Registration approved.')).toBeVisible();
    expect(within(card).getByText('Something new happened.')).toBeVisible();
    expect(within(card).getByRole('link', { name: 'See your donation history' })).toHaveAttribute(
      'href',
      '/donor/history',
    );
  });

  it('shows the donations and certificates cards only while their flags are on', async () => {
    const { api } = await renderDashboard(makeUser(), {
      flags: { donorDashboard: false, donationHistory: false, certificateGeneration: false },
    });
    expect(screen.getByRole('region', { name: 'Last donation' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Your donations' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Certificates' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Recent activity' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Next donation' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /users/u-1/activity')).toHaveLength(0);
    // No blood requests yet: no empty "requests near you" card either.
    expect(screen.queryByText(/requests near you/i)).not.toBeInTheDocument();
  });

  it('offers the donations and certificates cards with their flags', async () => {
    await renderDashboard();
    const donations = screen.getByRole('region', { name: 'Your donations' });
    expect(
      within(donations).getByRole('link', { name: 'Report a donation made elsewhere' }),
    ).toHaveAttribute('href', '/donor/history#report-donation');
    const certificates = screen.getByRole('region', { name: 'Certificates' });
    expect(within(certificates).getByRole('link', { name: 'Your certificates' })).toHaveAttribute(
      'href',
      '/donor/certificates',
    );
  });
});

describe('availability', () => {
  it('switches availability off and says so', async () => {
    const { user, api } = await renderDashboard(makeUser(), {
      server: {
        'PUT /users/u-1/availability': (request) =>
          ok(availability({ available: (request.body as { available: boolean }).available })),
      },
    });
    const toggle = await screen.findByRole('switch', { name: 'Available to donate' });
    expect(toggle).toBeChecked();
    expect(
      screen.getByText('Expires on 30 December 2026 unless you confirm it again.'),
    ).toBeVisible();
    await user.click(toggle);
    expect(await screen.findByText("You won't receive blood requests for now.")).toBeVisible();
    expect(api.callsTo('PUT /users/u-1/availability')[0]!.body).toEqual({
      available: false,
      until: null,
    });
    expect(screen.getByRole('switch', { name: 'Available to donate' })).not.toBeChecked();
  });

  it('refuses an "until" date more than 90 days ahead', async () => {
    const { user, api } = await renderDashboard();
    const until = await screen.findByLabelText(/^Available until/);
    const far = new Date(Date.now() + 120 * DAY).toISOString().slice(0, 10);
    await user.type(until, far);
    await user.click(screen.getByRole('button', { name: 'Save date' }));
    expect(until).toHaveAccessibleDescription(
      expect.stringMatching(/^Up to 90 days.*Choose a date from today up to/),
    );
    expect(api.callsTo('PUT /users/u-1/availability')).toHaveLength(0);
  });

  it('asks "Are you still available?" when a reconfirmation is due, and reconfirms', async () => {
    const { user, api } = await renderDashboard(makeUser(), {
      server: {
        'GET /users/u-1/availability': ok(availability({ needsReconfirmation: true })),
        'PUT /users/u-1/availability': ok(
          availability({ expiresAt: '2027-03-01T09:00:00.000Z', needsReconfirmation: false }),
        ),
      },
    });
    expect(await screen.findByRole('heading', { name: 'Are you still available?' })).toBeVisible();
    expect(
      screen.getByText(
        'Your availability ends on 30 December 2026. Confirm it to keep receiving blood requests.',
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: "Yes, I'm still available" }));
    expect(
      await screen.findByText('Thank you! You stay available until 1 March 2027.'),
    ).toBeVisible();
    expect(api.callsTo('PUT /users/u-1/availability')[0]!.body).toEqual({
      available: true,
      until: null,
    });
    expect(
      screen.queryByRole('heading', { name: 'Are you still available?' }),
    ).not.toBeInTheDocument();
  });
});
