import { DEBOUNCE_MS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { Search, X } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';

/** Props of {@link SearchBox}. */
export type SearchBoxProps = {
  /** The applied search text (for example from the URL); the box follows it when it changes. */
  value?: string;
  /** Called with the text once typing pauses for `debounceMs`, and at once when cleared. */
  onChange: (value: string) => void;
  placeholder?: string;
  /** Accessible name of the input; defaults to the placeholder, then 'Search'. */
  'aria-label'?: string;
  /** Debounce of `onChange`; 400 ms by default (spec 1, section 5). */
  debounceMs?: number;
  className?: string;
  autoFocus?: boolean;
};

/** Search input with a clear button (spec 1, section 2.7) and a debounced `onChange`. */
export function SearchBox({
  value = '',
  onChange,
  placeholder,
  'aria-label': ariaLabel,
  debounceMs = DEBOUNCE_MS.searchBox,
  className,
  autoFocus,
}: SearchBoxProps) {
  const [text, setText] = useState(value);
  const [appliedValue, setAppliedValue] = useState(value);
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The latest callback, so a pending debounce never calls a stale one.
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // Follow outside changes of `value` (back navigation, a reset) without losing what is typed.
  if (value !== appliedValue) {
    setAppliedValue(value);
    setText(value);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const schedule = (next: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onChangeRef.current(next), debounceMs);
  };

  const clear = () => {
    clearTimeout(timer.current);
    setText('');
    onChangeRef.current('');
    inputRef.current?.focus();
  };

  const onInputChange = (event: ChangeEvent<HTMLInputElement>) => {
    setText(event.target.value);
    schedule(event.target.value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && text !== '') {
      event.preventDefault();
      clear();
    }
  };

  return (
    <div className={clsx('relative flex items-center', className)}>
      <Search aria-hidden className="pointer-events-none absolute left-2 size-4 text-gray-400" />
      <input
        ref={inputRef}
        type="search"
        value={text}
        onChange={onInputChange}
        onKeyDown={onKeyDown}
        placeholder={placeholder}
        aria-label={ariaLabel ?? placeholder ?? 'Search'}
        autoFocus={autoFocus}
        className={clsx(
          'h-8 w-full rounded border border-gray-300 bg-white pl-8 text-sm text-gray-900 placeholder:text-gray-400 focus-visible:border-blue-500 focus-visible:outline-2 focus-visible:outline-blue-500/40 [&::-webkit-search-cancel-button]:appearance-none',
          // Room for the clear button only while it shows, so a long placeholder is not cut short.
          text === '' ? 'pr-2' : 'pr-8',
        )}
      />
      {text !== '' && (
        <button
          type="button"
          aria-label="Clear search"
          onClick={clear}
          className="absolute right-1.5 rounded p-0.5 text-gray-400 hover:text-gray-700 focus-visible:outline-2 focus-visible:outline-blue-500"
        >
          <X aria-hidden className="size-4" />
        </button>
      )}
    </div>
  );
}
