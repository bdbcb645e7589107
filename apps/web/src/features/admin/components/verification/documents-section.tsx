import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DonorDocument } from '@bdms/shared';
import { Alert } from '../../../../components/alert';
import { Badge, type BadgeVariant } from '../../../../components/badge';
import { Button } from '../../../../components/button';
import { useToast } from '../../../../components/toast';
import { fetchDocumentFile, useVerifyDocument } from '../../api/admin-api';
import { saveFile } from '../../../../lib/save-file';
import { useFormat } from '../../lib/format';
import { useAdminErrorMessage } from '../../lib/use-admin-error';
import { ConfirmDialog } from '../confirm-dialog';
import { EmptyState } from '../states';

const STATUS_VARIANTS: Record<DonorDocument['status'], BadgeVariant> = {
  pending: 'warning',
  verified: 'success',
  rejected: 'primary',
};

function isImage(document: DonorDocument): boolean {
  return document.mimeType.startsWith('image/');
}

/**
 * An image is shown inline from an object URL (the CSP allows blob: images). PDFs are not:
 * the CSP allows no frames or objects from blob: URLs, so a PDF is saved and opened by the
 * browser's own viewer.
 */
function DocumentPreview({ document }: { document: DonorDocument }) {
  const { t } = useTranslation('admin');
  const describeError = useAdminErrorMessage('document');
  const [url, setUrl] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'error'>('idle');
  const [failure, setFailure] = useState<unknown>(null);
  const label = t(`documents.types.${document.type}`);

  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );

  const load = async (mode: 'preview' | 'download') => {
    setState('loading');
    setFailure(null);
    try {
      const blob = await fetchDocumentFile(document.id);
      if (mode === 'download') {
        saveFile(blob, document.fileName);
        setState('idle');
      } else {
        setUrl(URL.createObjectURL(blob));
        setState('idle');
      }
    } catch (error) {
      setFailure(error);
      setState('error');
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {isImage(document) && !url && (
          <Button
            variant="secondary"
            isLoading={state === 'loading'}
            onClick={() => void load('preview')}
          >
            {t('documents.preview')}
            <span className="sr-only">: {label}</span>
          </Button>
        )}
        {isImage(document) && url && (
          <Button variant="secondary" onClick={() => setUrl(null)}>
            {t('documents.hidePreview')}
            <span className="sr-only">: {label}</span>
          </Button>
        )}
        <Button
          variant="ghost"
          isLoading={!isImage(document) && state === 'loading'}
          onClick={() => void load('download')}
        >
          {isImage(document) ? t('documents.download') : t('documents.openPdf')}
          <span className="sr-only">: {label}</span>
        </Button>
      </div>
      {!isImage(document) && <p className="text-sm text-slate-700">{t('documents.pdfHint')}</p>}
      {state === 'error' && (
        <Alert variant="error" dismissible={false} message={describeError(failure)} />
      )}
      {url && (
        <img
          src={url}
          alt={t('documents.previewAlt', { type: label, file: document.fileName })}
          className="max-h-[28rem] w-auto max-w-full self-start rounded-lg border border-slate-200 bg-slate-50 object-contain"
        />
      )}
    </div>
  );
}

function DocumentItem({ document, donorId }: { document: DonorDocument; donorId: string }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const format = useFormat();
  const describeError = useAdminErrorMessage('document');
  const verify = useVerifyDocument(donorId);
  const [isRejecting, setIsRejecting] = useState(false);
  const label = t(`documents.types.${document.type}`);

  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">{label}</p>
          <p className="text-sm break-all text-slate-700">
            {document.fileName} · {format.fileSize(document.size)} ·{' '}
            {t('documents.uploaded', { date: format.date(document.uploadedAt) })}
          </p>
        </div>
        <Badge variant={STATUS_VARIANTS[document.status] ?? 'neutral'}>
          {t(`documents.status.${document.status}`)}
        </Badge>
      </div>
      {document.status === 'rejected' && document.rejectionReason && (
        <p className="text-sm text-slate-800">
          <span className="font-semibold">{t('documents.reasonGiven')}</span>{' '}
          {document.rejectionReason}
        </p>
      )}
      <DocumentPreview document={document} />
      {verify.isError && !isRejecting && (
        <Alert variant="error" dismissible={false} message={describeError(verify.error)} />
      )}
      <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-3">
        {document.status !== 'verified' && (
          <Button
            isLoading={verify.isPending && verify.variables?.verified === true}
            disabled={verify.isPending}
            onClick={() =>
              verify.mutate(
                { documentId: document.id, verified: true },
                { onSuccess: () => toast.success(t('documents.verified', { type: label })) },
              )
            }
          >
            {t('documents.verify')}
            <span className="sr-only">: {label}</span>
          </Button>
        )}
        {document.status !== 'rejected' && (
          <Button variant="danger" disabled={verify.isPending} onClick={() => setIsRejecting(true)}>
            {t('documents.reject')}
            <span className="sr-only">: {label}</span>
          </Button>
        )}
      </div>
      {isRejecting && (
        <ConfirmDialog
          title={t('documents.rejectTitle', { type: label })}
          message={t('documents.rejectMessage')}
          confirmLabel={t('documents.reject')}
          tone="danger"
          reason={{
            label: t('documents.rejectReason'),
            hint: t('documents.rejectReasonHint'),
            required: true,
          }}
          describeError={describeError}
          onClose={() => {
            setIsRejecting(false);
            verify.reset();
          }}
          onConfirm={async (reason) => {
            await verify.mutateAsync({
              documentId: document.id,
              verified: false,
              rejectionReason: reason,
            });
            toast.success(t('documents.rejected', { type: label }));
          }}
        />
      )}
    </li>
  );
}

export function DocumentsSection({
  documents,
  donorId,
}: {
  documents: DonorDocument[];
  donorId: string;
}) {
  const { t } = useTranslation('admin');
  if (documents.length === 0) {
    return <EmptyState title={t('documents.emptyTitle')} message={t('documents.emptyMessage')} />;
  }
  return (
    <ul className="flex flex-col gap-3">
      {documents.map((document) => (
        <DocumentItem key={document.id} document={document} donorId={donorId} />
      ))}
    </ul>
  );
}
