import type { Faq } from '@bdms/shared';

/**
 * The help centre filters its few dozen FAQs on the device, as the visitor types: no round trip
 * on a slow network. Case, accents and Markdown link syntax do not matter, and every word typed
 * must appear somewhere in the question or the answer.
 */

/** Lower case, accents removed, `[words](/path)` read as its words. */
export function normalizeForSearch(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase()
    .replace(/\s+/g, ' ');
}

export function searchWords(query: string): string[] {
  return normalizeForSearch(query)
    .split(/[\s,.;:!?¿¡"'()]+/)
    .filter(Boolean);
}

export function filterFaqs(faqs: readonly Faq[], query: string): Faq[] {
  const words = searchWords(query);
  if (words.length === 0) return [...faqs];
  return faqs.filter((faq) => {
    const text = normalizeForSearch(`${faq.question} ${faq.answer}`);
    return words.every((word) => text.includes(word));
  });
}
