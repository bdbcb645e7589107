import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FIXED_ON_FLAGS, isFixedOnFlag, type AdminFlags, type FeatureFlag } from '@bdms/shared';
import { Badge } from '../../../../components/badge';
import { Switch } from '../../../../components/switch';
import { useToast } from '../../../../components/toast';
import { useErrorMessage } from '../../../../lib/use-error-message';
import { useAdminFlags, useSetFlag } from '../../api/admin-api';
import { AdminSection } from '../section';
import { ErrorState, Skeleton } from '../states';

/** API.md "Feature flags": what each one governs today. */
export const FLAG_GROUPS: {
  key: 'surfaces' | 'providers' | 'fixed' | 'unused';
  flags: FeatureFlag[];
}[] = [
  {
    key: 'surfaces',
    flags: [
      'bloodRequests',
      'emergencyServices',
      'bloodBankDirectory',
      'documentUpload',
      'emailNotifications',
      'donorDashboard',
      'donationHistory',
      'certificateGeneration',
      'adminPanel',
      'hospitalDashboard',
      'locationDetection',
      'pwaSupport',
      'advancedMatching',
      'debugMode',
    ],
  },
  /** Channels that need a provider the server does not have yet. */
  { key: 'providers', flags: ['smsNotifications', 'whatsappIntegration', 'phoneVerification'] },
  /** Fixed on (issue #21): the server refuses to switch them off. */
  { key: 'fixed', flags: [...FIXED_ON_FLAGS] },
  /** No surface yet (README "Feature flags"). */
  {
    key: 'unused',
    flags: [
      'donorRegistration',
      'referralSystem',
      'analyticsReporting',
      'hospitalRegistration',
      'inventoryManagement',
      'mockData',
    ],
  },
];

const PROVIDER_FLAGS = new Set<FeatureFlag>(FLAG_GROUPS[1]!.flags);

function FlagRow({
  flag,
  data,
  onToggle,
  isSaving,
}: {
  flag: FeatureFlag;
  data: AdminFlags;
  onToggle: (flag: FeatureFlag, enabled: boolean) => void;
  isSaving: boolean;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const enabled = data.flags[flag];
  const source = data.sources?.[flag] ?? 'default';
  const isFixed = isFixedOnFlag(flag);
  return (
    <li className="flex flex-col gap-1 border-b border-slate-200 py-3">
      <div className="flex items-start gap-3">
        <Switch
          isOn={enabled}
          onChange={(next) => onToggle(flag, next)}
          aria-labelledby={labelId}
          aria-describedby={hintId}
          isBusy={isSaving}
          disabled={isFixed}
        />
        <div className="flex min-w-0 flex-col gap-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span id={labelId} className="font-semibold text-slate-900">
              {t(`flags.names.${flag}`)}
            </span>
            <span className="text-sm font-semibold text-slate-700">
              {isFixed ? t('flags.alwaysOn') : enabled ? t('flags.on') : t('flags.off')}
            </span>
            {PROVIDER_FLAGS.has(flag) && enabled && (
              <Badge variant="warning">{t('flags.notConfigured')}</Badge>
            )}
          </p>
          <div id={hintId} className="text-sm text-slate-700">
            <p>{t(`flags.governs.${flag}`)}</p>
            {PROVIDER_FLAGS.has(flag) && enabled && <p>{t('flags.notConfiguredHint')}</p>}
            {source === 'env' && <p className="text-warning-800">{t('flags.sourceEnv')}</p>}
            {source === 'admin' && <p>{t('flags.sourceAdmin')}</p>}
          </div>
        </div>
      </div>
    </li>
  );
}

/** `GET|PUT /admin/flags`: one switch per flag, saved at once and confirmed by a toast. */
export function FlagsPanel() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const errorMessage = useErrorMessage();
  const flags = useAdminFlags();
  const setFlag = useSetFlag();

  const toggle = (flag: FeatureFlag, enabled: boolean) => {
    setFlag.mutate(
      { flag, enabled },
      {
        onSuccess: () =>
          toast.success(
            enabled
              ? t('flags.turnedOn', { name: t(`flags.names.${flag}`) })
              : t('flags.turnedOff', { name: t(`flags.names.${flag}`) }),
          ),
        onError: (error) => toast.error(t('flags.saveFailed'), { message: errorMessage(error) }),
      },
    );
  };

  return (
    <AdminSection title={t('flags.title')} description={t('flags.description')}>
      {flags.isPending ? (
        <Skeleton lines={8} />
      ) : flags.isError ? (
        <ErrorState error={flags.error} onRetry={() => void flags.refetch()} />
      ) : (
        <div className="flex flex-col gap-6">
          {FLAG_GROUPS.map((group) => (
            <div key={group.key}>
              <h3 className="font-semibold text-slate-900">
                {t(`flags.groups.${group.key}.title`)}
              </h3>
              <p className="text-sm text-slate-700">{t(`flags.groups.${group.key}.description`)}</p>
              <ul className="mt-1 grid gap-x-8 lg:grid-cols-2">
                {group.flags.map((flag) => (
                  <FlagRow
                    key={flag}
                    flag={flag}
                    data={flags.data}
                    onToggle={toggle}
                    isSaving={setFlag.isPending && setFlag.variables?.flag === flag}
                  />
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </AdminSection>
  );
}
