import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { routes } from '../router';

const TRACKING = {
  trackingCode: 'AB12CD34',
  status: 'in_progress',
  urgency: 'critical',
  bloodType: 'O-',
  unitsNeeded: 2,
  hospitalName: 'Sassoon General Hospital',
  city: 'Pune',
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:30:00.000Z',
  expiresAt: '2026-11-24T10:00:00.000Z',
  searchRadiusKm: 10,
  matches: { notified: 12, accepted: 2, declined: 3 },
  donorsOnTheirWay: [{ firstName: 'Ravi' }, { firstName: 'Meena' }],
  history: [{ status: 'pending', at: '2026-11-21T10:00:00.000Z' }],
};

function renderEmergency(server: Record<string, MockRoute> = {}, path = '/emergency') {
  const api = mockApi({ 'GET /public/facilities/search': ok({ items: [] }), ...server });
  const rendered = renderRoutes(routes, { path });
  return { ...rendered, api, user: userEvent.setup() };
}

async function fillValidForm(user: UserEvent) {
  await user.click(await screen.findByRole('radio', { name: 'O-' }));
  await user.click(screen.getByRole('radio', { name: /^Critical/ }));
  await user.type(screen.getByLabelText(/^Hospital/), 'Sassoon General Hospital');
  await user.selectOptions(screen.getByLabelText(/^State or union territory/), 'Maharashtra');
  await user.type(screen.getByLabelText(/^City or town/), 'Pune');
  await user.type(screen.getByLabelText(/^Your name/), 'Sunita Patil');
  await user.type(screen.getByLabelText(/^Your phone number/), '98765 43210');
}

