import { NOTIFICATION_RULES_TEXTS } from '@lookout/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { TEST_USER, signedInHandlers } from '@/test/identity-handlers';
import { IDS, notificationHandlers, ruleRow } from '@/test/notifications-backend';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const table = () => screen.findByRole('table', { name: NOTIFICATION_RULES_TEXTS.table }, { timeout: 15_000 });

/** Records the writes to /api/db/notifications. */
function writes(status = 201) {
  const bodies: { method: string; url: string; body: Record<string, unknown> }[] = [];
  const answer = async ({ request }: { request: Request }) => {
    bodies.push({ method: request.method, url: request.url, body: (await request.json()) as Record<string, unknown> });
    return status < 400
      ? HttpResponse.json([ruleRow], { status })
      : HttpResponse.json({ message: "filter: not a valid CEL expression (unexpected token ')')." }, { status });
  };
  server.use(http.post('*/api/db/notifications', answer), http.patch('*/api/db/notifications', answer));
  return bodies;
}

describe('/notifications/rules (spec 3 section 2.10)', () => {
  it('lists rules with their statistics and the most common error', async () => {
    const { handlers, seen } = notificationHandlers();
    server.use(...handlers);
    renderApp({ path: '/notifications/rules', navigation });
    const row = (await within(await table()).findByText('API down')).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 9)).toEqual([
      'API down',
      'check.failedcheck.passed',
      'check.name == "api-health"',
      'SRE',
      '2',
      '5connect ECONNREFUSED 127.0.0.1:9',
      '40',
      '1.25s',
      '1h',
    ]);
    expect(cells[11]).toBe('Ann Admin');
    expect(Object.fromEntries(seen.rules![0]!)).toMatchObject({ order: 'created_at.desc', deleted_at: 'is.null' });
    expect(screen.getByRole('button', { name: NOTIFICATION_RULES_TEXTS.add })).toBeInTheDocument();
  });

  it('creates a rule: events required, recipient tabs clear each other, one recipient sent', async () => {
    const { handlers } = notificationHandlers();
    server.use(...handlers);
    const bodies = writes();
    const user = userEvent.setup();
    renderApp({ path: '/notifications/rules', navigation });
    await table();
    await user.click(screen.getByRole('button', { name: NOTIFICATION_RULES_TEXTS.add }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Notification' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findAllByText('This field is required')).toHaveLength(2);
    expect(bodies).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Title'), 'Checks');
    // The events are the contracts' list (spec 3 section 9), the playbook approval events included.
    expect(within(dialog).getByLabelText('playbook.approval.inserted')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('playbook.spec.approval.updated')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('check.failed'));
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Person' }), 'Ann Admin');
    await user.click(within(dialog).getByRole('tab', { name: 'Team' }));
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Team' }), 'SRE');
    await user.click(within(dialog).getByRole('tab', { name: 'Person' }));
    // Switching back shows the person cleared.
    expect(within(dialog).getByRole('combobox', { name: 'Person' })).toHaveValue('');
    await user.click(within(dialog).getByRole('tab', { name: 'Others' }));
    const connection = await within(dialog).findByRole('combobox', { name: 'Connection' });
    // Only notification connections are offered.
    expect(within(connection).queryByText(/pg/)).not.toBeInTheDocument();
    await user.selectOptions(connection, 'hook (webhook)');
    await user.selectOptions(within(dialog).getByLabelText('Repeat Interval'), '6h');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]!.method).toBe('POST');
    expect(bodies[0]!.body).toEqual({
      title: 'Checks',
      events: ['check.failed'],
      filter: null,
      person_id: null,
      team_id: null,
      custom_services: [{ connection: 'connection://default/hook' }],
      repeat_interval: '6h',
      template: null,
      properties: null,
      source: 'UI',
      created_by: TEST_USER.id,
    });
    expect(await screen.findByText('Notification added successfully')).toBeInTheDocument();
  });

  it('edits a rule with a PATCH that nulls the other recipients and toasts the spec text', async () => {
    const { handlers, seen } = notificationHandlers();
    server.use(...handlers);
    const bodies = writes(200);
    const user = userEvent.setup();
    renderApp({ path: '/notifications/rules', navigation });
    await user.click(await within(await table()).findByText('API down'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    expect(await within(dialog).findByRole('combobox', { name: 'Team' })).toHaveValue(IDS.team);
    expect(seen.rule!.at(-1)!.get('id')).toBe(`eq.${IDS.rule}`);
    await user.click(within(dialog).getByRole('radio', { name: 'Custom Template' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Custom Template' }), '# Down');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]!.method).toBe('PATCH');
    expect(new URL(bodies[0]!.url).searchParams.get('id')).toBe(`eq.${IDS.rule}`);
    expect(bodies[0]!.body).toMatchObject({
      person_id: null,
      team_id: IDS.team,
      custom_services: null,
      template: '# Down',
    });
    expect(await screen.findByText('Notification updated successfully')).toBeInTheDocument();
  });

  it('shows the server’s refusal and keeps the dialog open', async () => {
    const { handlers } = notificationHandlers();
    server.use(...handlers);
    writes(400);
    const user = userEvent.setup();
    renderApp({ path: '/notifications/rules', navigation });
    await user.click(await within(await table()).findByText('API down'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    await within(dialog).findByRole('combobox', { name: 'Team' });
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(/filter: not a valid CEL expression/)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Notification' })).toBeInTheDocument();
  });

  it('deletes a rule softly after confirming', async () => {
    const { handlers } = notificationHandlers();
    server.use(...handlers);
    const bodies = writes(200);
    const user = userEvent.setup();
    renderApp({ path: '/notifications/rules', navigation });
    await user.click(await within(await table()).findByText('API down'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    await user.click(await within(dialog).findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Notification' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(Object.keys(bodies[0]!.body)).toEqual(['deleted_at']);
    expect(await screen.findByText('Notification deleted successfully')).toBeInTheDocument();
  });

  it('shows the filter error a rule was paused for, in the list and the dialog', async () => {
    const { handlers } = notificationHandlers({
      rules: [{ ...ruleRow, error: 'no such key: nme', error_at: '2026-01-02T12:00:00Z' }],
    });
    server.use(...handlers);
    const user = userEvent.setup();
    renderApp({ path: '/notifications/rules', navigation });
    const row = (await within(await table()).findByText('API down')).closest('tr')!;
    expect(within(row).getByText(/Filter error: no such key: nme/)).toBeInTheDocument();
    await user.click(within(row).getByText('API down'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    expect(await within(dialog).findByText(/Filter error: no such key: nme/)).toBeInTheDocument();
  });

  it('offers no add, save or delete to a viewer, and makes a rule from another source read-only', async () => {
    const { handlers } = notificationHandlers({ rules: [{ ...ruleRow, source: 'KubernetesCRD' }] });
    server.use(...handlers, ...consoleStartupHandlers({ userId: TEST_USER.id, roles: [] }));
    const user = userEvent.setup();
    renderApp({ path: '/notifications/rules', navigation });
    await user.click(await within(await table()).findByText('API down'));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Notification' });
    expect(await within(dialog).findByText(/comes from KubernetesCRD/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: NOTIFICATION_RULES_TEXTS.add })).not.toBeInTheDocument();
  });
});
