import { RegistrationFlowFromJSON } from '@ory/client-fetch';
import type { UpdateRegistrationFlowBody } from '@ory/client-fetch';
import { toContinueWith } from './continue-with';
import type { FlowSubmitResult } from './flow-types';
import { callIdentity, frontendApi } from './ory-client';
import type { UpdateFlowInput } from './update-login-flow';
import { withFlowOnBadRequest } from './with-flow-on-bad-request';

/**
 * `POST /api/.ory/self-service/registration?flow=`: creates the account and signs in. Success
 * usually continues with `show_verification_ui`; a 400 comes back as the flow with messages.
 */
export const updateRegistrationFlow = ({ flowId, body }: UpdateFlowInput): Promise<FlowSubmitResult> =>
  withFlowOnBadRequest(RegistrationFlowFromJSON, async () => {
    const result = await callIdentity(() =>
      frontendApi.updateRegistrationFlow({
        flow: flowId,
        updateRegistrationFlowBody: body as unknown as UpdateRegistrationFlowBody,
      }),
    );
    return { kind: 'done', continueWith: toContinueWith(result.continue_with) };
  });
