import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BloodRequest } from '@bdms/shared';
import { makeRequest } from '../../features/admin/test/fixtures';
import { mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser, seedSession } from '../../test/session';
import { routes } from '../router';

const HOSPITAL = makeUser({
  id: 'hospital-1',
  email: 'bloodbank@sassoon.example.in',
  role: 'hospital',
  name: 'Sassoon Blood Bank',
  fullName: 'Sassoon Blood Bank',
  bloodType: undefined,
});

const DONOR_ID = '0b6f8e2a-4c1d-4e5f-9a7b-1c2d3e4f5a6b';
const REQUEST_ID = '5f0c1d2e-3a4b-4c5d-8e6f-7a8b9c0d1e2f';

function page(items: BloodRequest[]) {
  return ok({
    items: items.map((item) => ({ ...item, view: 'full' })),
    total: items.length,
    page: 1,
    pageSize: 20,
  });
}

async function renderDashboard(server: Record<string, MockRoute>) {
  await seedSession(HOSPITAL);
  const api = mockApi({ 'GET /auth/me': ok({ user: HOSPITAL }), ...server });
  const rendered = renderRoutes(routes, { path: '/hospital/dashboard' });
  await screen.findByRole('heading', { level: 1, name: 'Hospital Dashboard' });
  return { ...rendered, api, user: userEvent.setup() };
}

describe('/hospital/dashboard', () => {
  it('shows a designed empty state', async () => {
    await renderDashboard({ 'GET /blood-requests': page([]) });
    expect(await screen.findByRole('heading', { name: 'No blood requests yet' })).toBeVisible();
  });

  it('shows accepted donors with their phone and records a donation for the request', async () => {
    const request = makeRequest({
      id: REQUEST_ID,
      status: 'in_progress',
      matches: { notified: 8, accepted: 1, declined: 0 },
    });
    const { api, user } = await renderDashboard({
      'GET /blood-requests': page([request]),
      [`GET /blood-requests/${REQUEST_ID}/donors`]: ok({
        items: [
          {
            donorId: DONOR_ID,
            name: 'Ravi Kumar',
            phone: '+919812345678',
            bloodType: 'O-',
            distanceKm: 3.2,
            respondedAt: '2026-11-21T10:00:00.000Z',
            donated: false,
          },
        ],
      }),
      'POST /donations': ok({ donation: { id: 'd-1' } }, 201),
    });
    expect(await screen.findByText('Ravi Kumar')).toBeVisible();
    expect(screen.getByRole('link', { name: '+91 98123 45678' })).toHaveAttribute(
      'href',
      'tel:+919812345678',
    );
    await user.click(screen.getByRole('button', { name: 'Record donation' }));
    await user.selectOptions(screen.getByLabelText(/^Units/), '2');
    await user.click(screen.getByRole('button', { name: "Save Ravi Kumar's donation" }));
    await waitFor(() => expect(api.callsTo('POST /donations')).toHaveLength(1));
    expect(api.callsTo('POST /donations')[0]!.body).toEqual({
      donorId: DONOR_ID,
      donatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      units: 2,
      requestId: REQUEST_ID,
    });
    expect(screen.getByRole('button', { name: 'Mark fulfilled' })).toBeVisible();
  });

  it('asks before marking a request fulfilled, and marks it only once confirmed', async () => {
    const request = makeRequest({
      id: REQUEST_ID,
      status: 'in_progress',
      matches: { notified: 8, accepted: 1, declined: 0 },
    });
    const { api, user } = await renderDashboard({
      'GET /blood-requests': page([request]),
      [`GET /blood-requests/${REQUEST_ID}/donors`]: ok({ items: [] }),
      [`PUT /blood-requests/${REQUEST_ID}/status`]: ok({
        request: { ...request, status: 'fulfilled', view: 'full' },
      }),
    });
    const statusCalls = () => api.callsTo(`PUT /blood-requests/${REQUEST_ID}/status`);
    await user.click(await screen.findByRole('button', { name: 'Mark fulfilled' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Mark this request fulfilled?' });
    expect(dialog).toHaveTextContent('the request cannot be opened again');
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(statusCalls()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Mark fulfilled' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Mark this request fulfilled?' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes, mark fulfilled' }));
    await waitFor(() => expect(statusCalls()).toHaveLength(1));
    expect(statusCalls()[0]!.body).toEqual({ status: 'fulfilled' });
    expect(await screen.findByText('Request marked fulfilled.')).toBeVisible();
  });

  it('warns on a request whose contact phone was not confirmed (#32 item 9)', async () => {
    await renderDashboard({
      'GET /blood-requests': page([makeRequest({ id: REQUEST_ID, contactPhoneConfirmed: false })]),
    });
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent('Contact phone not confirmed');
    expect(warning).toHaveTextContent(/Call the contact and check the request/);
  });

  it('verifies a pending request with notes', async () => {
    const request = makeRequest({ id: REQUEST_ID, status: 'pending' });
    const { api, user } = await renderDashboard({
      'GET /blood-requests': page([request]),
      [`PUT /blood-requests/${REQUEST_ID}/status`]: ok({
        request: { ...request, status: 'verified', view: 'full' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Verify' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify this request?' });
    await user.type(within(dialog).getByLabelText(/^Notes/), 'Called the ward.');
    await user.click(within(dialog).getByRole('button', { name: 'Verify the request' }));
    await waitFor(() =>
      expect(api.callsTo(`PUT /blood-requests/${REQUEST_ID}/status`)[0]?.body).toEqual({
        status: 'verified',
        notes: 'Called the ward.',
      }),
    );
  });

  it('shows a rejected registration with its reason instead of the work screens', async () => {
    const rejected = {
      ...HOSPITAL,
      hospital: {
        id: 'h-3',
        name: 'New Centre',
        verificationStatus: 'rejected' as const,
        rejectionReason: 'The licence number does not match the directory.',
        disabled: false,
      },
    };
    await seedSession(rejected);
    const api = mockApi({
      'GET /auth/me': ok({ user: rejected }),
      'GET /hospital-registrations/me': ok({
        registration: {
          hospitalId: 'h-3',
          name: 'New Centre',
          verificationStatus: 'rejected',
          rejectionReason: 'The licence number does not match the directory.',
          emailConfirmed: true,
          phoneConfirmed: false,
          smsAvailable: false,
        },
      }),
    });
    renderRoutes(routes, { path: '/hospital/dashboard' });
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Registration not verified' },
        { timeout: 15_000 },
      ),
    ).toBeVisible();
    expect(
      screen.getByText(/Reason: The licence number does not match the directory\./),
    ).toBeVisible();
    expect(await screen.findByText('Confirmed.')).toBeVisible();
    // No work screen asks for the hospital's requests.
    expect(api.calls.some((call) => call.path === '/blood-requests')).toBe(false);
  });
});
