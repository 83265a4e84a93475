/**
 * Class lists shared by the shell's menus and icon buttons, so the top bar and sidebar
 * read as one family and a change of look happens in one place.
 */
export const layoutClasses = {
  iconButton:
    'inline-flex size-9 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 data-[state=open]:bg-slate-100 data-[state=open]:text-slate-900',
  menuContent: 'z-50 min-w-56 rounded-md border border-slate-200 bg-white p-1 text-sm text-slate-700 shadow-lg',
  menuItem:
    'flex cursor-pointer select-none items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900',
} as const;
