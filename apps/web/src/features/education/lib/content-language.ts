import { useTranslation } from 'react-i18next';
import { contentLanguageOf, type ContentLanguage } from '@bdms/shared';

/**
 * The articles, answers and policies are written in English and translated, entry by entry,
 * into Spanish and Hindi (apps/server/content). The server answers each entry in the reader's
 * language when it can, else in English, and says which in the entry's `language`.
 */

/**
 * The reader's language: the page's (`<html lang>`), also while its texts fall back to English
 * (`fr`).
 */
export function useReaderLanguage(): string {
  const { i18n } = useTranslation();
  return i18n.language;
}

/**
 * The content language to ask the server for: the reader's when the content is written in it,
 * else English (so `fr`, `de`… readers share the English replies and caches).
 */
export function useContentLanguage(): ContentLanguage {
  return contentLanguageOf(useReaderLanguage());
}

export interface TextLanguageProps {
  lang: string;
  dir?: 'auto';
}

/**
 * The attributes of an entry's text: `lang` is the language it is written in, so a screen reader
 * reads an English fallback with an English voice on a Hindi page. Text in another language than
 * the page's also gets `dir="auto"`: a left-to-right fallback on a right-to-left page sets its
 * own direction.
 */
export function textLanguageProps(
  textLanguage: ContentLanguage,
  readerLanguage: string,
): TextLanguageProps {
  return textLanguage === readerLanguage
    ? { lang: textLanguage }
    : { lang: textLanguage, dir: 'auto' };
}

/** `textLanguageProps` for the current reader. */
export function useTextLanguage(textLanguage: ContentLanguage): TextLanguageProps {
  return textLanguageProps(textLanguage, useReaderLanguage());
}

/** Whether this text is an English fallback for a reader of another language. */
export function useIsEnglishFallback(textLanguage: ContentLanguage): boolean {
  const readerLanguage = useReaderLanguage();
  return textLanguage === 'en' && readerLanguage !== 'en';
}
