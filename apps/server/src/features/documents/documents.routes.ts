import multipart from '@fastify/multipart';
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  documentListQuerySchema,
  documentListResultSchema,
  documentResultSchema,
  idParamsSchema,
  successEnvelope,
  verifyDocumentSchema,
  type DocumentType,
} from '@bdms/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, isAppError } from '../../lib/app-error';
import { attachmentDisposition } from '../../lib/content-disposition';
import { requestMeta } from '../../lib/request-context';
import { errorResponses } from '../../lib/route-schemas';
import { currentUser, requireActiveAccount, requireRole } from '../../plugins/auth';
import type { DocumentsService, Upload } from './documents.service';
import { RENDER_LIMITS } from './document-render';

const BEARER = [{ bearerAuth: [] }];
const MAX_MB = DOCUMENT_MAX_BYTES / 1024 / 1024;
const TOO_LARGE_MESSAGE = `The file is larger than ${MAX_MB} MB. Choose a smaller file.`;
const ONE_FILE_MESSAGE = 'Send one file in the field "file".';

export interface DocumentsRoutesOptions {
  documents: DocumentsService;
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', message, [{ path, message }]);

/** Reads `type` and `file` from a multipart body, in either order. */
async function readUpload(request: FastifyRequest): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Send the document as multipart/form-data with the fields "type" and "file".',
    );
  }
  let type: string | undefined;
  let file: { fileName: string | undefined; bytes: Buffer } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) throw invalid('body.file', ONE_FILE_MESSAGE);
        file = { fileName: part.filename, bytes: await part.toBuffer() };
      } else if (part.fieldname === 'type' && typeof part.value === 'string') {
        type = part.value.trim();
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE_MESSAGE);
    if (code === 'FST_FILES_LIMIT') throw invalid('body.file', ONE_FILE_MESSAGE);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw invalid('body', 'Send only the fields "type" and "file".');
    }
    if (isAppError(error)) throw error;
    // Everything else here is the body failing to parse (no boundary, cut short): the client's.
    throw new AppError(
      'BAD_REQUEST',
      'The upload could not be read. Send it as multipart/form-data with the fields "type" and "file".',
    );
  }
  if (!type || !(DOCUMENT_TYPES as readonly string[]).includes(type)) {
    throw invalid('body.type', `Choose one of: ${DOCUMENT_TYPES.join(', ')}.`);
  }
  if (!file) throw invalid('body.file', 'Choose a file to upload.');
  return { type: type as DocumentType, ...file };
}

