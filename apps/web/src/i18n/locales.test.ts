import { describe, expect, it } from 'vitest';
import { APP_NAME, TRANSLATED_LANGUAGES } from '@bdms/shared';
import { EN_RESOURCES, NAMESPACES } from './resources';

const files = import.meta.glob<Record<string, unknown>>('./locales/*/*.json', {
  eager: true,
  import: 'default',
});

function load(language: string, namespace: string): Record<string, unknown> {
  const file = files[`./locales/${language}/${namespace}.json`];
  if (!file) throw new Error(`Missing locales/${language}/${namespace}.json`);
  return file;
}

/** "a.b.c" → value, for every leaf. */
function flatten(value: unknown, prefix = ''): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      for (const [path, leaf] of flatten(child, prefix ? `${prefix}.${key}` : key))
        leaves.set(path, leaf);
    }
  } else {
    leaves.set(prefix, value);
  }
  return leaves;
}

function placeholders(text: unknown): string[] {
  return [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!).sort();
}

/** Complete from the start; the other translated languages are checked once their files land. */
const REQUIRED_LANGUAGES = ['en', 'es', 'hi'] as const;
const PRESENT_LANGUAGES = TRANSLATED_LANGUAGES.filter(
  (language) =>
    (REQUIRED_LANGUAGES as readonly string[]).includes(language) ||
    Object.keys(files).some((path) => path.startsWith(`./locales/${language}/`)),
);
const OTHER_LANGUAGES = PRESENT_LANGUAGES.filter((language) => language !== 'en');

describe('translations', () => {
  it('has a file per namespace for en, es, hi and every translation that has begun, and none for other languages', () => {
    const expected = PRESENT_LANGUAGES.flatMap((language) =>
      NAMESPACES.map((namespace) => `./locales/${language}/${namespace}.json`),
    ).sort();
    expect(Object.keys(files).sort()).toEqual(expected);
  });

  describe.each(NAMESPACES)('namespace %s', (namespace) => {
    const english = flatten(load('en', namespace));

    it.each(OTHER_LANGUAGES)('%s has exactly the English keys', (language) => {
      const translated = flatten(load(language, namespace));
      expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
    });

    it.each(PRESENT_LANGUAGES)('%s has no empty value', (language) => {
      for (const [key, value] of flatten(load(language, namespace))) {
        expect(
          typeof value === 'string' && value.trim() !== '',
          `${language}/${namespace}: ${key}`,
        ).toBe(true);
      }
    });

    it.each(OTHER_LANGUAGES)('%s keeps every {{placeholder}} of the English text', (language) => {
      const translated = flatten(load(language, namespace));
      for (const [key, value] of english) {
        expect(placeholders(translated.get(key)), `${language}/${namespace}: ${key}`).toEqual(
          placeholders(value),
        );
      }
    });
  });

  it('is not an English copy: most texts of every translation differ from English', () => {
    for (const language of OTHER_LANGUAGES) {
      let same = 0;
      let total = 0;
      for (const namespace of NAMESPACES) {
        const translated = flatten(load(language, namespace));
        for (const [key, value] of flatten(load('en', namespace))) {
          total += 1;
          if (translated.get(key) === value) same += 1;
        }
      }
      expect(same / total, language).toBeLessThan(0.1);
    }
  });

  it('names the app as the product does in English', () => {
    expect(EN_RESOURCES.common.appName).toBe(APP_NAME);
  });
});
