import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AddResponderModal } from './add-responder-modal';
import { INCIDENT_ID, renderIncident, TEST_PERSON } from './incident-test-utils';
import { IncidentsListView } from './incidents-list-view';
import { LinkToIncidentDialog } from './link-to-incident-dialog';

vi.setConfig({ testTimeout: 20_000 });

const R = INCIDENT_UI_TEXTS.responders;
const JIRA_TEAM = {
  id: '55555555-5555-4555-8555-555555555555',
  name: 'Payments',
  icon: null,
  spec: { responder_clients: { jira: { values: { configType: ['cloud', 'onprem'], project: ['PAY', 'OPS'] } } } },
};
const QUIET_TEAM = { id: '66666666-6666-4666-8666-666666666666', name: 'Quiet', icon: null, spec: {} };

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function responderBackend() {
  const posted: unknown[] = [];
  server.use(
    http.get('*/api/db/teams', () => HttpResponse.json([JIRA_TEAM, QUIET_TEAM])),
    http.get('*/api/db/people', () => HttpResponse.json([TEST_PERSON])),
    http.post('*/api/db/responders', async ({ request }) => {
      posted.push(await request.json());
      return HttpResponse.json([{}], { status: 201 });
    }),
    http.get('*/api/db/*', () => HttpResponse.json([])),
  );
  return posted;
}

describe('the responder modal', () => {
  it('adds a person directly from the first step', async () => {
    const posted = responderBackend();
    const onClose = vi.fn();
    const { user } = renderIncident(<AddResponderModal incidentId={INCIDENT_ID} onClose={onClose} />);
    await screen.findByRole('option', { name: TEST_PERSON.name });
    await user.selectOptions(screen.getByRole('combobox', { name: R.person }), TEST_PERSON.name);
    await user.click(screen.getByRole('button', { name: R.add }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posted).toEqual([
      {
        type: 'person',
        incident_id: INCIDENT_ID,
        created_by: TEST_PERSON.id,
        person_id: TEST_PERSON.id,
        properties: { responderType: 'person', person: TEST_PERSON.id },
      },
    ]);
  });

  it('says when a team has no responder types', async () => {
    responderBackend();
    const { user } = renderIncident(<AddResponderModal incidentId={INCIDENT_ID} onClose={vi.fn()} />);
    await screen.findByRole('option', { name: QUIET_TEAM.name });
    await user.selectOptions(screen.getByRole('combobox', { name: R.team }), QUIET_TEAM.name);
    await user.click(screen.getByRole('button', { name: R.next }));
    expect(screen.getByText(INCIDENT_MESSAGES.noTeamResponders)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: R.next })).toBeDisabled();
  });

  it('cascades the Jira fields, requires them, and saves a system responder', async () => {
    const posted = responderBackend();
    const { user } = renderIncident(<AddResponderModal incidentId={INCIDENT_ID} onClose={vi.fn()} />);
    await screen.findByRole('option', { name: JIRA_TEAM.name });
    await user.selectOptions(screen.getByRole('combobox', { name: R.team }), JIRA_TEAM.name);
    await user.click(screen.getByRole('button', { name: R.next }));
    await user.click(screen.getByRole('radio', { name: 'Jira' }));
    await user.click(screen.getByRole('button', { name: R.next }));
    // Issue type and priority wait for a project.
    expect(screen.getByRole('textbox', { name: 'Issue Type' })).toBeDisabled();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Config Type' }), 'cloud');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Project' }), 'PAY');
    await user.type(screen.getByRole('textbox', { name: 'Issue Type' }), 'Bug');
    // Another instance clears project and issue type.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Config Type' }), 'onprem');
    expect(screen.getByRole('combobox', { name: 'Project' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Issue Type' })).toHaveValue('');
    await user.click(screen.getByRole('button', { name: R.save }));
    expect(screen.getAllByText(INCIDENT_MESSAGES.validValue).length).toBeGreaterThan(0);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Project' }), 'OPS');
    for (const [field, value] of [
      ['Issue Type', 'Bug'],
      ['Priority', 'High'],
      ['Summary', 'Checkout slow'],
      ['Description', 'p99 above 2 s'],
    ] as const) {
      await user.type(screen.getByRole('textbox', { name: field }), value);
    }
    await user.click(screen.getByRole('button', { name: R.save }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      type: 'system',
      team_id: JIRA_TEAM.id,
      properties: { responderType: 'jira', configType: 'onprem', project: 'OPS', issueType: 'Bug', priority: 'High' },
    });
  });
});

