import { INCIDENT_MESSAGES } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { dbApi } from '@/lib/api-client';
import { incidentKeys } from '../api/incident-keys';

/**
 * The components topology evidence names (spec 3 section 2.3), as chips above the tabs;
 * 'Unable to load components!' when they cannot be read.
 */
export function ComponentChips({ ids }: { ids: readonly string[] }) {
  const components = useQuery({
    queryKey: incidentKeys.components(ids),
    enabled: ids.length > 0,
    queryFn: async () =>
      (
        await dbApi.get<{ id: string; name: string }[]>('/components', {
          params: { id: `in.(${ids.join(',')})`, select: 'id,name' },
        })
      ).data,
  });
  if (ids.length === 0) return null;
  if (components.isError) {
    return (
      <p role="alert" className="text-sm text-red-600">
        {INCIDENT_MESSAGES.componentsLoadFailed}
      </p>
    );
  }
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Components">
      {(components.data ?? []).map((component) => (
        <li key={component.id}>
          <Link
            to={`/topology/${component.id}`}
            className="inline-flex rounded-full border border-slate-300 bg-white px-3 py-0.5 text-xs text-slate-700 hover:bg-slate-50"
          >
            {component.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}
