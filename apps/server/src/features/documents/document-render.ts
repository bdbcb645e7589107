import { Worker } from 'node:worker_threads';
import sharp from 'sharp';

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
  /**
   * PDFs waiting for a free renderer beyond the MAX_PDF_RENDERS drawing: the next one is refused
   * at once as `busy` (the uploader is asked to try again shortly), so a burst of uploads cannot
   * hold unbounded memory and minutes of CPU in a queue. Eight is four rounds of two renders at
   * a few seconds each: a real uploader waits at most about half a minute.
   */
  maxWaiting: 8,
} as const;

export type RenderLimits = Record<keyof typeof RENDER_LIMITS, number>;

export type ImageMime = 'image/jpeg' | 'image/png' | 'image/webp';

export type RenderResult =
  | { ok: true; bytes: Buffer }
  | {
      ok: false;
      reason: 'unparsable' | 'encrypted' | 'too_many_pages' | 'too_large' | 'timeout' | 'busy';
      detail: string;
    };

/** At most this many PDFs are drawn at once, one per core of the 2-core machine; others wait. */
export const MAX_PDF_RENDERS = 2;
/** The worker is ended this long after its own deadline if it has not answered by then. */
const HARD_KILL_GRACE_MS = 2_000;
/** An idle worker (pdf.js loaded, ~60 MB) is ended after this long without work. */
const IDLE_WORKER_MS = 60_000;
/** The JavaScript heap of one worker; pages are bounded apart (maxPagePixels). */
const WORKER_HEAP_MB = 512;

// Beside this module in the sources, beside main.js in the bundle (build.mjs).
const WORKER_URL = new URL('./pdf-render-worker.js', import.meta.url);

interface IdleWorker {
  worker: Worker;
  timer: NodeJS.Timeout;
}

const idle: IdleWorker[] = [];
const waiting: (() => void)[] = [];
let running = 0;

async function takeSlot(): Promise<void> {
  if (running < MAX_PDF_RENDERS) {
    running += 1;
    return;
  }
  // The slot is handed over by releaseSlot, so `running` stays as it is.
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function releaseSlot(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

function takeWorker(url: URL): Worker {
  const ready = url === WORKER_URL ? idle.pop() : undefined;
  if (ready) {
    clearTimeout(ready.timer);
    return ready.worker;
  }
  const worker = new Worker(url, {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  // An idle worker must not keep the process (or a test run) alive.
  worker.unref();
  return worker;
}

function returnWorker(worker: Worker): void {
  const entry: IdleWorker = {
    worker,
    timer: setTimeout(() => {
      const index = idle.indexOf(entry);
      if (index >= 0) idle.splice(index, 1);
      void worker.terminate();
    }, IDLE_WORKER_MS),
  };
  entry.timer.unref();
  idle.push(entry);
}

/**
 * Renders every page of `bytes` (a PDF) with pdf.js and writes a new PDF holding one JPEG per
 * page, each page the size of the original (rotation applied), in a worker thread
 * (pdf-render-worker.js). No text, link, form, script or attachment of the original is carried
 * over. Refused: more than `maxPages` pages, none, a password, anything pdf.js cannot open, a
 * picture over `maxImagePixels`, or more than `timeoutMs` in all (a worker that does not answer
 * by then is terminated). At most MAX_PDF_RENDERS run at once; time spent waiting is not counted.
 */
export async function rerenderPdf(
  bytes: Buffer,
  limits: RenderLimits = RENDER_LIMITS,
  /** Another worker script, for tests of a worker that never answers. */
  workerUrl: URL = WORKER_URL,
): Promise<RenderResult> {
  if (running >= MAX_PDF_RENDERS && waiting.length >= limits.maxWaiting) {
    return { ok: false, reason: 'busy', detail: `${waiting.length} documents already waiting` };
  }
  await takeSlot();
  const worker = takeWorker(workerUrl);
  let healthy = false;
  try {
    const answer = await new Promise<WorkerAnswer>((resolve) => {
      const kill = setTimeout(() => {
        resolve({ ok: false, reason: 'timeout', detail: `no answer in ${limits.timeoutMs} ms` });
      }, limits.timeoutMs + HARD_KILL_GRACE_MS);
      const done = (result: WorkerAnswer) => {
        clearTimeout(kill);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(result);
      };
      const onMessage = (result: WorkerAnswer) => {
        healthy = true;
        done(result);
      };
      const onError = (error: Error) =>
        done({ ok: false, reason: 'unparsable', detail: error.message.slice(0, 200) });
      const onExit = () => done({ ok: false, reason: 'unparsable', detail: 'worker exited' });
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      // A copy: pdf.js may detach the buffer it reads.
      worker.postMessage({ bytes: new Uint8Array(bytes), limits });
    });
    if (!answer.ok) return answer;
    return {
      ok: true,
      bytes: Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength),
    };
  } finally {
    if (healthy && workerUrl === WORKER_URL) returnWorker(worker);
    else void worker.terminate();
    releaseSlot();
  }
}

type WorkerAnswer = Exclude<RenderResult, { ok: true }> | { ok: true; bytes: Uint8Array };

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
        ? image.jpeg({ quality: limits.jpegQuality })
        : mime === 'image/png'
          ? image.png({ compressionLevel: 6 })
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
