import { useEffect, useRef, type KeyboardEvent } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isDonorApproved, isFeatureVisible } from '@bdms/shared';
import { ChevronDownIcon, UserIcon } from '../../components/icons';
import { useConfig } from '../../config/use-config';
import { useAuth, useAuthActions, type User } from '../../features/auth';
import { useDisplayNames } from '../../features/auth/display-name';
import UnreadBadge from '../../features/notifications/components/unread-badge';
import { cn } from '../../lib/cn';
import { useDismissable } from './use-dismissable';

/**
 * The bell with the unread count. Not for donors still waiting for approval: the guard keeps
 * them on their registration.
 */
export function NotificationsBell() {
  const { user } = useAuth();
  if (!user || (user.role === 'donor' && !isDonorApproved(user))) return null;
  return <UnreadBadge />;
}

/** One header per page, so a fixed id (the menu the account button controls). */
const ACCOUNT_MENU_ID = 'account-menu';

interface AccountEntry {
  to: string;
  label: string;
}

/**
 * The signed-in user menu (product spec section 2): a dashboard link, Profile Settings,
 * Notifications; Sign Out is added by the menus. The dashboard link reads "Admin Dashboard" (/admin)
 * for an admin, "Complete Registration" (/onboarding) while status is pending, else "Dashboard"
 * (/dashboard). Decision: a hospital's "Dashboard" goes straight to /hospital/dashboard, its home,
 * rather than through /dashboard. An approved donor also gets Donation History and Certificates
 * while `donationHistory` and `certificateGeneration` are on.
 */
export function useAccountEntries(user: User): AccountEntry[] {
  const { t } = useTranslation();
  const { flags } = useConfig();
  let dashboard: AccountEntry;
  if (user.role === 'admin') dashboard = { to: '/admin', label: t('account.adminDashboard') };
  else if (user.role === 'hospital') {
    dashboard = { to: '/hospital/dashboard', label: t('account.dashboard') };
  } else if ((user.status ?? 'pending') === 'pending') {
    dashboard = { to: '/onboarding', label: t('account.completeRegistration') };
  } else dashboard = { to: '/dashboard', label: t('account.dashboard') };
  // An approved donor's history and certificates, while their flags are on (API.md).
  const donorEntries: AccountEntry[] =
    user.role === 'donor' && isDonorApproved(user)
      ? [
          ...(flags.donationHistory
            ? [{ to: '/donor/history', label: t('account.donationHistory') }]
            : []),
          ...(flags.certificateGeneration
            ? [{ to: '/donor/certificates', label: t('account.certificates') }]
            : []),
        ]
      : [];
  return [
    dashboard,
    ...donorEntries,
    { to: '/profile', label: t('account.profileSettings') },
    { to: '/notifications', label: t('account.notifications') },
  ];
}

/** Sign Out logs out and goes to / (spec section 2). Leaving first: no guard redirect flashes. */
function useSignOut(): () => Promise<void> {
  const { logout } = useAuthActions();
  const navigate = useNavigate();
  return async () => {
    await navigate('/');
    await logout();
  };
}

const ENTRY_CLASS =
  'flex min-h-11 w-full items-center rounded-lg px-3 text-start font-medium text-slate-800 hover:bg-slate-100 hover:text-slate-900 focus-visible:bg-slate-100';

/**
 * "Signed in as …", the account links and Sign Out. As the desktop dropdown they are an ARIA
 * menu (menu button pattern: arrow keys, Home, End, Escape, Tab); in the mobile menu, where they
 * sit among the navigation links, they are plain links and a button.
 */
export function AccountEntries({ user, layout }: { user: User; layout: 'dropdown' | 'panel' }) {
  const { t } = useTranslation();
  const { header } = useDisplayNames(user);
  const entries = useAccountEntries(user);
  const signOut = useSignOut();
  const isMenu = layout === 'dropdown';
  const item = isMenu ? ({ role: 'menuitem', tabIndex: -1 } as const) : {};
  const none = isMenu ? ({ role: 'none' } as const) : {};
  return (
    <div className="flex flex-col gap-1">
      <p
        className={cn(
          'px-3 pb-1',
          isMenu ? 'pt-1 text-sm text-slate-700' : 'font-semibold text-slate-900',
        )}
      >
        {t('account.signedInAs', { name: header })}
      </p>
      <ul
        className="flex flex-col gap-1"
        {...(isMenu && { role: 'menu', 'aria-label': t('account.menuFor', { name: header }) })}
      >
        {entries.map((entry) => (
          <li key={entry.to} {...none}>
            <NavLink
              to={entry.to}
              end
              {...item}
              className={({ isActive }) =>
                cn(ENTRY_CLASS, !isMenu && 'text-lg', isActive && 'bg-primary-50')
              }
            >
              {entry.label}
            </NavLink>
          </li>
        ))}
        <li {...none} className="mt-1 border-t border-slate-200 pt-1">
          <button
            type="button"
            {...item}
            onClick={() => void signOut()}
            className={cn(ENTRY_CLASS, !isMenu && 'text-lg')}
          >
            {t('account.signOut')}
          </button>
        </li>
      </ul>
    </div>
  );
}

