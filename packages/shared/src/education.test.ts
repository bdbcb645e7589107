import { describe, expect, it } from 'vitest';
import {
  contactMessageSchema,
  contentIdOrSlugParamsSchema,
  contentLanguageOf,
  contentLanguageQuerySchema,
  educationContentQuerySchema,
  faqFeedbackSchema,
  featuredQuerySchema,
  popularQuerySchema,
} from './education';

const MESSAGE = {
  name: '  Asha Verma ',
  email: ' Asha@Example.ORG ',
  subject: 'Hosting a camp',
  message: 'Can our college host a blood donation camp?\nThanks.',
};

describe('contactMessageSchema', () => {
  it('trims the fields and lower-cases the address', () => {
    expect(contactMessageSchema.parse(MESSAGE)).toEqual({
      name: 'Asha Verma',
      email: 'asha@example.org',
      subject: 'Hosting a camp',
      message: 'Can our college host a blood donation camp?\nThanks.',
    });
  });

  it('refuses line breaks in the subject and control characters anywhere', () => {
    expect(contactMessageSchema.safeParse({ ...MESSAGE, subject: 'Hi\nBcc: x@y.z' }).success).toBe(
      false,
    );
    expect(
      contactMessageSchema.safeParse({ ...MESSAGE, message: 'Ten chars \u0000 here' }).success,
    ).toBe(false);
    expect(contactMessageSchema.safeParse({ ...MESSAGE, message: 'x'.repeat(5001) }).success).toBe(
      false,
    );
  });
});

describe('education query schemas', () => {
  it('default featured to 3 and popular to 5, with caps', () => {
    expect(featuredQuerySchema.parse({})).toEqual({ limit: 3, lang: 'en' });
    expect(popularQuerySchema.parse({})).toEqual({ limit: 5, lang: 'en' });
    expect(featuredQuerySchema.safeParse({ limit: '13' }).success).toBe(false);
  });

  it('paginates articles like every list', () => {
    expect(educationContentQuerySchema.parse({})).toEqual({ page: 1, pageSize: 20, lang: 'en' });
    expect(educationContentQuerySchema.safeParse({ pageSize: '101' }).success).toBe(false);
  });

  it('reads lang as a content language: a served one or its tag, else English, never an error', () => {
    expect(contentLanguageOf('hi')).toBe('hi');
    expect(contentLanguageOf(' HI-in ')).toBe('hi');
    expect(contentLanguageOf('es_MX')).toBe('es');
    for (const other of ['fr', 'ar', '', 'hindi', undefined, null]) {
      expect(contentLanguageOf(other)).toBe('en');
    }
    expect(contentLanguageQuerySchema.parse({ lang: 'hi-IN' })).toEqual({ lang: 'hi' });
    expect(contentLanguageQuerySchema.parse({ lang: 'xx' })).toEqual({ lang: 'en' });
    expect(contentLanguageQuerySchema.safeParse({ lang: 'x'.repeat(36) }).success).toBe(false);
  });

  it('takes an article id or slug for downloads, and a strict feedback body', () => {
    expect(
      contentIdOrSlugParamsSchema.parse({ id: '3F1E2D3C-0000-4000-8000-000000000000' }).id,
    ).toBe('3f1e2d3c-0000-4000-8000-000000000000');
    expect(contentIdOrSlugParamsSchema.safeParse({ id: 'not valid' }).success).toBe(false);
    expect(faqFeedbackSchema.safeParse({ helpful: true, extra: 1 }).success).toBe(false);
  });
});
