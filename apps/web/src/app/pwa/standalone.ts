/**
 * Running as the installed app (display mode standalone, or iOS's `navigator.standalone`). Its
 * own module: the footer's "Install app" button asks it on the first page, without the install
 * code.
 */
export function isStandaloneDisplay(
  win: Window | undefined = typeof window === 'undefined' ? undefined : window,
): boolean {
  // Rendered at build time (src/prerender): a page in a browser tab.
  if (!win) return false;
  return (
    win.matchMedia?.('(display-mode: standalone)').matches === true ||
    (win.navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}
