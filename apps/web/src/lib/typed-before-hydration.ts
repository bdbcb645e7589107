/**
 * What a visitor types into a prerendered form before React has adopted it (issue #18: on a slow
 * phone the emergency form takes input long before its script has run). The values on the page
 * when the form first renders become its starting values; but a tap or a keystroke while React
 * is still adopting the page (hydration runs in slices) would be reset when the form registers
 * its fields, and a page drawn again (another language than the prerendered English) replaces
 * the prerendered form, perhaps first with a loading screen. So, from start-up until the form
 * has taken them, the prerendered forms' values are remembered here, by the form's `action`,
 * and handed to the form once React has it. A page may hold several (the emergency page: the
 * request form and "who holds this blood now"); watching stops once each has taken its own.
 */

type FormValues = Record<string, string>;

const remembered = new Map<string, FormValues>();
/** The prerendered forms (by action) that have not taken their values yet. */
const waiting = new Set<string>();
let stopWatching: (() => void) | null = null;

function valuesOf(form: HTMLFormElement): FormValues {
  const values: FormValues = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

function record(event: Event): void {
  const target = event.target;
  const form =
    target instanceof HTMLInputElement ||
    target instanceof HTMLSelectElement ||
    target instanceof HTMLTextAreaElement
      ? target.form
      : null;
  const action = form?.getAttribute('action');
  if (form && action) remembered.set(action, valuesOf(form));
}

/** Starts remembering the prerendered forms' values as they change (main.tsx, before hydration). */
export function watchPrerenderedForms(doc: Document = document): void {
  if (stopWatching) return;
  // What was typed before this script ran.
  for (const form of doc.querySelectorAll<HTMLFormElement>('form[action]')) {
    const action = form.getAttribute('action')!;
    remembered.set(action, valuesOf(form));
    waiting.add(action);
  }
  doc.addEventListener('input', record, true);
  doc.addEventListener('change', record, true);
  stopWatching = () => {
    doc.removeEventListener('input', record, true);
    doc.removeEventListener('change', record, true);
  };
}

/**
 * The values of the form posting to `action` as the visitor left them: the last change
 * remembered, else the form on the page now (empty when there is none). Non-empty values only.
 */
export function typedValues(action: string, doc: Document = document): FormValues {
  const form = doc.querySelector<HTMLFormElement>(`form[action="${action}"]`);
  const values = remembered.get(action) ?? (form ? valuesOf(form) : {});
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
}

/**
 * What was typed into the form of `action` while it was being adopted, once: afterwards that
 * form is React's. When every prerendered form has taken its values, watching stops and nothing
 * is remembered for a later visit to the page.
 */
export function takeTypedValues(action: string): FormValues {
  const values = remembered.has(action) ? typedValues(action) : {};
  remembered.delete(action);
  waiting.delete(action);
  if (waiting.size === 0) {
    remembered.clear();
    stopWatching?.();
    stopWatching = null;
  }
  return values;
}
