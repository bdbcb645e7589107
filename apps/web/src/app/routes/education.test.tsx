import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRequest, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { i18n } from '../../i18n';
import {
  ARTICLES,
  CATEGORIES,
  EDUCATION,
  articleItem,
  articlePage,
} from '../../features/education/test/fixtures';
import { routes } from '../router';

/** The content list answers like the server: filtered by `q` (title) and `category`. */
function contentRoute(request: MockRequest) {
  const q = request.query.get('q')?.toLowerCase();
  const category = request.query.get('category');
  const items = ARTICLES.filter(
    (item) =>
      (!q || item.title.toLowerCase().includes(q)) && (!category || item.category === category),
  );
  return ok(articlePage(items, items.length, Number(request.query.get('page') ?? 1)));
}

function renderEducation(path = '/education', server: Record<string, MockRoute> = {}) {
  const api = mockApi({
    [`GET ${EDUCATION}/categories`]: ok(CATEGORIES),
    [`GET ${EDUCATION}/featured`]: ok([ARTICLES[0]]),
    [`GET ${EDUCATION}/popular`]: ok([ARTICLES[1], ARTICLES[0]]),
    [`GET ${EDUCATION}/content`]: contentRoute,
    ...server,
  });
  const rendered = renderRoutes(routes, { path });
  return { ...rendered, api, user: userEvent.setup() };
}

const searchBox = () =>
  screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search articles' });
/** The queries of the content list, without `lang` (checked on its own). */
const contentCalls = (api: ReturnType<typeof mockApi>) =>
  api
    .callsTo(`GET ${EDUCATION}/content`)
    .map((call) => Object.fromEntries([...call.query].filter(([key]) => key !== 'lang')));

