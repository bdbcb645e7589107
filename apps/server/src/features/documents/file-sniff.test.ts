import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../../lib/content-disposition';
import { SAMPLE_FILES } from '../../test/donor-helpers';
import { findActiveContent, sanitizeFileName, sniffMimeType } from './file-sniff';

describe('sniffMimeType', () => {
  it('recognises PDF, JPEG, PNG and WebP by their first bytes only', () => {
    expect(sniffMimeType(SAMPLE_FILES.pdf)).toBe('application/pdf');
    expect(sniffMimeType(SAMPLE_FILES.jpeg)).toBe('image/jpeg');
    expect(sniffMimeType(SAMPLE_FILES.png)).toBe('image/png');
    expect(sniffMimeType(SAMPLE_FILES.webp)).toBe('image/webp');
  });

  it('refuses everything else, including near misses', () => {
    expect(sniffMimeType(SAMPLE_FILES.html)).toBeNull();
    expect(sniffMimeType(Buffer.alloc(0))).toBeNull();
    expect(sniffMimeType(Buffer.from('%PDF'))).toBeNull();
    expect(sniffMimeType(Buffer.from(' %PDF-1.7'))).toBeNull();
    expect(sniffMimeType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(sniffMimeType(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(sniffMimeType(Buffer.from('GIF89a'))).toBeNull();
  });
});

describe('sanitizeFileName', () => {
  it('drops folders, control and bidi characters, and quotes', () => {
    expect(sanitizeFileName('..\\..\\win\\x.pdf', 'application/pdf')).toBe('x.pdf');
    expect(sanitizeFileName('a\u0000b\r\n"c".pdf', 'application/pdf')).toBe('abc.pdf');
    expect(sanitizeFileName('invoice\u202Efdp.exe', 'application/pdf')).toBe('invoicefdp.exe.pdf');
    expect(sanitizeFileName('...hidden.png', 'image/png')).toBe('hidden.png');
  });

  it('makes the extension match the real content and names nameless files', () => {
    expect(sanitizeFileName('photo.JPEG', 'image/jpeg')).toBe('photo.JPEG');
    expect(sanitizeFileName('photo.png', 'image/jpeg')).toBe('photo.png.jpg');
    expect(sanitizeFileName(undefined, 'image/webp')).toBe('document.webp');
    expect(sanitizeFileName('   ', 'application/pdf')).toBe('document.pdf');
  });

  it('keeps names at most 120 characters, extension included', () => {
    const name = sanitizeFileName(`${'a'.repeat(300)}.pdf`, 'application/pdf');
    expect(name).toHaveLength(120);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('findActiveContent', () => {
  it('finds web pages, scripts and PDF actions hidden in a file (polyglots)', () => {
    const found = (text: string) =>
      findActiveContent(Buffer.concat([SAMPLE_FILES.jpeg, Buffer.from(text)]));
    expect(found('<?php system($_GET[1]); ?>')).toBe('<?php');
    expect(found('<!DOCTYPE html><p>')).toBe('<!DOCTYPE html');
    expect(found('<SCRIPT src=//x>')).toBe('<SCRIPT');
    expect(found('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=');
    expect(found('<< /S /JavaScript /JS (app.alert(1)) >>')).toBe('/JavaScript');
    expect(found('<< /S /Launch /F (cmd.exe) >>')).toBe('/Launch');
  });

  it('passes the sample files and 5 MB of random bytes (compressed image data)', () => {
    for (const file of [SAMPLE_FILES.pdf, SAMPLE_FILES.jpeg, SAMPLE_FILES.png, SAMPLE_FILES.webp]) {
      expect(findActiveContent(file)).toBeNull();
    }
    // A fixed xorshift stream, so the check is the same on every run.
    const bytes = Buffer.alloc(5 * 1024 * 1024);
    let state = 0x9e3779b9;
    for (let i = 0; i < bytes.length; i += 1) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      bytes[i] = state & 0xff;
    }
    expect(findActiveContent(bytes)).toBeNull();
    expect(
      findActiveContent(Buffer.from('%PDF-1.7\n<< /Type /Catalog >>\n<?xml version="1.0"?>')),
    ).toBeNull();
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and the UTF-8 name (RFC 5987)', () => {
    expect(attachmentDisposition('report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(attachmentDisposition("रक्त O'Neil (1).pdf")).toBe(
      `attachment; filename="____ O'Neil (1).pdf"; filename*=UTF-8''%E0%A4%B0%E0%A4%95%E0%A5%8D%E0%A4%A4%20O%27Neil%20%281%29.pdf`,
    );
  });
});
