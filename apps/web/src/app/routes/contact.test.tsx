import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes, type RenderOptions } from '../../test/render';
import { routes } from '../router';

const RECEIPT = { received: true, id: '0b7c9a52-3f1e-4c55-9d4e-2a8f6b1c0e77' };

function renderContact(server: Record<string, MockRoute> = {}, options: RenderOptions = {}) {
  const api = mockApi(server);
  const rendered = renderRoutes(routes, { ...options, path: '/contact' });
  return { ...rendered, api, user: userEvent.setup() };
}

const field = {
  name: () => screen.getByLabelText(/^Your name/),
  email: () => screen.getByLabelText(/^Your e-mail address/),
  subject: () => screen.getByLabelText(/^Subject/),
  message: () => screen.getByLabelText(/^Message/),
};
const submit = () => screen.getByRole('button', { name: 'Send message' });

async function fillValidForm(user: UserEvent) {
  await user.type(await screen.findByLabelText(/^Your name/), '  Asha Rao ');
  await user.type(field.email(), ' Asha.Rao@Example.org ');
  await user.type(field.subject(), 'Updating my city');
  await user.type(field.message(), 'I moved from Pune to Hyderabad. How do I change my city?');
}

describe('/contact', () => {
  it('shows the support address, the help centre and the form', async () => {
    renderContact({}, { supportEmail: 'help@blood.example.in' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: /help@blood\.example\.in/ })).toHaveAttribute(
      'href',
      'mailto:help@blood.example.in',
    );
    expect(within(main).getByRole('link', { name: 'Visit the help centre' })).toHaveAttribute(
      'href',
      '/help',
    );
    expect(field.message()).toHaveAccessibleDescription(
      expect.stringContaining('0 of 5000 characters'),
    );
    // The emergency pointer follows its flag, like the rest of the emergency surfaces.
    expect(screen.queryByRole('link', { name: 'Request blood now' })).not.toBeInTheDocument();
  });

  it('points to the emergency request when that flag is on', async () => {
    renderContact({}, { flags: { emergencyServices: true } });
    expect(await screen.findByRole('link', { name: 'Request blood now' })).toHaveAttribute(
      'href',
      '/emergency',
    );
  });

  it('validates with translated messages and sends nothing', async () => {
    const { user, api } = renderContact();
    await user.click(await screen.findByRole('button', { name: 'Send message' }));
    expect(field.name()).toHaveAccessibleDescription(expect.stringContaining('Enter your name.'));
    expect(field.email()).toHaveAccessibleDescription(
      expect.stringContaining('Enter your e-mail address, so that we can reply.'),
    );
    expect(field.subject()).toHaveAccessibleDescription(
      expect.stringContaining('Enter a subject.'),
    );
    expect(field.message()).toHaveAccessibleDescription(
      expect.stringContaining('Write your message.'),
    );
    expect(field.name()).toHaveFocus();

    await user.type(field.name(), 'A');
    await user.type(field.email(), 'asha@');
    await user.type(field.subject(), 'Hi');
    await user.type(field.message(), 'Too short');
    await user.click(submit());
    expect(field.name()).toHaveAccessibleDescription(
      expect.stringContaining('Enter at least 2 characters.'),
    );
    expect(field.email()).toHaveAccessibleDescription(
      expect.stringContaining('Enter a valid e-mail address'),
    );
    expect(field.subject()).toHaveAccessibleDescription(
      expect.stringContaining('Enter at least 3 characters.'),
    );
    expect(field.message()).toHaveAccessibleDescription(
      expect.stringContaining('Write at least 10 characters.'),
    );
    expect(api.callsTo('POST /contact')).toHaveLength(0);
  });

  it('counts the message characters and says when it is over the limit', async () => {
    const { user } = renderContact();
    const message = await screen.findByLabelText(/^Message/);
    await user.type(message, 'Hello there');
    expect(message).toHaveAccessibleDescription(expect.stringContaining('11 of 5000 characters'));

    await user.clear(message);
    await user.click(message);
    await user.paste('x'.repeat(5003));
    expect(screen.getByText('3 characters over the limit')).toBeVisible();
    await user.click(submit());
    expect(message).toHaveAccessibleDescription(
      expect.stringContaining('Use at most 5000 characters.'),
    );
  });

  it('sends the message and thanks the visitor with the reference and the reply address', async () => {
    const { user, api } = renderContact({ 'POST /contact': ok(RECEIPT, 201) });
    await fillValidForm(user);
    await user.click(submit());

    expect(
      await screen.findByRole('heading', { name: "Thank you — we've received your message" }),
    ).toHaveFocus();
    expect(screen.getByText(RECEIPT.id)).toBeVisible();
    expect(screen.getByText('We will reply to asha.rao@example.org.')).toBeVisible();
    expect(api.callsTo('POST /contact')).toHaveLength(1);
    expect(api.callsTo('POST /contact')[0]!.body).toEqual({
      name: 'Asha Rao',
      email: 'asha.rao@example.org',
      subject: 'Updating my city',
      message: 'I moved from Pune to Hyderabad. How do I change my city?',
    });
    expect(api.callsTo('POST /contact')[0]!.headers.get('X-Request-ID')).toBeTruthy();

    // Another message starts from an empty form.
    await user.click(screen.getByRole('button', { name: 'Send another message' }));
    expect(field.name()).toHaveValue('');
    expect(field.message()).toHaveValue('');
  });

  it('shows a busy button while sending', async () => {
    let answer: (reply: ReturnType<typeof ok>) => void = () => {};
    const { user } = renderContact({
      'POST /contact': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    await fillValidForm(user);
    await user.click(submit());
    const busy = await screen.findByRole('button', { name: /Sending…/ });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    answer(ok(RECEIPT, 201));
    expect(
      await screen.findByRole('heading', { name: "Thank you — we've received your message" }),
    ).toBeVisible();
  });

  it('says how many minutes to wait when rate-limited, keeping the text', async () => {
    const { user } = renderContact({
      'POST /contact': fail(429, 'RATE_LIMITED', { headers: { 'Retry-After': '1500' } }),
    });
    await fillValidForm(user);
    await user.click(submit());
    expect(
      await screen.findByText(
        'You have sent several messages in a short time. Please try again in 25 minutes.',
      ),
    ).toBeVisible();
    expect(screen.getByText('Your message was not sent')).toBeVisible();
    expect(field.message()).toHaveValue('I moved from Pune to Hyderabad. How do I change my city?');
    // (An e-mail input drops the spaces around its value itself.)
    expect(field.email()).toHaveValue('Asha.Rao@Example.org');
  });

  it("puts the server's field errors on their fields", async () => {
    const { user } = renderContact({
      'POST /contact': fail(400, 'VALIDATION_ERROR', {
        details: [
          { path: 'body.subject', message: 'Subject must be a single line.' },
          { path: 'body.email', message: 'Enter a valid e-mail address.' },
        ],
      }),
    });
    await fillValidForm(user);
    await user.click(submit());
    await waitFor(() =>
      expect(field.subject()).toHaveAccessibleDescription(
        expect.stringContaining('Enter the subject on one line'),
      ),
    );
    expect(field.email()).toHaveAccessibleDescription(
      expect.stringContaining('Enter a valid e-mail address'),
    );
    expect(field.email()).toHaveFocus();
    // The server's English text is never shown.
    expect(screen.queryByText('Subject must be a single line.')).not.toBeInTheDocument();
    expect(screen.queryByText('Your message was not sent')).not.toBeInTheDocument();
  });

  it('shows any other failure above the form and keeps what was typed', async () => {
    const { user } = renderContact({ 'POST /contact': fail(500, 'INTERNAL_ERROR') });
    await fillValidForm(user);
    await user.click(submit());
    expect(
      await screen.findByText('Something went wrong on our side. Please try again later.'),
    ).toBeVisible();
    expect(screen.getByText('What you typed is still in the form.')).toBeVisible();
    expect(field.subject()).toHaveValue('Updating my city');
    expect(submit()).toBeEnabled();
  });
});
