import {
  useEffect,
  useId,
  useRef,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { cn } from '../lib/cn';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.hidden && !element.closest('[hidden]'),
  );
}

export interface DialogProps {
  isOpen: boolean;
  /** Escape, a click on the backdrop, and the dialog's own cancel buttons call it. */
  onClose: () => void;
  /** The dialog's accessible name, shown as its heading. */
  title: ReactNode;
  /** Read with the name when the dialog opens. */
  description?: ReactNode;
  /** Takes focus when the dialog opens; else the first focusable element inside. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** An alert dialog (a destructive confirmation) is announced as one. */
  role?: 'dialog' | 'alertdialog';
  className?: string;
  children?: ReactNode;
}

/**
 * A modal dialog: labelled by its title, focus kept inside (Tab and Shift+Tab wrap), Escape and
 * the backdrop close it, the page behind is inert and does not scroll, and focus returns to
 * what opened it. Rendered into document.body, so no parent's overflow clips it.
 */
export function Dialog({
  isOpen,
  onClose,
  title,
  description,
  initialFocusRef,
  role = 'dialog',
  className,
  children,
}: DialogProps) {
  if (!isOpen) return null;
  return createPortal(
    <DialogPanel
      onClose={onClose}
      title={title}
      description={description}
      initialFocusRef={initialFocusRef}
      role={role}
      className={className}
    >
      {children}
    </DialogPanel>,
    document.body,
  );
}

function DialogPanel({
  onClose,
  title,
  description,
  initialFocusRef,
  role,
  className,
  children,
}: Omit<DialogProps, 'isOpen'>) {
  const id = useId();
  const titleId = `${id}-title`;
  const descriptionId = description ? `${id}-description` : undefined;
  const panelRef = useRef<HTMLDivElement>(null);
  const backdropRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  // Open: remember who had focus, make everything else inert, lock scrolling, focus inside.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const backdrop = backdropRef.current;
    const others = [...document.body.children].filter(
      (element): element is HTMLElement =>
        element instanceof HTMLElement && element !== backdrop && !element.hasAttribute('inert'),
    );
    for (const element of others) element.setAttribute('inert', '');
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';

    const panel = panelRef.current;
    const target = initialFocusRef?.current ?? (panel ? focusableIn(panel)[0] : null) ?? panel;
    target?.focus();

    return () => {
      for (const element of others) element.removeAttribute('inert');
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
    // Runs once per opening: the ref is read when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCloseRef.current();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = focusableIn(panelRef.current);
    if (focusable.length === 0) {
      event.preventDefault();
      return;
    }
    const first = focusable[0]!;
    const last = focusable.at(-1)!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panelRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      ref={backdropRef}
      className="fixed inset-0 z-50 flex animate-fade-in items-end justify-center bg-slate-900/60 p-3 sm:items-center sm:p-6"
      onMouseDown={(event) => {
        // Only a press that starts on the backdrop itself (not a text selection that ends there).
        if (event.target === event.currentTarget) onCloseRef.current();
      }}
    >
      <div
        ref={panelRef}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={cn(
          'flex max-h-[calc(100dvh-1.5rem)] w-full max-w-lg animate-scale-in flex-col gap-4 overflow-y-auto rounded-xl bg-white p-5 shadow-xl sm:p-6',
          className,
        )}
      >
        <h2 id={titleId} className="text-xl font-bold text-slate-900 sm:text-2xl">
          {title}
        </h2>
        {description && (
          <div id={descriptionId} className="text-slate-700">
            {description}
          </div>
        )}
        {children}
      </div>
    </div>
  );
}
