import { describe, expect, it } from 'vitest';
import {
  renderPhoneAlert,
  renderReplyAnswer,
  renderRequesterText,
  fitsOneSms,
  replyIntent,
} from './phone-texts';
import { localDate } from '../templates';
import { quietHoursEnd } from './phone-rules';
import { smsLength } from './smpp-client';

const LANGUAGES = ['en', 'es', 'hi', 'bn', 'mr', 'te', 'ta'] as const;
const URGENCY = {
  en: 'Critical',
  es: 'Crítico',
  hi: 'गंभीर',
  bn: 'সংকটজনক',
  mr: 'गंभीर',
  te: 'ప్రాణాపాయం',
  ta: 'மிக அவசரம்',
};

describe('renderPhoneAlert', () => {
  it.each(LANGUAGES)(
    'fits one SMS in %s, even with a long hospital name, and keeps the link',
    (language) => {
      const link = 'https://rakt.example.in/r/Ab3dEf7h';
      for (const hospital of [
        'Gandhi Hospital',
        'Nizam’s Institute of Medical Sciences Super Speciality Block, Punjagutta',
      ]) {
        const text = renderPhoneAlert(
          'blood_request.match',
          language,
          {
            urgency: (lang) => URGENCY[lang as keyof typeof URGENCY],
            bloodType: 'AB+',
            units: '2',
            hospital,
            city: 'Hyderabad',
            distance: '12',
          },
          link,
        );
        expect(text).not.toBeNull();
        expect(
          fitsOneSms(text!),
          `${language}: ${text} (${JSON.stringify(smsLength(text!))})`,
        ).toBe(true);
        expect(text).toContain(link);
        expect(text).toContain('AB+');
      }
    },
  );

  it('carries only donor alerts', () => {
    expect(renderPhoneAlert('donor.approved', 'en', {}, 'https://x.in/r/a')).toBeNull();
  });

  it('writes Hindi as Unicode (70 a message) and English in GSM-7 (160)', () => {
    const params = {
      urgency: 'Critical',
      bloodType: 'O-',
      units: '1',
      hospital: 'Gandhi Hospital',
      city: 'Secunderabad',
      distance: '4',
    };
    const en = renderPhoneAlert(
      'blood_request.match',
      'en',
      params,
      'https://rakt.example.in/r/Ab3dEf7h',
    )!;
    const hi = renderPhoneAlert(
      'blood_request.match',
      'hi',
      { ...params, urgency: 'गंभीर' },
      'https://rakt.example.in/r/Ab3dEf7h',
    )!;
    expect(smsLength(en)).toMatchObject({ encoding: 'gsm7', limit: 160 });
    expect(en).toContain('Gandhi Hospital');
    expect(smsLength(hi)).toMatchObject({ encoding: 'ucs2', limit: 70 });
  });
});

describe('renderRequesterText', () => {
  const link = 'https://rakt.example.in/r/Ab3dEf7h';
  const code = 'K7M2P9QX';
  for (const kind of ['request_received', 'donor_coming'] as const) {
    it.each(LANGUAGES)(
      `${kind}: one SMS part in %s with words, the code and the link`,
      (language) => {
        const text = renderRequesterText(kind, language, { code, link });
        const length = smsLength(text);
        expect(fitsOneSms(text), `${language}: ${text} (${JSON.stringify(length)})`).toBe(true);
        // GSM-7 (160) for English and Spanish (no accents), Unicode (70) for the Indian scripts.
        expect(length.encoding).toBe(language === 'en' || language === 'es' ? 'gsm7' : 'ucs2');
        expect(text).toContain(code);
        expect(text).toContain(link);
        // Not the bare fallback: the person reads what happened in their language.
        expect(text).not.toBe(`${code} ${link}`);
        expect(text.replace(code, '').replace(link, '')).toMatch(/[\p{L}\p{M}]{3}/u);
      },
    );
  }

  it('tells the two messages apart and falls back to the code and the link for a very long URL', () => {
    expect(renderRequesterText('request_received', 'en', { code, link })).toMatch(/received/);
    expect(renderRequesterText('donor_coming', 'en', { code, link })).toMatch(/donor/);
    const long = `https://${'a'.repeat(60)}.example.in/r/Ab3dEf7h`;
    expect(renderRequesterText('donor_coming', 'hi', { code, link: long })).toBe(`${code} ${long}`);
  });
});

