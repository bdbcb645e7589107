import { describe, expect, it } from 'vitest';
import { DAY, STORAGE_KEYS } from '@bdms/shared';
import {
  isRestorablePath,
  planRestore,
  readAppState,
  saveAppState,
  shouldRestore,
  type AppStateStorage,
} from './app-state';

function memory(): AppStateStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
  };
}

const NOW = Date.parse('2026-05-01T10:00:00Z');

describe('session restoration of the installed app', () => {
  it('applies only standalone, when reloaded or opened without a referrer', () => {
    expect(shouldRestore({ isStandalone: true, navigationType: 'navigate', referrer: '' })).toBe(
      true,
    );
    expect(
      shouldRestore({
        isStandalone: true,
        navigationType: 'reload',
        referrer: 'https://x.example/',
      }),
    ).toBe(true);
    expect(
      shouldRestore({
        isStandalone: true,
        navigationType: 'navigate',
        referrer: 'https://x.example/',
      }),
    ).toBe(false);
    expect(shouldRestore({ isStandalone: false, navigationType: 'reload', referrer: '' })).toBe(
      false,
    );
  });

  it('saves {currentPath, timestamp, theme, language} under the app-state name', () => {
    const storage = memory();
    saveAppState(storage, { path: '/blood-banks?state=Goa', language: 'hi', now: NOW });
    expect(JSON.parse(storage.data.get(STORAGE_KEYS.appState)!)).toEqual({
      currentPath: '/blood-banks?state=Goa',
      timestamp: NOW,
      theme: 'light',
      language: 'hi',
    });
    expect(readAppState(storage, NOW + 1000)?.currentPath).toBe('/blood-banks?state=Goa');
  });

  it('never keeps sign-in pages or links with one-time tokens', () => {
    expect(isRestorablePath('/reset-password?token=abc')).toBe(false);
    expect(isRestorablePath('/login')).toBe(false);
    expect(isRestorablePath('/admin/login')).toBe(false);
    expect(isRestorablePath('//evil.example/')).toBe(false);
    expect(isRestorablePath('/donor/dashboard')).toBe(true);
    const storage = memory();
    saveAppState(storage, { path: '/reset-password?token=abc', language: 'en', now: NOW });
    expect(storage.data.size).toBe(0);
  });

  it('ignores a saved state that is too old, from the future or damaged', () => {
    const storage = memory();
    saveAppState(storage, { path: '/education', language: 'en', now: NOW });
    expect(readAppState(storage, NOW + DAY + 1)).toBeNull();
    expect(readAppState(storage, NOW - 1)).toBeNull();
    storage.setItem(STORAGE_KEYS.appState, '{"currentPath":');
    expect(readAppState(storage, NOW)).toBeNull();
    storage.setItem(
      STORAGE_KEYS.appState,
      JSON.stringify({ currentPath: 'https://evil.example', timestamp: NOW }),
    );
    expect(readAppState(storage, NOW)).toBeNull();
  });

  it('returns to the saved page from the start page, and its language when none is chosen', () => {
    const saved = {
      currentPath: '/donor/history',
      timestamp: NOW,
      theme: 'light' as const,
      language: 'hi',
    };
    expect(planRestore(saved, { currentPath: '/', storedLanguage: null })).toEqual({
      path: '/donor/history',
      language: 'hi',
    });
    // A reload keeps its own page; a chosen language stays.
    expect(planRestore(saved, { currentPath: '/education', storedLanguage: 'es' })).toEqual({
      path: null,
      language: null,
    });
    expect(planRestore(null, { currentPath: '/', storedLanguage: null })).toEqual({
      path: null,
      language: null,
    });
  });
});
