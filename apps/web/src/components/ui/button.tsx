import { clsx } from 'clsx';
import type { ComponentProps } from 'react';

/** The looks a button can take; `danger` is for destructive confirmations. */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';

const base =
  'inline-flex items-center justify-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 disabled:cursor-not-allowed disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-slate-900 text-white hover:bg-slate-700',
  secondary: 'border border-slate-300 bg-white text-slate-800 shadow-sm hover:bg-slate-50',
  danger: 'bg-red-600 text-white hover:bg-red-700',
  ghost: 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
};

/** Class list of a button, for links and triggers that must look like one. */
export function buttonClasses(variant: ButtonVariant = 'primary', className?: string): string {
  return clsx(base, variants[variant], className);
}

export type ButtonProps = ComponentProps<'button'> & { variant?: ButtonVariant };

/** A button of the console's family; `type` defaults to `button` so it never submits by accident. */
export function Button({ variant = 'primary', className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, className)} {...props} />;
}
