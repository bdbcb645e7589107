import { describe, expect, it } from 'vitest';
import type { Faq } from '@bdms/shared';
import { filterFaqs, normalizeForSearch } from './faq-search';

const faq = (id: string, question: string, answer: string): Faq => ({
  id,
  question,
  answer,
  category: 'account',
  helpfulCount: 0,
  notHelpfulCount: 0,
  language: 'en',
});

const FAQS = [
  faq(
    'password',
    'I forgot my password. What should I do?',
    'Use [Forgot password](/forgot-password).',
  ),
  faq('tattoo', 'Can I donate after a tattoo?', 'Wait 12 months after a tattoo or piercing.'),
  faq('privacy', 'Who can see my phone number?', 'Nobody: read the [privacy policy](/privacy).'),
];

describe('filterFaqs', () => {
  it('ignores case and accents, and needs every word', () => {
    expect(filterFaqs(FAQS, 'TATTOO').map((item) => item.id)).toEqual(['tattoo']);
    expect(filterFaqs(FAQS, 'tättoo piercing').map((item) => item.id)).toEqual(['tattoo']);
    expect(filterFaqs(FAQS, 'tattoo password')).toEqual([]);
  });

  it('searches the words of Markdown links, not their addresses', () => {
    expect(filterFaqs(FAQS, 'privacy policy').map((item) => item.id)).toEqual(['privacy']);
    expect(filterFaqs(FAQS, 'forgot-password')).toEqual([]);
  });

  it('returns everything for an empty or blank search', () => {
    expect(filterFaqs(FAQS, '   ')).toHaveLength(3);
  });

  it('normalises text', () => {
    expect(normalizeForSearch('  Thalassaemia  ÉTÉ [x](/y) ')).toBe(' thalassaemia ete x ');
  });
});
