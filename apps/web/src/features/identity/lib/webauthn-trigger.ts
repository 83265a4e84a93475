/**
 * WebAuthn nodes carry the call to make in an `onclick` string, such as
 * `window.__oryWebAuthnLogin({...options})`, which Kratos's reference UIs run with `eval`.
 * Here the function name and its JSON argument are read out instead and the function (which
 * the flow's `webauthn.js` script node defined) is called directly: no code string is ever
 * evaluated. Newer Kratos names the function in `onclickTrigger` and puts the options in the
 * node's value; both forms work.
 */
export interface WebAuthnTrigger {
  functionName: string;
  options: unknown;
}

const ONCLICK_CALL = /^\s*(?:window\.)?([A-Za-z_$][\w$]*)\(([\s\S]*)\);?\s*$/;

export function parseWebAuthnTrigger(attributes: {
  onclick?: string;
  onclickTrigger?: string;
  value?: unknown;
}): WebAuthnTrigger | undefined {
  try {
    if (attributes.onclickTrigger) {
      const raw = attributes.value;
      return {
        functionName: attributes.onclickTrigger,
        options: typeof raw === 'string' && raw ? (JSON.parse(raw) as unknown) : raw,
      };
    }
    const match = attributes.onclick ? ONCLICK_CALL.exec(attributes.onclick) : null;
    if (!match?.[1]) return undefined;
    const argument = match[2]?.trim();
    return { functionName: match[1], options: argument ? (JSON.parse(argument) as unknown) : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Runs the trigger. Resolves false when the script has not defined the function (not loaded
 * yet, or blocked); rejects when the browser's WebAuthn ceremony fails or is cancelled.
 */
export async function runWebAuthnTrigger(trigger: WebAuthnTrigger): Promise<boolean> {
  const fn: unknown = Reflect.get(window, trigger.functionName);
  if (typeof fn !== 'function') return false;
  await (fn as (options: unknown) => unknown)(trigger.options);
  return true;
}
