import { EditorView } from '@codemirror/view';
import {
  CANARY_FORM_TEXTS,
  SETTINGS_RESOURCE_TEXTS,
  SETTINGS_RESOURCE_TOASTS,
  VALIDATION_MESSAGES,
} from '@lookout/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleStartupHandlers } from '@/test/access-handlers';
import { canaryRowFixture, healthHandlers } from '@/test/health-fixtures';
import { signedInHandlers } from '@/test/identity-handlers';
import { navigation } from './navigation';
import { renderApp } from './testing/render-app';

vi.setConfig({ testTimeout: 20_000 });

const about = http.get('*/api/about', () => HttpResponse.json({ Version: '0.1.0', Timestamp: '2024-10-02T00:00:00Z' }));
const server = setupServer(about, ...signedInHandlers());
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // CodeMirror measures text with Range rectangles, which jsdom does not lay out.
  const empty = { length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] } as unknown as DOMRectList;
  Range.prototype.getClientRects ??= () => empty;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const web = canaryRowFixture({
  labels: { team: 'sre' },
  spec: {
    interval: 60,
    http: [{ name: 'home', url: 'https://example.com', responseCodes: [200] }],
    dns: [{ name: 'resolver', query: 'example.com' }],
  },
});

const open = (path: string, canaries = [web]) => {
  const backend = healthHandlers({ checks: [], canaries });
  server.use(...backend.handlers);
  const view = renderApp({ path, navigation });
  return { ...view, calls: backend.calls };
};
const form = () => screen.findByRole('form', { name: 'Health check' });
const yamlView = async () => {
  const host = await screen.findByTestId('yaml-editor');
  const view = EditorView.findFromDOM(host);
  if (!view) throw new Error('no editor');
  return view;
};

describe('/settings/canaries/new', () => {
  it('refuses an empty health check, naming the fields', async () => {
    const { user, calls } = open('/settings/canaries/new');
    const page = await form();
    expect(screen.getByRole('heading', { level: 1, name: CANARY_FORM_TEXTS.titleNew })).toBeInTheDocument();
    await user.click(within(page).getByRole('button', { name: CANARY_FORM_TEXTS.save }));
    const alert = within(page).getAllByRole('alert')[0] as HTMLElement;
    expect(alert).toHaveTextContent('metadata.name: is required');
    expect(alert).toHaveTextContent('spec.http[0].url: is required');
    // Each problem is listed once, even when the schema reports it twice.
    expect(within(alert).getAllByText('spec.http[0].url: is required')).toHaveLength(1);
    const [canaryName, checkName] = within(page).getAllByLabelText('Name *');
    expect(canaryName).toHaveAccessibleDescription(VALIDATION_MESSAGES.required);
    expect(checkName).toHaveAccessibleDescription(VALIDATION_MESSAGES.required);
    expect(within(page).getByLabelText('URL *')).toHaveAccessibleDescription(VALIDATION_MESSAGES.required);
    expect(calls.applied).toEqual([]);
  });

  it('says a number field must be a number', async () => {
    const { user } = open('/settings/canaries/new');
    const page = await form();
    await user.type(within(page).getByLabelText('Threshold (ms)'), 'fast');
    expect(within(page).getByLabelText('Threshold (ms)')).toHaveAccessibleDescription(CANARY_FORM_TEXTS.numberError);
  });

  it('saves a valid health check through apply and returns to the list', async () => {
    const { user, calls, router } = open('/settings/canaries/new');
    const page = await form();
    await user.type(within(page).getAllByLabelText('Name *')[0] as HTMLElement, 'shop');
    await user.selectOptions(within(page).getByLabelText('Schedule *'), '@every 1m');
    await user.click(within(page).getByRole('button', { name: 'Add labels' }));
    await user.type(within(page).getByLabelText('Labels Key 1'), 'team');
    await user.type(within(page).getByLabelText('Labels Value 1'), 'payments');
    const check = within(page).getByRole('group', { name: /http/ });
    await user.type(within(check).getByLabelText('Name *'), 'home');
    await user.type(within(check).getByLabelText('URL *'), 'https://shop.example.com');
    await user.selectOptions(within(check).getByLabelText('Method'), 'POST');
    await user.type(within(check).getByLabelText('Body'), '{{}');
    await user.click(within(check).getByRole('checkbox', { name: '201' }));
    await user.type(within(check).getByLabelText('Threshold (ms)'), '1500');

    await user.selectOptions(within(page).getByRole('combobox', { name: 'Check type' }), 'tcp');
    await user.click(within(page).getByRole('button', { name: CANARY_FORM_TEXTS.addCheck }));
    const tcp = within(page).getByRole('group', { name: /tcp/ });
    await user.type(within(tcp).getByLabelText('Name *'), 'db');
    await user.type(within(tcp).getByLabelText('Endpoint *'), 'db.internal:5432');

    await user.click(within(page).getByRole('button', { name: CANARY_FORM_TEXTS.save }));
    await waitFor(() => expect(calls.applied).toHaveLength(1));
    expect(calls.applied[0]).toEqual({
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: 'shop', namespace: 'default', labels: { team: 'payments' } },
      spec: {
        schedule: '@every 1m',
        http: [
          {
            name: 'home',
            url: 'https://shop.example.com',
            method: 'POST',
            body: '{}',
            responseCodes: [200, 201],
            thresholdMillis: 1500,
          },
        ],
        tcp: [{ name: 'db', endpoint: 'db.internal:5432' }],
      },
    });
    // Saving returns to the list (spec 3 section 2.6).
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/canaries'));
    expect(await screen.findByText('shop created successfully')).toBeInTheDocument();
  });

  it('resets the other options when the authentication changes', async () => {
    const { user } = open('/settings/canaries/new');
    const check = within(await form()).getByRole('group', { name: /http/ });
    await user.selectOptions(within(check).getByLabelText('Authentication'), 'ntlm');
    await user.type(within(check).getByLabelText('Username'), 'svc');
    await user.selectOptions(within(check).getByLabelText('Authentication'), 'basic');
    expect(within(check).getByLabelText('Username')).toHaveValue('');
    await user.selectOptions(within(check).getByLabelText('Authentication'), '');
    expect(within(check).queryByLabelText('Username')).not.toBeInTheDocument();
  });
});

