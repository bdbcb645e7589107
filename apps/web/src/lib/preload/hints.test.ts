import { describe, expect, it } from 'vitest';
import { PWA_STORAGE_KEYS } from '@bdms/shared';
import { MAX_HINTED_PAGES, hintsFor, normalisePath, readHints, recordNavigation } from './hints';

function memory() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

describe('next-page hints', () => {
  it("start with the spec's table: only the first 2 are queued on load", () => {
    expect(hintsFor('/', {})).toEqual(['/emergency', '/login']);
    expect(hintsFor('/login', {})).toEqual(['/donor/dashboard']);
    expect(hintsFor('/register', {})).toEqual(['/donor/onboarding']);
    expect(hintsFor('/emergency', {})).toEqual(['/login', '/register']);
    expect(hintsFor('/about', {})).toEqual([]);
  });

  it('learn observed navigations, most recent first, at most 3 per page', () => {
    const storage = memory();
    recordNavigation(storage, '/education', '/articles/a');
    recordNavigation(storage, '/education', '/articles/b');
    recordNavigation(storage, '/education', '/articles/c');
    recordNavigation(storage, '/education', '/articles/d');
    recordNavigation(storage, '/education/', '/articles/b?from=list');
    expect(readHints(storage)['/education']).toEqual(['/articles/b', '/articles/d', '/articles/c']);
    expect(JSON.parse(storage.data.get(PWA_STORAGE_KEYS.preloadHints)!)).toEqual({
      '/education': ['/articles/b', '/articles/d', '/articles/c'],
    });
    expect(hintsFor('/education', readHints(storage))).toEqual(['/articles/b', '/articles/d']);
  });

  it('put learned pages before the table', () => {
    const storage = memory();
    recordNavigation(storage, '/', '/education');
    expect(hintsFor('/', readHints(storage))).toEqual(['/education', '/emergency']);
  });

  it('keep the record small and survive damaged storage', () => {
    const storage = memory();
    for (let index = 0; index < MAX_HINTED_PAGES + 10; index++) {
      recordNavigation(storage, `/page-${index}`, '/');
    }
    const hints = readHints(storage);
    expect(Object.keys(hints)).toHaveLength(MAX_HINTED_PAGES);
    expect(hints['/page-0']).toBeUndefined();
    storage.setItem(PWA_STORAGE_KEYS.preloadHints, '[1,2');
    expect(readHints(storage)).toEqual({});
    expect(normalisePath('/a/b/?x#y')).toBe('/a/b');
  });
});
