import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * Uploaded documents are not kept as sent: each is drawn again into a fresh file and only that
 * file is stored (docs/decisions/012-uploaded-documents.md). A PDF is rendered page by page with
 * pdf.js, the parser of Firefox and of most web viewers, which follows the cross-reference as
 * readers do, and rebuilt by pdf-lib from those pictures alone; an image is decoded and encoded
 * again by libvips (sharp). Whatever the original held besides what a page or a picture shows
 * (scripts, actions, links, attached files, metadata with GPS, data after the end, a second
 * format in the same bytes) is not in the stored file, whichever parser could have found it.
 *
 * Every step is bounded, so a hostile file costs at most a few seconds of one core.
 */
export const RENDER_LIMITS = {
  /** An ID, a bill or a medical certificate is one to four pages; ten leaves room. */
  maxPages: 10,
  /** Pages are drawn at 150 dpi, enough to read a scanned ID, at most this many pixels each. */
  dpi: 150,
  maxPagePixels: 4_000_000,
  /** Any one picture inside a PDF, or an uploaded image: a 48-megapixel phone photo passes. */
  maxImagePixels: 50_000_000,
  /** Re-encoded photos keep at most this long side: a document needs no more to be read. */
  maxImageSide: 4000,
  /** The whole document, every page included. */
  timeoutMs: 15_000,
  jpegQuality: 80,
} as const;

export type RenderLimits = typeof RENDER_LIMITS;

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp';

export type RenderResult =
  | { ok: true; bytes: Buffer }
  | {
      ok: false;
      reason: 'unparsable' | 'encrypted' | 'too_many_pages' | 'too_large' | 'timeout';
      detail: string;
    };

const require = createRequire(import.meta.url);
// pdf.js reads these in Node from folders (trailing slash required): the 14 standard fonts, the
// character maps of CJK fonts, and its WebAssembly decoders (JPEG 2000, colour profiles).
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const PDFJS_FOLDERS = {
  standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + path.sep,
  cMapUrl: path.join(PDFJS_DIR, 'cmaps') + path.sep,
  wasmUrl: path.join(PDFJS_DIR, 'wasm') + path.sep,
};

type PdfJs = typeof PdfJsModule;
let pdfjs: Promise<PdfJs> | undefined;
/** Loaded on the first upload of a PDF, not at start: it is large and most starts need none. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

class RenderTimeout extends Error {}

/**
 * Renders every page of `bytes` (a PDF) and writes a new PDF holding one JPEG per page, each page
 * the size of the original (rotation applied). No text, link, form, script or attachment of the
 * original is carried over. Refused: more than `maxPages` pages, none, a password, anything
 * pdf.js cannot open, a picture over `maxImagePixels`, or more than `timeoutMs` in all.
 */
export async function rerenderPdf(
  bytes: Buffer,
  limits: RenderLimits = RENDER_LIMITS,
): Promise<RenderResult> {
  const { getDocument } = await loadPdfJs();
  const deadline = Date.now() + limits.timeoutMs;
  const task = getDocument({
    // pdf.js may transfer (detach) the buffer it is given: a copy.
    data: new Uint8Array(bytes),
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
      if ((error as { name?: unknown }).name === 'PasswordException') {
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
      // @napi-rs/canvas is the canvas pdf.js itself uses in Node; its types are not the DOM's.
      type RenderParameters = Parameters<typeof page.render>[0];
      const render = page.render({
        canvas: canvas as unknown as RenderParameters['canvas'],
        canvasContext: context as unknown as RenderParameters['canvasContext'],
        viewport,
      });
      // pdf.js pauses every few milliseconds; the pause lets other requests run (setImmediate)
      // and ends a render that has used up its time.
      render.onContinue = (resume: () => void) => {
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
    return { ok: true, bytes: Buffer.from(await out.save()) };
  } catch (error) {
    if (error instanceof RenderTimeout || Date.now() >= deadline) return timeout();
    return { ok: false, reason: 'unparsable', detail: message(error) };
  } finally {
    clearTimeout(timer);
    await task.destroy().catch(() => undefined);
  }

  function timeout(): RenderResult {
    return { ok: false, reason: 'timeout', detail: `over ${limits.timeoutMs} ms` };
  }
}

/**
 * Decodes an uploaded image and encodes it again in its own format: turned upright by its EXIF
 * orientation, then every metadata block (EXIF with GPS, XMP, comments, colour profiles: sRGB is
 * assumed) and anything after the image data left behind. Only the first frame of an animation
 * is kept. Refused: more than `maxImagePixels`, bytes that do not decode, or over the time.
 */
export async function reencodeImage(
  bytes: Buffer,
  mime: ImageMime,
  limits: RenderLimits = RENDER_LIMITS,
): Promise<RenderResult> {
  try {
    const image = sharp(bytes, {
      limitInputPixels: limits.maxImagePixels,
      failOn: 'error',
      animated: false,
    })
      .rotate()
      .resize({
        width: limits.maxImageSide,
        height: limits.maxImageSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .timeout({ seconds: Math.max(1, Math.ceil(limits.timeoutMs / 1000)) });
    const encoded =
      mime === 'image/jpeg'
        ? image.jpeg({ quality: limits.jpegQuality, mozjpeg: true })
        : mime === 'image/png'
          ? image.png({ compressionLevel: 9 })
          : image.webp({ quality: limits.jpegQuality });
    return { ok: true, bytes: await encoded.toBuffer() };
  } catch (error) {
    const text = message(error);
    if (/pixel limit/i.test(text)) return { ok: false, reason: 'too_large', detail: text };
    if (/timeout/i.test(text)) return { ok: false, reason: 'timeout', detail: text };
    return { ok: false, reason: 'unparsable', detail: text };
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 200) : 'render error';
}
