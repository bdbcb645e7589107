/**
 * The text of each statement this process prepares under a name (db/prebuilt.ts), so that an
 * `execute <name>(…)` sent as plain text (db/merged-messages.ts) is read for what it writes as
 * the statement itself would be (db/write-tracker.ts).
 */
const texts = new Map<string, string>();

export function rememberPrepared(name: string, text: string): void {
  texts.set(name, text);
}

export function preparedText(name: string): string | undefined {
  return texts.get(name);
}
