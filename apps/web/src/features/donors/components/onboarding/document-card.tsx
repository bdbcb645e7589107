import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DonorDocument } from '@bdms/shared';
import { Badge, type BadgeVariant } from '../../../../components/badge';
import { buttonClasses } from '../../../../components/button';
import { CheckCircleIcon, ClockIcon, ErrorCircleIcon } from '../../../../components/icons';
import { useToast } from '../../../../components/toast';
import { isApiError } from '../../../../lib/api-client';
import { cn } from '../../../../lib/cn';
import { intlLocale } from '../../../../lib/intl';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { useUploadDocument } from '../../api/onboarding';
import {
  DOCUMENT_ACCEPT,
  checkDocumentFile,
  type OnboardingDocument,
} from '../../onboarding/document-file';

type DocumentState = 'missing' | DonorDocument['status'];

const STATE_BADGES: Record<DocumentState, BadgeVariant> = {
  missing: 'neutral',
  pending: 'info',
  verified: 'success',
  rejected: 'primary',
};

function StateIcon({ state }: { state: DocumentState }) {
  if (state === 'verified') return <CheckCircleIcon className="size-5 text-success-700" />;
  if (state === 'rejected') return <ErrorCircleIcon className="size-5 text-primary-700" />;
  if (state === 'pending') return <ClockIcon className="size-5 text-info-700" />;
  return null;
}

/** The `details.reason` values of a refused upload's content (documents.service.ts). */
const UPLOAD_REFUSAL_REASONS = [
  'active',
  'unparsable',
  'encrypted',
  'too_many_pages',
  'too_large',
  'timeout',
] as const;
type UploadRefusalReason = (typeof UPLOAD_REFUSAL_REASONS)[number];

/** A server refusal of an upload, in the words of the onboarding screen. */
function useUploadErrorText() {
  const { t } = useTranslation('onboarding');
  const errorMessage = useErrorMessage();
  return (error: unknown): string => {
    if (isApiError(error)) {
      if (error.code === 'PAYLOAD_TOO_LARGE') return t('documents.errors.serverTooLarge');
      if (error.code === 'UNSUPPORTED_MEDIA_TYPE') {
        // What was wrong with the content and what to do (issue #32 item 16), when the server says.
        const details = error.details as { reason?: unknown; maxPages?: unknown } | null;
        const reason = typeof details?.reason === 'string' ? details.reason : '';
        if ((UPLOAD_REFUSAL_REASONS as readonly string[]).includes(reason)) {
          return t(`documents.errors.reasons.${reason as UploadRefusalReason}`, {
            max: typeof details?.maxPages === 'number' ? details.maxPages : 10,
          });
        }
        return t('documents.errors.serverType');
      }
      if (error.code === 'CONFLICT') return t('documents.errors.verified');
    }
    return errorMessage(error);
  };
}

/**
 * One document of the onboarding: what it is, whether it is required, its verification status
 * (pending, verified, or rejected with the reason), and a file input to upload or replace it.
 * The file is checked here first (type, 5 MB), then sent with a progress bar.
 */
