import { useId } from 'react';

export interface FilterSelectProps {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}

/** A compact select with its label in front ('Health: All'), for the filter bar. */
export function FilterSelect({ label, value, options, onChange }: FilterSelectProps) {
  const id = useId();
  return (
    <div className="inline-flex h-8 items-center rounded border border-gray-300 bg-white text-sm focus-within:outline-2 focus-within:outline-blue-500">
      <label htmlFor={id} className="shrink-0 pl-2.5 text-xs whitespace-nowrap text-gray-500">
        {label}:
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="h-full max-w-56 min-w-0 truncate rounded bg-transparent pr-1 pl-1.5 text-gray-800 focus:outline-none"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {/* A value from a shared link that the options lack still shows as chosen. */}
        {!options.some((option) => option.value === value) && <option value={value}>{value}</option>}
      </select>
    </div>
  );
}
