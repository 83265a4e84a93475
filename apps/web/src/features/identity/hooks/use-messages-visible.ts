import { IDENTITY_MESSAGE_TIMEOUT_MS } from '@lookout/contracts';
import { useEffect, useState } from 'react';

/**
 * False once a flow's messages have been on screen for 10 s (spec 1, section 4). Every new
 * flow object (a submit's answer) shows its messages again for another 10 s.
 */
export function useMessagesVisible(flow: object | undefined): boolean {
  const [expiredFor, setExpiredFor] = useState<object | undefined>(undefined);
  useEffect(() => {
    if (!flow) return undefined;
    const timer = window.setTimeout(() => setExpiredFor(flow), IDENTITY_MESSAGE_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [flow]);
  return flow !== undefined && expiredFor !== flow;
}
