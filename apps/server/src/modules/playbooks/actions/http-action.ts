import { errorText, keepSecret, type ActionRunner } from './action-types.js';

const MAX_BODY_CHARS = 1024 * 1024;

/**
 * `http`: one request to `url`, or to a connection's URL with its credentials (basic auth from
 * username/password, or a bearer token when only a password is set). A 2xx/3xx answer
 * completes the action; the result holds the status code, headers and body.
 */
export const runHttp: ActionRunner<'http'> = async (spec, context) => {
  let url = spec.url;
  const headers = new Headers();
  for (const header of spec.headers ?? []) headers.set(header.name, header.value);
  try {
    if (spec.connection) {
      const connection = await context.resolveConnection(spec.connection);
      url = url && /^https?:\/\//.test(url) ? url : `${(connection.url ?? '').replace(/\/$/, '')}${url ?? ''}`;
      keepSecret(context, connection.password);
      if (!headers.has('authorization')) {
        if (connection.username && connection.password) {
          const token = Buffer.from(`${connection.username}:${connection.password}`).toString('base64');
          keepSecret(context, token);
          headers.set('authorization', `Basic ${token}`);
        } else if (connection.password) headers.set('authorization', `Bearer ${connection.password}`);
      }
    }
    if (!url || !/^https?:\/\//.test(url))
      return { ok: false, result: {}, error: `url '${url ?? ''}' is not an http(s) URL` };
    const hasBody = spec.body !== undefined && spec.method !== 'GET' && spec.method !== 'HEAD';
    const response = await fetch(url, {
      method: spec.method,
      headers,
      ...(hasBody ? { body: spec.body } : {}),
      signal: context.signal,
      redirect: 'manual',
    });
    const text = await response.text();
    const result = {
      code: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: text.length > MAX_BODY_CHARS ? text.slice(0, MAX_BODY_CHARS) : text,
    };
    if (response.status >= 400)
      return { ok: false, result, error: `${spec.method} ${url} answered ${response.status}` };
    return { ok: true, result };
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return {
      ok: false,
      result: {},
      error: `${spec.method} ${url ?? ''}: ${errorText(context.signal.aborted ? context.signal.reason : (cause ?? error))}`,
    };
  }
};
