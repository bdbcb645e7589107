import { MESSAGE_LANGUAGES, type MessageLanguage } from '@bdms/shared';
import { describe, expect, it } from 'vitest';
import {
  NOTIFICATION_TEXT,
  NOTIFICATION_TYPES,
  documentTypeName,
  localDate,
  renderNotification,
} from './templates';

describe('notification templates', () => {
  it('has a title and message in every message language for every type, with the same placeholders', () => {
    expect(MESSAGE_LANGUAGES).toEqual(['en', 'es', 'hi', 'bn', 'mr', 'te', 'ta']);
    const placeholders = (value: string) =>
      [...value.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const type of NOTIFICATION_TYPES) {
      const en = NOTIFICATION_TEXT[type].en;
      for (const language of MESSAGE_LANGUAGES) {
        const text = NOTIFICATION_TEXT[type][language];
        expect(text.title, `${type} ${language}`).toBeTruthy();
        expect(text.message, `${type} ${language}`).toBeTruthy();
        expect(placeholders(text.title), `${type} ${language}`).toEqual(placeholders(en.title));
        expect(placeholders(text.message), `${type} ${language}`).toEqual(placeholders(en.message));
        if (language !== 'en') expect(text.message, `${type} ${language}`).not.toBe(en.message);
      }
    }
  });

  it('writes Bengali, Marathi, Telugu and Tamil in their own scripts, document names too', () => {
    const scripts: Partial<Record<MessageLanguage, RegExp>> = {
      bn: /[\u0980-\u09FF]/,
      mr: /[\u0900-\u097F]/,
      te: /[\u0C00-\u0C7F]/,
      ta: /[\u0B80-\u0BFF]/,
    };
    const params = { document: documentTypeName('medical_certificate'), reason: 'blurred' };
    for (const [language, script] of Object.entries(scripts)) {
      const text = renderNotification('document.rejected', language, params);
      expect(text.language).toBe(language);
      expect(text.title).toMatch(script);
      expect(text.message).toContain('blurred');
      expect(text.message).not.toContain('{');
      expect(documentTypeName('medical_certificate')(language as MessageLanguage)).toMatch(script);
    }
    expect(renderNotification('document.verified', 'ta', params).message).toBe(
      'உங்கள் மருத்துவச் சான்றிதழ் சரிபார்க்கப்பட்டது.',
    );
  });

  it("fills parameters in the recipient's language, English for other languages", () => {
    const params = { document: documentTypeName('id_proof'), reason: 'blurred' };
    expect(renderNotification('document.rejected', 'en', params).message).toBe(
      'Your ID proof was not accepted: blurred. Please upload it again.',
    );
    expect(renderNotification('document.rejected', 'es', params).message).toContain(
      'documento de identidad',
    );
    expect(renderNotification('document.rejected', 'hi', params).message).toContain('पहचान प्रमाण');
    expect(renderNotification('document.verified', 'fr', params)).toMatchObject({
      language: 'en',
      title: 'Document verified',
    });
  });

  it('writes dates as they are in India', () => {
    const date = localDate('2026-03-31T20:00:00Z');
    expect(date('en')).toBe('1 April 2026');
    expect(date('hi')).toContain('2026');
    // Latin digits in every language, like the other numbers of a message.
    expect(date('bn')).toBe('1 এপ্রিল, 2026');
    expect(date('mr')).toBe('1 एप्रिल, 2026');
    expect(date('ta')).toContain('1 ஏப்ரல்');
    expect(date('te')).toContain('2026');
  });
});
