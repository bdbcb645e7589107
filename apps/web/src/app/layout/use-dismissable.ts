import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * Open/closed state of a header panel (mobile menu, account menu). It belongs to the location it
 * was opened at, so a route change closes it; so do a click outside it and Escape, which also
 * gives focus back to the button that opened it.
 */
export function useDismissable() {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const isOpen = openAt === location.key;
  const panelRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (panelRef.current?.contains(target) || buttonRef.current?.contains(target)) return;
      setOpenAt(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenAt(null);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [isOpen]);

  return {
    isOpen,
    panelRef,
    buttonRef,
    toggle: () => setOpenAt(isOpen ? null : location.key),
    close: () => setOpenAt(null),
  };
}
