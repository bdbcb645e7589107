import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { i18n } from '../../i18n';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { makeUser } from '../../test/session';
import { routes } from '../router';

const AVAILABLE = {
  'POST /auth/check-email': ok({ available: true }),
  'POST /auth/check-phone': ok({ available: true }),
};

function renderRegister(server: Record<string, MockRoute> = AVAILABLE) {
  const api = mockApi(server);
  const rendered = renderRoutes(routes, { path: '/register' });
  return { ...rendered, api, user: userEvent.setup() };
}

/** An adult's date of birth, 30 years ago. */
const DATE_OF_BIRTH = `${new Date().getFullYear() - 30}-03-15`;

async function fillValidForm(user: UserEvent) {
  await user.type(await screen.findByLabelText(/^Full name/), 'Asha Rao');
  await user.type(screen.getByLabelText(/^E-mail address/), 'Asha.Rao@Example.in');
  await user.type(screen.getByLabelText(/^Mobile number/), '98765 43210');
  await user.type(screen.getByLabelText(/^Password/), 'Blood-Donor-2026');
  await user.click(screen.getByRole('radio', { name: 'O+' }));
  await user.type(screen.getByLabelText(/^Date of birth/), DATE_OF_BIRTH);
  await user.click(screen.getByRole('radio', { name: 'Female' }));
  await user.selectOptions(screen.getByLabelText(/^State or union territory/), 'Maharashtra');
  await user.type(screen.getByLabelText(/^City or town/), 'Pune');
  await user.click(screen.getByRole('checkbox', { name: /I agree to the Privacy Policy/ }));
}

