import { useState } from 'react';
import { toast } from '@/components/ui/toast';
import { toastError } from '@/lib/api-client';
import { useTestConnection } from '../api/test-connection';
import type { TestOutcome } from '../lib/test-outcome-fns';

/**
 * Runs 'Test connection' (spec 3 sections 2.7 and 8) for a saved connection: a toast says how
 * it went ('Connection successful', the server's error, or that the type cannot be tested),
 * and `outcome` keeps it for the form to show, since an error can be longer than a toast holds.
 */
export function useConnectionTest(connectionId: string | undefined) {
  const test = useTestConnection();
  const [outcome, setOutcome] = useState<TestOutcome>();

  const run = () => {
    if (!connectionId) return;
    setOutcome(undefined);
    test.mutate(connectionId, {
      onSuccess: (result) => {
        setOutcome(result);
        if (result.kind === 'ok') toast.success(result.message);
        else if (result.kind === 'unsupported') toast.info(result.message);
        else toast.error(result.message);
      },
      onError: toastError,
    });
  };

  return { run, outcome, isPending: test.isPending };
}
