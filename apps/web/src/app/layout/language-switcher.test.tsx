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
  it('lists the ten languages by their own names', () => {
    renderHeader();
    const options = within(desktopLanguageSelect()).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(
      LANGUAGES.map((code) => LANGUAGE_NAMES[code]),
    );
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
  });
});
