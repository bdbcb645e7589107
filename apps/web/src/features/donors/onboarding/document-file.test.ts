import { describe, expect, it } from 'vitest';
import { checkDocumentFile } from './document-file';

const MB = 1024 * 1024;

describe('checkDocumentFile', () => {
  it('accepts PDF, JPEG, PNG and WebP up to 5 MB', () => {
    for (const type of ['application/pdf', 'image/jpeg', 'image/png', 'image/webp']) {
      expect(checkDocumentFile({ name: 'x', type, size: 5 * MB })).toBeNull();
    }
  });

  it('refuses more than 5 MB, saying how large the file is', () => {
    expect(checkDocumentFile({ name: 'a.pdf', type: 'application/pdf', size: 6 * MB })).toEqual({
      kind: 'tooLarge',
      sizeMb: 6,
    });
    expect(
      checkDocumentFile({ name: 'a.pdf', type: 'application/pdf', size: 5 * MB + 1 }),
    ).toMatchObject({ kind: 'tooLarge' });
  });

  it('refuses other types, and empty files', () => {
    expect(checkDocumentFile({ name: 'a.gif', type: 'image/gif', size: 10 })).toEqual({
      kind: 'type',
    });
    expect(checkDocumentFile({ name: 'a.pdf', type: 'application/pdf', size: 0 })).toEqual({
      kind: 'empty',
    });
  });

  it('goes by the name when the phone gives no type', () => {
    expect(checkDocumentFile({ name: 'scan.JPG', type: '', size: 10 })).toBeNull();
    expect(checkDocumentFile({ name: 'scan.heic', type: '', size: 10 })).toEqual({ kind: 'type' });
  });
});
