import { LoginFlowFromJSON } from '@ory/client-fetch';
import type { UpdateLoginFlowBody } from '@ory/client-fetch';
import { toContinueWith } from './continue-with';
import type { FlowBody, FlowSubmitResult } from './flow-types';
import { callIdentity, frontendApi } from './ory-client';
import { withFlowOnBadRequest } from './with-flow-on-bad-request';

export interface UpdateFlowInput {
  flowId: string;
  body: FlowBody;
}

/**
 * `POST /api/.ory/self-service/login?flow=`: signs in. 200 is a session; a 400 comes back as
 * the flow with its messages; other errors throw `IdentityRequestError`.
 */
export const updateLoginFlow = ({ flowId, body }: UpdateFlowInput): Promise<FlowSubmitResult> =>
  withFlowOnBadRequest(LoginFlowFromJSON, async () => {
    const result = await callIdentity(() =>
      // The body is built from the flow's own nodes; the SDK's union type names the methods.
      frontendApi.updateLoginFlow({ flow: flowId, updateLoginFlowBody: body as unknown as UpdateLoginFlowBody }),
    );
    return { kind: 'done', continueWith: toContinueWith(result.continue_with) };
  });
