import { createContext, useContext, useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { controlClasses } from './control-classes';
import { ErrorCircleIcon } from './icons';

interface FieldContextValue {
  id: string;
  describedBy: string | undefined;
  isInvalid: boolean;
  isRequired: boolean;
}

const FieldContext = createContext<FieldContextValue | null>(null);

export interface FieldProps {
  /** The control's id (generated when not given). */
  id?: string;
  label: ReactNode;
  /** Help shown under the label, read with the control. */
  hint?: ReactNode;
  /** The validation message; marks the control invalid and is read with it. */
  error?: ReactNode;
  isRequired?: boolean;
  className?: string;
  children: ReactNode;
}

/** A label, optional hint and error message wired to the Input, Select or Textarea inside it. */
export function Field({
  id: givenId,
  label,
  hint,
  error,
  isRequired = false,
  className,
  children,
}: FieldProps) {
  const generatedId = useId();
  const id = givenId ?? generatedId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      {/* The asterisk is beside the label, not in it: the label text stays exactly the name
          (the control's `required` tells assistive technology). */}
      <div className="flex items-baseline">
        <label htmlFor={id} className="font-semibold text-slate-900">
          {label}
        </label>
        {isRequired && (
          <span aria-hidden="true" className="ms-1 font-semibold text-primary-700">
            *
          </span>
        )}
      </div>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      <FieldContext.Provider value={{ id, describedBy, isInvalid: Boolean(error), isRequired }}>
        {children}
      </FieldContext.Provider>
      {error && (
        <p id={errorId} className="flex items-start gap-1.5 text-sm font-medium text-primary-700">
          <ErrorCircleIcon className="mt-0.5 size-4 shrink-0" />
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}

interface ControlProps {
  id?: string | undefined;
  className?: string | undefined;
  required?: boolean | undefined;
  'aria-describedby'?: string | undefined;
  'aria-invalid'?: boolean | 'true' | 'false' | 'grammar' | 'spelling' | undefined;
}

/** Inside a Field, the Field's id labels the control; its description and state are merged in. */
function useControlProps<P extends ControlProps>(props: P): P {
  const field = useContext(FieldContext);
  const describedBy =
    [field?.describedBy, props['aria-describedby']].filter(Boolean).join(' ') || undefined;
  const isInvalid = Boolean(field?.isInvalid || props['aria-invalid']);
  return {
    ...props,
    id: field?.id ?? props.id,
    'aria-describedby': describedBy,
    'aria-invalid': isInvalid || undefined,
    required: props.required ?? (field?.isRequired || undefined),
    className: controlClasses(isInvalid, props.className),
  };
}

/** Props include `ref` (React 19), so `{...register('field')}` from react-hook-form works. */
export function Input(props: ComponentProps<'input'>) {
  return <input {...useControlProps(props)} />;
}

export function Select(props: ComponentProps<'select'>) {
  return <select {...useControlProps(props)} />;
}

export function Textarea(props: ComponentProps<'textarea'>) {
  return <textarea rows={4} {...useControlProps(props)} />;
}
