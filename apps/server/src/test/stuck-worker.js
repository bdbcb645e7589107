// A worker that takes a job and never answers, its thread busy for good: what a PDF that sends
// pdf.js into an endless synchronous loop would look like (document-render.test.ts).
import { parentPort } from 'node:worker_threads';

parentPort?.on('message', () => {
  for (;;) {
    // Busy: no message, no timer, no exit.
  }
});
