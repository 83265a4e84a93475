import { HTTP_MESSAGES, TOAST_DURATION_MS } from '@lookout/contracts';
import { AxiosError, AxiosHeaders } from 'axios';
import type { AxiosResponse } from 'axios';
import { HttpResponse, delay, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '@/components/ui/toast';
import {
  api,
  countExact,
  dbApi,
  getErrorMessage,
  isRetryableNetworkError,
  onUnauthorized,
  playbookApi,
  toastError,
  withTotal,
} from './api-client';

vi.mock('@/components/ui/toast', () => ({
  toast: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
}));

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.clearAllMocks();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

// The clients show each transport toast once per toast lifetime; move the clock past it so
// every test starts with a clean slate.
let clock = Date.now();
beforeEach(() => {
  clock += 10 * TOAST_DURATION_MS;
  vi.useFakeTimers({ toFake: ['Date'], now: clock });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A rejected request's error, for assertions. */
async function failureOf(request: Promise<unknown>): Promise<unknown> {
  try {
    await request;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the request to fail');
}

function axiosErrorWithBody(status: number, data: unknown): AxiosError {
  const response: AxiosResponse = {
    status,
    statusText: '',
    data,
    headers: {},
    config: { headers: new AxiosHeaders() },
  };
  return new AxiosError('Request failed', 'ERR_BAD_RESPONSE', undefined, undefined, response);
}

describe('API clients', () => {
  it('send the JSON and return=representation headers below /api', async () => {
    let seen: Headers | undefined;
    server.use(
      http.post('*/api/db/incidents', ({ request }) => {
        seen = request.headers;
        return HttpResponse.json([{ id: '1' }], { status: 201 });
      }),
    );

    const response = await dbApi.post('/incidents', { title: 'Disk full' });

    expect(response.data).toEqual([{ id: '1' }]);
    expect(seen?.get('accept')).toBe('application/json');
    expect(seen?.get('content-type')).toBe('application/json');
    expect(seen?.get('prefer')).toBe('return=representation');
  });

  it('root each sub-client at its own path', async () => {
    server.use(http.get('*/api/playbook/list', () => HttpResponse.json([{ name: 'restart' }])));

    const { data } = await playbookApi.get('/list');

    expect(data).toEqual([{ name: 'restart' }]);
  });

  it('ask for an exact count with countExact and read the total from Content-Range', async () => {
    let prefer: string | null = null;
    server.use(
      http.get('*/api/db/checks', ({ request }) => {
        prefer = request.headers.get('prefer');
        return HttpResponse.json([{ id: 'a' }], { headers: { 'Content-Range': '0-24/573' } });
      }),
    );

    const page = withTotal(await dbApi.get('/checks', { ...countExact, params: { limit: 25 } }));

    expect(prefer).toBe('count=exact');
    expect(page).toEqual({ data: [{ id: 'a' }], total: 573 });
  });

  it('read an empty Content-Range total as zero', async () => {
    server.use(http.get('*/api/db/checks', () => HttpResponse.json([], { headers: { 'Content-Range': '*/0' } })));

    expect(withTotal(await dbApi.get('/checks', countExact)).total).toBe(0);
  });

  it('fall back to a total field in the body, then to the length of a list', async () => {
    server.use(
      http.get('*/api/catalog/changes', () => HttpResponse.json({ changes: [], total: 42 })),
      http.get('*/api/db/agents', () => HttpResponse.json([{ id: 1 }, { id: 2 }])),
    );

    expect(withTotal(await api.get('/catalog/changes')).total).toBe(42);
    expect(withTotal(await dbApi.get('/agents')).total).toBe(2);
  });

  it('toast a timeout and still reject', async () => {
    server.use(
      http.get('*/api/canary/api/summary', async () => {
        await delay('infinite');
        return HttpResponse.json([]);
      }),
    );

    // msw's XMLHttpRequest stand-in never fires `timeout`, so this one request goes through
    // axios's fetch adapter (which needs an absolute URL in Node); the interceptor is the same.
    const error = await failureOf(
      api.get('/canary/api/summary', { timeout: 20, adapter: 'fetch', baseURL: `${window.location.origin}/api` }),
    );

    expect(error).toBeInstanceOf(AxiosError);
    expect(toast.error).toHaveBeenCalledWith(HTTP_MESSAGES.timeout);
    expect(isRetryableNetworkError(error)).toBe(true);
  });

  it('toast a network error and still reject', async () => {
    server.use(http.get('*/api/db/people', () => HttpResponse.error()));

    const error = await failureOf(dbApi.get('/people'));

    expect(error).toBeInstanceOf(AxiosError);
    expect(toast.error).toHaveBeenCalledExactlyOnceWith(HTTP_MESSAGES.network);
    expect(isRetryableNetworkError(error)).toBe(true);
  });

  it('toast being offline instead of a network error when the browser is offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    server.use(http.get('*/api/db/people', () => HttpResponse.error()));

    await failureOf(dbApi.get('/people'));

    expect(toast.error).toHaveBeenCalledExactlyOnceWith(HTTP_MESSAGES.offline);
  });

  it('show one toast for a burst of failures while it is still on screen', async () => {
    server.use(http.get('*/api/db/people', () => HttpResponse.error()));

    await Promise.all([failureOf(dbApi.get('/people')), failureOf(dbApi.get('/people'))]);
    expect(toast.error).toHaveBeenCalledTimes(1);

    vi.setSystemTime(Date.now() + TOAST_DURATION_MS);
    await failureOf(dbApi.get('/people'));
    expect(toast.error).toHaveBeenCalledTimes(2);
  });

  it('neither toast nor retry an HTTP error answer', async () => {
    server.use(http.get('*/api/db/people', () => HttpResponse.json({ message: 'boom' }, { status: 500 })));

    const error = await failureOf(dbApi.get('/people'));

    expect(toast.error).not.toHaveBeenCalled();
    expect(isRetryableNetworkError(error)).toBe(false);
  });

  it('call every registered 401 handler until it unsubscribes', async () => {
    server.use(http.get('*/api/auth/whoami', () => HttpResponse.json({ message: 'no session' }, { status: 401 })));
    const handler = vi.fn();
    const unsubscribe = onUnauthorized(handler);

    const error = await failureOf(api.get('/auth/whoami'));
    expect(handler).toHaveBeenCalledExactlyOnceWith(error);

    unsubscribe();
    await failureOf(api.get('/auth/whoami'));
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('toastError', () => {
  it('toast the message of the Lookout error envelope', () => {
    toastError(
      axiosErrorWithBody(409, {
        error: { code: 'conflict', message: "Incident 'INC-42' is already resolved" },
        message: "Incident 'INC-42' is already resolved",
      }),
    );

    expect(toast.error).toHaveBeenCalledWith("Incident 'INC-42' is already resolved");
  });

  it('prefer a string error field, then fall back to message', () => {
    expect(getErrorMessage(axiosErrorWithBody(500, { error: 'playbook failed', message: 'other' }))).toBe(
      'playbook failed',
    );
    expect(getErrorMessage(axiosErrorWithBody(400, { code: '42P01', message: 'relation does not exist' }))).toBe(
      'relation does not exist',
    );
  });

  it("toast 'An error occurred' when the server said nothing usable", () => {
    toastError(axiosErrorWithBody(502, '<html>Bad gateway</html>'));
    toastError(new Error('not from the server'));

    expect(toast.error).toHaveBeenNthCalledWith(1, HTTP_MESSAGES.generic);
    expect(toast.error).toHaveBeenNthCalledWith(2, HTTP_MESSAGES.generic);
  });

  it('stay quiet for a transport failure the clients already toasted', async () => {
    server.use(http.get('*/api/db/people', () => HttpResponse.error()));
    const error = await failureOf(dbApi.get('/people'));

    toastError(error);

    expect(toast.error).toHaveBeenCalledExactlyOnceWith(HTTP_MESSAGES.network);
  });
});
