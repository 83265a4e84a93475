import { EditorView } from '@codemirror/view';
import { LOGS_TEXTS, SETTINGS_RESOURCE_TOASTS } from '@lookout/contracts';
import { act, configure, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => {
  configure({ asyncUtilTimeout: 8_000 });
  server.listen({ onUnhandledRequest: 'error' });
  // CodeMirror measures text with Range rectangles, which jsdom does not lay out.
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] } as unknown as DOMRectList;
  Range.prototype.getClientRects ??= () => empty;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const UI_ROW = {
  id: '0190a000-0000-7000-8000-0000000000b1',
  name: 'app-files',
  labels: { team: 'shop' },
  spec: { file: { paths: ['/var/log/app/*.log'] } },
  source: 'UI',
  created_at: '2026-03-01T10:00:00Z',
  updated_at: null,
  deleted_at: null,
  created_by: null,
};
const CRD_ROW = {
  ...UI_ROW,
  id: '0190a000-0000-7000-8000-0000000000b2',
  name: 'cluster-loki',
  source: 'KubernetesCRD',
};

function backend() {
  const writes: { method: string; url: string; body: unknown }[] = [];
  server.use(
    ...consoleStartupHandlers({ roles: ['admin'] }),
    http.get('*/api/db/logging_backends', ({ request }) => {
      const id = new URL(request.url).searchParams.get('id');
      const rows = [UI_ROW, CRD_ROW];
      return HttpResponse.json(id ? rows.filter((row) => `eq.${row.id}` === id) : rows);
    }),
    http.post('*/api/db/logging_backends', async ({ request }) => {
      writes.push({ method: 'POST', url: request.url, body: await request.json() });
      return HttpResponse.json([{ id: 'new-id' }], { status: 201 });
    }),
    http.patch('*/api/db/logging_backends', async ({ request }) => {
      writes.push({ method: 'PATCH', url: request.url, body: await request.json() });
      return HttpResponse.json([{ id: UI_ROW.id }]);
    }),
  );
  return { writes };
}

const replaceSpec = async (text: string) => {
  const view = EditorView.findFromDOM(await screen.findByTestId('yaml-editor'));
  if (!view) throw new Error('no editor');
  act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }));
};

describe('/settings/logging_backends', () => {
  it('lists the backends and adds one with Name, Labels and Spec, naming a wrong field first', async () => {
    const { writes } = backend();
    const { user, router } = renderApp({ path: '/settings/logging_backends', navigation });
    expect(await screen.findByText('cluster-loki')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: LOGS_TEXTS.addBackend }));
    await user.type(await screen.findByLabelText(LOGS_TEXTS.nameLabel), 'errors');
    await user.type(screen.getByLabelText(LOGS_TEXTS.labelsLabel), 'team=shop');
    await replaceSpec('loki: {}\n');
    await user.click(screen.getByRole('button', { name: LOGS_TEXTS.addBackend }));
    expect(await screen.findByRole('alert')).toHaveTextContent('spec.loki: needs url or connection');
    await replaceSpec('loki:\n  url: http://loki:3100\n');
    await user.click(screen.getByRole('button', { name: LOGS_TEXTS.addBackend }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/logging_backends'));
    expect(writes[0]).toMatchObject({
      method: 'POST',
      body: { name: 'errors', labels: { team: 'shop' }, spec: { loki: { url: 'http://loki:3100' } } },
    });
  });

  it('updates and deletes a UI row', async () => {
    const { writes } = backend();
    const { user } = renderApp({ path: `/settings/logging_backends/${UI_ROW.id}`, navigation });
    expect(await screen.findByDisplayValue('team=shop')).toBeInTheDocument();
    // The name is fixed once the backend exists (spec 2 section 5).
    expect(screen.getByLabelText(LOGS_TEXTS.nameLabel)).toBeDisabled();
    expect(screen.getByRole('button', { name: LOGS_TEXTS.deleteBackend })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: LOGS_TEXTS.updateBackend }));
    await waitFor(() => expect(writes[0]?.method).toBe('PATCH'));
    expect(writes[0]?.url).toContain(`id=eq.${UI_ROW.id}`);
    expect(await screen.findByText(SETTINGS_RESOURCE_TOASTS.updated(UI_ROW.name))).toBeInTheDocument();
  });

  it('hides the form for a row from another source', async () => {
    backend();
    renderApp({ path: `/settings/logging_backends/${CRD_ROW.id}`, navigation });
    expect(await screen.findByText(LOGS_TEXTS.readOnlySource('KubernetesCRD'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: LOGS_TEXTS.updateBackend })).toBeNull();
    expect(screen.queryByLabelText(LOGS_TEXTS.nameLabel)).toBeNull();
  });
});