describe('replyIntent', () => {
  it('reads YES/1, NO/2 and STOP in any case, and nothing else', () => {
    expect(['YES', 'yes', ' Yes. ', '1', 'haan', 'हाँ'].map(replyIntent)).toEqual(
      Array(6).fill('accept'),
    );
    expect(['NO', 'n', '2', 'नहीं'].map(replyIntent)).toEqual(Array(4).fill('decline'));
    expect(['STOP', 'stop', 'Stop all', 'unsubscribe'].map(replyIntent)).toEqual(
      Array(4).fill('stop'),
    );
    expect(['yes please', '12', 'stopp', ''].map(replyIntent)).toEqual(Array(4).fill('unknown'));
  });

  it('answers in every message language', () => {
    for (const language of LANGUAGES) {
      expect(renderReplyAnswer('late', language).length).toBeGreaterThan(20);
      expect(
        renderReplyAnswer('accepted', language, {
          contactName: 'Ravi',
          contactPhone: '+919800000000',
          hospital: 'Gandhi',
          address: 'Musheerabad',
          link: 'https://x.in/r/a',
        }),
      ).toContain('+919800000000');
    }
  });

  it('says why an accept was refused in every language, within one submit_sm (issue #32 item 2)', () => {
    const REFUSED = {
      en: 'cannot give blood',
      es: 'no puedes donar',
      hi: 'रक्तदान नहीं कर सकते',
      bn: 'রক্ত দিতে পারবেন না',
      mr: 'रक्तदान करू शकत नाही',
      te: 'రక్తదానం చేయలేరు',
      ta: 'இரத்த தானம் செய்ய முடியாது',
    };
    for (const language of LANGUAGES) {
      // One of the longest month names, as localDate writes it in the donor's language.
      const until = localDate('2027-09-28T00:00:00+05:30')(language);
      const withDate = renderReplyAnswer('not_eligible', language, { until });
      const without = renderReplyAnswer('not_eligible', language);
      for (const text of [withDate, without]) {
        expect(text).toContain(REFUSED[language]);
        // short_message holds 254 octets: 254 GSM-7 characters or 127 UCS-2 ones.
        const { encoding, used } = smsLength(text);
        expect(used, `${language}: ${text}`).toBeLessThanOrEqual(encoding === 'gsm7' ? 254 : 127);
      }
      expect(withDate).toContain(until);
      expect(without).not.toContain('undefined');
    }
  });
});

describe('quietHoursEnd (Asia/Kolkata)', () => {
  it('holds 22:00–07:00 India time until 07:00, across the UTC date line', () => {
    // 02:00 IST on 26 Nov is 20:30 UTC on 25 Nov: waits until 07:00 IST on 26 Nov.
    expect(quietHoursEnd(new Date('2026-11-26T02:00:00+05:30'))?.toISOString()).toBe(
      '2026-11-26T01:30:00.000Z',
    );
    // 00:10 IST, 05:29 IST: still the same Indian morning.
    expect(quietHoursEnd(new Date('2026-11-26T00:10:00+05:30'))?.toISOString()).toBe(
      '2026-11-26T01:30:00.000Z',
    );
    expect(quietHoursEnd(new Date('2026-11-26T05:29:00+05:30'))?.toISOString()).toBe(
      '2026-11-26T01:30:00.000Z',
    );
    // 22:00 IST: the next Indian morning.
    expect(quietHoursEnd(new Date('2026-11-25T22:00:00+05:30'))?.toISOString()).toBe(
      '2026-11-26T01:30:00.000Z',
    );
    expect(quietHoursEnd(new Date('2026-11-26T07:00:00+05:30'))).toBeNull();
    expect(quietHoursEnd(new Date('2026-11-26T21:59:59+05:30'))).toBeNull();
  });
});
