import { afterEach, describe, expect, it } from 'vitest';
import { takeTypedValues, typedValues, watchPrerenderedForms } from './typed-before-hydration';

function prerenderedForm(): HTMLFormElement {
  document.body.innerHTML = `
    <form action="/emergency" method="post">
      <input type="radio" name="bloodType" value="A+" />
      <input type="radio" name="bloodType" value="B+" />
      <input name="contactPhone" value="" />
      <input type="hidden" name="unitsNeeded" value="1" />
    </form>`;
  return document.querySelector('form')!;
}

function check(form: HTMLFormElement, value: string) {
  const radio = form.querySelector<HTMLInputElement>(`input[value="${value}"]`)!;
  radio.checked = true;
  radio.dispatchEvent(new Event('change', { bubbles: true }));
}

afterEach(() => {
  takeTypedValues('/emergency');
  document.body.innerHTML = '';
});

describe('typed before hydration', () => {
  it('keeps what was typed before the script and while React adopts the form, even once the form is gone', () => {
    const form = prerenderedForm();
    form.querySelector<HTMLInputElement>('input[name="contactPhone"]')!.value = '9811100001';
    watchPrerenderedForms();
    check(form, 'B+');
    // React replaced the prerendered page (another language): the form is no longer there.
    document.body.innerHTML = '';
    expect(typedValues('/emergency')).toEqual({
      bloodType: 'B+',
      contactPhone: '9811100001',
      unitsNeeded: '1',
    });
    expect(takeTypedValues('/emergency')).toEqual({
      bloodType: 'B+',
      contactPhone: '9811100001',
      unitsNeeded: '1',
    });
  });

  it('hands the values over once: afterwards nothing is watched or remembered', () => {
    const form = prerenderedForm();
    watchPrerenderedForms();
    check(form, 'A+');
    expect(takeTypedValues('/emergency')).toMatchObject({ bloodType: 'A+' });
    check(form, 'B+');
    expect(takeTypedValues('/emergency')).toEqual({});
  });

  it('without a watcher, reads the form on the page; nothing for another action', () => {
    const form = prerenderedForm();
    check(form, 'A+');
    expect(typedValues('/emergency')).toEqual({ bloodType: 'A+', unitsNeeded: '1' });
    expect(typedValues('/other')).toEqual({});
  });
});
