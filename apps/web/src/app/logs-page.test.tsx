import { LOGS_TEXTS, LOGS_UI, type LogsRequest } from '@lookout/contracts';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatLogTime } from '@/features/logs/log-format';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const COMPONENT = '0190a000-0000-7000-8000-000000000001';
const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => {
  configure({ asyncUtilTimeout: 8_000 });
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  server.resetHandlers();
  window.localStorage.clear();
});
afterAll(() => server.close());

/** The logs backend: one component with two selectors; lines answer what was asked. */
function backend() {
  const requests: LogsRequest[] = [];
  server.use(
    ...consoleStartupHandlers({ roles: ['admin'] }),
    http.get('*/api/db/components_with_logs', () =>
      HttpResponse.json([
        {
          id: COMPONENT,
          name: 'shop',
          icon: null,
          log_selectors: [{ name: 'app', type: 'files' }, { name: 'errors' }],
        },
      ]),
    ),
    http.post('*/api/logs', async ({ request }) => {
      const body = (await request.json()) as LogsRequest;
      requests.push(body);
      if (body.query === 'nothing') return HttpResponse.json({ total: 0, results: [] });
      return HttpResponse.json({
        total: 2,
        results: [
          { timestamp: '2026-03-01T10:00:01.250Z', message: `${body.name} second`, labels: { level: 'error' } },
          { timestamp: '2026-03-01T10:00:00.000Z', message: `${body.name} first`, labels: {} },
        ],
      });
    }),
    http.get('*/api/db/incidents', () => HttpResponse.json([])),
    http.get('*/api/db/logging_backends', () => HttpResponse.json([])),
  );
  return { requests };
}

describe('/logs', () => {
  it('asks for a component first, then shows its first selector with the time format', async () => {
    backend();
    renderApp({ path: '/logs', navigation });
    expect(await screen.findByText(LOGS_TEXTS.selectComponent)).toBeInTheDocument();
    fireEvent.change(await screen.findByLabelText(LOGS_TEXTS.componentLabel), { target: { value: COMPONENT } });
    const table = await screen.findByRole('table', { name: 'Logs' });
    expect(await within(table).findByText('app second')).toBeInTheDocument();
    expect(within(table).getByText(formatLogTime('2026-03-01T10:00:01.250Z'))).toBeInTheDocument();
    expect(formatLogTime('2026-03-01T10:00:01.250Z')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}\.\d{2}\.250$/);
    expect(within(table).getByText('level=error')).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Select', 'Time', 'Message', 'Labels']);
  });

  it('reads topologyId, logsSelector, query and start from the address and sends them', async () => {
    const { requests } = backend();
    renderApp({ path: `/logs?topologyId=${COMPONENT}&logsSelector=errors&query=disk&start=now-1h`, navigation });
    expect(await screen.findByText('errors second')).toBeInTheDocument();
    expect(requests.at(-1)).toEqual({ id: COMPONENT, name: 'errors', query: 'disk', start: 'now-1h' });
  });

  it('debounces the query by 500 ms and says when nothing matches', async () => {
    const { requests } = backend();
    const { user } = renderApp({ path: `/logs?topologyId=${COMPONENT}`, navigation });
    await screen.findByText('app second');
    const sent = requests.length;
    await user.type(screen.getByPlaceholderText(LOGS_TEXTS.queryPlaceholder), 'nothing');
    expect(requests.length).toBe(sent);
    expect(await screen.findByText(LOGS_TEXTS.noMatches)).toBeInTheDocument();
    expect(requests.at(-1)?.query).toBe('nothing');
    expect(requests.length).toBe(sent + 1);
    expect(LOGS_UI.queryDebounceMs).toBe(500);
  });

  it('keeps column sizes in local storage after 500 ms', async () => {
    backend();
    renderApp({ path: `/logs?topologyId=${COMPONENT}`, navigation });
    await screen.findByText('app second');
    const handle = screen.getByRole('separator', { name: 'Resize Message' });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(window.localStorage.getItem(LOGS_UI.columnSizesStorageKey)).toBeNull();
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem(LOGS_UI.columnSizesStorageKey) ?? '{}')).toMatchObject({
        message: 660,
      }),
    );
  });

  it('attaches selected rows as evidence through Link to Incident', async () => {
    backend();
    const { user } = renderApp({ path: `/logs?topologyId=${COMPONENT}`, navigation });
    await screen.findByText('app second');
    const attach = screen.getByRole('button', { name: new RegExp(LOGS_TEXTS.attach) });
    expect(attach).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select line 1' }));
    expect(attach).toHaveTextContent('(1)');
    await user.click(attach);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('is in the sidebar after Catalog, with Log Backends in settings', async () => {
    backend();
    renderApp({ path: '/settings/logging_backends', navigation });
    expect(await screen.findByRole('link', { name: LOGS_TEXTS.title })).toHaveAttribute('href', '/logs');
    expect(await screen.findByRole('table', { name: LOGS_TEXTS.backendsTitle })).toBeInTheDocument();
  });
});
