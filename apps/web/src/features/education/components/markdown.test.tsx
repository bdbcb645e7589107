import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderRoutes } from '../../../test/render';
import { linkKind, MarkdownContent } from './markdown';

function renderMarkdown(markdown: string) {
  return renderRoutes([
    { path: '/', element: <MarkdownContent>{markdown}</MarkdownContent> },
    { path: '/privacy', element: <h1>Privacy page</h1> },
  ]);
}

/** Every attribute of every element rendered, as `name=value` strings. */
function allAttributes(container: HTMLElement): string[] {
  return [...container.querySelectorAll('*')].flatMap((element) =>
    [...element.attributes].map((attribute) => `${attribute.name}=${attribute.value}`),
  );
}

describe('MarkdownContent', () => {
  it('renders headings, lists, emphasis and paragraphs; ## is an h2 and # never an h1', async () => {
    renderMarkdown(
      '# Stray title\n\nIntro with **bold** and _care_.\n\n## Before you go\n\n- Eat\n- Drink water\n\n### Details\n\n1. One\n2. Two',
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'Before you go' })).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'Stray title' })).toBeVisible();
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Details' })).toBeVisible();
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getAllByRole('list')).toHaveLength(2);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Eat',
      'Drink water',
      'One',
      'Two',
    ]);
  });

  it('never renders raw HTML: <script>, <img onerror> and inline tags are dropped', async () => {
    const { container } = renderMarkdown(
      [
        'Before the script.',
        '',
        '<script>window.hacked = true</script>',
        '',
        '<img src=x onerror="window.hacked = true">',
        '',
        'Inline <b onclick="window.hacked = true">bold?</b> and <a href="javascript:alert(1)">raw link</a> end.',
        '',
        '<iframe src="https://evil.example"></iframe>',
      ].join('\n'),
    );
    await screen.findByText('Before the script.');
    for (const tag of ['script', 'img', 'iframe', 'b', 'a']) {
      expect(container.querySelector(tag), tag).toBeNull();
    }
    expect(allAttributes(container).filter((value) => /^on|javascript:/i.test(value))).toEqual([]);
    expect(container.textContent).not.toContain('window.hacked');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('neutralises javascript: and data: links, keeping their words as plain text', async () => {
    const { container } = renderMarkdown(
      [
        '[click me](javascript:alert(1))',
        '[shout](JAVASCRIPT:alert(1))',
        '[encoded](javascript&#58;alert(1))',
        '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
        '[vb](vbscript:msgbox(1))',
        '![tracker](https://tracker.example/pixel.png)',
      ].join('\n\n'),
    );
    expect(await screen.findByText('click me')).toBeVisible();
    for (const words of ['click me', 'shout', 'encoded', 'data', 'vb']) {
      expect(screen.getByText(words).closest('a'), words).toBeNull();
    }
    expect(screen.queryAllByRole('link')).toEqual([]);
    expect(container.querySelector('a, img, [href], [src]')).toBeNull();
  });

  it('sends links to pages of the app through the router, in the same tab', async () => {
    const { router } = renderMarkdown('Read the [privacy policy](/privacy) first.');
    const link = await screen.findByRole('link', { name: 'privacy policy' });
    expect(link).toHaveAttribute('href', '/privacy');
    expect(link).not.toHaveAttribute('target');
    await userEvent.setup().click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/privacy'));
    expect(await screen.findByRole('heading', { name: 'Privacy page' })).toBeVisible();
  });

  it('opens other sites in a new tab without an opener, and says so', async () => {
    renderMarkdown(
      'See the [WHO fact sheet](https://www.who.int/blood) and <https://nbtc.naco.gov.in/>.',
    );
    const link = await screen.findByRole('link', { name: 'WHO fact sheet (opens in a new tab)' });
    expect(link).toHaveAttribute('href', 'https://www.who.int/blood');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(
      screen.getByRole('link', { name: 'https://nbtc.naco.gov.in/ (opens in a new tab)' }),
    ).toHaveAttribute('target', '_blank');
  });

  it('keeps e-mail links as ordinary links', async () => {
    renderMarkdown('Write to support@example.org.');
    const link = await screen.findByRole('link', { name: 'support@example.org' });
    expect(link).toHaveAttribute('href', 'mailto:support@example.org');
    expect(link).not.toHaveAttribute('target');
  });

  it('puts tables in a box that scrolls sideways and can be reached by keyboard', async () => {
    renderMarkdown(
      "| Patient's type | Can receive from |\n| --- | --- |\n| O− | O− |\n| AB+ | All |",
    );
    const box = await screen.findByRole('group', { name: /scroll sideways/ });
    expect(box).toHaveAttribute('tabindex', '0');
    expect(box.className).toContain('overflow-x-auto');
    const table = within(box).getByRole('table');
    expect(within(table).getByRole('columnheader', { name: "Patient's type" })).toBeVisible();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });
});

describe('linkKind', () => {
  it('tells app paths, other sites and neutralised links apart', () => {
    expect(linkKind('/articles/x')).toBe('internal');
    expect(linkKind('//evil.example/x')).toBe('external');
    expect(linkKind('https://who.int')).toBe('external');
    expect(linkKind('mailto:a@b.c')).toBe('plain');
    expect(linkKind('')).toBe('none');
    expect(linkKind(undefined)).toBe('none');
  });
});
