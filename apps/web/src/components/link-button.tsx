import { Link, type LinkProps } from 'react-router';
import { buttonClasses, type ButtonStyleOptions } from './button';

export type LinkButtonProps = LinkProps & Omit<ButtonStyleOptions, 'className'>;

/** A link (it navigates) that looks like a button. */
export function LinkButton({ variant, size, fullWidth, className, ...props }: LinkButtonProps) {
  return (
    <Link
      className={buttonClasses({
        variant,
        size,
        fullWidth,
        className: typeof className === 'string' ? className : undefined,
      })}
      {...props}
    />
  );
}
