import { afterEach, describe, expect, it, vi } from 'vitest';
import { detectLanguage, isTranslated } from './index';

describe('detectLanguage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('prefers the stored choice', () => {
    window.localStorage.setItem('preferred-language', 'es');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['hi-IN']);
    expect(detectLanguage()).toBe('es');
  });

  it("falls back to the browser's language when it is supported", () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['hi-IN', 'en-GB']);
    expect(detectLanguage()).toBe('hi');
  });

  it('ignores unsupported stored values and browser languages, ending with English', () => {
    window.localStorage.setItem('preferred-language', 'klingon');
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['kn-IN', 'ml']);
    expect(detectLanguage()).toBe('en');
  });

  it.each([
    ['ta-IN', 'ta'],
    ['bn-IN', 'bn'],
    ['mr', 'mr'],
    ['te-IN', 'te'],
  ])('resolves the browser language %s to %s', (tag, expected) => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue([tag, 'en-IN']);
    expect(detectLanguage()).toBe(expected);
  });
});

describe('isTranslated', () => {
  it('is true for English, Spanish and Hindi, false for languages without a translation', () => {
    expect(['en', 'es', 'hi'].map(isTranslated)).toEqual([true, true, true]);
    expect(['ar', 'fr', 'ja', 'xx'].map(isTranslated)).toEqual([false, false, false, false]);
  });
});
