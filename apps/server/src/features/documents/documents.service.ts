import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { DocumentType, DonorDocument, FeatureFlags, VerifyDocument } from '@bdms/shared';
import type { Db } from '../../db/client';
import type { DocumentRow } from '../../db/schema';
import { assertSelfOrAdmin } from '../../lib/access';
import { createActivityLog } from '../../lib/activity-log';
import { AppError } from '../../lib/app-error';
import { uniqueViolation } from '../../lib/db-errors';
import { toDocumentView } from '../../lib/donor-facts';
import type { Notifier } from '../notifications/notifier';
import { documentTypeName } from '../notifications/templates';
import { afterDonorInputChanged } from '../../lib/onboarding';
import type { RequestMeta } from '../../lib/request-context';
import { isStorageFull, type UploadStore } from '../../lib/uploads';
import type { AuthUser } from '../../plugins/auth';
import { createDocumentsRepository } from './documents.repository';
import { findActiveContent, sanitizeFileName, sniffMimeType } from './file-sniff';
import { checkPdf, type PdfVerdict } from './pdf-check';
import {
  RENDER_LIMITS,
  reencodeImage,
  rerenderPdf,
  type ImageMime,
  type RenderResult,
} from './document-render';

export const UNSUPPORTED_FILE_MESSAGE = 'Upload a PDF, JPEG, PNG or WebP file.';
export const ACTIVE_CONTENT_MESSAGE =
  'This file contains web page or script code, so it cannot be accepted. Upload a plain scan or photo.';
export const PDF_MESSAGES: Record<Exclude<PdfVerdict, { ok: true }>['reason'], string> = {
  active:
    'This PDF contains scripts, attached files or form actions, so it cannot be accepted. Upload a plain scan, or print it to a new PDF.',
  unparsable: 'This PDF could not be read. Save or scan it again and upload the new file.',
  encrypted: 'This PDF is password-protected. Upload a copy without a password.',
};
/** Why a file could not be drawn again (document-render.ts), in the words of PDF_MESSAGES. */
export const RENDER_MESSAGES: Record<Exclude<RenderResult, { ok: true }>['reason'], string> = {
  unparsable:
    'This file could not be read. Save, scan or photograph it again and upload the new file.',
  encrypted: PDF_MESSAGES.encrypted,
  too_many_pages: `A document may have at most ${RENDER_LIMITS.maxPages} pages. Upload only the pages that are needed.`,
  too_large: 'This image is too large. Upload a smaller photo or scan.',
  timeout: 'This file took too long to read. Save or scan it again and upload the new file.',
  busy: 'Many documents are being uploaded right now. Please try again in a minute.',
};
export const EMPTY_FILE_MESSAGE = 'The file is empty. Choose the file again.';
export const DISK_FULL_MESSAGE = 'We cannot store files right now. Please try again later.';

export interface DocumentsServiceDeps {
  db: Db;
  uploads: UploadStore;
  notifier: Pick<Notifier, 'notify' | 'notifyAdmins' | 'kick'>;
  flags: { getFlags(): Promise<FeatureFlags> };
  now?: () => number;
  logger?: {
    error(object: object, message: string): void;
    info?(object: object, message: string): void;
  };
}

export interface Upload {
  type: DocumentType;
  fileName: string | undefined;
  bytes: Buffer;
}

const notFound = () => new AppError('NOT_FOUND', 'There is no document with this id.');