describe('/register', () => {
  it('asks for every field of the register body, with privacy and terms linked', async () => {
    renderRegister();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Register as Donor' }),
    ).toBeInTheDocument();
    const bloodTypes = screen.getByRole('radiogroup', { name: /Blood type/ });
    expect(
      within(bloodTypes)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-']);
    expect(screen.getByRole('radiogroup', { name: /Gender/ })).toBeInTheDocument();
    expect(screen.getByLabelText(/^PIN code \(optional\)/)).not.toBeRequired();
    const state = screen.getByLabelText(/^State or union territory/);
    expect(within(state).getAllByRole('option')).toHaveLength(37); // placeholder + 36
    const form = within(screen.getByRole('main'));
    const privacy = form.getByRole('link', { name: 'Privacy Policy' });
    expect(privacy).toHaveAttribute('href', '/privacy');
    expect(privacy).toHaveAttribute('target', '_blank');
    expect(form.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
  });

  it('validates with translated messages, never the schema’s English text', async () => {
    const { user, api } = renderRegister();
    await user.click(await screen.findByRole('button', { name: 'Create my donor account' }));

    expect(screen.getByLabelText(/^Full name/)).toHaveAccessibleDescription(
      'Enter your full name.',
    );
    expect(screen.getByLabelText(/^Full name/)).toHaveFocus();
    expect(screen.getByLabelText(/^E-mail address/)).toHaveAccessibleDescription(
      'Enter your e-mail address.',
    );
    expect(screen.getByLabelText(/^Mobile number/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter your mobile number.'),
    );
    expect(screen.getByRole('radiogroup', { name: /Blood type/ })).toHaveAccessibleDescription(
      expect.stringContaining('Choose your blood type.'),
    );
    expect(screen.getByRole('radiogroup', { name: /Gender/ })).toHaveAccessibleDescription(
      'Choose one of the options.',
    );
    expect(screen.getByLabelText(/^Date of birth/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter your date of birth.'),
    );
    expect(screen.getByLabelText(/^State or union territory/)).toHaveAccessibleDescription(
      'Choose your state or union territory.',
    );
    expect(
      screen.getByRole('checkbox', { name: /I agree to the Privacy Policy/ }),
    ).toHaveAccessibleDescription(
      'To register, you must agree to the Privacy Policy and the Terms of Service.',
    );
    // The shared schema's own English messages are not shown.
    expect(screen.queryByText('Enter a 10-digit Indian mobile number.')).not.toBeInTheDocument();
    expect(
      screen.queryByText('You must agree to the privacy policy and terms.'),
    ).not.toBeInTheDocument();
    expect(api.callsTo('POST /auth/register')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Mobile number/), '12345');
    expect(screen.getByLabelText(/^Mobile number/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter a 10-digit Indian mobile number, like 98765 43210.'),
    );
    await user.type(
      screen.getByLabelText(/^Date of birth/),
      `${new Date().getFullYear() - 10}-01-01`,
    );
    expect(screen.getByLabelText(/^Date of birth/)).toHaveAccessibleDescription(
      expect.stringContaining('Donors must be 18 to 65 years old.'),
    );
  });

  it('shows the messages in Spanish when Spanish is chosen', async () => {
    await i18n.changeLanguage('es');
    const { user } = renderRegister();
    await user.click(await screen.findByRole('button', { name: 'Crear mi cuenta de donante' }));
    expect(screen.getByLabelText(/^Nombre completo/)).toHaveAccessibleDescription(
      'Escribe tu nombre completo.',
    );
    expect(screen.getByLabelText(/^Correo electrónico/)).toHaveAccessibleDescription(
      'Escribe tu correo electrónico.',
    );
  });

  it('checks the e-mail while typing and says when it is already registered', async () => {
    const { user, api } = renderRegister({
      'POST /auth/check-email': ok({ available: false }),
      'POST /auth/check-phone': ok({ available: true }),
    });
    await user.type(await screen.findByLabelText(/^E-mail address/), 'Taken@Example.in');

    expect(
      await screen.findByText('This e-mail address is already registered.'),
    ).toBeInTheDocument();
    const email = screen.getByLabelText(/^E-mail address/);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(
      expect.stringContaining('This e-mail address is already registered.'),
    );
    expect(screen.getByRole('link', { name: 'Sign in instead' })).toHaveAttribute('href', '/login');
    // Asked once, for the finished, normalised address.
    expect(api.callsTo('POST /auth/check-email').map((call) => call.body)).toEqual([
      { email: 'taken@example.in' },
    ]);

    await user.type(screen.getByLabelText(/^Mobile number/), '9876543210');
    await user.tab();
    expect(await screen.findByText('This mobile number is available.')).toBeInTheDocument();
    expect(api.callsTo('POST /auth/check-phone')[0]!.body).toEqual({ phone: '+919876543210' });

    await fillRemainingAndSubmit(user);
    expect(email).toHaveAccessibleDescription(
      expect.stringContaining('An account with this e-mail address already exists.'),
    );
    expect(api.callsTo('POST /auth/register')).toHaveLength(0);
  });

  it('shows nothing when the availability check is rate-limited', async () => {
    const { user } = renderRegister({
      'POST /auth/check-email': fail(429, 'RATE_LIMITED', { headers: { 'Retry-After': '30' } }),
    });
    await user.type(await screen.findByLabelText(/^E-mail address/), 'asha@example.in');
    await user.tab();
    await waitFor(() => expect(screen.queryByText('Checking…')).not.toBeInTheDocument());
    expect(screen.queryByText(/already registered/)).not.toBeInTheDocument();
    expect(screen.queryByText(/is available/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('registers, signs in and lands on /donor/onboarding', async () => {
    const created = makeUser({
      status: 'pending',
      isApproved: false,
      verification: { isVerified: false },
      onboardingCompleted: false,
      questionnaireCompleted: false,
    });
    const { user, api, router } = renderRegister({
      ...AVAILABLE,
      'POST /auth/register': ok(
        {
          user: created,
          tokens: { accessToken: 'a-new', refreshToken: 'refresh-new', expiresIn: 3600 },
        },
        201,
      ),
    });
    await fillValidForm(user);
    expect(screen.getByText('Password strength: Strong')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create my donor account' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Complete Your Registration' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/donor/onboarding');
    expect(
      await screen.findByText('Welcome! Your donor account has been created.'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /auth/register')[0]!.body).toEqual({
      fullName: 'Asha Rao',
      email: 'asha.rao@example.in',
      phone: '+919876543210',
      password: 'Blood-Donor-2026',
      bloodType: 'O+',
      dateOfBirth: DATE_OF_BIRTH,
      gender: 'female',
      state: 'Maharashtra',
      city: 'Pune',
      consent: true,
      language: 'en',
    });
    expect(window.localStorage.getItem('authState')).toContain('"isAuthenticated":true');
  });

  it('puts a 409 PHONE_TAKEN from the server on the phone field', async () => {
    const { user } = renderRegister({
      ...AVAILABLE,
      'POST /auth/register': fail(409, 'PHONE_TAKEN'),
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create my donor account' }));
    const phone = screen.getByLabelText(/^Mobile number/);
    await waitFor(() =>
      expect(phone).toHaveAccessibleDescription(
        expect.stringContaining('An account with this phone number already exists.'),
      ),
    );
    expect(phone).toHaveFocus();
  });

  it('puts server validation details on their fields, in the user’s words', async () => {
    const { user } = renderRegister({
      ...AVAILABLE,
      'POST /auth/register': fail(400, 'VALIDATION_ERROR', {
        details: [{ path: 'body.city', message: 'Too short' }],
      }),
    });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create my donor account' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^City or town/)).toHaveAccessibleDescription(
        'Enter 2 to 80 characters.',
      ),
    );
  });
});

async function fillRemainingAndSubmit(user: UserEvent) {
  await user.type(screen.getByLabelText(/^Full name/), 'Asha Rao');
  await user.type(screen.getByLabelText(/^Password/), 'Blood-Donor-2026');
  await user.click(screen.getByRole('radio', { name: 'O+' }));
  await user.type(screen.getByLabelText(/^Date of birth/), DATE_OF_BIRTH);
  await user.click(screen.getByRole('radio', { name: 'Female' }));
  await user.selectOptions(screen.getByLabelText(/^State or union territory/), 'Maharashtra');
  await user.type(screen.getByLabelText(/^City or town/), 'Pune');
  await user.click(screen.getByRole('checkbox', { name: /I agree to the Privacy Policy/ }));
  await user.click(screen.getByRole('button', { name: 'Create my donor account' }));
}
