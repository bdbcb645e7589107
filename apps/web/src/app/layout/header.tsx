import { Suspense } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '../../components/error-boundary';
import { LinkButton } from '../../components/link-button';
import { Button } from '../../components/button';
import { CloseIcon, DropIcon, MenuIcon, WarningIcon } from '../../components/icons';
import { useConfig } from '../../config/use-config';
import { useAuth, useAuthActions } from '../../features/auth';
import { cn } from '../../lib/cn';
import { isChunkLoadError, lazyWithRetry } from '../../lib/lazy-with-retry';
import { LanguageSwitcher } from './language-switcher';
import { useDismissable } from './use-dismissable';
import type { SignedInPartProps } from './user-menu';

/**
 * The signed-in parts of the header (./user-menu.tsx: the account menu, its entries for the
 * mobile menu and the notifications bell) are one chunk that only signed-in users download, and
 * one lazy component, so once it has arrived every part shows at once.
 */
const SignedInParts = lazyWithRetry<SignedInPartProps>(
  'signed-in-header',
  () => import('./user-menu'),
);

/**
 * The account menu's code never arrived: "Loading Error" with Refresh Page (product spec section
 * 2), and Sign Out, which needs none of that code: the user is never left signed in without a way
 * out (issue #18).
 */
function AccountLoadingError({ layout }: { layout: 'bar' | 'panel' }) {
  const { t } = useTranslation(['errors', 'common']);
  const { logout } = useAuthActions();
  const navigate = useNavigate();
  const signOut = async () => {
    await navigate('/');
    await logout();
  };
  const isPanel = layout === 'panel';
  return (
    <div
      role="alert"
      className={cn(
        'flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-2 text-slate-900',
        isPanel ? 'flex-col p-4' : 'items-center',
      )}
    >
      <p className={cn('flex items-center gap-2 font-semibold', !isPanel && 'text-sm')}>
        <WarningIcon className="size-5 shrink-0 text-amber-800" />
        {t('loadingError.title')}
      </p>
      <p className={isPanel ? 'text-slate-800' : 'sr-only'}>{t('loadingError.message')}</p>
      <div className={cn('flex gap-2', isPanel && 'flex-col')}>
        <Button variant="secondary" onClick={() => window.location.reload()}>
          {t('common:actions.refreshPage')}
        </Button>
        <Button variant="ghost" onClick={() => void signOut()}>
          {t('common:account.signOut')}
        </Button>
      </div>
    </div>
  );
}

/** Shown once its code has arrived; should it never come, "Loading Error" with Sign Out. */
function SignedInPart(props: SignedInPartProps) {
  const { status, user } = useAuth();
  if (status !== 'authenticated' || !user) return null;
  const { part } = props;
  return (
    <ErrorBoundary
      fallback={({ error }) => {
        if (!isChunkLoadError(error)) throw error;
        return part === 'bell' ? null : (
          <AccountLoadingError layout={part === 'menu' ? 'bar' : 'panel'} />
        );
      }}
    >
      <Suspense fallback={null}>
        <SignedInParts {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}

/** One header per page, so a fixed id (end-to-end tests find the panel by it). */
const MOBILE_MENU_ID = 'mobile-menu';

interface NavItem {
  to: string;
  label: string;
  end?: boolean;
}

function useNavItems(): NavItem[] {
  const { t } = useTranslation();
  const { flags } = useConfig();
  return [
    { to: '/', label: t('nav.home'), end: true },
    { to: '/about', label: t('nav.about') },
    { to: '/education', label: t('nav.education') },
    { to: '/contact', label: t('nav.contact') },
    ...(flags.emergencyServices ? [{ to: '/emergency', label: t('nav.emergency') }] : []),
    ...(flags.bloodBankDirectory ? [{ to: '/blood-banks', label: t('nav.bloodBanks') }] : []),
  ];
}

function navLinkClass({ isActive }: { isActive: boolean }, layout: 'bar' | 'panel'): string {
  return cn(
    'inline-flex min-h-11 items-center rounded-lg font-medium transition-colors',
    layout === 'bar' ? 'px-3' : 'w-full px-4 text-lg',
    isActive
      ? 'bg-primary-50 text-primary-800 underline decoration-2 underline-offset-8'
      : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  );
}

/** Sign In / Register for visitors, the account menu when signed in, nothing while loading. */
function AccountLinks({ layout }: { layout: 'bar' | 'panel' }) {
  const { t } = useTranslation();
  const { status, user } = useAuth();
  if (status === 'loading') return null;
  if (status === 'authenticated' && user) {
    return <SignedInPart part={layout === 'bar' ? 'menu' : 'entries'} />;
  }
  const fullWidth = layout === 'panel';
  return (
    <>
      <LinkButton to="/login" variant="secondary" fullWidth={fullWidth}>
        {t('nav.signIn')}
      </LinkButton>
      <LinkButton to="/register" fullWidth={fullWidth}>
        {t('nav.register')}
      </LinkButton>
    </>
  );
}

export function Header() {
  const { t } = useTranslation();
  const items = useNavItems();
  // Closes on a route change, a click outside it, and Escape (focus returns to its button).
  const menu = useDismissable();
  const isMenuOpen = menu.isOpen;

  return (
    <header className="relative z-30 border-b border-slate-200 bg-white">
      <div className="container-page flex min-h-16 items-center justify-between gap-3 py-2">
        <Link
          to="/"
          className="flex min-h-11 items-center gap-2 rounded-lg text-slate-900 no-underline"
        >
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary-700 text-white">
            <DropIcon className="size-6" />
          </span>
          <span className="max-w-44 text-base leading-tight font-bold sm:max-w-none sm:text-lg">
            {t('appName')}
          </span>
        </Link>

        <div className="flex items-center gap-2 md:gap-3">
          <div className="hidden items-center gap-3 md:flex">
            <LanguageSwitcher />
            <AccountLinks layout="bar" />
          </div>
          <SignedInPart part="bell" />

          <button
            ref={menu.buttonRef}
            type="button"
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg border-2 border-slate-300 text-slate-900 md:hidden"
            aria-expanded={isMenuOpen}
            aria-controls={MOBILE_MENU_ID}
            aria-label={isMenuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            onClick={menu.toggle}
          >
            {isMenuOpen ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
          </button>
        </div>
      </div>

      <nav aria-label={t('nav.label')} className="hidden border-t border-slate-100 md:block">
        <ul className="container-page flex flex-wrap gap-1 py-1">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                end={item.end}
                className={(state) => navLinkClass(state, 'bar')}
              >
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      <div
        ref={menu.panelRef}
        id={MOBILE_MENU_ID}
        hidden={!isMenuOpen}
        className="absolute inset-x-0 top-full animate-slide-down border-b border-slate-200 bg-white shadow-lg md:hidden"
      >
        {isMenuOpen && (
          <div className="container-page flex flex-col gap-4 py-4">
            <nav aria-label={t('nav.mobileMenu')}>
              <ul className="flex flex-col gap-1">
                {items.map((item) => (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      end={item.end}
                      className={(state) => navLinkClass(state, 'panel')}
                    >
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <div className="flex flex-col gap-3 border-t border-slate-200 pt-4">
              <AccountLinks layout="panel" />
            </div>
            <LanguageSwitcher className="border-t border-slate-200 pt-4" />
          </div>
        )}
      </div>
    </header>
  );
}
