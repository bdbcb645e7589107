import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { SAMPLE_FILES } from '../../test/donor-helpers';
import { findActiveContent } from './file-sniff';
import { checkPdf, OBJECT_STREAM_MAX_BYTES } from './pdf-check';

/** A one-page PDF as a scanner or a word processor makes it. */
async function plainPdf(change?: (doc: PDFDocument) => void | Promise<void>) {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText('Blood group report: O+', {
    x: 50,
    y: 780,
    font: await doc.embedFont(StandardFonts.Helvetica),
  });
  await change?.(doc);
  return Buffer.from(await doc.save({ useObjectStreams: true }));
}

/** A PDF written by hand: the objects' bodies as given, in order. */
function handPdf(...bodies: string[]): Buffer {
  const objects = bodies.map((body, index) => `${index + 1} 0 obj\n${body}\nendobj\n`).join('');
  return Buffer.from(`%PDF-1.7\n${objects}trailer\n<< /Root 1 0 R >>\n%%EOF\n`, 'latin1');
}

const CATALOG = '<< /Type /Catalog /Pages 2 0 R /OpenAction 3 0 R >>';
const PAGES = '<< /Type /Pages /Kids [] /Count 0 >>';

/** A hand-made PDF whose third object sits inside a Flate-compressed object stream. */
function objectStreamPdf(hidden: string): Buffer {
  const body = `3 0 ${hidden}`;
  const data = deflateSync(Buffer.from(body, 'latin1'));
  const head = `%PDF-1.7\n1 0 obj\n${CATALOG}\nendobj\n2 0 obj\n${PAGES}\nendobj\n`;
  const stream = `4 0 obj\n<< /Type /ObjStm /N 1 /First ${'3 0 '.length} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`;
  return Buffer.concat([
    Buffer.from(head + stream, 'latin1'),
    data,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

describe('checkPdf', () => {
  it('accepts plain PDFs, compressed object streams included', async () => {
    expect(await checkPdf(await plainPdf())).toEqual({ ok: true });
    expect(await checkPdf(SAMPLE_FILES.pdf)).toEqual({ ok: true });
    // An innocent action in an object stream: open at the first page.
    expect(await checkPdf(objectStreamPdf('<< /S /GoTo /D [0 /Fit] >>'))).toEqual({ ok: true });
    const withOpenAtPage = await plainPdf((doc) => {
      doc.catalog.set(PDFName.of('PageMode'), PDFName.of('UseNone'));
    });
    expect(await checkPdf(withOpenAtPage)).toEqual({ ok: true });
  });

  it('refuses JavaScript hidden in a Flate-compressed object stream that a byte pattern cannot see', async () => {
    const hidden = objectStreamPdf('<< /S /JavaScript /JS (app.alert(1)) >>');
    expect(findActiveContent(hidden)).toBeNull();
    expect(await checkPdf(hidden)).toMatchObject({ ok: false, reason: 'active' });
    // The same made by a PDF library that packs objects into object streams.
    const made = await plainPdf((doc) => {
      const action = doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.launchURL("x")') });
      doc.catalog.set(PDFName.of('OpenAction'), doc.context.register(action));
    });
    expect(made.toString('latin1')).not.toContain('JavaScript');
    expect(await checkPdf(made)).toMatchObject({ ok: false, reason: 'active' });
  });

  it('decodes escaped names, in either case', async () => {
    for (const action of [
      '<< /S /J#61vaScript /J#53 (app.alert(1)) >>',
      '<< /S /J#61v#61Script /JS (x) >>',
      '<< /S /#4Aava#53cript >>',
      '<< /S /L#61unch /F (cmd.exe) >>',
    ]) {
      const pdf = handPdf(CATALOG, PAGES, action);
      expect(findActiveContent(pdf), action).toBeNull();
      expect(await checkPdf(pdf), action).toMatchObject({ ok: false, reason: 'active' });
      expect(await checkPdf(objectStreamPdf(action)), action).toMatchObject({
        ok: false,
        reason: 'active',
      });
    }
  });

  it('refuses launch actions, attached files, XFA forms, RichMedia, additional actions and javascript: links', async () => {
    const cases = [
      '<< /S /Launch /F (calc.exe) >>',
      '<< /Type /Filespec /F (a.exe) /EF << /F 5 0 R >> /Subtype /EmbeddedFile >>',
      '<< /Fields [] /XFA 5 0 R >>',
      '<< /Subtype /RichMedia /RichMediaContent << >> >>',
      '<< /Type /Page /AA << /O 5 0 R >> >>',
      '<< /S /URI /URI (javascript:alert(1)) >>',
      '<< /S /SubmitForm /F (https://evil.example/) >>',
    ];
    for (const action of cases) {
      expect(await checkPdf(objectStreamPdf(action)), action).toMatchObject({
        ok: false,
        reason: 'active',
      });
    }
    const attached = await plainPdf(async (doc) => {
      await doc.attach(Buffer.from('MZ'), 'setup.exe', { mimeType: 'application/octet-stream' });
    });
    expect(await checkPdf(attached)).toMatchObject({ ok: false, reason: 'active' });
  });

  it('refuses files that do not parse, have no catalog, or are encrypted', async () => {
    expect(await checkPdf(Buffer.from('%PDF-1.7\n'))).toMatchObject({
      ok: false,
      reason: 'unparsable',
    });
    expect(
      await checkPdf(Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n')),
    ).toMatchObject({
      ok: false,
      reason: 'unparsable',
    });
    const broken = handPdf(CATALOG, PAGES, '<< /S /GoTo /D [0 /Fit] ');
    expect(await checkPdf(broken)).toMatchObject({ ok: false, reason: 'unparsable' });
    const encrypted = await PDFDocument.create();
    encrypted.addPage();
    encrypted.encrypt({ userPassword: 'secret', ownerPassword: 'owner' });
    expect(await checkPdf(Buffer.from(await encrypted.save()))).toMatchObject({
      ok: false,
      reason: 'encrypted',
    });
  });

  it('refuses an object stream that would inflate beyond the ceiling (a decompression bomb), quickly', async () => {
    const bomb = objectStreamPdf(`<< /Padding (${'0'.repeat(OBJECT_STREAM_MAX_BYTES + 1024)}) >>`);
    expect(bomb.length).toBeLessThan(OBJECT_STREAM_MAX_BYTES / 100);
    const started = Date.now();
    expect(await checkPdf(bomb)).toMatchObject({ ok: false, reason: 'unparsable' });
    expect(Date.now() - started).toBeLessThan(5000);
    // An object stream compressed some other way is not opened at all.
    const lzw = objectStreamPdf('<< >>').toString('latin1').replace('/FlateDecode', '/LZWDecode');
    expect(await checkPdf(Buffer.from(lzw, 'latin1'))).toMatchObject({
      ok: false,
      reason: 'unparsable',
    });
  });
});
