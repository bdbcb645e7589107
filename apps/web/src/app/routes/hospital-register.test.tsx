import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser } from '../../test/session';
import { routes } from '../router';

const OSMANIA = {
  id: 'bb-2310',
  name: 'Osmania General Hospital Blood Bank',
  category: 'Government',
  address: 'Afzal Gunj',
  city: 'Hyderabad',
  district: 'Hyderabad',
  state: 'Telangana',
  pincode: '500012',
  phone: '040-24600146',
  mobile: null,
  email: null,
  website: null,
  latitude: 17.37,
  longitude: 78.47,
  components: true,
  apheresis: false,
  serviceTime: '24x7',
  is24x7: true,
  score: 0.9,
};

const PICKER = { name: 'Your entry in the blood bank directory' };

const CENTRE = makeUser({
  id: 'hospital-9',
  email: 'blood.centre@osmania.example',
  role: 'hospital',
  fullName: 'Dr. Kavitha Rao',
  name: 'Dr. Kavitha Rao',
  bloodType: undefined,
  hospital: {
    id: 'h-9',
    name: 'Osmania Blood Centre',
    verificationStatus: 'pending',
    rejectionReason: null,
    disabled: false,
  },
});

const REGISTRATION = {
  hospitalId: 'h-9',
  name: 'Osmania Blood Centre',
  verificationStatus: 'pending',
  rejectionReason: null,
  emailConfirmed: false,
  phoneConfirmed: false,
  smsAvailable: false,
};

async function renderRegister(server: Record<string, MockRoute> = {}, isOpen = true) {
  const api = mockApi({
    'GET /public/facilities/search': (request) =>
      ok({ items: (request.query.get('q') ?? '').toLowerCase().includes('osm') ? [OSMANIA] : [] }),
    ...server,
  });
  renderRoutes(routes, { path: '/hospital/register', flags: { hospitalRegistration: isOpen } });
  return { api, user: userEvent.setup() };
}

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(
    screen.getByLabelText('Name of the blood centre or hospital'),
    'Osmania Blood Centre',
  );
  await user.type(screen.getByLabelText('Blood bank licence number'), 'AP/28C/123/1996');
  await user.type(screen.getByLabelText('Contact person'), 'Dr. Kavitha Rao');
  await user.type(screen.getByLabelText('Official e-mail address'), 'blood.centre@osmania.example');
  await user.type(screen.getByLabelText('Official mobile number'), '9848012345');
  await user.type(screen.getByLabelText('Password'), 'saffron lantern quietly 42');
}

describe('/hospital/register', { timeout: 30_000 }, () => {
  it('is not there while hospitalRegistration is off', async () => {
    await renderRegister({}, false);
    expect(
      await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 }),
    ).not.toHaveTextContent('Register a Blood Centre');
    expect(screen.queryByRole('combobox', PICKER)).not.toBeInTheDocument();
  });

  it('chooses the directory entry by search and registers with its id, then shows the wait', async () => {
    const { api, user } = await renderRegister({
      'POST /hospital-registrations': ok(
        {
          user: CENTRE,
          tokens: { accessToken: 'a.b.c', refreshToken: 'r', expiresIn: 3600 },
          registration: REGISTRATION,
        },
        201,
      ),
      'GET /auth/me': ok({ user: CENTRE }),
      'GET /hospital-registrations/me': ok({ registration: REGISTRATION }),
    });
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Register a Blood Centre' },
      { timeout: 15_000 },
    );
    await fillIn(user);

    const combobox = screen.getByRole('combobox', PICKER);
    await user.type(combobox, 'osmania');
    const option = await screen.findByRole('option', {
      name: /Osmania General Hospital Blood Bank/,
    });
    expect(api.calls.some((call) => call.path === '/public/facilities/search')).toBe(true);
    await user.click(option);
    expect(screen.queryByRole('combobox', PICKER)).not.toBeInTheDocument();
    expect(screen.getByText('Osmania General Hospital Blood Bank')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Register the blood centre' }));
    await waitFor(() => expect(api.callsTo('POST /hospital-registrations')).toHaveLength(1));
    expect(api.callsTo('POST /hospital-registrations')[0]!.body).toMatchObject({
      name: 'Osmania Blood Centre',
      licenceNumber: 'AP/28C/123/1996',
      facilityId: 'bb-2310',
      contactName: 'Dr. Kavitha Rao',
      email: 'blood.centre@osmania.example',
      phone: '+919848012345',
    });
    expect(
      await screen.findByRole('heading', { name: 'Waiting for verification' }, { timeout: 15_000 }),
    ).toBeVisible();
    expect(await screen.findByLabelText('Code from the e-mail')).toBeInTheDocument();
    expect(screen.getByText(/SMS is not available yet/)).toBeVisible();
  });

  it('refuses to send without a chosen entry, and shows each error on its field', async () => {
    const { api, user } = await renderRegister();
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Register a Blood Centre' },
      { timeout: 15_000 },
    );
    await fillIn(user);
    // Text typed in the search is not a choice (nor is an id copied from a page address).
    await user.type(screen.getByRole('combobox', PICKER), 'bb-2310');
    await user.clear(screen.getByLabelText('Blood bank licence number'));
    await user.type(screen.getByLabelText('Blood bank licence number'), '<b>');
    await user.click(screen.getByRole('button', { name: 'Register the blood centre' }));
    expect(
      await screen.findByText('Search for your blood centre and choose it from the list.'),
    ).toBeVisible();
    expect(
      screen.getByText('Enter the licence number as printed (letters, digits and / - . ( ) only).'),
    ).toBeVisible();
    expect(screen.getByRole('combobox', PICKER)).toHaveAccessibleDescription(
      /Search for your blood centre and choose it from the list\./,
    );
    expect(api.callsTo('POST /hospital-registrations')).toHaveLength(0);
  });

  it('puts the server’s answer on the field it names', async () => {
    const { user } = await renderRegister({
      'POST /hospital-registrations': fail(409, 'EMAIL_TAKEN', {
        details: [{ path: 'body.email', message: 'taken' }],
      }),
    });
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Register a Blood Centre' },
      { timeout: 15_000 },
    );
    await fillIn(user);
    await user.type(screen.getByRole('combobox', PICKER), 'osmania');
    await user.click(await screen.findByRole('option', { name: /Osmania General/ }));
    await user.click(screen.getByRole('button', { name: 'Register the blood centre' }));
    const email = screen.getByLabelText('Official e-mail address');
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    const field = email.closest('div')!.parentElement!;
    expect(within(field).getByText(/already/i)).toBeVisible();
  });

  it('is linked from the hospital sign-in page only while the flag is on', async () => {
    mockApi({});
    const { unmount } = renderRoutes(routes, {
      path: '/hospital/login',
      flags: { hospitalRegistration: true },
    });
    expect(
      await screen.findByRole('link', { name: 'Register it' }, { timeout: 15_000 }),
    ).toHaveAttribute('href', '/hospital/register');
    unmount();
    renderRoutes(routes, { path: '/hospital/login', flags: { hospitalRegistration: false } });
    await screen.findByRole('heading', { level: 1, name: 'Hospital Sign In' });
    expect(screen.queryByRole('link', { name: 'Register it' })).not.toBeInTheDocument();
  });
});
