import {
  resourceSearchResponseSchema,
  type ResourceSearchKind,
  type ResourceSearchRequest,
  type ResourceSearchResponse,
  type ResourceSearchSelector,
  type SelectedResource,
} from '@lookout/contracts';
import { api } from './api-client';

export type { ResourceSearchKind, ResourceSearchSelector, SelectedResource };

/**
 * `POST /api/resources/search` (ui-calls section 3.16): the one call every resource picker
 * (playbook run modal, silences, link dialogs) asks, so all of them match resources alike.
 */
export async function postResourceSearch(
  request: ResourceSearchRequest,
  signal?: AbortSignal,
): Promise<ResourceSearchResponse> {
  const { data } = await api.post<unknown>('/resources/search', request, signal ? { signal } : {});
  return resourceSearchResponseSchema.parse(data);
}

/**
 * The selectors a picker sends: its own (a playbook's spec selectors, a parameter's filter) or
 * one that matches everything, each narrowed by the typed text. While searching, `id` is
 * dropped (as the original picker does) so a selector pinned to one resource still finds others.
 */
export function pickerSelectors(
  selectors: readonly ResourceSearchSelector[] | undefined,
  text: string,
  limit: number,
): ResourceSearchSelector[] {
  const search = text.trim();
  const base = selectors && selectors.length > 0 ? selectors : [{}];
  return base.map((selector) => {
    if (!search) return { ...selector, limit };
    // Dropped, not passed as undefined: the request body is JSON and the server schema is strict.
    const { id: _id, ...rest } = selector;
    return { ...rest, search, limit };
  });
}

/** The resources of one kind a picker offers for the typed text, ordered by name. */
export async function searchPicker(
  kind: ResourceSearchKind,
  text: string,
  options: { selectors?: readonly ResourceSearchSelector[] | undefined; limit: number; signal?: AbortSignal },
): Promise<SelectedResource[]> {
  const answer = await postResourceSearch(
    { [kind]: pickerSelectors(options.selectors, text, options.limit) },
    options.signal,
  );
  // Several selectors each bring up to `limit`; the picker still shows at most `limit`.
  return answer[kind].slice(0, options.limit);
}
