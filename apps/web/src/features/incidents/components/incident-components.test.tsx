import { INCIDENT_MESSAGES, INCIDENT_UI_TEXTS } from '@lookout/contracts';
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { incidentKeys } from '../api/incident-keys';
import { CommentsTab } from './comments-tab';
import { ContributingFactorsDialog } from './contributing-factors-dialog';
import { DetailsSection } from './details-section';
import { evidenceFixture, INCIDENT_ID, incidentFixture, renderIncident } from './incident-test-utils';
import { IncidentDetailView } from './incident-detail-view';
import { IncidentStatusControl } from './incident-status-control';

vi.setConfig({ testTimeout: 20_000 });

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the contributing-factors dialog', () => {
  it('asks for evidence on Add, and passes the chosen ids or skips', async () => {
    const onAdd = vi.fn();
    const onSkip = vi.fn();
    const { user } = renderIncident(
      <ContributingFactorsDialog
        open
        evidence={[evidenceFixture()]}
        isPending={false}
        onCancel={vi.fn()}
        onSkip={onSkip}
        onAdd={onAdd}
      />,
    );
    await user.click(screen.getByRole('button', { name: INCIDENT_UI_TEXTS.factors.add }));
    expect(screen.getByRole('alert')).toHaveTextContent(INCIDENT_MESSAGES.selectEvidence);
    expect(onAdd).not.toHaveBeenCalled();
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: INCIDENT_UI_TEXTS.factors.add }));
    expect(onAdd).toHaveBeenCalledWith([evidenceFixture().id]);
    await user.click(screen.getByRole('button', { name: INCIDENT_UI_TEXTS.factors.skip }));
    expect(onSkip).toHaveBeenCalled();
  });
});

describe('the status control', () => {
  it('offers only the allowed moves and Reopen on a closed incident', async () => {
    renderIncident(<IncidentStatusControl incident={incidentFixture({ status: 'closed' })} canWrite />);
    const select = screen.getByRole('combobox', { name: INCIDENT_UI_TEXTS.details.status });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['closed', 'open']);
    expect(screen.getByRole('button', { name: INCIDENT_UI_TEXTS.reopen })).toBeInTheDocument();
  });

  it('flags the chosen evidence as definition of done before moving to mitigated', async () => {
    const calls: string[] = [];
    server.use(
      http.patch('*/api/db/evidences', async ({ request }) => {
        calls.push(`evidence ${JSON.stringify(await request.json())}`);
        return HttpResponse.json([{}]);
      }),
      http.patch('*/api/db/incidents', async ({ request }) => {
        calls.push(`incident ${JSON.stringify(await request.json())}`);
        return HttpResponse.json([{}]);
      }),
    );
    const { user } = renderIncident(<IncidentStatusControl incident={incidentFixture()} canWrite />);
    await user.selectOptions(screen.getByRole('combobox', { name: INCIDENT_UI_TEXTS.details.status }), 'mitigated');
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: INCIDENT_UI_TEXTS.factors.add }));
    await waitFor(() =>
      expect(calls).toEqual(['evidence {"definition_of_done":true}', 'incident {"status":"mitigated"}']),
    );
  });
});

describe('comments', () => {
  it('shows a comment at once and takes it back when the call fails', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('*/api/db/comments', async () => {
        await answered;
        return HttpResponse.json({ message: 'comments: refused' }, { status: 400 });
      }),
      http.get('*/api/db/incidents', () => HttpResponse.json([incidentFixture()])),
      http.get('*/api/db/incident_histories', () => HttpResponse.json([])),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    client.setQueryData(incidentKeys.detail(INCIDENT_ID), incidentFixture());
    const { user } = renderIncident(<CommentsTab incident={incidentFixture()} canWrite />, { client });
    expect(screen.getByRole('button', { name: INCIDENT_UI_TEXTS.comment.send })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: INCIDENT_UI_TEXTS.comment.placeholder }), 'Rolling back');
    await user.click(screen.getByRole('button', { name: INCIDENT_UI_TEXTS.comment.send }));
    await waitFor(() => {
      const cached = client.getQueryData<ReturnType<typeof incidentFixture>>(incidentKeys.detail(INCIDENT_ID));
      expect(cached?.hypotheses[0]?.comments.map((comment) => comment.comment)).toEqual(['Rolling back']);
    });
    release();
    await waitFor(() => {
      const cached = client.getQueryData<ReturnType<typeof incidentFixture>>(incidentKeys.detail(INCIDENT_ID));
      expect(cached?.hypotheses[0]?.comments).toEqual([]);
    });
  });
});

describe('the Details section', () => {
  it('saves severity and type together once changes pause for 500 ms', async () => {
    const patches: unknown[] = [];
    server.use(
      http.patch('*/api/db/incidents', async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json([{}]);
      }),
      http.get('*/api/db/*', () => HttpResponse.json([])),
    );
    const { user } = renderIncident(
      <DetailsSection incident={incidentFixture()} responders={[]} canWrite now={new Date('2026-01-01T12:00:00Z')} />,
    );
    await user.selectOptions(screen.getByRole('combobox', { name: INCIDENT_UI_TEXTS.details.priority }), 'critical');
    await user.selectOptions(screen.getByRole('combobox', { name: INCIDENT_UI_TEXTS.details.type }), 'security');
    await waitFor(() => expect(patches).toEqual([{ severity: 'critical', type: 'security' }]));
    expect(screen.getByText('3 hours')).toBeInTheDocument();
  });
});

describe('the incident page', () => {
  it("says 'Incident not found' for an unknown id", async () => {
    server.use(http.get('*/api/db/*', () => HttpResponse.json([])));
    renderIncident(<IncidentDetailView id={INCIDENT_ID} canWrite />);
    expect(await screen.findByText(INCIDENT_MESSAGES.notFound)).toBeInTheDocument();
  });

  it('shows the tabs, the Details and the Add links, and no write controls to a reader', async () => {
    server.use(
      http.get('*/api/db/incidents', () => HttpResponse.json([incidentFixture()])),
      http.get('*/api/db/*', () => HttpResponse.json([])),
    );
    renderIncident(<IncidentDetailView id={INCIDENT_ID} canWrite={false} />);
    expect(
      await screen.findByRole('tab', { name: INCIDENT_UI_TEXTS.tabs.actionPlan, selected: true }),
    ).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: INCIDENT_UI_TEXTS.tabs.comments })).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: new RegExp(INCIDENT_UI_TEXTS.sections.details), expanded: true }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Factor' })).toBeNull();
    expect(screen.queryByRole('button', { name: INCIDENT_MESSAGES.addResponders })).toBeNull();
    expect(screen.queryByRole('button', { name: INCIDENT_UI_TEXTS.close })).toBeNull();
  });
});