export function DocumentCard({
  userId,
  type,
  document,
  isRequired,
  fileInputId,
  onUploaded,
}: {
  userId: string;
  type: OnboardingDocument;
  document: DonorDocument | undefined;
  isRequired: boolean;
  /** The file input's id, so the step can move focus to it. */
  fileInputId?: string;
  onUploaded?: () => void;
}) {
  const { t, i18n } = useTranslation('onboarding');
  const toast = useToast();
  const upload = useUploadDocument(userId);
  const uploadErrorText = useUploadErrorText();
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);

  const title = t(`documents.types.${type}.title`);
  const state: DocumentState = document?.status ?? 'missing';
  const canUpload = state !== 'verified';
  const isUploading = upload.isPending;

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Choosing the same file again after a failure must fire `change` again.
    event.target.value = '';
    if (!file) return;
    setProblem(null);
    const check = checkDocumentFile(file);
    if (check) {
      const size = new Intl.NumberFormat(intlLocale(i18n.language), {
        maximumFractionDigits: 1,
      }).format(check.kind === 'tooLarge' ? check.sizeMb : 0);
      setProblem(
        check.kind === 'tooLarge'
          ? t('documents.errors.tooLarge', { size })
          : t(`documents.errors.${check.kind}`),
      );
      return;
    }
    setPercent(null);
    try {
      await upload.mutateAsync({
        type,
        file,
        onProgress: (progress) => setPercent(progress.percent),
      });
      toast.success(t('documents.uploaded', { document: title }));
      onUploaded?.();
    } catch (error) {
      setProblem(uploadErrorText(error));
    } finally {
      setPercent(null);
    }
  };

  const uploadingText =
    percent === null ? t('documents.uploadingUnknown') : t('documents.uploading', { percent });
  const hintId = `${id}-hint`;
  const formatsId = `${id}-formats`;
  const errorId = `${id}-error`;

  return (
    <li
      className={cn(
        'flex flex-col gap-3 rounded-xl border bg-white p-4 shadow-sm sm:p-5',
        state === 'rejected' || problem ? 'border-2 border-primary-200' : 'border-slate-200',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
        <Badge variant={isRequired ? 'warning' : 'neutral'}>
          {isRequired ? t('documents.required') : t('documents.optional')}
        </Badge>
      </div>
      <p id={hintId} className="text-slate-700">
        {t(`documents.types.${type}.hint`)}
      </p>
      <div className="flex flex-col gap-1">
        <p className="flex items-center gap-2 font-medium text-slate-900">
          <StateIcon state={state} />
          <Badge variant={STATE_BADGES[state]}>{t(`documents.status.${state}`)}</Badge>
        </p>
        {document && (
          <p className="text-sm break-all text-slate-700">
            {t('documents.fileName', { name: document.fileName })}
          </p>
        )}
        {state === 'rejected' && document?.rejectionReason && (
          <p className="font-semibold text-primary-800">
            {t('documents.reason', { reason: document.rejectionReason })}
          </p>
        )}
      </div>

      {canUpload && (
        <div className="flex flex-col gap-2">
          <input
            id={fileInputId ?? `${id}-file`}
            type="file"
            accept={DOCUMENT_ACCEPT}
            className="peer sr-only"
            disabled={isUploading}
            aria-describedby={[hintId, formatsId, problem ? errorId : null]
              .filter(Boolean)
              .join(' ')}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => void onChange(event)}
          />
          <label
            htmlFor={fileInputId ?? `${id}-file`}
            className={buttonClasses({
              // One red call to action: the required document still missing.
              variant: isRequired && !document ? 'primary' : 'secondary',
              className: cn(
                'cursor-pointer self-start peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-focus',
                isUploading && 'pointer-events-none opacity-70',
              ),
            })}
          >
            {document
              ? t('documents.replace', { document: title })
              : t('documents.upload', { document: title })}
          </label>
          <p id={formatsId} className="text-sm text-slate-600">
            {t('documents.formats')}
          </p>
        </div>
      )}

      {isUploading && (
        <div className="flex flex-col gap-1">
          <div
            role="progressbar"
            aria-label={title}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
            aria-valuetext={uploadingText}
            className="h-3 overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className={cn(
                'h-full rounded-full bg-primary-700 transition-[width]',
                percent === null && 'animate-pulse',
              )}
              style={{ width: `${percent ?? 100}%` }}
            />
          </div>
          <p className="text-sm text-slate-700">{uploadingText}</p>
        </div>
      )}

      {problem && (
        <p
          id={errorId}
          role="alert"
          className="flex items-start gap-1.5 font-medium text-primary-700"
        >
          <ErrorCircleIcon className="mt-0.5 size-4 shrink-0" />
          <span>{problem}</span>
        </p>
      )}
    </li>
  );
}
