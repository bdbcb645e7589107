import { useEffect, useId, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Field, Textarea } from '../../../components/field';

export const REASON_MIN = 3;
export const REASON_MAX = 1000;

export interface ConfirmDialogProps {
  title: ReactNode;
  message: ReactNode;
  confirmLabel: string;
  /** `danger` for what takes something away (reject, suspend, cancel, disable). */
  tone?: 'primary' | 'danger';
  /** Asks for a reason or notes; `required` refuses to confirm without one. */
  reason?: { label: string; hint?: string; required: boolean };
  /** Runs the action; a thrown error is shown in the dialog and the dialog stays open. */
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
  /** The sentence for a failure (defaults to the errors namespace). */
  describeError: (error: unknown) => string;
  returnFocusRef?: RefObject<HTMLElement | null>;
}

/** "Are you sure?" for the console's actions, with an optional reason the server records. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  tone = 'primary',
  reason,
  onConfirm,
  onClose,
  describeError,
  returnFocusRef,
}: ConfirmDialogProps) {
  const { t } = useTranslation('admin');
  const [text, setText] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [isBusy, setIsBusy] = useState(false);
  const formId = useId();

  // The dialog gives focus back to what opened it; when that is gone (the donor's status
  // changed, so its buttons did), the caller's fallback takes it instead of the page body.
  useEffect(() => {
    // Read when the dialog closes: the element to fall back on may have been re-rendered.
    const fallback = returnFocusRef;
    return () => {
      setTimeout(() => {
        const active = document.activeElement;
        if (!active || active === document.body) fallback?.current?.focus();
      }, 0);
    };
  }, [returnFocusRef]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (reason) {
      if (reason.required && value.length < REASON_MIN) {
        setFieldError(
          value
            ? t('validation.reasonTooShort', { min: REASON_MIN })
            : t('validation.reasonRequired'),
        );
        return;
      }
      if (value.length > REASON_MAX) {
        setFieldError(t('validation.reasonTooLong', { max: REASON_MAX }));
        return;
      }
    }
    setFieldError(null);
    setFailure(null);
    setIsBusy(true);
    try {
      await onConfirm(value);
      onClose();
    } catch (error) {
      setFailure(error);
      setIsBusy(false);
    }
  };

  return (
    <Dialog
      isOpen
      role={tone === 'danger' ? 'alertdialog' : 'dialog'}
      title={title}
      description={message}
      onClose={isBusy ? () => {} : onClose}
    >
      <form id={formId} noValidate onSubmit={submit} className="flex flex-col gap-4">
        {failure !== null && (
          <Alert variant="error" dismissible={false} message={describeError(failure)} />
        )}
        {reason && (
          <Field
            label={reason.label}
            hint={reason.hint}
            error={fieldError}
            isRequired={reason.required}
          >
            <Textarea
              value={text}
              maxLength={REASON_MAX}
              onChange={(event) => {
                setText(event.target.value);
                if (fieldError) setFieldError(null);
              }}
            />
          </Field>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={isBusy}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant={tone === 'danger' ? 'danger' : 'primary'}
            isLoading={isBusy}
          >
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
