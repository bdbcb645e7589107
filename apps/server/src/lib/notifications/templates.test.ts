import { describe, expect, it } from 'vitest';
import {
  NOTIFICATION_TEXT,
  NOTIFICATION_TYPES,
  documentTypeName,
  localDate,
  renderNotification,
} from './templates';

describe('notification templates', () => {
  it('has a title and message in English, Spanish and Hindi for every type', () => {
    for (const type of NOTIFICATION_TYPES) {
      for (const language of ['en', 'es', 'hi'] as const) {
        const text = NOTIFICATION_TEXT[type][language];
        expect(text.title, `${type} ${language}`).toBeTruthy();
        expect(text.message, `${type} ${language}`).toBeTruthy();
      }
      // The placeholders are the same in every language.
      const placeholders = (language: 'en' | 'es' | 'hi') =>
        [...NOTIFICATION_TEXT[type][language].message.matchAll(/\{(\w+)\}/g)]
          .map((m) => m[1])
          .sort();
      expect(placeholders('es'), type).toEqual(placeholders('en'));
      expect(placeholders('hi'), type).toEqual(placeholders('en'));
    }
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
  });
});
