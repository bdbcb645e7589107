import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ALERT_POSITIONS, BLOOD_TYPES, type AlertPosition } from '@bdms/shared';
import { Alert } from '../../components/alert';
import { AlertList, type AlertItem } from '../../components/alert-list';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { Dialog } from '../../components/dialog';
import { FeatureUnavailable, LoadingError, PageUnavailable } from '../../components/error-screens';
import { Field, Input, Select, Textarea } from '../../components/field';
import { FullScreenLoader } from '../../components/full-screen-loader';
import { HeartIcon } from '../../components/icons';
import { LinkButton } from '../../components/link-button';
import { Page } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';

/**
 * `/components?__throw=render` makes the "Error screen" section throw while rendering, so tests
 * can prove the error screen. Only this page reads the parameter.
 */
const THROW_PARAM = '__throw';

const SECTIONS = [
  'buttons',
  'fields',
  'alerts',
  'toasts',
  'loaders',
  'badges',
  'cards',
  'dialog',
  'loadFailures',
  'errorScreen',
] as const;
type SectionKey = (typeof SECTIONS)[number];

function Section({ id, children }: { id: SectionKey; children: ReactNode }) {
  const { t } = useTranslation('showcase');
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className="scroll-mt-4 border-t border-slate-200 pt-8"
    >
      <h2 id={`${id}-heading`} className="text-2xl font-bold text-slate-900">
        {t(`${id}.heading`)}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function ButtonsDemo() {
  const { t } = useTranslation('showcase');
  return (
    <div className="flex flex-wrap gap-3">
      <Button>{t('buttons.primary')}</Button>
      <Button variant="secondary">{t('buttons.secondary')}</Button>
      <Button variant="ghost">{t('buttons.ghost')}</Button>
      <Button variant="danger">{t('buttons.danger')}</Button>
      <Button size="lg">{t('buttons.large')}</Button>
      <Button disabled>{t('buttons.disabled')}</Button>
      <Button isLoading>{t('buttons.loading')}</Button>
      <LinkButton to="/components#buttons" variant="secondary">
        {t('buttons.linkButton')}
      </LinkButton>
    </div>
  );
}

function FieldsDemo() {
  const { t } = useTranslation('showcase');
  return (
    <form className="grid max-w-xl gap-5" noValidate onSubmit={(event) => event.preventDefault()}>
      <Field label={t('fields.name')} hint={t('fields.nameHint')} isRequired>
        <Input autoComplete="name" />
      </Field>
      <Field label={t('fields.email')} error={t('fields.emailError')} isRequired>
        <Input type="email" autoComplete="email" defaultValue="name@" />
      </Field>
      <Field label={t('fields.bloodType')}>
        <Select defaultValue="">
          <option value="" disabled>
            {t('fields.bloodTypePlaceholder')}
          </option>
          {BLOOD_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('fields.notes')}>
        <Textarea />
      </Field>
      <Field label={t('fields.disabled')}>
        <Input disabled defaultValue={t('fields.disabledValue')} />
      </Field>
    </form>
  );
}

function AlertsDemo() {
  const { t } = useTranslation('showcase');
  const [generation, setGeneration] = useState(0);
  const [position, setPosition] = useState<AlertPosition>('top-right');
  const [floating, setFloating] = useState<AlertItem[]>([]);

  const showList = () =>
    setFloating([
      {
        id: 'list-success',
        variant: 'success',
        title: t('alerts.successTitle'),
        message: t('alerts.successMessage'),
      },
      {
        id: 'list-info',
        variant: 'info',
        title: t('alerts.infoTitle'),
        message: t('alerts.infoMessage'),
      },
    ]);

  return (
    <div className="flex flex-col gap-4">
      <div key={generation} className="stagger stagger-fast flex flex-col gap-3">
        <Alert
          variant="success"
          title={t('alerts.successTitle')}
          message={t('alerts.successMessage')}
        />
        <Alert variant="error" title={t('alerts.errorTitle')} message={t('alerts.errorMessage')} />
        <Alert
          variant="warning"
          title={t('alerts.warningTitle')}
          message={t('alerts.warningMessage')}
        />
        <Alert variant="info" title={t('alerts.infoTitle')} message={t('alerts.infoMessage')} />
        <Alert variant="info" dismissible={false} message={t('alerts.notDismissible')} />
      </div>
      <div>
        <Button variant="secondary" onClick={() => setGeneration((value) => value + 1)}>
          {t('alerts.restore')}
        </Button>
      </div>

      <h3 className="mt-4 text-xl font-semibold text-slate-900">{t('alerts.listHeading')}</h3>
      <p className="text-slate-700">{t('alerts.listHint')}</p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field label={t('alerts.position')} className="sm:w-64">
          <Select
            value={position}
            onChange={(event) => setPosition(event.target.value as AlertPosition)}
          >
            {ALERT_POSITIONS.map((value) => (
              <option key={value} value={value}>
                {t(`alerts.positions.${value}`)}
              </option>
            ))}
          </Select>
        </Field>
        {floating.length === 0 ? (
          <Button onClick={showList}>{t('alerts.showList')}</Button>
        ) : (
          <Button variant="secondary" onClick={() => setFloating([])}>
            {t('alerts.hideList')}
          </Button>
        )}
      </div>
      <AlertList
        alerts={floating}
        position={position}
        onDismiss={(id) => setFloating((items) => items.filter((item) => item.id !== id))}
      />
    </div>
  );
}

function ToastsDemo() {
  const { t } = useTranslation('showcase');
  const toast = useToast();
  return (
    <div className="flex flex-wrap gap-3">
      <Button
        variant="secondary"
        onClick={() =>
          toast.success(t('toasts.successTitle'), { message: t('toasts.successMessage') })
        }
      >
        {t('toasts.success')}
      </Button>
      <Button
        variant="secondary"
        onClick={() => toast.error(t('toasts.errorTitle'), { message: t('toasts.errorMessage') })}
      >
        {t('toasts.error')}
      </Button>
      <Button
        variant="secondary"
        onClick={() =>
          toast.warning(t('toasts.warningTitle'), { message: t('toasts.warningMessage') })
        }
      >
        {t('toasts.warning')}
      </Button>
      <Button
        variant="secondary"
        onClick={() => toast.info(t('toasts.infoTitle'), { message: t('toasts.infoMessage') })}
      >
        {t('toasts.info')}
      </Button>
      <Button
        variant="secondary"
        onClick={() =>
          toast.info(t('toasts.actionTitle'), {
            message: t('toasts.actionMessage'),
            action: {
              label: t('toasts.actionLabel'),
              onClick: () => toast.success(t('toasts.undoneTitle')),
            },
          })
        }
      >
        {t('toasts.withAction')}
      </Button>
    </div>
  );
}

function LoadersDemo() {
  const { t } = useTranslation('showcase');
  const { t: tCommon } = useTranslation();
  const [isLoaderShown, setIsLoaderShown] = useState(false);
  useEffect(() => {
    if (!isLoaderShown) return;
    const timer = setTimeout(() => setIsLoaderShown(false), 2000);
    return () => clearTimeout(timer);
  }, [isLoaderShown]);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center gap-6 text-primary-700">
        <Spinner size="sm" />
        <Spinner size="md" />
        <Spinner size="lg" label={t('loaders.spinner')} />
      </div>
      <div>
        <Button variant="secondary" onClick={() => setIsLoaderShown(true)}>
          {t('loaders.showFullScreen')}
        </Button>
      </div>
      {isLoaderShown && <FullScreenLoader label={tCommon('loading.page')} />}
    </div>
  );
}

