import { clsx } from 'clsx';
import { useId } from 'react';

export interface SwitchToggleProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

/** An on/off switch with its label to the right (the dashboard's Hide Passing). */
export function SwitchToggle({ label, checked, onChange }: SwitchToggleProps) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        onClick={() => onChange(!checked)}
        className={clsx(
          'relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600',
          checked ? 'bg-sky-600' : 'bg-slate-300',
        )}
      >
        <span
          aria-hidden
          className={clsx(
            'inline-block size-4 rounded-full bg-white shadow transition-transform',
            checked ? 'translate-x-4.5' : 'translate-x-0.5',
          )}
        />
      </button>
      <label htmlFor={id} className="text-sm text-slate-800">
        {label}
      </label>
    </div>
  );
}
