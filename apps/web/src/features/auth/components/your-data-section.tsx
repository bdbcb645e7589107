import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { useToast } from '../../../components/toast';
import { isApiError } from '../../../lib/api-client';
import { localIsoDate } from '../../../lib/dates';
import { saveFile } from '../../../lib/save-file';
import { useErrorMessage } from '../../../lib/use-error-message';
import { deleteAccount, exportMyData } from '../api/auth-api';
import { useAuthActions } from '../auth-context';
import { invalidFields } from '../forms/validation';
import { PasswordInput } from './password-input';

/**
 * The user's rights over their data on /profile: download everything as JSON
 * (`GET /users/{id}/export`), and erase the account (`DELETE /users/{id}`) after confirming with
 * the password, then signed out locally and sent home with a toast.
 */
export function YourDataSection({ userId }: { userId: string }) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const headingId = useId();
  const [isExporting, setIsExporting] = useState(false);
  const [isDialogOpen, setIsDialogOpen] = useState(false);

  const download = async () => {
    setIsExporting(true);
    try {
      const data = await exportMyData(userId);
      const fileName = `my-data-${(data.exportedAt ?? localIsoDate()).slice(0, 10)}.json`;
      saveFile(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), fileName);
      toast.success(t('profile.yourData.downloaded'));
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setIsExporting(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-5">
      <h2 id={headingId} className="text-2xl font-bold text-slate-900">
        {t('profile.yourData.heading')}
      </h2>
      <div className="flex flex-col gap-3">
        <p className="text-slate-700">{t('profile.yourData.intro')}</p>
        <Button
          variant="secondary"
          isLoading={isExporting}
          className="self-start"
          onClick={() => void download()}
        >
          {t('profile.yourData.download')}
        </Button>
      </div>
      <div className="flex flex-col gap-3 rounded-xl border-2 border-primary-200 p-4">
        <h3 className="text-lg font-semibold text-slate-900">
          {t('profile.yourData.deleteHeading')}
        </h3>
        <p className="text-slate-700">{t('profile.yourData.deleteIntro')}</p>
        <Button variant="danger" className="self-start" onClick={() => setIsDialogOpen(true)}>
          {t('profile.yourData.deleteButton')}
        </Button>
      </div>
      <DeleteAccountDialog
        userId={userId}
        isOpen={isDialogOpen}
        onClose={() => setIsDialogOpen(false)}
      />
    </section>
  );
}

function DeleteAccountDialog({
  userId,
  isOpen,
  onClose,
}: {
  userId: string;
  isOpen: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('auth');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const { logout } = useAuthActions();
  const navigate = useNavigate();
  const passwordRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [isDeleting, setIsDeleting] = useState(false);

  const close = () => {
    if (isDeleting) return;
    setPassword('');
    setFieldError(null);
    setFailure(null);
    onClose();
  };

  const confirm = async () => {
    setFailure(null);
    if (!password) {
      setFieldError(t('profile.yourData.passwordRequired'));
      passwordRef.current?.focus();
      return;
    }
    setFieldError(null);
    setIsDeleting(true);
    try {
      await deleteAccount(userId, password);
    } catch (error) {
      setIsDeleting(false);
      if (isApiError(error) && invalidFields(error).includes('password')) {
        setFieldError(t('profile.yourData.passwordWrong'));
        passwordRef.current?.focus();
      } else {
        setFailure(error);
      }
      return;
    }
    // Home, as after Sign Out (the guard sends a user who signs out on a page home, too).
    await navigate('/', { replace: true });
    await logout();
    toast.success(t('profile.yourData.deleted'));
  };

  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      role="alertdialog"
      title={t('profile.yourData.dialogTitle')}
      initialFocusRef={passwordRef}
      description={
        <div className="flex flex-col gap-2">
          <p>{t('profile.yourData.erased')}</p>
          <p>{t('profile.yourData.kept')}</p>
        </div>
      }
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void confirm();
        }}
      >
        <Field
          label={t('profile.yourData.password')}
          hint={t('profile.yourData.passwordHint')}
          error={fieldError ?? undefined}
          isRequired
        >
          <PasswordInput
            ref={passwordRef}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        {failure !== null && (
          <Alert variant="error" dismissible={false} message={errorMessage(failure)} />
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close} disabled={isDeleting}>
            {t('profile.yourData.cancel')}
          </Button>
          <Button type="submit" isLoading={isDeleting}>
            {t('profile.yourData.confirm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
