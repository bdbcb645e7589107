import { MESSAGE_LANGUAGES } from '@bdms/shared';
import { describe, expect, it } from 'vitest';
import { renderPhoneCodeText } from './phone-code-sender';

describe('phone-change SMS text', () => {
  it('is written in every message language with the code and its validity, English otherwise', () => {
    const texts = MESSAGE_LANGUAGES.map((language) => renderPhoneCodeText(language, '482913'));
    for (const [index, text] of texts.entries()) {
      expect(text, MESSAGE_LANGUAGES[index]).toMatch(/^482913 /);
      expect(text, MESSAGE_LANGUAGES[index]).toContain('10 ');
    }
    // Indian scripts make a Unicode SMS: 67 characters a part once split; two parts at most.
    for (const language of ['hi', 'bn', 'mr', 'te', 'ta']) {
      expect(renderPhoneCodeText(language, '482913').length, language).toBeLessThanOrEqual(134);
    }
    expect(new Set(texts).size).toBe(MESSAGE_LANGUAGES.length);
    expect(renderPhoneCodeText('ta', '482913')).toMatch(/[\u0B80-\u0BFF]/);
    expect(renderPhoneCodeText('bn', '482913')).toMatch(/[\u0980-\u09FF]/);
    expect(renderPhoneCodeText('te', '482913')).toMatch(/[\u0C00-\u0C7F]/);
    expect(renderPhoneCodeText('fr', '482913')).toBe(renderPhoneCodeText('en', '482913'));
  });
});