function BadgesDemo() {
  const { t } = useTranslation('showcase');
  return (
    <div className="flex flex-wrap gap-3">
      <Badge variant="success">{t('badges.approved')}</Badge>
      <Badge variant="warning">{t('badges.pending')}</Badge>
      <Badge variant="primary">{t('badges.critical')}</Badge>
      <Badge variant="info">{t('badges.urgent')}</Badge>
      <Badge>{t('badges.new')}</Badge>
      {BLOOD_TYPES.map((type) => (
        <Badge key={type} variant="primary">
          {type}
        </Badge>
      ))}
    </div>
  );
}

/** A confirmation in a modal dialog: focus stays inside, Escape and Cancel close it. */
function DialogDemo() {
  const { t } = useTranslation('showcase');
  const toast = useToast();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-slate-700">{t('dialog.hint')}</p>
      <Button variant="secondary" className="self-start" onClick={() => setIsOpen(true)}>
        {t('dialog.open')}
      </Button>
      <Dialog
        isOpen={isOpen}
        onClose={() => setIsOpen(false)}
        title={t('dialog.title')}
        description={<p>{t('dialog.text')}</p>}
      >
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setIsOpen(false)}>
            {t('dialog.cancel')}
          </Button>
          <Button
            onClick={() => {
              setIsOpen(false);
              toast.success(t('dialog.confirmed'));
            }}
          >
            {t('dialog.confirm')}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

