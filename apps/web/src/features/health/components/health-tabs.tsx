import { Tabs } from 'radix-ui';
import type { ReactNode } from 'react';
import type { HealthTab } from '../lib/health-check-fns';

export interface HealthTabsProps {
  tabs: readonly HealthTab[];
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}

const triggerClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm whitespace-nowrap text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

// Radix builds element ids from tab values, so the All tab ('' in the address) needs a name.
const ALL_VALUE = '__all__';
const toRadix = (value: string) => value || ALL_VALUE;
const fromRadix = (value: string) => (value === ALL_VALUE ? '' : value);

/** The dashboard's tabs (spec 2 section 2.2): 'All' first, then the sorted values of Tab By. */
export function HealthTabs({ tabs, value, onChange, children }: HealthTabsProps) {
  return (
    <Tabs.Root
      value={toRadix(value)}
      onValueChange={(next) => onChange(fromRadix(next))}
      className="flex min-w-0 flex-col gap-3"
    >
      <Tabs.List aria-label="Check tabs" className="flex overflow-x-auto border-b border-slate-200">
        {tabs.map((tab) => (
          <Tabs.Trigger key={toRadix(tab.value)} value={toRadix(tab.value)} className={triggerClass}>
            {tab.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {/* One panel: every tab shows the same table over its own checks. */}
      <Tabs.Content value={toRadix(value)} className="min-w-0 focus-visible:outline-none">
        {children}
      </Tabs.Content>
    </Tabs.Root>
  );
}
