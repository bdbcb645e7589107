import { MESSAGE_LANGUAGES } from '@bdms/shared';
import { describe, expect, it } from 'vitest';
import { PHONE_CODE_PURPOSES, renderPhoneCodeText } from './phone-code-sender';

/** The GSM 03.38 basic alphabet: a text of only these characters is 160 to a part. */
const GSM_7BIT =
  /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà]*$/;

describe('phone code SMS texts', () => {
  it.each(PHONE_CODE_PURPOSES)(
    '%s: in every message language with the code and its validity, English otherwise',
    (purpose) => {
      const texts = MESSAGE_LANGUAGES.map((language) =>
        renderPhoneCodeText(purpose, language, '482913'),
      );
      for (const [index, text] of texts.entries()) {
        expect(text, MESSAGE_LANGUAGES[index]).toMatch(/^482913 /);
        expect(text, MESSAGE_LANGUAGES[index]).toContain('10 ');
      }
      expect(new Set(texts).size).toBe(MESSAGE_LANGUAGES.length);
      expect(renderPhoneCodeText(purpose, 'hi', '482913')).toMatch(/[\u0900-\u097F]/);
      expect(renderPhoneCodeText(purpose, 'ta', '482913')).toMatch(/[\u0B80-\u0BFF]/);
      expect(renderPhoneCodeText(purpose, 'bn', '482913')).toMatch(/[\u0980-\u09FF]/);
      expect(renderPhoneCodeText(purpose, 'te', '482913')).toMatch(/[\u0C00-\u0C7F]/);
      expect(renderPhoneCodeText(purpose, 'fr', '482913')).toBe(
        renderPhoneCodeText(purpose, 'en', '482913'),
      );
      expect(renderPhoneCodeText(purpose, null, '482913')).toBe(
        renderPhoneCodeText(purpose, 'en', '482913'),
      );
    },
  );

  it.each(PHONE_CODE_PURPOSES)('%s: one SMS part in every language', (purpose) => {
    for (const language of ['en', 'es']) {
      const text = renderPhoneCodeText(purpose, language, '482913');
      // GSM 7-bit, so 160 characters a part (one accent outside it would make it Unicode: 70).
      expect(text, language).toMatch(GSM_7BIT);
      expect(text.length, language).toBeLessThanOrEqual(160);
    }
    for (const language of ['hi', 'bn', 'mr', 'te', 'ta']) {
      // Unicode SMS: 70 characters in a single part.
      expect(renderPhoneCodeText(purpose, language, '482913').length, language).toBeLessThanOrEqual(
        70,
      );
    }
  });

  it('says what the code is for', () => {
    expect(renderPhoneCodeText('login', 'en', '111111')).toContain('sign in');
    expect(renderPhoneCodeText('request_confirmation', 'en', '111111')).toContain(
      'emergency blood request',
    );
    expect(renderPhoneCodeText('phone_verification', 'en', '111111')).toContain('verify');
  });
});