function CardsDemo() {
  const { t } = useTranslation('showcase');
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <Card title={t('cards.plainTitle')}>
        <p className="text-slate-700">{t('cards.plainText')}</p>
      </Card>
      <Card
        tone="emphasis"
        icon={<HeartIcon className="size-6" />}
        title={t('cards.emphasisTitle')}
      >
        <p className="text-slate-700">{t('cards.emphasisText')}</p>
      </Card>
      <Card tone="muted" title={t('cards.plainTitle')}>
        <p className="text-slate-700">{t('cards.plainText')}</p>
      </Card>
    </div>
  );
}

function LoadFailuresDemo() {
  const { t } = useTranslation('showcase');
  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700">{t('loadFailures.hint')}</p>
      <div className="grid gap-4 lg:grid-cols-3">
        <LoadingError onRefresh={() => undefined} />
        <PageUnavailable
          compact
          page={t('loadFailures.samplePage')}
          onRetry={() => undefined}
          onBack={() => undefined}
        />
        <FeatureUnavailable />
      </div>
    </div>
  );
}

function ErrorScreenDemo() {
  const { t } = useTranslation('showcase');
  const [searchParams] = useSearchParams();
  if (searchParams.get(THROW_PARAM) === 'render') {
    throw new Error('Deliberate render error (/components?__throw=render)');
  }
  return (
    <div className="flex flex-col items-start gap-3">
      <p className="max-w-3xl text-slate-700">{t('errorScreen.text')}</p>
      <Link
        to={`?${THROW_PARAM}=render`}
        className="inline-flex min-h-11 items-center font-semibold text-primary-700 underline"
      >
        {t('errorScreen.link')}
      </Link>
    </div>
  );
}

const DEMOS: Record<SectionKey, () => ReactNode> = {
  buttons: ButtonsDemo,
  fields: FieldsDemo,
  alerts: AlertsDemo,
  toasts: ToastsDemo,
  loaders: LoadersDemo,
  badges: BadgesDemo,
  cards: CardsDemo,
  dialog: DialogDemo,
  loadFailures: LoadFailuresDemo,
  errorScreen: ErrorScreenDemo,
};

export default function ComponentsShowcasePage() {
  const { t } = useTranslation('showcase');
  const { t: tPages } = useTranslation('pages');
  return (
    <Page
      title={tPages('components.title')}
      description={tPages('components.description')}
      lead={tPages('components.intro')}
    >
      <nav aria-label={t('contents')} className="mt-6">
        <h2 className="text-lg font-semibold text-slate-900">{t('contents')}</h2>
        <ul className="mt-2 flex flex-wrap gap-x-4">
          {SECTIONS.map((id) => (
            <li key={id}>
              <a
                href={`#${id}`}
                className="inline-flex min-h-11 items-center text-primary-700 underline"
              >
                {t(`${id}.heading`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8 flex flex-col gap-10">
        {SECTIONS.map((id) => {
          const Demo = DEMOS[id];
          return (
            <Section key={id} id={id}>
              <Demo />
            </Section>
          );
        })}
      </div>
    </Page>
  );
}
