import { SettingsFlowFromJSON } from '@ory/client-fetch';
import type { UpdateSettingsFlowBody } from '@ory/client-fetch';
import type { FlowSubmitResult } from './flow-types';
import { callIdentity, frontendApi } from './ory-client';
import type { UpdateFlowInput } from './update-login-flow';
import { withFlowOnBadRequest } from './with-flow-on-bad-request';

/**
 * `POST /api/.ory/self-service/settings?flow=`: saves one section (the `method`). The flow comes back with a success message; 403 `session_refresh_required` asks to sign in again first.
 */
export const updateSettingsFlow = ({ flowId, body }: UpdateFlowInput): Promise<FlowSubmitResult> =>
  withFlowOnBadRequest(SettingsFlowFromJSON, async () => {
    const flow = await callIdentity(() =>
      frontendApi.updateSettingsFlow({
        flow: flowId,
        updateSettingsFlowBody: body as unknown as UpdateSettingsFlowBody,
      }),
    );
    return { kind: 'flow', flow };
  });
