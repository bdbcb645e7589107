/**
 * Saves a blob under `fileName` through a temporary download link: works for files fetched with
 * the bearer token (a plain link could not send it), on phones and desktops alike.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns: release it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
