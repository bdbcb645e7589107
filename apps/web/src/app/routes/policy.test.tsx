import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { i18n } from '../../i18n';
import { policy } from '../../features/education/test/fixtures';
import { routes } from '../router';

function renderPolicy(path: string, server: Record<string, MockRoute> = {}) {
  const api = mockApi({
    'GET /api/public/pages/privacy': ok(policy()),
    'GET /api/public/pages/terms': ok(
      policy({ slug: 'terms', title: 'Terms of service', summary: 'The rules for using it.' }),
    ),
    ...server,
  });
  return { ...renderRoutes(routes, { path }), api, user: userEvent.setup() };
}

describe('/privacy and /terms', () => {
  it('shows the privacy policy with its version, date and text', async () => {
    renderPolicy('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' })).toBeVisible();
    expect(screen.getByText('What personal data we collect, why, and your rights.')).toBeVisible();
    expect(screen.getByText('Version 2026-11-01 · Last updated 1 November 2026')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'The short version' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'support@example.org' })).toHaveAttribute(
      'href',
      'mailto:support@example.org',
    );
  });

  it('shows the terms from their own address', async () => {
    const { api } = renderPolicy('/terms');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Terms of service' }),
    ).toBeVisible();
    expect(api.callsTo('GET /api/public/pages/terms')).toHaveLength(1);
    expect(api.callsTo('GET /api/public/pages/privacy')).toHaveLength(0);
  });

  it('offers Try Again when the policy cannot be loaded', async () => {
    let failures = 1;
    const { user } = renderPolicy('/privacy', {
      'GET /api/public/pages/privacy': () =>
        failures-- > 0 ? fail(503, 'SERVICE_UNAVAILABLE') : ok(policy()),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    expect(await screen.findByRole('alert')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'The short version' }),
    ).toBeVisible();
  });

  it('asks for the policy in the visitor’s language and shows it without a note when translated', async () => {
    await i18n.changeLanguage('hi');
    const { api } = renderPolicy('/privacy', {
      'GET /api/public/pages/privacy': (request) =>
        ok(
          request.query.get('lang') === 'hi'
            ? policy({
                title: 'गोपनीयता नीति (पूरी)',
                summary: 'हम कौन-सी जानकारी रखते हैं।',
                body: '## छोटे में\n\nआपका फ़ोन नंबर अजनबियों को नहीं दिखता।',
                language: 'hi',
              })
            : policy(),
        ),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'गोपनीयता नीति (पूरी)' }),
    ).toBeVisible();
    expect(api.callsTo('GET /api/public/pages/privacy')[0]!.query.get('lang')).toBe('hi');
    const text = screen.getByRole('heading', { level: 2, name: 'छोटे में' }).closest('[lang]');
    expect(text).toHaveAttribute('lang', 'hi');
    expect(text).not.toHaveAttribute('dir');
    expect(screen.queryByText('यह सामग्री केवल अंग्रेज़ी में उपलब्ध है।')).not.toBeInTheDocument();
  });

  it('asks for English for a language the content is not written in, and marks it', async () => {
    await i18n.changeLanguage('fr');
    const { api } = renderPolicy('/privacy');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'The short version' }),
    ).toBeVisible();
    expect(api.callsTo('GET /api/public/pages/privacy')[0]!.query.get('lang')).toBe('en');
    const text = screen
      .getByRole('heading', { level: 2, name: 'The short version' })
      .closest('[lang]');
    expect(text).toHaveAttribute('lang', 'en');
    expect(text).toHaveAttribute('dir', 'auto');
  });

  it('names the page in the visitor’s language and says the text is in English', async () => {
    await i18n.changeLanguage('hi');
    renderPolicy('/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'गोपनीयता नीति' })).toBeVisible();
    expect(await screen.findByText('यह सामग्री केवल अंग्रेज़ी में उपलब्ध है।')).toBeVisible();
    // Screen readers switch to an English voice for the text.
    expect(
      screen.getByRole('heading', { level: 2, name: 'The short version' }).closest('[lang]'),
    ).toHaveAttribute('lang', 'en');
    expect(
      screen.getByRole('heading', { level: 2, name: 'The short version' }).closest('[lang]'),
    ).toHaveAttribute('dir', 'auto');
  });
});
