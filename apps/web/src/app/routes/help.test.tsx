import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fail, mockApi, ok, type MockRoute } from '../../test/api';
import { renderRoutes } from '../../test/render';
import { i18n } from '../../i18n';
import { FAQ_VOTES_STORAGE_KEY } from '../../features/education/lib/faq-votes';
import { EDUCATION, FAQS } from '../../features/education/test/fixtures';
import { routes } from '../router';

function renderHelp(server: Record<string, MockRoute> = {}, path = '/help') {
  const api = mockApi({
    [`GET ${EDUCATION}/faqs`]: ok({ items: FAQS }),
    [`POST ${EDUCATION}/faqs/how-to-register/feedback`]: (request) =>
      ok({
        id: 'how-to-register',
        helpfulCount: (request.body as { helpful: boolean }).helpful ? 5 : 4,
        notHelpfulCount: (request.body as { helpful: boolean }).helpful ? 1 : 2,
      }),
    ...server,
  });
  const rendered = renderRoutes(routes, { path });
  return { ...rendered, api, user: userEvent.setup() };
}

const question = (name: string | RegExp) => screen.getByRole('button', { name });
const questionItem = (name: string | RegExp) => question(name).closest('li') as HTMLElement;

describe('/help', () => {
  it('groups the questions by category, in the help centre order, with a way to contact us', async () => {
    renderHelp();
    expect(await screen.findByRole('heading', { level: 1, name: 'Help Center' })).toBeVisible();
    await screen.findByRole('button', { name: 'How do I register as a donor?' });
    const main = within(screen.getByRole('main'));
    expect(
      main.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent),
    ).toEqual(['Who can donate', 'Privacy and your data', 'Your account', 'Still need help?']);
    const account = screen.getByRole('region', { name: 'Your account' });
    expect(
      within(account)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['How do I register as a donor?', 'I forgot my password. What should I do?']);
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
  });

  it('opens and closes an answer, whose Markdown links stay in the app', async () => {
    const { user, router } = renderHelp();
    const button = await screen.findByRole('button', { name: 'How do I register as a donor?' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(panel).not.toBeVisible();

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toBeVisible();
    const link = within(panel).getByRole('link', { name: 'registration page' });
    expect(link).toHaveAttribute('href', '/register');
    expect(within(panel).getByText('Was this helpful?')).toBeVisible();

    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(panel).not.toBeVisible();
    expect(router.state.location.pathname).toBe('/help');
  });

  it('filters the questions as the visitor types, whatever the case, and keeps the search in the URL', async () => {
    const { user, router } = renderHelp();
    const search = await screen.findByRole('searchbox', { name: 'Search the questions' });
    await user.type(search, 'tattoo');
    expect(await screen.findByText('1 question matches “tattoo”.')).toBeVisible();
    expect(
      screen.getByRole('button', { name: 'Can I donate after getting a TATTOO?' }),
    ).toBeVisible();
    expect(
      screen.queryByRole('button', { name: 'How do I register as a donor?' }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your account' })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?q=tattoo');

    // Every word counts, in the answer too.
    await user.clear(search);
    await user.type(search, 'WHOLE blood 120');
    expect(await screen.findByText('1 question matches “WHOLE blood 120”.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'How often can I donate blood?' })).toBeVisible();
  });

  it('opens the question an address points at (#faq-<id>)', async () => {
    renderHelp({}, '/help#faq-tattoo-wait');
    expect(
      await screen.findByRole('button', { name: 'Can I donate after getting a TATTOO?' }),
    ).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Wait 12 months after a tattoo or piercing.')).toBeVisible();
    expect(question('How often can I donate blood?')).toHaveAttribute('aria-expanded', 'false');
  });

  it('says when nothing matches, and clearing the search shows every question again', async () => {
    const { user, router } = renderHelp({}, '/help?q=zebra');
    expect(await screen.findByText('No questions match “zebra”.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(
      await screen.findByRole('button', { name: 'How do I register as a donor?' }),
    ).toBeVisible();
    expect(router.state.location.search).toBe('');
  });

  it('records "Yes", thanks the visitor and does not ask again after a reload', async () => {
    const { user, api, unmount } = renderHelp();
    await user.click(await screen.findByRole('button', { name: 'How do I register as a donor?' }));
    const item = questionItem('How do I register as a donor?');
    await user.click(within(item).getByRole('button', { name: 'Yes' }));

    expect(await within(item).findByText('Thanks for your feedback.')).toHaveFocus();
    expect(within(item).queryByRole('button', { name: 'Yes' })).not.toBeInTheDocument();
    expect(within(item).queryByRole('button', { name: 'No' })).not.toBeInTheDocument();
    const calls = api.callsTo(`POST ${EDUCATION}/faqs/how-to-register/feedback`);
    expect(calls.map((call) => call.body)).toEqual([{ helpful: true }]);
    expect(JSON.parse(window.localStorage.getItem(FAQ_VOTES_STORAGE_KEY)!)).toEqual({
      'how-to-register': 'helpful',
    });

    // Another question still asks.
    await user.click(question('I forgot my password. What should I do?'));
    expect(
      within(questionItem('I forgot my password. What should I do?')).getByRole('button', {
        name: 'Yes',
      }),
    ).toBeVisible();

    unmount();
    const again = renderHelp();
    await again.user.click(
      await screen.findByRole('button', { name: 'How do I register as a donor?' }),
    );
    const reopened = questionItem('How do I register as a donor?');
    expect(within(reopened).getByText('Thanks for your feedback.')).toBeVisible();
    expect(within(reopened).queryByRole('button', { name: 'Yes' })).not.toBeInTheDocument();
  });

  it('records "No" too', async () => {
    const { user, api } = renderHelp();
    await user.click(await screen.findByRole('button', { name: 'How do I register as a donor?' }));
    await user.click(
      within(questionItem('How do I register as a donor?')).getByRole('button', { name: 'No' }),
    );
    expect(await screen.findByText('Thanks for your feedback.')).toBeVisible();
    expect(api.callsTo(`POST ${EDUCATION}/faqs/how-to-register/feedback`)[0]!.body).toEqual({
      helpful: false,
    });
  });

  it('keeps the buttons and says why when the vote is not recorded', async () => {
    const { user } = renderHelp({
      [`POST ${EDUCATION}/faqs/how-to-register/feedback`]: fail(429, 'RATE_LIMITED'),
    });
    await user.click(await screen.findByRole('button', { name: 'How do I register as a donor?' }));
    const item = questionItem('How do I register as a donor?');
    await user.click(within(item).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(within(item).getByRole('button', { name: 'Yes' })).toBeEnabled());
    expect(within(item).queryByText('Thanks for your feedback.')).not.toBeInTheDocument();
    expect(await screen.findByText(/too many/i)).toBeVisible();
    expect(window.localStorage.getItem(FAQ_VOTES_STORAGE_KEY)).toBeNull();
  });

  it('asks for the answers in Hindi and marks each English fallback lang="en"', async () => {
    await i18n.changeLanguage('hi');
    const { api, user } = renderHelp({
      [`GET ${EDUCATION}/faqs`]: (request) =>
        ok({
          items: FAQS.map((item) =>
            request.query.get('lang') === 'hi' && item.id === 'how-to-register'
              ? {
                  ...item,
                  question: 'मैं रक्तदाता के रूप में कैसे रजिस्टर करूँ?',
                  answer: '[रजिस्ट्रेशन पेज](/register) पर जाएँ।',
                  language: 'hi' as const,
                }
              : item,
          ),
        }),
    });
    const translated = await screen.findByRole('button', {
      name: 'मैं रक्तदाता के रूप में कैसे रजिस्टर करूँ?',
    });
    expect(api.callsTo(`GET ${EDUCATION}/faqs`)[0]!.query.get('lang')).toBe('hi');
    expect(within(translated).getByText(/रजिस्टर करूँ/)).toHaveAttribute('lang', 'hi');
    const fallback = within(
      screen.getByRole('button', { name: 'Who can see my phone number?' }),
    ).getByText('Who can see my phone number?');
    expect(fallback).toHaveAttribute('lang', 'en');
    expect(fallback).toHaveAttribute('dir', 'auto');
    await user.click(translated);
    expect(screen.getByRole('link', { name: 'रजिस्ट्रेशन पेज' }).closest('[lang]')).toHaveAttribute(
      'lang',
      'hi',
    );
  });

  it('names the categories in the visitor’s language', async () => {
    await i18n.changeLanguage('hi');
    renderHelp();
    expect(await screen.findByRole('heading', { level: 2, name: 'आपका खाता' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'कौन रक्तदान कर सकता है' })).toBeVisible();
  });
});
