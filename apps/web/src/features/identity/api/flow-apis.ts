import { createLoginFlow } from './create-login-flow';
import type { CreateLoginFlowParams } from './create-login-flow';
import { createRecoveryFlow } from './create-recovery-flow';
import { createRegistrationFlow } from './create-registration-flow';
import { createSettingsFlow } from './create-settings-flow';
import { createVerificationFlow } from './create-verification-flow';
import type { AnyFlow, FlowKind, FlowSubmitResult } from './flow-types';
import { getLoginFlow } from './get-login-flow';
import { getRecoveryFlow } from './get-recovery-flow';
import { getRegistrationFlow } from './get-registration-flow';
import { getSettingsFlow } from './get-settings-flow';
import { getVerificationFlow } from './get-verification-flow';
import { updateLoginFlow } from './update-login-flow';
import type { UpdateFlowInput } from './update-login-flow';
import { updateRecoveryFlow } from './update-recovery-flow';
import { updateRegistrationFlow } from './update-registration-flow';
import { updateSettingsFlow } from './update-settings-flow';
import { updateVerificationFlow } from './update-verification-flow';

/** How a page asks for a new flow: login takes its modes, every flow takes `return_to`. */
export type CreateFlowParams = CreateLoginFlowParams;

/** The three calls of one flow kind, so one controller drives every identity page. */
export interface FlowApi {
  create: (params: CreateFlowParams) => Promise<AnyFlow>;
  get: (id: string) => Promise<AnyFlow>;
  update: (input: UpdateFlowInput) => Promise<FlowSubmitResult>;
}

const returnToOnly = ({ returnTo }: CreateFlowParams) => (returnTo ? { returnTo } : {});

export const flowApis: Record<FlowKind, FlowApi> = {
  login: { create: createLoginFlow, get: getLoginFlow, update: updateLoginFlow },
  registration: {
    create: (params) => createRegistrationFlow(returnToOnly(params)),
    get: getRegistrationFlow,
    update: updateRegistrationFlow,
  },
  recovery: {
    create: (params) => createRecoveryFlow(returnToOnly(params)),
    get: getRecoveryFlow,
    update: updateRecoveryFlow,
  },
  verification: {
    create: (params) => createVerificationFlow(returnToOnly(params)),
    get: getVerificationFlow,
    update: updateVerificationFlow,
  },
  settings: {
    create: (params) => createSettingsFlow(returnToOnly(params)),
    get: getSettingsFlow,
    update: updateSettingsFlow,
  },
};
