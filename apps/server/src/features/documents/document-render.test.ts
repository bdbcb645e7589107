import { PDFDocument } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE, plainPdf } from '../../test/document-files';
import { RENDER_LIMITS, reencodeImage, rerenderPdf } from './document-render';

async function scannedPdf(pages: number): Promise<Buffer> {
  const scan = await sharp({
    create: { width: 1240, height: 1754, channels: 3, background: '#d0d0d0' },
  })
    .jpeg()
    .toBuffer();
  const pdf = await PDFDocument.create();
  const image = await pdf.embedJpg(scan);
  for (let i = 0; i < pages; i += 1) {
    pdf.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  }
  return Buffer.from(await pdf.save());
}

describe('rerenderPdf', () => {
  it('draws each page again into a new PDF of the same page sizes, in a worker thread', async () => {
    const result = await rerenderPdf(plainPdf());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const pages = (await PDFDocument.load(result.bytes)).getPages();
    expect(pages.map((page) => page.getSize())).toEqual([PAGE_SIZE]);
  });

  it('refuses a document over its time, and the next one is drawn as usual', async () => {
    const slow = await rerenderPdf(await scannedPdf(3), { ...RENDER_LIMITS, timeoutMs: 1 });
    expect(slow).toMatchObject({ ok: false, reason: 'timeout' });
    expect((await rerenderPdf(plainPdf())).ok).toBe(true);
  });

  it('terminates a worker that never answers, answers timeout, and draws the next document', async () => {
    const started = Date.now();
    const stuck = await rerenderPdf(
      plainPdf(),
      { ...RENDER_LIMITS, timeoutMs: 200 },
      new URL('../../test/stuck-worker.js', import.meta.url),
    );
    expect(stuck).toMatchObject({ ok: false, reason: 'timeout' });
    // Its own 200 ms and the 2 s grace, not more.
    expect(Date.now() - started).toBeLessThan(6_000);
    expect((await rerenderPdf(plainPdf())).ok).toBe(true);
  });

  it('refuses at once, as busy, a PDF that would wait behind more than maxWaiting others', async () => {
    const stuck = new URL('../../test/stuck-worker.js', import.meta.url);
    const limits = { ...RENDER_LIMITS, timeoutMs: 200, maxWaiting: 1 };
    // Two renders hold both renderers; a third waits; the fourth is refused without waiting.
    const held = [1, 2, 3].map(() => rerenderPdf(plainPdf(), limits, stuck));
    const started = Date.now();
    expect(await rerenderPdf(plainPdf(), limits, stuck)).toMatchObject({
      ok: false,
      reason: 'busy',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    for (const result of await Promise.all(held)) {
      expect(result).toMatchObject({ ok: false, reason: 'timeout' });
    }
    // Once the queue has drained, documents are drawn again.
    expect((await rerenderPdf(plainPdf())).ok).toBe(true);
  });

  it('refuses what pdf.js cannot open, and more pages than allowed', async () => {
    expect(await rerenderPdf(Buffer.from('%PDF-1.7\nnothing here'))).toMatchObject({
      ok: false,
      reason: 'unparsable',
    });
    expect(await rerenderPdf(await scannedPdf(3), { ...RENDER_LIMITS, maxPages: 2 })).toMatchObject(
      { ok: false, reason: 'too_many_pages', detail: '3 pages' },
    );
  });
});

describe('reencodeImage', () => {
  it('refuses bytes that are not the image they claim to be, and images over the pixel limit', async () => {
    const png = await sharp({
      create: { width: 100, height: 100, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    expect(await reencodeImage(png.subarray(0, 60), 'image/png')).toMatchObject({
      ok: false,
      reason: 'unparsable',
    });
    expect(
      await reencodeImage(png, 'image/png', { ...RENDER_LIMITS, maxImagePixels: 9_999 }),
    ).toMatchObject({ ok: false, reason: 'too_large' });
    expect((await reencodeImage(png, 'image/png')).ok).toBe(true);
  });
});
