import { useMutation } from '@tanstack/react-query';
import { isAxiosError } from 'axios';
import { api } from '@/lib/api-client';
import { testOutcome } from '../lib/test-outcome-fns';
import type { TestOutcome } from '../lib/test-outcome-fns';

/**
 * `POST /api/connection/test/<id>`, no body (ui-calls 3.12). A 4xx is an answer about the
 * connection (its error is shown); a 5xx or a transport failure rejects like any failed call.
 */
export const testConnection = async (id: string): Promise<TestOutcome> => {
  try {
    const response = await api.post<unknown>(`/connection/test/${encodeURIComponent(id)}`);
    return testOutcome(response.status, response.data);
  } catch (error) {
    const status = isAxiosError(error) ? error.response?.status : undefined;
    if (status !== undefined && status >= 400 && status < 500 && isAxiosError(error)) {
      return testOutcome(status, error.response?.data);
    }
    throw error;
  }
};

export const useTestConnection = () => useMutation({ mutationFn: testConnection });