export const documentsRoutes: FastifyPluginAsyncZod<DocumentsRoutesOptions> = async (
  app,
  { documents },
) => {
  // Registered in this scope only: no other route accepts multipart bodies.
  await app.register(multipart, {
    limits: {
      fileSize: DOCUMENT_MAX_BYTES,
      files: 1,
      fields: 4,
      fieldSize: 1024,
      parts: 6,
      headerPairs: 50,
    },
  });

  app.post(
    '/api/v1/documents',
    {
      preHandler: [app.authenticate, requireActiveAccount],
      schema: {
        tags: ['documents'],
        summary: 'Upload a document (multipart)',
        description:
          'Donors only, for themselves. `multipart/form-data` with the fields `type` (`id_proof`, `address_proof`, ' +
          '`medical_certificate`, `photo`) and `file`. The kind of file is read from its **content** (PDF, JPEG, PNG or ' +
          'WebP), never from its name or the declared Content-Type: anything else is 415 `UNSUPPORTED_MEDIA_TYPE`, as is ' +
          'a file carrying active content (a web page or script inside it, as in an HTML/PHP polyglot, or a PDF action ' +
          'that runs JavaScript or a program). A PDF is parsed (object streams decompressed, escaped names decoded) and ' +
          'refused with 415 when it holds JavaScript, launch, submit or import actions, additional actions (`/AA`), ' +
          'attached files, XFA forms or RichMedia, when it is encrypted, or when it does not parse. ' +
          '**The upload itself is not kept**: a PDF is rendered page by page (pdf.js, 150 dpi, at most ' +
          `${RENDER_LIMITS.maxPages} pages, ${RENDER_LIMITS.timeoutMs / 1000} s) and rebuilt as a new PDF of one JPEG per ` +
          'page, the size of the original pages, with no text layer, links, actions, scripts, forms or attachments; ' +
          'an image is decoded and encoded again in its own format (turned upright by its EXIF orientation, at most ' +
          `${RENDER_LIMITS.maxImageSide} pixels a side, with no metadata such as EXIF/GPS and nothing after the image). ` +
          'A file that cannot be drawn (no pages, more pages, a picture over ' +
          `${RENDER_LIMITS.maxImagePixels / 1_000_000} megapixels, too slow to draw) is 415. A 415 about the content ` +
          'says why in `details.reason` (`active`, `unparsable`, `encrypted`, `too_many_pages` with `maxPages`, ' +
          "`too_large`, `timeout`), so the app can say what to do in the reader's language. `size` and the " +
          'download are those of the new file (decision 012). Two PDFs are drawn at once and at most ' +
          `${RENDER_LIMITS.maxWaiting} wait; one more is 503 \`SERVICE_UNAVAILABLE\` with \`Retry-After: 30\`, keeping nothing. ` +
          `More than ${MAX_MB} MB is 413 \`PAYLOAD_TOO_LARGE\`; an empty file is 400. The bytes are stored in ` +
          'PostgreSQL (256 KiB chunks; the original name is kept, cleaned, only to name the download) in the same ' +
          'transaction as the row: a failed upload leaves neither (a full database disk is 507 `INSUFFICIENT_STORAGE`). ' +
          'Uploading a type again replaces a pending or rejected document of that type (the old bytes are deleted); a ' +
          'verified one is 409 `CONFLICT`. A `rejected` donor who uploads goes back to `pending`. When this completes ' +
          'onboarding, administrators are told that a donor awaits verification.',
        security: BEARER,
        consumes: ['multipart/form-data'],
        response: {
          201: successEnvelope(documentResultSchema),
          ...errorResponses(400, 401, 403, 409, 413, 415, 500, 503, 507),
        },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request);
      const document = await documents.upload(currentUser(request), upload, requestMeta(request));
      return reply.code(201).send({ success: true as const, data: { document } });
    },
  );

  app.get(
    '/api/v1/documents/list',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['documents'],
        summary: "A user's documents",
        description:
          "The user themself or an administrator (others 403). Without `userId`, the caller's own documents. " +
          '`status` is `pending`, `verified` or `rejected` (with `rejectionReason`).',
        security: BEARER,
        querystring: documentListQuerySchema,
        response: {
          200: successEnvelope(documentListResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { documents: await documents.list(currentUser(request), request.query.userId) },
    }),
  );

  app.get(
    '/api/v1/documents/:id/file',
    {
      preHandler: app.authenticate,
      // Already compressed formats; and a stream of bytes should leave as stored.
      compress: false,
      schema: {
        tags: ['documents'],
        summary: 'Download a document',
        description:
          'The owner or an administrator (others 403; unknown id 404). The stored file (the one drawn again at upload, ' +
          'not the bytes that were sent; files stored before decision 012 as they were) with its stored (detected) type, as ' +
          'an attachment (`Content-Disposition: attachment; filename="…"; filename*=UTF-8\'\'…`), with ' +
          '`X-Content-Type-Options: nosniff` and `Cache-Control: private, no-store`.',
        security: BEARER,
        params: idParamsSchema,
        response: {
          200: z.unknown().describe('The file, with its stored type'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { document, stream } = await documents.openFile(
        currentUser(request),
        request.params.id,
      );
      return reply
        .type(document.mimeType)
        .header('content-length', String(document.size))
        .header('content-disposition', attachmentDisposition(document.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.put(
    '/api/v1/documents/:id/verify',
    {
      preHandler: [app.authenticate, requireRole('admin')],
      schema: {
        tags: ['documents'],
        summary: 'Verify or reject a document (admin)',
        description:
          'Administrators only. `{verified: true}` verifies; `{verified: false, rejectionReason}` rejects, and the ' +
          'reason (3 to 500 characters) is required (400 on `body.rejectionReason`). The donor is told in-app, by web ' +
          'push, and by e-mail while `emailNotifications` is on. Recorded in the activity log.',
        security: BEARER,
        params: idParamsSchema,
        body: verifyDocumentSchema,
        response: {
          200: successEnvelope(documentResultSchema),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        document: await documents.verify(
          currentUser(request),
          request.params.id,
          request.body,
          requestMeta(request),
        ),
      },
    }),
  );
};