describe('/emergency', () => {
  it('validates with translated messages and sends nothing', async () => {
    const { user, api } = renderEmergency();
    await user.click(await screen.findByRole('button', { name: 'Send the request' }));
    expect(
      screen.getByRole('radiogroup', { name: /Blood type needed/ }),
    ).toHaveAccessibleDescription(expect.stringContaining('Choose the blood type needed.'));
    expect(screen.getByLabelText(/^Your phone number/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter your mobile number.'),
    );
    expect(screen.getByLabelText(/^Hospital/)).toHaveAccessibleDescription(
      expect.stringContaining("Enter the hospital's name."),
    );
    await user.type(screen.getByLabelText(/^Your phone number/), '12345');
    await user.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(screen.getByLabelText(/^Your phone number/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter a 10-digit Indian mobile number'),
    );
    expect(api.callsTo('POST /blood-requests')).toHaveLength(0);
  });

  it('sends the request body and opens its tracking page', async () => {
    const { user, api, router } = renderEmergency({
      'POST /blood-requests': ok({ request: { trackingCode: 'AB12CD34' }, duplicate: false }, 201),
      'GET /blood-requests/track/AB12CD34': ok(TRACKING),
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'One unit more' }));
    await user.click(screen.getByRole('button', { name: 'Send the request' }));

    await waitFor(() => expect(router.state.location.search).toBe('?track=AB12CD34'));
    expect(api.callsTo('POST /blood-requests')[0]!.body).toEqual({
      bloodType: 'O-',
      unitsNeeded: 2,
      urgency: 'critical',
      hospitalName: 'Sassoon General Hospital',
      city: 'Pune',
      state: 'Maharashtra',
      contactName: 'Sunita Patil',
      contactPhone: '+919876543210',
      language: 'en',
    });
    expect(await screen.findByRole('heading', { name: 'Donors are responding' })).toBeVisible();
  });

  it("accepts the hospital's landline with its STD code, sent as E.164", async () => {
    const { user, api } = renderEmergency({
      'POST /blood-requests': ok({ request: { trackingCode: 'AB12CD34' }, duplicate: false }, 201),
      'GET /blood-requests/track/AB12CD34': ok(TRACKING),
    });
    await fillValidForm(user);
    await user.clear(screen.getByLabelText(/^Your phone number/));
    await user.type(screen.getByLabelText(/^Your phone number/), '020-2612 8000');
    await user.click(screen.getByRole('button', { name: 'Send the request' }));

    await waitFor(() => expect(api.callsTo('POST /blood-requests')).toHaveLength(1));
    expect(api.callsTo('POST /blood-requests')[0]!.body).toMatchObject({
      contactPhone: '+912026128000',
    });
  });

  it('makes 108 and 112 tap-to-call links with a spoken label', async () => {
    renderEmergency();
    const ambulance = await screen.findByRole('link', { name: 'Call 108, ambulance' });
    expect(ambulance).toHaveAttribute('href', 'tel:108');
    expect(ambulance).toHaveTextContent('108');
    expect(screen.getByRole('link', { name: 'Call 112, emergency services' })).toHaveAttribute(
      'href',
      'tel:112',
    );
  });

  it('picks a hospital from the directory, filling city and state', async () => {
    const { user, api } = renderEmergency({
      'GET /public/facilities/search': ok({
        items: [
          {
            id: 'bb-42',
            name: 'Sassoon General Hospital Blood Bank',
            city: 'Pune',
            district: 'Pune',
            state: 'Maharashtra',
          },
        ],
      }),
    });
    await user.type(await screen.findByLabelText(/^Hospital/), 'Sass');
    await user.click(
      await screen.findByRole('button', { name: /Sassoon General Hospital Blood Bank/ }),
    );
    expect(screen.getByLabelText(/^Hospital/)).toHaveValue('Sassoon General Hospital Blood Bank');
    expect(screen.getByLabelText(/^City or town/)).toHaveValue('Pune');
    expect(screen.getByLabelText(/^State or union territory/)).toHaveValue('Maharashtra');
    expect(api.callsTo('GET /public/facilities/search').at(-1)!.query.get('q')).toBe('Sass');
  });

  it('shows the open request when the same one was already made', async () => {
    const { user } = renderEmergency({
      'POST /blood-requests': ok({ request: { trackingCode: 'AB12CD34' }, duplicate: true }),
      'GET /blood-requests/track/AB12CD34': ok(TRACKING),
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(
      await screen.findByText(/You already have an open request for this patient/),
    ).toBeVisible();
  });

  it('says an open request like it exists, without showing it, when the server hands none back', async () => {
    const { user, router } = renderEmergency({
      'POST /blood-requests': ok({ request: null, duplicate: true }),
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(await screen.findByText('A request like this is already open')).toBeVisible();
    expect(screen.getByText(/its tracking link has been sent there/)).toBeVisible();
    expect(router.state.location.search).toBe('');
  });

  it('says how long to wait after a 429', async () => {
    const { user } = renderEmergency({
      'POST /blood-requests': fail(429, 'RATE_LIMITED', { headers: { 'Retry-After': '300' } }),
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Send the request' }));
    expect(
      await screen.findByText('Too many requests from this connection. Try again in 5 minutes.'),
    ).toBeVisible();
  });

  it('puts a server 400 on its field', async () => {
    const { user } = renderEmergency({
      'POST /blood-requests': fail(400, 'VALIDATION_ERROR', {
        details: [{ path: 'body.contactPhone', message: 'Invalid' }],
      }),
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Send the request' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Your phone number/)).toHaveAccessibleDescription(
        expect.stringContaining('Enter a 10-digit Indian mobile number'),
      ),
    );
  });
});

describe('/emergency?track=CODE', () => {
  it('shows progress, counts and first names, never a phone number', async () => {
    const { container } = renderEmergency(
      { 'GET /blood-requests/track/AB12CD34': ok(TRACKING) },
      '/emergency?track=ab12cd34',
    );
    expect(await screen.findByRole('heading', { name: 'Donors are responding' })).toBeVisible();
    expect(screen.getByText('Donors told: 12. Accepted: 2.')).toBeVisible();
    expect(screen.getByText('2 donors on their way: Ravi, Meena')).toBeVisible();
    expect(screen.getByText('Donors within 10 km were told.')).toBeVisible();
    expect(screen.getByText('Sassoon General Hospital')).toBeVisible();
    expect(container.textContent).not.toMatch(/\+91|\d{10}/);
    expect(screen.getByRole('button', { name: 'Copy the code' })).toBeVisible();
  });

  it('says so kindly when the code is unknown', async () => {
    renderEmergency({}, '/emergency?track=ZZZZ9999');
    expect(await screen.findByRole('heading', { name: 'Request not found' })).toBeVisible();
  });

  it('opens a typed tracking code', async () => {
    const { user, router } = renderEmergency({
      'GET /blood-requests/track/AB12CD34': ok(TRACKING),
    });
    await user.type(await screen.findByLabelText(/^Tracking code/), 'ab12 cd34');
    await user.click(screen.getByRole('button', { name: 'Track' }));
    await waitFor(() => expect(router.state.location.search).toBe('?track=AB12CD34'));
  });
});
