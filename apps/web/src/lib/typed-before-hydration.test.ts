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

describe('two prerendered forms on one page', () => {
  afterEach(() => {
    takeTypedValues('/blood-banks');
  });

  it('keeps watching the second until it takes its own values, once', () => {
    document.body.innerHTML = `
      <form action="/emergency" method="post"><input name="contactPhone" value="" /></form>
      <form action="/blood-banks" method="get">
        <select name="bloodType"><option value="">Choose</option><option value="O-">O-</option></select>
        <input name="where" value="" />
      </form>`;
    watchPrerenderedForms();
    const [request, finder] = [...document.querySelectorAll('form')] as HTMLFormElement[];
    const phone = request!.querySelector('input')!;
    phone.value = '9811100001';
    phone.dispatchEvent(new Event('input', { bubbles: true }));
    expect(takeTypedValues('/emergency')).toEqual({ contactPhone: '9811100001' });
    // The request form is React's; the finder is still being adopted.
    const select = finder!.querySelector('select')!;
    select.value = 'O-';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    const where = finder!.querySelector('input')!;
    where.value = '110001';
    where.dispatchEvent(new Event('input', { bubbles: true }));
    expect(takeTypedValues('/blood-banks')).toEqual({ bloodType: 'O-', where: '110001' });
    expect(takeTypedValues('/blood-banks')).toEqual({});
    // Both taken: nothing is watched any more.
    select.value = '';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    expect(takeTypedValues('/blood-banks')).toEqual({});
  });
});
