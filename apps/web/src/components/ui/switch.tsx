import { clsx } from 'clsx';
import { Switch as SwitchPrimitive } from 'radix-ui';
import { useId } from 'react';

export interface SwitchProps {
  /** Visible label, to the right of the switch; also its accessible name. */
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
}

/**
 * An on/off switch with its label (Radix Switch: `role="switch"`, Space and Enter toggle it).
 * The label is bound to it, so a click on the text toggles it as a click on the track does.
 */
export function Switch({ label, checked, onCheckedChange, disabled = false, className }: SwitchProps) {
  const id = useId();
  return (
    <div className={clsx('flex items-center gap-2', className)}>
      <SwitchPrimitive.Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        className="peer relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-sky-600"
      >
        <SwitchPrimitive.Thumb className="inline-block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-4.5" />
      </SwitchPrimitive.Root>
      <label
        htmlFor={id}
        className="cursor-pointer text-sm text-slate-800 select-none peer-disabled:cursor-not-allowed peer-disabled:opacity-50"
      >
        {label}
      </label>
    </div>
  );
}
