// The PDF half of document-render.ts, run in a worker thread so that a hostile file can neither
// stall the server's event loop nor outlive its time (the parent terminates a worker that does
// not answer). Plain JavaScript, because a worker thread is started by Node itself, without
// the TypeScript loader of tsx or Vitest; build.mjs bundles it beside main.js.
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { PDFDocument } from '@cantoo/pdf-lib';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const require = createRequire(import.meta.url);
// pdf.js reads these in Node from folders (trailing separator required): the 14 standard
// fonts, the character maps of CJK fonts, and its WebAssembly decoders (JPEG 2000, ICC).
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const PDFJS_FOLDERS = {
  standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + path.sep,
  cMapUrl: path.join(PDFJS_DIR, 'cmaps') + path.sep,
  wasmUrl: path.join(PDFJS_DIR, 'wasm') + path.sep,
};

class RenderTimeout extends Error {}

const message = (error) => (error instanceof Error ? error.message.slice(0, 200) : 'render error');

/**
 * Renders every page of `bytes` (a PDF) with pdf.js and writes a new PDF holding one JPEG per
 * page, each page the size of the original (rotation applied). Nothing else of the original is
 * carried over. See rerenderPdf in document-render.ts for the limits and the answers.
 *
 * @param {Uint8Array} bytes
 * @param {import('./document-render').RenderLimits} limits
 * @returns {Promise<import('./document-render').RenderResult>}
 */
async function rerenderPdf(bytes, limits) {
  const deadline = Date.now() + limits.timeoutMs;
  const timeout = () => ({ ok: false, reason: 'timeout', detail: `over ${limits.timeoutMs} ms` });
  const task = getDocument({
    data: bytes,
    ...PDFJS_FOLDERS,
    // Nothing from the file is run or fetched: no eval of its fonts, no XFA, no system fonts.
    isEvalSupported: false,
    enableXfa: false,
    useSystemFonts: false,
    disableFontFace: true,
    stopAtErrors: true,
    maxImageSize: limits.maxImagePixels,
    verbosity: 0,
  });
  const timer = setTimeout(() => void task.destroy(), Math.max(0, deadline - Date.now()));
  try {
    let source;
    try {
      source = await task.promise;
    } catch (error) {
      if (Date.now() >= deadline) return timeout();
      if (error?.name === 'PasswordException') {
        return { ok: false, reason: 'encrypted', detail: 'password' };
      }
      return { ok: false, reason: 'unparsable', detail: message(error) };
    }
    if (source.numPages < 1) return { ok: false, reason: 'unparsable', detail: 'no pages' };
    if (source.numPages > limits.maxPages) {
      return { ok: false, reason: 'too_many_pages', detail: `${source.numPages} pages` };
    }
    const out = await PDFDocument.create();
    for (let number = 1; number <= source.numPages; number += 1) {
      const page = await source.getPage(number);
      const size = page.getViewport({ scale: 1 });
      const scale = Math.min(
        limits.dpi / 72,
        Math.sqrt(limits.maxPagePixels / Math.max(1, size.width * size.height)),
      );
      const viewport = page.getViewport({ scale });
      const width = Math.max(1, Math.floor(viewport.width));
      const height = Math.max(1, Math.floor(viewport.height));
      const canvas = createCanvas(width, height);
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      // @napi-rs/canvas is the canvas pdf.js itself uses in Node.
      const render = page.render({ canvas, canvasContext: context, viewport });
      // pdf.js pauses every few milliseconds: a render that has used up its time ends there.
      render.onContinue = (resume) => {
        if (Date.now() >= deadline) render.cancel();
        else setImmediate(resume);
      };
      try {
        await render.promise;
      } catch (error) {
        if (Date.now() >= deadline) throw new RenderTimeout();
        throw error;
      }
      const jpeg = await canvas.encode('jpeg', limits.jpegQuality);
      page.cleanup();
      const image = await out.embedJpg(jpeg);
      out.addPage([size.width, size.height]).drawImage(image, {
        x: 0,
        y: 0,
        width: size.width,
        height: size.height,
      });
      if (Date.now() >= deadline) throw new RenderTimeout();
    }
    return { ok: true, bytes: await out.save() };
  } catch (error) {
    if (error instanceof RenderTimeout || Date.now() >= deadline) return timeout();
    return { ok: false, reason: 'unparsable', detail: message(error) };
  } finally {
    clearTimeout(timer);
    await task.destroy().catch(() => undefined);
  }
}

parentPort?.on('message', async ({ bytes, limits }) => {
  let result;
  try {
    result = await rerenderPdf(bytes, limits);
  } catch (error) {
    result = { ok: false, reason: 'unparsable', detail: message(error) };
  }
  parentPort.postMessage(result, result.ok ? [result.bytes.buffer] : []);
});
