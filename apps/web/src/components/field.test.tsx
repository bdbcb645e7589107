import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Field, Input, Select } from './field';

describe('Field', () => {
  it('labels its control and reads the hint with it', () => {
    render(
      <Field label="Full name" hint="As written on your ID document." isRequired>
        <Input autoComplete="name" />
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'Full name' });
    expect(screen.getByLabelText('Full name')).toBe(input);
    expect(input).toBeRequired();
    expect(input).toHaveAccessibleDescription('As written on your ID document.');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('marks the control invalid and reads the error with it', () => {
    render(
      <Field label="E-mail address" error="Enter a valid e-mail address.">
        <Input type="email" />
      </Field>,
    );
    const input = screen.getByRole('textbox', { name: 'E-mail address' });
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription('Enter a valid e-mail address.');
  });

  it('takes its id from the Field and keeps the control’s own required flag', () => {
    render(
      <Field id="blood-type" label="Blood type">
        <Select required>
          <option value="O+">O+</option>
        </Select>
      </Field>,
    );
    const select = screen.getByRole('combobox', { name: 'Blood type' });
    expect(select).toHaveAttribute('id', 'blood-type');
    expect(select).toBeRequired();
  });
});
