/** Where main.tsx keeps a `beforeinstallprompt` that fired before the install code loaded. */
export const EARLY_INSTALL_PROMPT = '__bdmsInstallPrompt';
