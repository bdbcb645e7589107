import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LANGUAGE_NAMES, LANGUAGES } from '@bdms/shared';
import { renderRoutes } from '../../test/render';
import { Header } from './header';

function renderHeader() {
  return renderRoutes([{ path: '/', element: <Header /> }]);
}

function desktopLanguageSelect() {
  // The first switcher is the header bar's; the menu panel has its own when open.
  return screen.getAllByRole('combobox', { name: 'Language' })[0]!;
}

describe('language switcher', () => {
  it('lists the languages by their own names', () => {
    renderHeader();
    const options = within(desktopLanguageSelect()).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(
      LANGUAGES.map((code) => LANGUAGE_NAMES[code]),
    );
  });

  it("offers the spec's ten languages and Bengali, Marathi, Telugu and Tamil, each in its own name and script", () => {
    renderHeader();
    const options = within(desktopLanguageSelect()).getAllByRole('option');
    const byValue = new Map(
      options.map((option) => [
        option.getAttribute('value'),
        { name: option.textContent, lang: option.getAttribute('lang') },
      ]),
    );
    for (const [code, name] of [
      ['en', 'English'],
      ['es', 'Español'],
      ['fr', 'Français'],
      ['de', 'Deutsch'],
      ['hi', 'हिन्दी'],
      ['ar', 'العربية'],
      ['zh', '中文'],
      ['pt', 'Português'],
      ['ru', 'Русский'],
      ['ja', '日本語'],
      ['bn', 'বাংলা'],
      ['mr', 'मराठी'],
      ['te', 'తెలుగు'],
      ['ta', 'தமிழ்'],
    ] as const) {
      expect(byValue.get(code), code).toEqual({ name, lang: code });
    }
    expect(options).toHaveLength(14);
  });

  it('sets lang="ta" on the page for Tamil, left to right', async () => {
    renderHeader();
    await userEvent.selectOptions(desktopLanguageSelect(), 'ta');

    await waitFor(() => expect(document.documentElement).toHaveAttribute('lang', 'ta'));
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    // English fallback text (all of it, until the Tamil files land) is never laid out RTL.
    expect(document.body).not.toHaveAttribute('dir', 'rtl');
    expect(window.localStorage.getItem('preferred-language')).toBe('ta');
  });

  it('switches the header to Hindi and remembers the choice', async () => {
    renderHeader();
    await userEvent.selectOptions(desktopLanguageSelect(), 'hi');

    expect(await screen.findByRole('link', { name: 'साइन इन करें' })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(screen.getByRole('link', { name: 'हमारे बारे में' })).toHaveAttribute('href', '/about');
    expect(screen.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem('preferred-language')).toBe('hi');
    expect(document.documentElement).toHaveAttribute('lang', 'hi');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('sets right-to-left direction for Arabic, with English text as the fallback', async () => {
    renderHeader();
    await userEvent.selectOptions(desktopLanguageSelect(), 'ar');

    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'rtl'));
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(screen.getByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    expect(window.localStorage.getItem('preferred-language')).toBe('ar');
    // No Arabic text exists: everything shown is English, marked and laid out as such.
    expect(document.body).toHaveAttribute('lang', 'en');
    expect(document.body).toHaveAttribute('dir', 'ltr');
    expect(screen.getByRole('link', { name: 'Sign In' }).closest('[lang]')).toBe(document.body);

    // Back to a translated language: the body no longer claims English.
    await userEvent.selectOptions(desktopLanguageSelect(), 'hi');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'));
    expect(document.body).not.toHaveAttribute('lang');
    expect(document.body).not.toHaveAttribute('dir');
  });
});