export function createDocumentsService(deps: DocumentsServiceDeps) {
  const { db, uploads, notifier } = deps;
  const now = deps.now ?? Date.now;
  const repository = createDocumentsRepository(db);

  async function loadVisible(caller: AuthUser, id: string): Promise<DocumentRow> {
    const row = await repository.findById(id);
    if (!row) throw notFound();
    if (row.userId !== caller.id && caller.role !== 'admin') {
      throw new AppError('FORBIDDEN', 'You can only open your own documents.');
    }
    return row;
  }

  return {
    /**
     * A donor's own document. The type comes from the content, and what is stored is the file
     * drawn again from it (document-render.ts, decision 012), never the uploaded bytes; the row
     * and its bytes are written in one transaction, so neither is ever left without the other. Uploading a type again replaces a pending or rejected document.
     */
    async upload(caller: AuthUser, upload: Upload, meta: RequestMeta): Promise<DonorDocument> {
      if (caller.role !== 'donor') {
        throw new AppError('FORBIDDEN', 'Only donors upload documents.');
      }
      if (upload.bytes.length === 0) {
        throw new AppError('VALIDATION_ERROR', EMPTY_FILE_MESSAGE, [
          { path: 'body.file', message: EMPTY_FILE_MESSAGE },
        ]);
      }
      const mimeType = sniffMimeType(upload.bytes);
      if (!mimeType) throw new AppError('UNSUPPORTED_MEDIA_TYPE', UNSUPPORTED_FILE_MESSAGE);
      if (findActiveContent(upload.bytes)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', ACTIVE_CONTENT_MESSAGE, { reason: 'active' });
      }
      // A PDF is parsed, object streams and all: a byte pattern misses compressed or escaped names.
      if (mimeType === 'application/pdf') {
        const verdict = await checkPdf(upload.bytes);
        if (!verdict.ok) {
          deps.logger?.info?.(
            { userId: caller.id, reason: verdict.reason, detail: verdict.detail },
            'refused a PDF upload',
          );
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', PDF_MESSAGES[verdict.reason], {
            reason: verdict.reason,
          });
        }
      }
      // Only a fresh file drawn from what the upload shows is kept (decision 012): whatever a
      // check above could not see, in a part of the file that another reader would follow, is
      // not in it. The checks above stay, to refuse what is plainly hostile with a clear reason.
      const rendered =
        mimeType === 'application/pdf'
          ? await rerenderPdf(upload.bytes)
          : await reencodeImage(upload.bytes, mimeType as ImageMime);
      if (!rendered.ok) {
        deps.logger?.info?.(
          { userId: caller.id, reason: rendered.reason, detail: rendered.detail },
          'could not draw an upload again',
        );
        const message =
          mimeType === 'application/pdf' && rendered.reason === 'unparsable'
            ? PDF_MESSAGES.unparsable
            : RENDER_MESSAGES[rendered.reason];
        // Too many PDFs already waiting to be drawn: nothing is wrong with this file.
        if (rendered.reason === 'busy') {
          throw new AppError('SERVICE_UNAVAILABLE', RENDER_MESSAGES.busy, undefined, {
            'Retry-After': '30',
          });
        }
        // The reason lets the app say what to do in the donor's language (`details.reason`).
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', message, {
          reason: rendered.reason,
          ...(rendered.reason === 'too_many_pages' ? { maxPages: RENDER_LIMITS.maxPages } : {}),
        });
      }
      const stored = rendered.bytes;
      const idProofRequired = (await deps.flags.getFlags()).documentUpload;

      let created: DocumentRow;
      try {
        created = await db.transaction(async (tx) => {
          const repo = createDocumentsRepository(tx);
          const replaced = await repo.findForReplace(caller.id, upload.type);
          if (replaced?.verified) {
            throw new AppError(
              'CONFLICT',
              'This document is already verified. Contact support if it must change.',
            );
          }
          // Its bytes go with it (ON DELETE CASCADE), in this transaction.
          if (replaced) await repo.deleteById(replaced.id);
          const row = await repo.insert({
            userId: caller.id,
            type: upload.type,
            fileName: sanitizeFileName(upload.fileName, mimeType),
            mimeType,
            size: stored.length,
            storageName: randomUUID(),
            uploadedAt: new Date(now()),
          });
          await uploads.save(tx, row.id, stored);
          await createActivityLog(tx).record({
            action: 'document.uploaded',
            actorId: caller.id,
            actorRole: caller.role,
            targetType: 'user',
            targetId: caller.id,
            details: { documentId: row.id, documentType: row.type, replaced: Boolean(replaced) },
            requestId: meta.requestId,
          });
          await afterDonorInputChanged(tx, caller.id, {
            notifier,
            idProofRequired,
            actorId: caller.id,
            actorRole: caller.role,
            requestId: meta.requestId,
            now: now(),
          });
          return row;
        });
      } catch (error) {
        if (isStorageFull(error)) throw new AppError('INSUFFICIENT_STORAGE', DISK_FULL_MESSAGE);
        if (uniqueViolation(error) !== null) {
          throw new AppError(
            'CONFLICT',
            'Another upload of this document is in progress. Try again in a moment.',
          );
        }
        throw error;
      }
      notifier.kick();
      return toDocumentView(created);
    },

    /** The documents of `userId` (the caller's own when left out): self or admin. */
    async list(caller: AuthUser, userId: string | undefined): Promise<DonorDocument[]> {
      const id = userId ?? caller.id;
      assertSelfOrAdmin(caller, id);
      if (caller.id !== id) {
        const owner = await repository.findOwner(id);
        if (!owner || owner.deletedAt)
          throw new AppError('NOT_FOUND', 'There is no user with this id.');
      }
      return (await repository.listByUser(id)).map(toDocumentView);
    },

    /** The stored file: the owner or an administrator. */
    async openFile(
      caller: AuthUser,
      id: string,
    ): Promise<{ document: DonorDocument; stream: Readable }> {
      const row = await loadVisible(caller, id);
      if (!(await uploads.exists(row.id))) {
        deps.logger?.error({ documentId: row.id }, 'a document row has no file');
        throw new AppError('NOT_FOUND', 'This file is no longer available.');
      }
      return { document: toDocumentView(row), stream: uploads.open(row.id) };
    },

    /** An administrator's verdict; the donor is told in-app, by push and (flag on) by e-mail. */
    async verify(
      caller: AuthUser,
      id: string,
      body: VerifyDocument,
      meta: RequestMeta,
    ): Promise<DonorDocument> {
      const updated = await db.transaction(async (tx) => {
        const repo = createDocumentsRepository(tx);
        const existing = await repo.findById(id);
        if (!existing) throw notFound();
        const rejectionReason = body.verified ? null : (body.rejectionReason ?? null);
        const row = await repo.setVerdict(id, {
          verified: body.verified,
          rejectionReason,
          verifiedBy: caller.id,
          verifiedAt: new Date(now()),
        });
        if (!row) throw notFound();
        await createActivityLog(tx).record({
          action: body.verified ? 'document.verified' : 'document.rejected',
          actorId: caller.id,
          actorRole: caller.role,
          targetType: 'user',
          targetId: row.userId,
          details: { documentId: row.id, documentType: row.type },
          requestId: meta.requestId,
        });
        await notifier.notify(tx, row.userId, {
          type: body.verified ? 'document.verified' : 'document.rejected',
          params: {
            document: documentTypeName(row.type),
            reason: (rejectionReason ?? '').replace(/[.!?।]+$/u, ''),
          },
          link: '/onboarding',
          reachOut: true,
        });
        return row;
      });
      notifier.kick();
      return toDocumentView(updated);
    },
  };
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