function menuItems(panel: HTMLElement | null): HTMLElement[] {
  return [...(panel?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
}

/** The desktop dropdown: a menu button with the user's name. */
export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { header } = useDisplayNames(user);
  const menu = useDismissable();
  const { isOpen, panelRef } = menu;
  /** Which item takes focus when the menu opens (ArrowUp on the button: the last). */
  const focusOnOpen = useRef<'first' | 'last'>('first');

  useEffect(() => {
    if (!isOpen) return;
    const items = menuItems(panelRef.current);
    (focusOnOpen.current === 'last' ? items.at(-1) : items[0])?.focus();
    focusOnOpen.current = 'first';
  }, [isOpen, panelRef]);

  if (!user) return null;

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    focusOnOpen.current = event.key === 'ArrowUp' ? 'last' : 'first';
    if (!isOpen) menu.toggle();
    else {
      const items = menuItems(panelRef.current);
      (event.key === 'ArrowUp' ? items.at(-1) : items[0])?.focus();
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = menuItems(panelRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = {
      ArrowDown: (index + 1) % items.length,
      ArrowUp: (index - 1 + items.length) % items.length,
      Home: 0,
      End: items.length - 1,
    };
    if (event.key === 'Tab') {
      menu.close();
      return;
    }
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    items[next]?.focus();
  };

  return (
    <div className="relative">
      <button
        ref={menu.buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={ACCOUNT_MENU_ID}
        aria-label={t('account.menuFor', { name: header })}
        onClick={menu.toggle}
        onKeyDown={onButtonKeyDown}
        className="inline-flex min-h-11 max-w-64 items-center gap-2 rounded-lg border-2 border-slate-300 bg-white px-3 font-semibold text-slate-900 hover:border-slate-400 hover:bg-slate-50"
      >
        <UserIcon className="size-5 shrink-0" />
        <span className="truncate">{header}</span>
        <ChevronDownIcon
          className={cn('size-4 shrink-0 transition-transform', isOpen && 'rotate-180')}
        />
      </button>
      <div
        ref={panelRef}
        id={ACCOUNT_MENU_ID}
        hidden={!isOpen}
        onKeyDown={onMenuKeyDown}
        className="absolute end-0 top-full z-40 mt-2 w-72 animate-scale-in rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
      >
        {isOpen && <AccountEntries user={user} layout="dropdown" />}
      </div>
    </div>
  );
}

/**
 * The role-specific shortcuts (API.md, product spec section 6 "Feature visibility"): the admin
 * panel for an administrator and the hospital dashboard for a hospital, each while its flag is on,
 * as `isFeatureVisible(feature, role)` decides.
 */
export function RoleShortcuts({ layout }: { layout: 'bar' | 'panel' }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { flags } = useConfig();
  const role = user?.role ?? null;
  const shortcuts = [
    ...(isFeatureVisible('adminPanel', role, flags)
      ? [{ to: '/admin', label: t('account.shortcutAdminPanel') }]
      : []),
    ...(isFeatureVisible('hospitalDashboard', role, flags)
      ? [{ to: '/hospital/dashboard', label: t('account.shortcutHospitalDashboard') }]
      : []),
  ];
  if (shortcuts.length === 0) return null;
  return (
    <nav aria-label={t('account.shortcuts')}>
      <ul className={cn('flex gap-2', layout === 'panel' && 'flex-col')}>
        {shortcuts.map((shortcut) => (
          <li key={shortcut.to}>
            <NavLink
              to={shortcut.to}
              end
              className={cn(
                'inline-flex min-h-11 items-center rounded-lg border-2 border-primary-700 px-3 font-semibold text-primary-800 hover:bg-primary-50',
                layout === 'panel' && 'w-full text-lg',
              )}
            >
              {shortcut.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export interface SignedInPartProps {
  /** The desktop account menu, the account entries of the mobile menu, or the bell. */
  part: 'menu' | 'entries' | 'bell';
}

/** The header's signed-in parts, as one lazily loaded component (./header.tsx). */
export default function SignedInPart({ part }: SignedInPartProps) {
  const { user } = useAuth();
  if (part === 'bell') return <NotificationsBell />;
  if (part === 'menu') {
    return (
      <div className="flex items-center gap-3">
        <RoleShortcuts layout="bar" />
        <UserMenu />
      </div>
    );
  }
  if (!user) return null;
  return (
    <div className="flex flex-col gap-3">
      <RoleShortcuts layout="panel" />
      <AccountEntries user={user} layout="panel" />
    </div>
  );
}
