import { useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { DonorDocument, User } from '@bdms/shared';
import { Button } from '../../../../components/button';
import { useToast } from '../../../../components/toast';
import { useDonorStatusMutation, type DonorAction } from '../../api/admin-api';
import { donorActionsFor, needsReason } from '../../lib/transitions';
import { useAdminErrorMessage } from '../../lib/use-admin-error';
import { ConfirmDialog } from '../confirm-dialog';

const VARIANTS: Record<DonorAction, 'primary' | 'secondary' | 'danger'> = {
  approve: 'primary',
  reactivate: 'primary',
  reject: 'danger',
  suspend: 'danger',
};

/**
 * Approve, reject, suspend, reactivate: only what the donor's status allows (API.md "Donor
 * status"). Each asks for confirmation; reject and suspend ask for the reason the donor is told.
 */
export function DonorActions({
  donor,
  documents = [],
  fallbackFocusRef,
}: {
  donor: User;
  /** The donor's documents: approving while some are "Not checked yet" says so first. */
  documents?: readonly DonorDocument[];
  fallbackFocusRef: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const describeError = useAdminErrorMessage('donor');
  const [action, setAction] = useState<DonorAction | null>(null);
  const mutation = useDonorStatusMutation(donor.id);
  const actions = donorActionsFor(donor.status);
  const name = donor.fullName || donor.name || donor.email;
  const unchecked = documents.filter((document) => document.status === 'pending');

  if (actions.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        {donor.status === 'rejected'
          ? t('verification.actions.noneRejected')
          : t('verification.actions.none')}
      </p>
    );
  }

  return (
    <div className="flex flex-col gap-2">
      {donor.status === 'pending' && !donor.onboardingCompleted && (
        <p className="text-sm text-warning-800">{t('verification.actions.onboardingWarning')}</p>
      )}
      <div className="flex flex-wrap gap-2">
        {actions.map((item) => (
          <Button key={item} variant={VARIANTS[item]} onClick={() => setAction(item)}>
            {t(`verification.actions.${item}.button`)}
          </Button>
        ))}
      </div>
      {action && (
        <ConfirmDialog
          title={t(`verification.actions.${action}.title`, { name })}
          message={
            action === 'approve' && unchecked.length > 0 ? (
              <>
                {t('verification.actions.approve.message', { name })}
                <strong className="mt-3 block rounded-lg border border-warning-700 bg-warning-50 p-3 text-warning-800">
                  {t('verification.actions.approve.uncheckedDocuments', {
                    count: unchecked.length,
                    documents: unchecked
                      .map((document) => t(`documents.types.${document.type}`))
                      .join(', '),
                  })}
                </strong>
              </>
            ) : (
              t(`verification.actions.${action}.message`, { name })
            )
          }
          confirmLabel={t(`verification.actions.${action}.confirm`)}
          tone={VARIANTS[action] === 'danger' ? 'danger' : 'primary'}
          reason={
            needsReason(action)
              ? {
                  label: t('verification.actions.reason'),
                  hint: t('verification.actions.reasonHint'),
                  required: true,
                }
              : undefined
          }
          describeError={describeError}
          returnFocusRef={fallbackFocusRef}
          onClose={() => setAction(null)}
          onConfirm={async (reason) => {
            await mutation.mutateAsync(needsReason(action) ? { action, reason } : { action });
            toast.success(t(`verification.actions.${action}.done`, { name }));
          }}
        />
      )}
    </div>
  );
}
