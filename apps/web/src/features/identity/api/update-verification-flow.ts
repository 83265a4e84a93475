import { VerificationFlowFromJSON } from '@ory/client-fetch';
import type { UpdateVerificationFlowBody } from '@ory/client-fetch';
import type { FlowSubmitResult } from './flow-types';
import { callIdentity, frontendApi } from './ory-client';
import type { UpdateFlowInput } from './update-login-flow';
import { withFlowOnBadRequest } from './with-flow-on-bad-request';

/**
 * `POST /api/.ory/self-service/verification?flow=`: sends the code, then checks it; each step answers with the flow in its next state.
 */
export const updateVerificationFlow = ({ flowId, body }: UpdateFlowInput): Promise<FlowSubmitResult> =>
  withFlowOnBadRequest(VerificationFlowFromJSON, async () => {
    const flow = await callIdentity(() =>
      frontendApi.updateVerificationFlow({
        flow: flowId,
        updateVerificationFlowBody: body as unknown as UpdateVerificationFlowBody,
      }),
    );
    return { kind: 'flow', flow };
  });