describe('/education', () => {
  it('asks for every list in Hindi, searches Hindi words, and marks each English fallback', async () => {
    await i18n.changeLanguage('hi');
    const hindi = articleItem({ title: 'भारत में कौन रक्तदान कर सकता है', language: 'hi' });
    const { api, user } = renderEducation('/education', {
      [`GET ${EDUCATION}/featured`]: ok([hindi]),
      [`GET ${EDUCATION}/content`]: (request) =>
        ok(articlePage(request.query.get('q') === 'रक्तदान' ? [hindi] : [hindi, ARTICLES[1]!])),
    });
    const featured = await screen.findByRole('region', { name: 'चुनिंदा लेख' });
    const title = await within(featured).findByRole('link', {
      name: 'भारत में कौन रक्तदान कर सकता है',
    });
    expect(title.closest('[lang]')).toHaveAttribute('lang', 'hi');
    for (const route of ['featured', 'popular', 'content']) {
      expect(api.callsTo(`GET ${EDUCATION}/${route}`)[0]!.query.get('lang'), route).toBe('hi');
    }
    // The untranslated article is English on a Hindi page.
    const fallback = (await screen.findAllByText('Platelets, plasma and apheresis')).map((node) =>
      node.closest('[lang]'),
    );
    for (const node of fallback) {
      expect(node).toHaveAttribute('lang', 'en');
      expect(node).toHaveAttribute('dir', 'auto');
    }

    await user.type(screen.getByRole('searchbox'), 'रक्तदान{Enter}');
    await waitFor(() =>
      expect(api.callsTo(`GET ${EDUCATION}/content`).at(-1)!.query.get('q')).toBe('रक्तदान'),
    );
    expect(api.callsTo(`GET ${EDUCATION}/content`).at(-1)!.query.get('lang')).toBe('hi');
  });

  it('shows the topics with their counts, the featured and most read articles, and all articles', async () => {
    renderEducation();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Learn About Blood Donation' }),
    ).toBeVisible();
    const topics = await screen.findByRole('navigation', { name: 'Topics' });
    expect(within(topics).getByRole('link', { name: 'All topics (3 articles)' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(
      within(topics).getByRole('link', { name: 'Who can donate (2 articles)' }),
    ).toHaveAttribute('href', '/education?category=eligibility');

    const featured = screen.getByRole('region', { name: 'Featured articles' });
    expect(
      await within(featured).findByRole('link', { name: 'Who can donate blood in India' }),
    ).toHaveAttribute('href', '/articles/who-can-donate-blood-in-india');
    const popular = screen.getByRole('region', { name: 'Most read' });
    expect((await within(popular).findAllByRole('link')).map((link) => link.textContent)).toEqual([
      'Platelets, plasma and apheresis',
      'Who can donate blood in India',
    ]);

    const all = screen.getByRole('region', { name: 'All articles' });
    expect(await within(all).findByText('3 articles, newest first.')).toBeVisible();
    expect(within(all).getAllByRole('article')).toHaveLength(3);
  });

  it('searches on Enter, keeps the search and topic in the URL, and Back returns to each', async () => {
    const { user, api, router } = renderEducation();
    await screen.findByRole('region', { name: 'Featured articles' });
    await user.type(searchBox(), 'Platelets{Enter}');

    await waitFor(() => expect(router.state.location.search).toBe('?q=Platelets'));
    const results = await screen.findByRole('region', { name: 'Search results' });
    expect(await within(results).findByText('1 article matches “Platelets”.')).toBeVisible();
    expect(
      within(results).getByRole('link', { name: 'Platelets, plasma and apheresis' }),
    ).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Featured articles' })).not.toBeInTheDocument();
    expect(contentCalls(api).at(-1)).toEqual({ q: 'Platelets', page: '1', pageSize: '8' });

    // A topic narrows the same search.
    await user.click(
      screen.getByRole('link', { name: 'Platelets, plasma and components (1 article)' }),
    );
    await waitFor(() =>
      expect(router.state.location.search).toBe('?q=Platelets&category=components'),
    );
    expect(
      await screen.findByText('1 article in Platelets, plasma and components matches “Platelets”.'),
    ).toBeVisible();
    expect(contentCalls(api).at(-1)).toMatchObject({ q: 'Platelets', category: 'components' });

    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe('?q=Platelets'));
    expect(searchBox()).toHaveValue('Platelets');
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(searchBox().value).toBe(''));
    expect(await screen.findByRole('region', { name: 'Featured articles' })).toBeVisible();
  });

  it('searches with the button too, and an emptied search shows everything again', async () => {
    const { user, router } = renderEducation('/education?q=deferrals');
    expect(searchBox()).toHaveValue('deferrals');
    await user.clear(searchBox());
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('3 articles, newest first.')).toBeVisible();
  });

  it('opens a shared address with its search, topic and page', async () => {
    const { api } = renderEducation('/education?q=tattoo&category=eligibility&page=2', {
      [`GET ${EDUCATION}/content`]: ok(articlePage([articleItem()], 9, 2)),
    });
    expect(await screen.findByText('Page 2 of 2')).toBeVisible();
    expect(contentCalls(api)[0]).toEqual({
      q: 'tattoo',
      category: 'eligibility',
      page: '2',
      pageSize: '8',
    });
    expect(searchBox()).toHaveValue('tattoo');
    expect(screen.getByRole('link', { name: 'Who can donate (2 articles)' })).toHaveAttribute(
      'aria-current',
      'true',
    );
  });

  it('moves to the next page of articles through the URL', async () => {
    const { user, api, router } = renderEducation('/education', {
      [`GET ${EDUCATION}/content`]: (request) =>
        ok(articlePage(ARTICLES, 11, Number(request.query.get('page') ?? 1))),
    });
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(await screen.findByText('Page 2 of 2')).toBeVisible();
    expect(contentCalls(api).at(-1)).toMatchObject({ page: '2' });
  });

  it('says when no article matches, with a way back to all of them', async () => {
    const { user, router } = renderEducation('/education?q=zebra');
    expect(await screen.findByText('No articles match “zebra”.')).toBeVisible();
    await user.click(screen.getByRole('link', { name: 'Show all articles' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText('3 articles, newest first.')).toBeVisible();
  });

  it('shows a failed load with Try Again', async () => {
    let failures = 1;
    const { user } = renderEducation('/education', {
      [`GET ${EDUCATION}/content`]: (request) =>
        failures-- > 0 ? fail(503, 'SERVICE_UNAVAILABLE') : contentRoute(request),
    });
    const region = await screen.findByRole('region', { name: 'All articles' });
    expect(await within(region).findByRole('alert')).toBeVisible();
    await user.click(within(region).getByRole('button', { name: 'Try Again' }));
    expect(await within(region).findByText('3 articles, newest first.')).toBeVisible();
  });
});
