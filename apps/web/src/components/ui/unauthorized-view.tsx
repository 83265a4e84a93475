import { VIEW_MESSAGES } from '@lookout/contracts';
import { ShieldX } from 'lucide-react';

/** Shown in place of an area the signed-in user has no permission to see. */
export function UnauthorizedView() {
  return (
    <div className="mx-auto my-8 flex w-full max-w-2xl items-center gap-3 rounded-lg border border-amber-200 bg-amber-50 p-6">
      <ShieldX aria-hidden className="size-6 shrink-0 text-amber-600" />
      <p role="status" className="text-sm font-medium text-amber-900">
        {VIEW_MESSAGES.unauthorized}
      </p>
    </div>
  );
}