describe('/settings/canaries/{id}', () => {
  it('edits an existing health check with its name and namespace read-only', async () => {
    const { user, calls } = open(`/settings/canaries/${web.id}`);
    const page = await form();
    expect(screen.getByRole('heading', { level: 1, name: 'default/web' })).toBeInTheDocument();
    // The settings resource sub-tabs (spec 2 section 2.8).
    const subTabs = screen.getByRole('tablist', { name: 'Health check' });
    expect(
      within(subTabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Spec', 'Job History']);
    expect(within(page).getAllByLabelText('Name *')[0]).toHaveAttribute('readonly');
    expect(within(page).getByLabelText('Namespace')).toHaveAttribute('readonly');
    expect(within(page).getByLabelText('Schedule *')).toHaveValue('interval:60');
    expect(within(page).getByText(CANARY_FORM_TEXTS.otherTypes('dns'))).toBeInTheDocument();
    expect(within(page).queryByText(CANARY_FORM_TEXTS.secretsMasked)).not.toBeInTheDocument();
    const check = within(page).getByRole('group', { name: /home/ });
    await user.clear(within(check).getByLabelText('URL *'));
    await user.type(within(check).getByLabelText('URL *'), 'https://example.org');
    await user.click(within(page).getByRole('button', { name: CANARY_FORM_TEXTS.update }));
    await waitFor(() => expect(calls.applied).toHaveLength(1));
    // Checks without a form are kept as they were.
    expect(calls.applied[0]).toMatchObject({
      metadata: { name: 'web', namespace: 'default', labels: { team: 'sre' } },
      spec: {
        interval: 60,
        http: [{ name: 'home', url: 'https://example.org' }],
        dns: [{ name: 'resolver', query: 'example.com' }],
      },
    });
  });

  it('soft-deletes a health check after confirmation and returns to the list', async () => {
    const patches: { id: string | null; body: unknown }[] = [];
    const { user, router } = open(`/settings/canaries/${web.id}`);
    server.use(
      http.patch('*/api/db/canaries', async ({ request }) => {
        patches.push({ id: new URL(request.url).searchParams.get('id'), body: await request.json() });
        return HttpResponse.json([{ id: web.id }]);
      }),
      http.get('*/api/db/canaries_with_status', () => HttpResponse.json([])),
    );
    const page = await form();
    await user.click(within(page).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.delete }));
    const dialog = await screen.findByRole('alertdialog', { name: SETTINGS_RESOURCE_TEXTS.deleteConfirm('web') });
    await user.click(within(dialog).getByRole('button', { name: SETTINGS_RESOURCE_TEXTS.delete }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/canaries'));
    expect(patches).toEqual([{ id: `eq.${web.id}`, body: { deleted_at: 'now()' } }]);
    expect(await screen.findByText(SETTINGS_RESOURCE_TOASTS.deleted('web'))).toBeInTheDocument();
  });

  it('shows a health check from another source read-only', async () => {
    const fromFile = canaryRowFixture({ source: 'ConfigFile' });
    open(`/settings/canaries/${fromFile.id}`, [fromFile]);
    const page = await form();
    expect(within(page).getByRole('status')).toHaveTextContent(CANARY_FORM_TEXTS.readOnly('ConfigFile'));
    expect(within(page).queryByRole('button', { name: CANARY_FORM_TEXTS.update })).not.toBeInTheDocument();
    expect(within(page).getByLabelText('URL *')).toHaveAttribute('readonly');
    expect(within(page).queryByRole('button', { name: CANARY_FORM_TEXTS.addCheck })).not.toBeInTheDocument();
  });

  it('is read-only for a viewer', async () => {
    server.use(...consoleStartupHandlers({ roles: ['viewer'] }));
    open(`/settings/canaries/${web.id}`);
    const page = await form();
    expect(within(page).queryByRole('button', { name: CANARY_FORM_TEXTS.update })).not.toBeInTheDocument();
    expect(within(page).getByLabelText('URL *')).toHaveAttribute('readonly');
    expect(within(page).getByText(CANARY_FORM_TEXTS.secretsMasked)).toBeInTheDocument();
  });

  it('edits the whole spec as YAML, validated with field-named errors', async () => {
    const { user, calls } = open(`/settings/canaries/${web.id}`);
    const page = await form();
    await user.click(within(page).getByRole('tab', { name: CANARY_FORM_TEXTS.yamlTab }));
    const view = await yamlView();
    expect(view.state.doc.toString()).toContain('apiVersion: canaries.flanksource.com/v1');
    expect(view.state.doc.toString()).toContain('url: https://example.com');

    const replace = (from: string, to: string) =>
      act(() => {
        const text = view.state.doc.toString();
        const at = text.indexOf(from);
        view.dispatch({ changes: { from: at, to: at + from.length, insert: to } });
      });
    const indent = /\n( *)url: https:\/\/example\.com/.exec(view.state.doc.toString())?.[1] ?? '';
    const broken = `url: not-a-url\n${indent}respnseCodes: [200]`;
    replace('url: https://example.com', broken);
    const alert = await within(page).findByRole('alert');
    expect(alert).toHaveTextContent('spec.http[0].url: must be a URL');
    expect(alert).toHaveTextContent('spec.http[0].respnseCodes: unknown field');
    await user.click(within(page).getByRole('button', { name: CANARY_FORM_TEXTS.update }));
    expect(calls.applied).toEqual([]);

    replace('name: web', 'name: renamed');
    await waitFor(() => expect(within(page).getByRole('alert')).toHaveTextContent('metadata.name: cannot be changed'));
    replace('name: renamed', 'name: web');
    replace(broken, 'url: https://example.net');
    await waitFor(() => expect(within(page).queryByRole('alert')).not.toBeInTheDocument());

    // Back in the form, the change made in YAML shows.
    await user.click(within(page).getByRole('tab', { name: CANARY_FORM_TEXTS.formTab }));
    expect(within(page).getByLabelText('URL *')).toHaveValue('https://example.net');
    await user.click(within(page).getByRole('button', { name: CANARY_FORM_TEXTS.update }));
    await waitFor(() => expect(calls.applied).toHaveLength(1));
  });

  it('says when the YAML cannot be read', async () => {
    const { user } = open(`/settings/canaries/${web.id}`);
    const page = await form();
    await user.click(within(page).getByRole('tab', { name: CANARY_FORM_TEXTS.yamlTab }));
    const view = await yamlView();
    act(() => view.dispatch({ changes: { from: 0, insert: 'metadata: [\n' } }));
    expect(await within(page).findByRole('alert')).toHaveTextContent(CANARY_FORM_TEXTS.invalidYaml);
    expect(within(page).getByRole('tab', { name: CANARY_FORM_TEXTS.formTab })).toBeDisabled();
  });

  it('shows the server refusal', async () => {
    const { user } = open(`/settings/canaries/${web.id}`);
    server.use(
      http.post('*/api/canary/apply', () =>
        HttpResponse.json(
          { error: { code: 'conflict', message: "A canary named 'web' already exists from ConfigFile." } },
          { status: 409 },
        ),
      ),
    );
    const page = await form();
    await user.click(within(page).getByRole('button', { name: CANARY_FORM_TEXTS.update }));
    expect(await within(page).findByRole('alert')).toHaveTextContent("A canary named 'web' already exists");
  });

  it('says when the health check does not exist', async () => {
    open('/settings/canaries/10000000-0000-4000-8000-00000000dead', []);
    expect(await screen.findByText(CANARY_FORM_TEXTS.notFound)).toBeInTheDocument();
  });
});
