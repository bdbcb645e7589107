import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CLIENT_LOG_LEVELS,
  CLIENT_LOG_LIMITS,
  type ClientLog,
  type ClientLogLevel,
} from '@bdms/shared';
import { Badge, type BadgeVariant } from '../../../../components/badge';
import { Button } from '../../../../components/button';
import { Field, Select } from '../../../../components/field';
import { Pagination } from '../../../../components/pagination';
import { cn } from '../../../../lib/cn';
import { CLIENT_LOGS_PAGE_SIZE, useClientLogs } from '../../api/admin-api';
import { useFormat } from '../../lib/format';
import { AdminSection } from '../section';
import { EmptyState, ErrorState, Skeleton } from '../states';

/** Characters of a message shown before "Show the whole message". */
export const MESSAGE_PREVIEW_LENGTH = 160;

const LEVEL_BADGES: Record<ClientLogLevel, BadgeVariant> = {
  error: 'primary',
  warn: 'warning',
  info: 'info',
  debug: 'neutral',
};

/** Most severe first, as an administrator looks for them. */
const LEVEL_CHOICES = [...CLIENT_LOG_LEVELS].reverse();

function isLevel(value: string): value is ClientLogLevel {
  return (CLIENT_LOG_LEVELS as readonly string[]).includes(value);
}

/** The first line, cut to the preview length: the rest is one click away. */
function preview(message: string): { text: string; isCut: boolean } {
  const firstLine = message.split('\n', 1)[0] ?? '';
  const text =
    firstLine.length > MESSAGE_PREVIEW_LENGTH
      ? firstLine.slice(0, MESSAGE_PREVIEW_LENGTH).trimEnd()
      : firstLine;
  return { text, isCut: text !== message };
}

/**
 * One reported entry. Everything in it came from a visitor's browser: it is shown as text only
 * (React escapes it), never as markup or a link.
 */
function ClientLogRow({ entry }: { entry: ClientLog }) {
  const { t } = useTranslation('admin');
  const format = useFormat();
  const [isOpen, setOpen] = useState(false);
  const detailsId = useId();
  const { text, isCut } = preview(entry.message);
  const hasDetails = isCut || !!entry.stack || !!entry.userAgent || !!entry.context;
  const when = format.dateTime(entry.occurredAt);

  return (
    <li className="flex min-w-0 flex-col gap-1.5 py-3">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge variant={LEVEL_BADGES[entry.level]}>
          {t(`dashboard.clientLogs.levels.${entry.level}`)}
        </Badge>
        <time dateTime={entry.occurredAt} className="text-sm text-slate-700">
          {when}
        </time>
      </p>
      <p className="font-medium break-words text-slate-900" data-testid="client-log-message">
        {text}
        {isCut && '…'}
      </p>
      <p className="text-sm break-words text-slate-700">
        {t('dashboard.clientLogs.page')}{' '}
        <span className="font-mono break-all text-slate-900">
          {entry.url ?? t('dashboard.clientLogs.unknown')}
        </span>
        {' · '}
        {t('dashboard.clientLogs.version')}{' '}
        <span className="font-mono text-slate-900">
          {entry.clientVersion ?? t('dashboard.clientLogs.unknown')}
        </span>
        {entry.category && (
          <>
            {' · '}
            {t('dashboard.clientLogs.category')}{' '}
            <span className="font-mono text-slate-900">{entry.category}</span>
          </>
        )}
      </p>
      {hasDetails && (
        <div>
          <button
            type="button"
            aria-expanded={isOpen}
            aria-controls={detailsId}
            onClick={() => setOpen((open) => !open)}
            className="-ms-2 inline-flex min-h-11 items-center rounded-lg px-2 text-sm font-semibold text-primary-700 underline hover:bg-primary-50"
          >
            {isOpen
              ? t('dashboard.clientLogs.hideDetails')
              : isCut
                ? t('dashboard.clientLogs.showWholeMessage')
                : t('dashboard.clientLogs.showDetails')}
            <span className="sr-only">{` (${when})`}</span>
          </button>
          <div
            id={detailsId}
            hidden={!isOpen}
            className="mt-1 flex flex-col gap-3 rounded-lg bg-slate-50 p-3"
          >
            {isOpen && (
              <>
                <Detail label={t('dashboard.clientLogs.message')} text={entry.message} />
                {entry.stack && (
                  <Detail label={t('dashboard.clientLogs.stack')} text={entry.stack} isCode />
                )}
                {entry.context && (
                  <Detail
                    label={t('dashboard.clientLogs.context')}
                    text={JSON.stringify(entry.context, null, 2)}
                    isCode
                  />
                )}
                {entry.userAgent && (
                  <Detail label={t('dashboard.clientLogs.browser')} text={entry.userAgent} />
                )}
                <Detail
                  label={t('dashboard.clientLogs.received')}
                  text={format.dateTime(entry.receivedAt)}
                />
              </>
            )}
          </div>
        </div>
      )}
    </li>
  );
}

