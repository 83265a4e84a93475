import type { FlowKind } from './flows-repository.js';
import { resolveReturnTo, UI_URLS } from './identity-fns.js';
import type { RequestContext } from './identity-types.js';
import { errors } from './kratos-errors-fns.js';

/** The URLs the identity service answers the requester with, on the request's origin. */

/** The web page that renders a flow. */
export const uiUrl = (ctx: Pick<RequestContext, 'origin'>, kind: FlowKind, flowId: string) =>
  `${ctx.origin}${UI_URLS[kind === 'settings' ? 'settings' : kind]}?flow=${flowId}`;

/** A path of this installation made absolute; an absolute URL stays as it is. */
export const absolute = (ctx: Pick<RequestContext, 'origin'>, target: string) =>
  target.startsWith('/') ? `${ctx.origin}${target}` : target;

/** The request's `return_to`, when it stays on this installation; otherwise Kratos's refusal. */
export function returnToOf(ctx: Pick<RequestContext, 'origin'>, returnTo: string | undefined): string | undefined {
  const resolved = resolveReturnTo(returnTo, ctx.origin);
  if (!resolved.ok) throw errors.returnToForbidden(returnTo ?? '');
  return resolved.value;
}
