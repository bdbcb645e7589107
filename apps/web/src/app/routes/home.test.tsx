import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../../i18n';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes, type RenderOptions } from '../../test/render';
import { routes } from '../router';

const STATS = {
  approvedDonors: 123456,
  requestsFulfilled: 789,
  facilitiesListed: 2823,
  articles: 16,
  generatedAt: '2026-11-21T10:00:00.000Z',
};

const article = (slug: string, title: string, readingMinutes: number) => ({
  id: `id-${slug}`,
  slug,
  title,
  summary: `What to know about ${title.toLowerCase()}.`,
  category: 'eligibility',
  readingMinutes,
  publishedAt: '2026-11-01',
  featured: true,
  views: 10,
  downloads: 2,
});

const FEATURED = [
  article('who-can-donate-blood-in-india', 'Who can donate blood in India', 7),
  article('how-requests-and-privacy-work', 'How blood requests and your privacy work here', 6),
  article('blood-types-and-compatibility', 'Blood types and compatibility', 1),
];

function renderHome(server: Record<string, MockRoute> = {}, options: RenderOptions = {}) {
  const api = mockApi({
    'GET /public/stats': ok(STATS),
    'GET /api/public/education/featured': ok(FEATURED),
    ...server,
  });
  return { ...renderRoutes(routes, { ...options, path: '/' }), api };
}

describe('/ (home)', () => {
  it('states the banner claims and how it works for donors and for people who need blood', async () => {
    renderHome();
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: "India's first privacy-protected blood donation platform",
      }),
    ).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Free for everyone' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Complete privacy' })).toBeVisible();
    expect(
      screen.getByRole('heading', { name: 'Hidden for 3 months after a donation' }),
    ).toBeVisible();
    expect(screen.getByRole('heading', { name: 'For blood donors' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'For people who need blood' })).toBeVisible();
  });

  it('shows the live figures, labelled and formatted for the language', async () => {
    const { api } = renderHome();
    const figures = await screen.findByRole('region', { name: 'The platform today' });
    const terms = within(figures).getAllByRole('term');
    const values = within(figures).getAllByRole('definition');
    expect(terms.map((term) => term.textContent)).toEqual([
      'Approved donors',
      'Requests fulfilled',
      'Blood banks listed',
      'Articles to read',
    ]);
    // From one lakh up a headline figure is said in lakhs (no-break space before the word).
    expect(values.map((value) => value.textContent?.replace(/\s/gu, ' '))).toEqual([
      '1.2 lakh',
      '789',
      '2,823',
      '16',
    ]);
    expect(api.callsTo('GET /public/stats')).toHaveLength(1);
    // A public call: no session is sent with it.
    expect(api.callsTo('GET /public/stats')[0]!.headers.get('Authorization')).toBeNull();
  });

  it('formats the figures in Hindi, in lakhs', async () => {
    await i18n.changeLanguage('hi');
    renderHome();
    const figures = await screen.findByRole('region', { name: 'आज का प्लेटफ़ॉर्म' });
    expect(within(figures).getByText(/^1\.2\s+लाख$/u)).toBeVisible();
    expect(within(figures).getByText('स्वीकृत रक्तदाता')).toBeVisible();
  });

  it('leaves the figures out when they cannot be read, never showing zeros', async () => {
    renderHome({ 'GET /public/stats': fail(500, 'INTERNAL_ERROR') });
    // The rest of the live part still arrives...
    expect(await screen.findByRole('region', { name: 'Learn before you give' })).toBeVisible();
    // ...but no figure, no placeholder and no zero stands in for them.
    expect(screen.queryByRole('region', { name: 'The platform today' })).not.toBeInTheDocument();
    expect(screen.queryByText('Approved donors')).not.toBeInTheDocument();
    expect(screen.queryByTestId('figures-skeleton')).not.toBeInTheDocument();
    expect(screen.queryByText('0')).not.toBeInTheDocument();
  });

  it('holds the place of the live figures while they load', async () => {
    let answer: (reply: ReturnType<typeof ok>) => void = () => {};
    renderHome({
      'GET /public/stats': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    expect(await screen.findByTestId('figures-skeleton')).toHaveAttribute('aria-hidden', 'true');
    answer(ok(STATS));
    expect(await screen.findByText(/^1\.2\s+lakh$/u)).toBeVisible();
    expect(screen.queryByTestId('figures-skeleton')).not.toBeInTheDocument();
  });

  it('features 3 articles with their reading time, and links to all articles', async () => {
    const { api } = renderHome();
    const featured = await screen.findByRole('region', { name: 'Learn before you give' });
    const cards = within(featured).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(
      within(featured).getByRole('link', { name: 'Who can donate blood in India' }),
    ).toHaveAttribute('href', '/articles/who-can-donate-blood-in-india');
    expect(within(cards[0]!).getByText('7 minute read')).toBeVisible();
    expect(
      within(cards[0]!).getByText('What to know about who can donate blood in india.'),
    ).toBeVisible();
    expect(within(featured).getByRole('link', { name: 'All articles' })).toHaveAttribute(
      'href',
      '/education',
    );
    expect(api.callsTo('GET /api/public/education/featured')[0]!.query.get('limit')).toBe('3');
    // In the reader's language (the server answers English where an article is not translated).
    expect(api.callsTo('GET /api/public/education/featured')[0]!.query.get('lang')).toBe('en');
  });

  it('leaves the featured articles out when they cannot be read', async () => {
    renderHome({ 'GET /api/public/education/featured': fail(503, 'SERVICE_UNAVAILABLE') });
    expect(await screen.findByRole('region', { name: 'The platform today' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Learn before you give' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'All articles' })).not.toBeInTheDocument();
  });

  it('offers the blood bank directory and the emergency request only when their flags are on', async () => {
    const main = () => screen.getByRole('main');
    const { unmount } = renderHome();
    await screen.findByRole('region', { name: 'The platform today' });
    expect(
      within(main()).queryByRole('link', { name: 'Find a blood bank' }),
    ).not.toBeInTheDocument();
    expect(
      within(main()).queryByRole('link', { name: 'Request Blood Now' }),
    ).not.toBeInTheDocument();
    expect(within(main()).getAllByRole('link', { name: 'Register as Donor' })[0]).toHaveAttribute(
      'href',
      '/register',
    );
    unmount();

    renderHome({}, { flags: { bloodBankDirectory: true, emergencyServices: true } });
    const bloodBanks = await within(main()).findByRole('link', { name: 'Find a blood bank' });
    expect(bloodBanks).toHaveAttribute('href', '/blood-banks');
    expect(screen.getByRole('region', { name: 'Need blood urgently?' })).toBeVisible();
    await waitFor(() =>
      expect(within(main()).getAllByRole('link', { name: 'Request Blood Now' })).toHaveLength(2),
    );
    for (const link of within(main()).getAllByRole('link', { name: 'Request Blood Now' })) {
      expect(link).toHaveAttribute('href', '/emergency');
    }
  });
});
