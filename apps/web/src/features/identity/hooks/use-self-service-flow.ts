import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { flowApis } from '../api/flow-apis';
import type { CreateFlowParams } from '../api/flow-apis';
import { flowQueryDefaults } from '../api/flow-query-defaults';
import type { AnyFlow, FlowBody, FlowKind, FlowSubmitResult } from '../api/flow-types';
import { identityKeys } from '../api/identity-keys';
import { identityErrorOf } from '../api/ory-client';
import { useFlowErrorHandler } from './use-flow-error-handler';
import type { FlowErrorOutcome } from './use-flow-error-handler';

/** Restarts allowed in a row before the page shows the error instead. */
const MAX_RESTARTS_IN_A_ROW = 3;

export type FlowDone = Extract<FlowSubmitResult, { kind: 'done' }>;

export interface UseSelfServiceFlowOptions {
  kind: FlowKind;
  /** How to start a new flow (login modes, return_to). */
  params: CreateFlowParams;
  /** Where a sign-in demanded by an error should come back to. */
  returnTo: string | undefined;
  /** Where `session_already_available` leads. */
  home: string;
  /** The flow is complete (a login or registration succeeded). */
  onDone: (result: FlowDone) => void;
}

export interface SelfServiceFlow {
  /** The flow to render; undefined while it is being created or read. */
  flow: AnyFlow | undefined;
  /** An error the spec does not route anywhere; the page shows it. */
  error: unknown;
  submit: (body: FlowBody) => void;
  isSubmitting: boolean;
  /** Starts a new flow, as "Try again" after an error. */
  restart: () => void;
}

/**
 * Drives one self-service flow the way Kratos's browser contract expects: read the flow named
 * by `?flow=`, or create one and put its id in the address (so a reload keeps it); submit it;
 * render the flow a 400 returns; restart on expiry, CSRF failure or 410; follow the error ids
 * of spec 1, section 4.
 */
export function useSelfServiceFlow({
  kind,
  params,
  returnTo,
  home,
  onDone,
}: UseSelfServiceFlowOptions): SelfServiceFlow {
  const api = flowApis[kind];
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const { key: locationKey } = useLocation();
  const flowId = searchParams.get('flow') ?? undefined;
  const [error, setError] = useState<unknown>(undefined);
  // Restarts since a flow was last shown: a server that refuses every new flow in a way that
  // asks for a restart must not make the page loop.
  const restartsInARow = useRef(0);
  const handleError = useFlowErrorHandler({ returnTo, home });

  const flowQuery = useQuery({
    queryKey: identityKeys.flow(kind, flowId ?? ''),
    queryFn: () => api.get(flowId ?? ''),
    enabled: flowId !== undefined,
    ...flowQueryDefaults,
  });

  const showFlow = useCallback(
    (flow: AnyFlow) => {
      restartsInARow.current = 0;
      queryClient.setQueryData(identityKeys.flow(kind, flow.id), flow);
      if (flow.id !== flowId) {
        setSearchParams(
          (previous) => {
            const next = new URLSearchParams(previous);
            next.set('flow', flow.id);
            return next;
          },
          { replace: true },
        );
      }
    },
    [queryClient, kind, flowId, setSearchParams],
  );

  // Every navigation, even to the same address, is a new location: that is what starts a new
  // flow below, so a restart is a navigation to the address without `flow`.
  const restartWith = useCallback(
    (outcome: Extract<FlowErrorOutcome, { action: 'restart' }>) => {
      setError(undefined);
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete('flow');
          if (outcome.withoutReturnTo) next.delete('return_to');
          if (outcome.useFlowId) next.set('flow', outcome.useFlowId);
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  const onError = useCallback(
    (cause: unknown) => {
      const detail = identityErrorOf(cause);
      if (!detail) {
        setError(cause);
        return;
      }
      const outcome = handleError(detail);
      if (outcome.action === 'restart' && restartsInARow.current < MAX_RESTARTS_IN_A_ROW) {
        restartsInARow.current += 1;
        restartWith(outcome);
      } else if (outcome.action !== 'navigated') {
        setError(cause);
      }
    },
    [handleError, restartWith],
  );

  // Create a flow when the address names none, once per location (the ref keeps React's
  // development double effects and re-renders from creating two flows for one visit).
  const paramsKey = JSON.stringify(params);
  const createdFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (flowId !== undefined || createdFor.current === locationKey) return;
    createdFor.current = locationKey;
    api.create(JSON.parse(paramsKey) as CreateFlowParams).then(showFlow, onError);
  }, [api, locationKey, paramsKey, flowId, showFlow, onError]);

  // A flow that cannot be read (expired, CSRF, gone) is routed like a submit error, once.
  const handledQueryError = useRef<unknown>(undefined);
  useEffect(() => {
    if (flowQuery.error && handledQueryError.current !== flowQuery.error) {
      handledQueryError.current = flowQuery.error;
      onError(flowQuery.error);
    }
  }, [flowQuery.error, onError]);

  const mutation = useMutation({ mutationFn: api.update });
  const { mutate } = mutation;
  const submit = useCallback(
    (body: FlowBody) => {
      if (flowId === undefined) return;
      mutate(
        { flowId, body },
        {
          onSuccess: (result) => {
            if (result.kind === 'flow') showFlow(result.flow);
            else onDone(result);
          },
          onError,
        },
      );
    },
    [flowId, mutate, showFlow, onDone, onError],
  );

  // The user asking again starts the count of automatic restarts afresh.
  const restart = useCallback(() => {
    restartsInARow.current = 0;
    restartWith({ action: 'restart' });
  }, [restartWith]);

  return {
    flow: flowId === undefined ? undefined : flowQuery.data,
    error,
    submit,
    isSubmitting: mutation.isPending,
    restart,
  };
}
