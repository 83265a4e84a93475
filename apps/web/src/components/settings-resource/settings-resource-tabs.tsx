import { SETTINGS_RESOURCE_TABS, SETTINGS_RESOURCE_TEXTS, type SettingsResourceTab } from '@lookout/contracts';
import { Tabs } from 'radix-ui';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';

export interface SettingsResourceTabsProps {
  /** The tabs' accessible name, e.g. the resource's name. */
  label: string;
  /** Each tab's content; a tab without content is left out (spec 2 section 2.8). */
  content: Partial<Record<SettingsResourceTab, ReactNode>>;
}

const tabClass =
  'border-b-2 border-transparent px-3 py-1.5 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-sky-600 data-[state=active]:border-sky-600 data-[state=active]:font-medium data-[state=active]:text-slate-900';

/**
 * The editor's sub-tabs (spec 2 section 2.8): Spec, Members (teams only) and Job History, the
 * chosen one kept in the address (`?tab=`). The Spec tab stays mounted while another shows, so
 * unsaved edits survive a look at the members or the runs.
 */
export function SettingsResourceTabs({ label, content }: SettingsResourceTabsProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const shown = SETTINGS_RESOURCE_TABS.filter((tab) => content[tab] !== undefined);
  const requested = searchParams.get('tab');
  const tab = shown.find((candidate) => candidate === requested) ?? shown[0] ?? 'spec';
  const select = (value: string) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (value === shown[0]) next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  return (
    <Tabs.Root value={tab} onValueChange={select}>
      <Tabs.List aria-label={label} className="flex border-b border-slate-200">
        {shown.map((value) => (
          <Tabs.Trigger key={value} value={value} className={tabClass}>
            {SETTINGS_RESOURCE_TEXTS.tabs[value]}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {shown.map((value) => (
        <Tabs.Content
          key={value}
          value={value}
          forceMount={value === 'spec' ? true : undefined}
          className="pt-4 focus-visible:outline-none data-[state=inactive]:hidden"
        >
          {content[value]}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
