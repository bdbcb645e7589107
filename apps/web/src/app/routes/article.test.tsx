import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type MockReply, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { i18n } from '../../i18n';
import {
  ARTICLES,
  CATEGORIES,
  EDUCATION,
  article,
  articlePage,
} from '../../features/education/test/fixtures';
import { routes } from '../router';

const SLUG = 'who-can-donate-blood-in-india';

function renderArticle(server: Record<string, MockRoute> = {}, path = `/articles/${SLUG}`) {
  const api = mockApi({
    [`GET ${EDUCATION}/categories`]: ok(CATEGORIES),
    [`GET ${EDUCATION}/content/${SLUG}`]: ok(article()),
    [`GET ${EDUCATION}/content`]: (request) =>
      ok(articlePage(ARTICLES.filter((item) => item.category === request.query.get('category')))),
    ...server,
  });
  const rendered = renderRoutes(routes, { path });
  return { ...rendered, api, user: userEvent.setup() };
}

/** Catches the download link `saveFile` clicks. */
function catchDownloads() {
  vi.stubGlobal(
    'URL',
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:article'), revokeObjectURL: vi.fn() }),
  );
  const clicked: HTMLAnchorElement[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    clicked.push(this);
  });
  return clicked;
}

describe('/articles/:slug', () => {
  it('asks for the article in Hindi and shows it as Hindi text, without the English-only note', async () => {
    await i18n.changeLanguage('hi');
    const { api } = renderArticle({
      [`GET ${EDUCATION}/content/${SLUG}`]: (request) =>
        ok(
          request.query.get('lang') === 'hi'
            ? article({
                title: 'भारत में कौन रक्तदान कर सकता है',
                body: '## उम्र और वज़न\n\n18 से 65 साल।',
                language: 'hi',
              })
            : article(),
        ),
    });
    const title = await screen.findByRole('heading', {
      level: 1,
      name: 'भारत में कौन रक्तदान कर सकता है',
    });
    expect(title).toHaveAttribute('lang', 'hi');
    expect(title).not.toHaveAttribute('dir');
    expect(api.callsTo(`GET ${EDUCATION}/content/${SLUG}`)[0]!.query.get('lang')).toBe('hi');
    expect(
      screen.getByRole('heading', { level: 2, name: 'उम्र और वज़न' }).closest('[lang]'),
    ).toHaveAttribute('lang', 'hi');
    expect(screen.queryByText('यह सामग्री केवल अंग्रेज़ी में उपलब्ध है।')).not.toBeInTheDocument();
  });

  it('marks an untranslated article lang="en" dir="auto" for a Hindi reader, with the note', async () => {
    await i18n.changeLanguage('hi');
    renderArticle();
    const title = await screen.findByRole('heading', {
      level: 1,
      name: 'Who can donate blood in India',
    });
    expect(title).toHaveAttribute('lang', 'en');
    expect(title).toHaveAttribute('dir', 'auto');
    expect(await screen.findByText('यह सामग्री केवल अंग्रेज़ी में उपलब्ध है।')).toBeVisible();
  });

  it('shows the article with its headings, date, reading time and sources, and names the tab after it', async () => {
    renderArticle();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Who can donate blood in India' }),
    ).toBeVisible();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByText(/This article explains the rules that blood centres/)).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Age and weight' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Sources' })).toBeVisible();
    expect(
      screen.getByRole('link', { name: 'National Blood Transfusion Council (opens in a new tab)' }),
    ).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute(
      'href',
      '/privacy',
    );
    expect(screen.getByText('5 min read')).toBeVisible();
    expect(screen.getByText('Published 1 November 2026')).toHaveAttribute('datetime', '2026-11-01');

    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(
      within(breadcrumb).getByRole('link', { name: 'Learn About Blood Donation' }),
    ).toHaveAttribute('href', '/education');
    expect(await within(breadcrumb).findByRole('link', { name: 'Who can donate' })).toHaveAttribute(
      'href',
      '/education?category=eligibility',
    );

    await waitFor(() =>
      expect(document.title).toBe(
        'Who can donate blood in India · Blood Donation Management System',
      ),
    );
    expect(document.querySelector('meta[name="description"]')).toHaveAttribute(
      'content',
      'The age, weight and health rules for blood donors in India.',
    );
    expect(screen.queryByText('This text is available in English only.')).not.toBeInTheDocument();
  });

  it('suggests other articles of the same category, never the one being read', async () => {
    const { api } = renderArticle();
    const more = await screen.findByRole('region', { name: 'More in Who can donate' });
    expect(
      within(more)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Temporary and permanent deferrals']);
    expect(Object.fromEntries(api.callsTo(`GET ${EDUCATION}/content`)[0]!.query)).toMatchObject({
      category: 'eligibility',
    });
  });

  it('downloads the PDF, busy while it is made', async () => {
    const clicked = catchDownloads();
    let release: (reply: MockReply) => void = () => {};
    const { user, api } = renderArticle({
      [`POST ${EDUCATION}/content/a-1/download`]: () =>
        new Promise<MockReply>((resolve) => {
          release = resolve;
        }),
    });
    await user.click(await screen.findByRole('button', { name: 'Download PDF' }));
    const busy = await screen.findByRole('button', { name: 'Preparing the PDF...' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');

    release(ok('pdf'));
    expect(await screen.findByText('The PDF has been downloaded.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
    expect(api.callsTo(`POST ${EDUCATION}/content/a-1/download`)).toHaveLength(1);
    // The PDF is asked for in the reader's language.
    expect(api.callsTo(`POST ${EDUCATION}/content/a-1/download`)[0]!.query.get('lang')).toBe('en');
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe(`${SLUG}.pdf`);
    expect(clicked[0]!.href).toBe('blob:article');
  });

  it('says when the download fails, and the button can be pressed again', async () => {
    const clicked = catchDownloads();
    const { user } = renderArticle({
      [`POST ${EDUCATION}/content/a-1/download`]: fail(503, 'SERVICE_UNAVAILABLE'),
    });
    await user.click(await screen.findByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText(/^The PDF could not be downloaded\./)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
    expect(clicked).toHaveLength(0);
  });

  it('shows "Article not found" with the way back for an unknown slug', async () => {
    renderArticle({}, '/articles/no-such-article');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Article not found' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Browse all articles' })).toHaveAttribute(
      'href',
      '/education',
    );
    await waitFor(() =>
      expect(document.title).toBe('Article not found · Blood Donation Management System'),
    );
  });

  it('does not ask the server about an address that cannot be a slug', async () => {
    const { api } = renderArticle({}, '/articles/Not_A%20Slug');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Article not found' }),
    ).toBeVisible();
    expect(api.calls.filter((call) => call.path.startsWith(`${EDUCATION}/content/`))).toEqual([]);
  });

  it('offers Try Again when the article cannot be loaded', async () => {
    let failures = 1;
    const { user } = renderArticle({
      [`GET ${EDUCATION}/content/${SLUG}`]: () =>
        failures-- > 0 ? fail(503, 'SERVICE_UNAVAILABLE') : ok(article()),
    });
    expect(await screen.findByRole('alert')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Who can donate blood in India' }),
    ).toBeVisible();
  });
});
