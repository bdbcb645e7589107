import { useState, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CLIENT_LOG_LEVELS, type ClientLogLevel } from '@bdms/shared';
import { Field, Select } from '../../../../components/field';
import { useFeatureFlag } from '../../../../config/use-config';
import { getLogger, setClientLogLevel } from '../../../../lib/logger';
import { useAuth } from '../../../auth';
import { useClientLogs, useServerDebugInfo } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { EmptyState, ErrorState, Skeleton } from '../states';

type TimingName = 'firstByte' | 'domReady' | 'loaded';

export type Timing =
  { label: TimingName; isPath: false; ms: number } | { label: string; isPath: true; ms: number };

/**
 * What this browser measured: the page load's milestones, then the five slowest API calls and
 * screen downloads of this visit (Resource Timing; nothing leaves the device).
 */
export function featureTimings(
  perf: Pick<Performance, 'getEntriesByType'> = performance,
): Timing[] {
  const timings: Timing[] = [];
  const [navigation] = perf.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  if (navigation) {
    timings.push(
      { label: 'firstByte' as const, isPath: false as const, ms: navigation.responseStart },
      {
        label: 'domReady' as const,
        isPath: false as const,
        ms: navigation.domContentLoadedEventEnd,
      },
      { label: 'loaded' as const, isPath: false as const, ms: navigation.loadEventEnd },
    );
  }
  const resources = (perf.getEntriesByType('resource') as PerformanceResourceTiming[])
    .map((entry) => {
      try {
        return { path: new URL(entry.name).pathname, ms: entry.duration };
      } catch {
        return null;
      }
    })
    .filter(
      (entry): entry is { path: string; ms: number } =>
        !!entry && (entry.path.startsWith('/api/') || entry.path.endsWith('.js')),
    );
  // A path fetched more than once counts once, with its slowest time.
  const slowest = new Map<string, number>();
  for (const entry of resources)
    slowest.set(entry.path, Math.max(slowest.get(entry.path) ?? 0, entry.ms));
  const top = [...slowest.entries()]
    .map(([path, ms]) => ({ path, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5);
  for (const entry of top) timings.push({ label: entry.path, isPath: true, ms: entry.ms });
  return timings.filter((timing) => timing.ms > 0);
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 border-b border-slate-100 py-1.5">
      <dt className="text-slate-700">{term}</dt>
      <dd className="font-mono text-sm break-all text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * `debugMode` (issue #21): for administrators only, while the flag is on — the server's version
 * and build, this browser's client log level, recent client errors and feature timings.
 */
export function DebugPanel() {
  const { t } = useTranslation('admin');
  const { user } = useAuth();
  const format = useFormat();
  const isOn = useFeatureFlag('debugMode') && user?.role === 'admin';
  const server = useServerDebugInfo(isOn);
  const errors = useClientLogs({ page: 1, level: 'error' }, { enabled: isOn });
  const [level, setLevel] = useState<ClientLogLevel>(() => getLogger()?.getSendLevel() ?? 'info');
  if (!isOn) return null;

  const onLevel = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = CLIENT_LOG_LEVELS.find((choice) => choice === event.target.value);
    if (!next) return;
    setClientLogLevel(next);
    setLevel(next);
  };
  const ms = (value: number) =>
    t('dashboard.debug.ms', { value: format.number(Math.round(value)) });

  return (
    <AdminSection title={t('dashboard.debug.title')} description={t('dashboard.debug.description')}>
      <div className="grid gap-6 lg:grid-cols-2">
        <div>
          <h3 className="mb-2 font-semibold text-slate-900">{t('dashboard.debug.server')}</h3>
          {server.isPending ? (
            <Skeleton lines={4} />
          ) : server.isError ? (
            <ErrorState error={server.error} onRetry={() => void server.refetch()} />
          ) : (
            <dl>
              <Row term={t('dashboard.debug.version')}>{server.data.version}</Row>
              <Row term={t('dashboard.debug.build')}>
                {server.data.build ?? t('dashboard.debug.fromSource')}
              </Row>
              {server.data.builtAt && (
                <Row term={t('dashboard.debug.builtAt')}>
                  {format.dateTime(server.data.builtAt)}
                </Row>
              )}
              <Row term={t('dashboard.debug.node')}>{server.data.node}</Row>
              <Row term={t('dashboard.debug.database')}>
                {t(`dashboard.debug.databases.${server.data.database}`)}
              </Row>
              <Row term={t('dashboard.debug.startedAt')}>
                {format.dateTime(server.data.startedAt)}
              </Row>
              <Row term={t('dashboard.debug.memory')}>
                {t('dashboard.debug.megabytes', { value: format.number(server.data.memory.rssMb) })}
              </Row>
            </dl>
          )}
        </div>
        <div className="flex flex-col gap-4">
          <Field
            label={t('dashboard.debug.logLevel')}
            hint={t('dashboard.debug.logLevelHint')}
            className="w-full sm:w-72"
          >
            <Select name="debug-log-level" value={level} onChange={onLevel}>
              {CLIENT_LOG_LEVELS.map((choice) => (
                <option key={choice} value={choice}>
                  {t(`dashboard.clientLogs.levels.${choice}`)}
                </option>
              ))}
            </Select>
          </Field>
          <div>
            <h3 className="mb-2 font-semibold text-slate-900">{t('dashboard.debug.timings')}</h3>
            <dl>
              {featureTimings().map((timing) => (
                <Row
                  key={timing.label}
                  term={
                    timing.isPath
                      ? timing.label
                      : t(`dashboard.debug.timingNames.${timing.label as TimingName}`)
                  }
                >
                  {ms(timing.ms)}
                </Row>
              ))}
            </dl>
          </div>
        </div>
      </div>
      <h3 className="mt-6 mb-2 font-semibold text-slate-900">
        {t('dashboard.debug.recentErrors')}
      </h3>
      {errors.isPending ? (
        <Skeleton lines={3} />
      ) : errors.isError ? (
        <ErrorState error={errors.error} onRetry={() => void errors.refetch()} />
      ) : errors.data.items.length === 0 ? (
        <EmptyState title={t('dashboard.debug.noErrors')} />
      ) : (
        <ul className="divide-y divide-slate-100">
          {errors.data.items.slice(0, 5).map((entry) => (
            <li key={entry.id} className="flex min-w-0 flex-col py-2">
              <span className="text-sm text-slate-600">{format.dateTime(entry.occurredAt)}</span>
              <span className="break-words text-slate-900">{entry.message.split('\n', 1)[0]}</span>
            </li>
          ))}
        </ul>
      )}
    </AdminSection>
  );
}
