/**
 * Runs `task` once the page has loaded and the browser is idle (or after 3 s at the latest): the
 * first screen's own downloads always come first. Returns a cancel function.
 */
export function afterLoad(task: () => void): () => void {
  let cancelled = false;
  const run = () => {
    const go = () => cancelled || task();
    if (window.requestIdleCallback) window.requestIdleCallback(go, { timeout: 3000 });
    else setTimeout(go, 1);
  };
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', run);
  };
}
