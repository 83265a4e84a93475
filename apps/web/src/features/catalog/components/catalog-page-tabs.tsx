import { CATALOG_PAGE_TABS } from '@lookout/contracts';
import { clsx } from 'clsx';
import { NavLink } from 'react-router';

/** The catalog's pages as tabs (the list, all changes, all insights), as the original's header. */
export function CatalogPageTabs() {
  return (
    <nav aria-label="Catalog pages" className="flex gap-1 border-b border-slate-200">
      {CATALOG_PAGE_TABS.map((tab) => (
        <NavLink
          key={tab.path}
          to={tab.path}
          end
          className={({ isActive }) =>
            clsx(
              '-mb-px border-b-2 px-3 py-1.5 text-sm',
              isActive
                ? 'border-blue-600 font-medium text-blue-700'
                : 'border-transparent text-slate-600 hover:text-slate-900',
            )
          }
        >
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