function Detail({
  label,
  text,
  isCode = false,
}: {
  label: string;
  text: string;
  isCode?: boolean;
}) {
  return (
    <div className="min-w-0">
      <p className="text-sm font-semibold text-slate-900">{label}</p>
      <pre
        className={cn(
          'mt-1 max-h-80 overflow-auto text-sm whitespace-pre-wrap text-slate-800 [overflow-wrap:anywhere]',
          isCode ? 'font-mono' : 'font-sans',
        )}
      >
        {text}
      </pre>
    </div>
  );
}

/**
 * `GET /admin/client-logs` (extension): warnings and errors people's browsers reported (and slow
 * page measurements), newest first, filtered by level, 20 to a page.
 */
export function ClientLogsPanel() {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const [level, setLevel] = useState<ClientLogLevel | undefined>(undefined);
  const logs = useClientLogs({ page, level });

  const onLevelChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const value = event.target.value;
    setLevel(isLevel(value) ? value : undefined);
    setPage(1);
  };

  return (
    <AdminSection
      id="client-logs"
      title={t('dashboard.clientLogs.title')}
      description={t('dashboard.clientLogs.description', { days: CLIENT_LOG_LIMITS.retentionDays })}
      actions={
        <Field label={t('dashboard.clientLogs.levelLabel')} className="w-full sm:w-56">
          <Select name="level" value={level ?? ''} onChange={onLevelChange}>
            <option value="">{t('dashboard.clientLogs.allLevels')}</option>
            {LEVEL_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {t(`dashboard.clientLogs.levels.${choice}`)}
              </option>
            ))}
          </Select>
        </Field>
      }
    >
      {logs.isPending ? (
        <Skeleton lines={5} />
      ) : logs.isError ? (
        <ErrorState error={logs.error} onRetry={() => void logs.refetch()} />
      ) : logs.data.items.length === 0 ? (
        <EmptyState
          title={t('dashboard.clientLogs.emptyTitle')}
          message={
            level
              ? t('dashboard.clientLogs.emptyLevelMessage', {
                  level: t(`dashboard.clientLogs.levels.${level}`),
                })
              : t('dashboard.clientLogs.emptyMessage')
          }
          action={
            level && (
              <Button
                variant="secondary"
                onClick={() => {
                  setLevel(undefined);
                  setPage(1);
                }}
              >
                {t('dashboard.clientLogs.showAllLevels')}
              </Button>
            )
          }
        />
      ) : (
        <>
          <p className="text-sm text-slate-700">{t('dashboard.clientLogs.untrusted')}</p>
          <ol
            aria-label={t('dashboard.clientLogs.title')}
            aria-busy={logs.isFetching || undefined}
            className={cn(
              'mt-2 flex flex-col divide-y divide-slate-200',
              logs.isPlaceholderData && 'opacity-60',
            )}
          >
            {logs.data.items.map((entry) => (
              <ClientLogRow key={entry.id} entry={entry} />
            ))}
          </ol>
          <Pagination
            page={logs.data.page}
            pageSize={logs.data.pageSize || CLIENT_LOGS_PAGE_SIZE}
            total={logs.data.total}
            onPageChange={setPage}
            isLoading={logs.isFetching}
            label={t('dashboard.clientLogs.pages')}
          />
        </>
      )}
    </AdminSection>
  );
}