describe('the incident list', () => {
  it('asks for open incidents by default and writes filters to the URL', async () => {
    const queries: URLSearchParams[] = [];
    server.use(
      http.get('*/api/db/incident_summary', ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json([]);
      }),
      http.get('*/api/db/*', () => HttpResponse.json([])),
    );
    const { user } = renderIncident(<IncidentsListView canWrite={false} />, { path: '/incidents' });
    expect(await screen.findByText(INCIDENT_MESSAGES.listEmpty)).toBeInTheDocument();
    expect(queries[0]?.get('status')).toBe('eq.open');
    expect(screen.getByPlaceholderText(INCIDENT_MESSAGES.searchPlaceholder)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: INCIDENT_UI_TEXTS.createButton })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: INCIDENT_UI_TEXTS.filters.severity }), 'high');
    await waitFor(() => expect(queries.at(-1)?.get('severity')).toBe('eq.high'));
  });
});

describe('the Link to Incident dialog', () => {
  it('requires an incident, hides type and severity for an existing one, and attaches evidence', async () => {
    const evidences: unknown[] = [];
    server.use(
      http.get('*/api/db/incidents', () =>
        HttpResponse.json([{ id: INCIDENT_ID, title: 'Checkout is slow', incident_id: 'INC-7', hypotheses: [] }]),
      ),
      http.get('*/api/db/hypotheses', () => HttpResponse.json([{ id: 'h1', title: 'Pool exhausted' }])),
      http.post('*/api/db/evidences', async ({ request }) => {
        evidences.push(await request.json());
        return HttpResponse.json([{}], { status: 201 });
      }),
    );
    const onLinked = vi.fn();
    const { user } = renderIncident(
      <LinkToIncidentDialog
        open
        onOpenChange={vi.fn()}
        onLinked={onLinked}
        evidence={{ type: 'check', check_id: 'c1', description: 'http check' }}
      />,
    );
    await user.click(screen.getByRole('button', { name: INCIDENT_MESSAGES.linkButton }));
    expect(screen.getByText(INCIDENT_MESSAGES.linkIncidentRequired)).toBeInTheDocument();
    const incidents = screen.getByRole('listbox', { name: INCIDENT_UI_TEXTS.link.incident });
    await user.click(await within(incidents).findByRole('option', { name: /Checkout is slow/ }));
    expect(screen.queryByRole('combobox', { name: INCIDENT_UI_TEXTS.form.severity })).toBeNull();
    await user.click(screen.getByRole('button', { name: INCIDENT_MESSAGES.linkButton }));
    expect(screen.getByText(INCIDENT_MESSAGES.linkHypothesisRequired)).toBeInTheDocument();
    const hypotheses = screen.getByRole('listbox', { name: INCIDENT_UI_TEXTS.link.hypothesis });
    await user.click(await within(hypotheses).findByRole('option', { name: 'Pool exhausted' }));
    await user.click(screen.getByRole('button', { name: INCIDENT_MESSAGES.linkButton }));
    await waitFor(() => expect(onLinked).toHaveBeenCalledWith(true));
    expect(evidences).toEqual([
      { type: 'check', check_id: 'c1', description: 'http check', hypothesis_id: 'h1', created_by: TEST_PERSON.id },
    ]);
  });
});
