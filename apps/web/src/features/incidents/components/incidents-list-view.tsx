import { INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { getIncidents } from '../api/incidents-api';
import { incidentKeys } from '../api/incident-keys';
import { readIncidentFilters, writeIncidentFilter } from '../lib/incident-list-params';
import { CreateIncidentModal } from './create-incident-modal';
import { IncidentFilterBar } from './incident-filter-bar';
import { IncidentsTable } from './incidents-table';

/** `/incidents` (spec 3 section 2.3): filters in the URL, the list, the create modal. */
export function IncidentsListView({ canWrite }: { canWrite: boolean }) {
  const [params, setParams] = useSearchParams();
  const filters = readIncidentFilters(params);
  const [creating, setCreating] = useState(false);
  const list = useQuery({ queryKey: incidentKeys.list(filters), queryFn: () => getIncidents(filters) });
  return (
    <div className="space-y-4 p-4">
      <PageHeader
        title={INCIDENT_UI_TEXTS.title}
        onRefresh={() => void list.refetch()}
        isLoading={list.isFetching}
        actions={
          canWrite ? <Button onClick={() => setCreating(true)}>{INCIDENT_UI_TEXTS.createButton}</Button> : undefined
        }
      />
      <IncidentFilterBar
        filters={filters}
        onChange={(name, value) => setParams(writeIncidentFilter(params, name, value))}
      />
      {list.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {getErrorMessage(list.error)}
        </p>
      ) : list.data ? (
        <IncidentsTable rows={list.data} now={new Date()} />
      ) : null}
      {canWrite && <CreateIncidentModal open={creating} onOpenChange={setCreating} />}
    </div>
  );
}
