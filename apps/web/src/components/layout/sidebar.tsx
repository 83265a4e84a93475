import { PRODUCT_NAME } from '@lookout/contracts';
import { clsx } from 'clsx';
import { ChevronDown, Lighthouse, PanelLeftClose, PanelLeftOpen, Settings } from 'lucide-react';
import { DropdownMenu, Tooltip } from 'radix-ui';
import { useId, useState } from 'react';
import type { ReactElement } from 'react';
import { Link, matchPath, useLocation, useMatch } from 'react-router';
import { layoutClasses } from './layout-classes';
import type { NavigationItem } from './navigation-registry';

const SETTINGS_LABEL = 'Settings';

const itemClass = (active: boolean) =>
  clsx(
    'flex h-9 w-full items-center gap-3 rounded-md px-3 text-sm font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400',
    active
      ? 'bg-slate-800 text-white shadow-[inset_3px_0_0_var(--color-sky-400)]'
      : 'text-slate-300 hover:bg-slate-800/60 hover:text-white',
  );

/** A collapsed sidebar shows icons only, so each one names itself on hover and focus. */
function CollapsedTooltip({
  label,
  collapsed,
  children,
}: {
  label: string;
  collapsed: boolean;
  children: ReactElement;
}) {
  if (!collapsed) return children;
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content
          side="right"
          sideOffset={8}
          className="z-50 rounded bg-slate-900 px-2 py-1 text-xs font-medium text-white shadow"
        >
          {label}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

function SidebarLink({
  item,
  collapsed,
  nested = false,
}: {
  item: NavigationItem;
  collapsed: boolean;
  nested?: boolean;
}) {
  const Icon = item.icon;
  // Matched here rather than through NavLink's className callback: the tooltip trigger's
  // Slot merges class names as strings and would stringify the callback.
  const active = useMatch({ path: item.path, end: false }) !== null;
  return (
    <CollapsedTooltip label={item.label} collapsed={collapsed}>
      <Link
        to={item.path}
        aria-current={active ? 'page' : undefined}
        className={clsx(itemClass(active), nested && !collapsed && 'pl-9')}
      >
        <Icon aria-hidden className="size-5 shrink-0" />
        <span className={clsx('truncate', collapsed && 'sr-only')}>{item.label}</span>
      </Link>
    </CollapsedTooltip>
  );
}

const isUnder = (pathname: string, items: readonly NavigationItem[]) =>
  items.some((item) => matchPath({ path: item.path, end: false }, pathname) !== null);

/**
 * Settings as a disclosure when the sidebar is open, and as a flyout menu when it is
 * collapsed (an inline list of icons would be unreadable there).
 */
function SettingsMenu({ items, collapsed }: { items: readonly NavigationItem[]; collapsed: boolean }) {
  const { pathname } = useLocation();
  const listId = useId();
  const active = isUnder(pathname, items);
  const [open, setOpen] = useState(active);
  const [wasActive, setWasActive] = useState(active);
  if (wasActive !== active) {
    // Arriving on a settings page (from a link elsewhere) opens the group to show where we are.
    setWasActive(active);
    if (active) setOpen(true);
  }

  if (collapsed) {
    return (
      <DropdownMenu.Root>
        <CollapsedTooltip label={SETTINGS_LABEL} collapsed>
          <DropdownMenu.Trigger className={itemClass(active)} aria-label={SETTINGS_LABEL}>
            <Settings aria-hidden className="size-5 shrink-0" />
          </DropdownMenu.Trigger>
        </CollapsedTooltip>
        <DropdownMenu.Portal>
          <DropdownMenu.Content side="right" align="start" sideOffset={8} className={layoutClasses.menuContent}>
            <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-slate-500">
              {SETTINGS_LABEL}
            </DropdownMenu.Label>
            {items.map((item) => {
              const Icon = item.icon;
              return (
                <DropdownMenu.Item key={item.path} asChild className={layoutClasses.menuItem}>
                  <Link to={item.path}>
                    <Icon aria-hidden className="size-4 text-slate-500" />
                    {item.label}
                  </Link>
                </DropdownMenu.Item>
              );
            })}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    );
  }

  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
        className={clsx(itemClass(false), active && 'text-white')}
      >
        <Settings aria-hidden className="size-5 shrink-0" />
        <span className="flex-1 truncate text-left">{SETTINGS_LABEL}</span>
        <ChevronDown aria-hidden className={clsx('size-4 shrink-0 transition-transform', open && 'rotate-180')} />
      </button>
      {open && (
        <ul id={listId} aria-label={SETTINGS_LABEL} className="mt-1 space-y-1">
          {items.map((item) => (
            <li key={item.path}>
              <SidebarLink item={item} collapsed={false} nested />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export interface SidebarProps {
  areas: readonly NavigationItem[];
  settings: readonly NavigationItem[];
  collapsed: boolean;
  onToggle: () => void;
}

/** The console's main navigation: brand, registered areas, the settings group, collapse toggle. */
export function Sidebar({ areas, settings, collapsed, onToggle }: SidebarProps) {
  const navId = useId();
  const toggleLabel = collapsed ? 'Expand sidebar' : 'Collapse sidebar';
  const ToggleIcon = collapsed ? PanelLeftOpen : PanelLeftClose;

  return (
    <aside
      data-testid="sidebar"
      data-collapsed={collapsed}
      className={clsx(
        'flex h-full shrink-0 flex-col bg-slate-900 text-slate-300 transition-[width] duration-200',
        collapsed ? 'w-16' : 'w-60',
      )}
    >
      <div
        className={clsx(
          'flex h-14 shrink-0 items-center border-b border-slate-800',
          collapsed ? 'justify-center' : 'px-4',
        )}
      >
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400"
        >
          <Lighthouse aria-hidden className="size-6 shrink-0 text-sky-400" />
          <span className={clsx('text-lg font-semibold tracking-tight', collapsed && 'sr-only')}>{PRODUCT_NAME}</span>
        </Link>
      </div>

      <nav id={navId} aria-label="Main" className={clsx('flex-1 overflow-y-auto py-3', collapsed ? 'px-2' : 'px-3')}>
        <ul className="space-y-1">
          {areas.map((item) => (
            <li key={item.path}>
              <SidebarLink item={item} collapsed={collapsed} />
            </li>
          ))}
          {settings.length > 0 && (
            <li>
              <SettingsMenu items={settings} collapsed={collapsed} />
            </li>
          )}
        </ul>
      </nav>

      <div
        className={clsx(
          'shrink-0 border-t border-slate-800 p-2',
          collapsed ? 'flex justify-center' : 'flex justify-end',
        )}
      >
        <button
          type="button"
          onClick={onToggle}
          aria-label={toggleLabel}
          aria-expanded={!collapsed}
          aria-controls={navId}
          title={toggleLabel}
          className="inline-flex size-9 items-center justify-center rounded-md text-slate-400 hover:bg-slate-800 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-400"
        >
          <ToggleIcon aria-hidden className="size-5" />
        </button>
      </div>
    </aside>
  );
}
