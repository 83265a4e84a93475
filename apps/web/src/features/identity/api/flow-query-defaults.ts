/**
 * Flows are server-side state machines: the server keeps their messages, so a flow is read
 * once per id and then replaced by what each submit returns. Refetching on focus would only
 * reset what the user typed, and a 4xx (expired, CSRF) must reach the error handling at once.
 */
export const flowQueryDefaults = {
  staleTime: Number.POSITIVE_INFINITY,
  refetchOnWindowFocus: false,
  retry: false,
} as const;
