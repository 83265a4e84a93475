import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import type { Evidence, Hypothesis, IncidentDetail } from '../api/incident-types';
import { IncidentUserContext } from '../lib/incident-user';

export const TEST_PERSON = { id: '11111111-1111-4111-8111-111111111111', name: 'Ada Lovelace', avatar: null };
export const INCIDENT_ID = '22222222-2222-4222-8222-222222222222';
export const ROOT_ID = '33333333-3333-4333-8333-333333333333';

/** Renders incident components with a query client, a router and the signed-in person. */
export function renderIncident(ui: ReactNode, { path = '/', client }: { path?: string; client?: QueryClient } = {}) {
  const queryClient =
    client ?? new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const user = userEvent.setup();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <IncidentUserContext value={TEST_PERSON}>{ui}</IncidentUserContext>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, user, queryClient };
}

export function evidenceFixture(overrides: Partial<Evidence> = {}): Evidence {
  return {
    id: '44444444-4444-4444-8444-444444444444',
    hypothesis_id: ROOT_ID,
    type: 'log',
    description: 'api logs',
    evidence: null,
    component_id: null,
    config_id: null,
    check_id: null,
    config_change_id: null,
    config_analysis_id: null,
    definition_of_done: false,
    done: false,
    script: null,
    created_at: '2026-01-01T10:00:00Z',
    created_by: TEST_PERSON,
    ...overrides,
  };
}

export function incidentFixture(overrides: Partial<IncidentDetail> = {}, hypotheses?: Hypothesis[]): IncidentDetail {
  return {
    id: INCIDENT_ID,
    incident_id: 'INC-7',
    title: 'Checkout is slow',
    description: '',
    type: 'availability',
    severity: 'low',
    status: 'open',
    created_at: '2026-01-01T09:00:00Z',
    updated_at: '2026-01-01T09:00:00Z',
    created_by: TEST_PERSON.id,
    commander: null,
    hypotheses: hypotheses ?? [
      {
        id: ROOT_ID,
        incident_id: INCIDENT_ID,
        parent_id: null,
        type: 'root',
        title: 'Checkout is slow',
        status: 'possible',
        created_at: '2026-01-01T09:00:00Z',
        created_by: TEST_PERSON,
        evidences: [evidenceFixture()],
        comments: [],
      },
    ],
    ...overrides,
  };
}
