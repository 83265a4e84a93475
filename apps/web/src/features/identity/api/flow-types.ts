import type { UiContainer, UiNode, UiText } from '@ory/client-fetch';

/** The five self-service flows the identity pages render. */
export type FlowKind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';

/** What every flow has and the renderer needs. */
export interface AnyFlow {
  id: string;
  ui: UiContainer;
  return_to?: string;
  state?: unknown;
}

/** A form body built from a flow's nodes: field names (nested at dots) to values. */
export type FlowBody = Record<string, unknown>;

/** What submitting a flow led to. */
export type FlowSubmitResult =
  /** The flow came back with messages (400, or 200 on a recovery/verification/settings step). */
  | { kind: 'flow'; flow: AnyFlow }
  /** The flow is done; `continueWith` holds Kratos's `continue_with` items, `returnTo` where to go. */
  | { kind: 'done'; continueWith: ContinueWith[]; returnTo?: string };

/** Kratos `continue_with` items the pages act on. */
export type ContinueWith =
  | { action: 'redirect_browser_to'; redirect_browser_to: string }
  | { action: 'show_verification_ui'; flow: { id: string; url?: string } }
  | { action: 'show_settings_ui'; flow: { id: string; url?: string } }
  | { action: 'show_recovery_ui'; flow: { id: string; url?: string } }
  | { action: 'other' };

export type { UiNode, UiText };
