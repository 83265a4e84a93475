import { RecoveryFlowFromJSON } from '@ory/client-fetch';
import type { UpdateRecoveryFlowBody } from '@ory/client-fetch';
import type { FlowSubmitResult } from './flow-types';
import { callIdentity, frontendApi } from './ory-client';
import type { UpdateFlowInput } from './update-login-flow';
import { withFlowOnBadRequest } from './with-flow-on-bad-request';

/**
 * `POST /api/.ory/self-service/recovery?flow=`: sends the code, then checks it. Each step answers with the flow in its next state; a correct code answers 422 `browser_location_change_required` towards the settings page.
 */
export const updateRecoveryFlow = ({ flowId, body }: UpdateFlowInput): Promise<FlowSubmitResult> =>
  withFlowOnBadRequest(RecoveryFlowFromJSON, async () => {
    const flow = await callIdentity(() =>
      frontendApi.updateRecoveryFlow({
        flow: flowId,
        updateRecoveryFlowBody: body as unknown as UpdateRecoveryFlowBody,
      }),
    );
    return { kind: 'flow', flow };
  });
