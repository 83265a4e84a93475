import type { UiNodeInputAttributes } from '@ory/client-fetch';
import { clsx } from 'clsx';
import { useId } from 'react';
import type { HTMLAttributeReferrerPolicy } from 'react';
import { toast } from '@/components/ui/toast';
import type { UiNode } from '../api/flow-types';
import { lookupSecretsOf, nodeLabel } from '../lib/ui-node-fns';
import { parseWebAuthnTrigger, runWebAuthnTrigger } from '../lib/webauthn-trigger';
import { FlowMessage } from './flow-message';

export const identityClasses = {
  input:
    'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-sky-500 focus:outline-none focus:ring-2 focus:ring-sky-500/30 disabled:bg-slate-50 aria-[invalid=true]:border-red-400',
  primaryButton:
    'inline-flex w-full items-center justify-center gap-2 rounded-md bg-slate-900 px-3 py-2 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 disabled:cursor-not-allowed disabled:opacity-60',
  secondaryButton:
    'inline-flex w-full items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 disabled:cursor-not-allowed disabled:opacity-60',
  link: 'font-medium text-sky-700 hover:text-sky-900 hover:underline',
} as const;

export interface FlowNodeProps {
  node: UiNode;
  /** Messages hide after 10 s (spec 1, section 4); the field stays. */
  showMessages: boolean;
  isSubmitting: boolean;
}

/**
 * Buttons that are not the form's main action: resend, remove, unlink, social providers. The
 * main action is the `method` submit, or confirming freshly shown backup codes.
 */
const isSecondaryButton = (attributes: UiNodeInputAttributes, group: string) =>
  group === 'oidc' || (attributes.name !== 'method' && attributes.name !== 'lookup_secret_confirm');

function InputNode({
  node,
  attributes,
  showMessages,
  isSubmitting,
}: FlowNodeProps & { attributes: UiNodeInputAttributes }) {
  const id = useId();
  const label = nodeLabel(node)?.text ?? attributes.name;
  const messages = showMessages ? node.messages : [];
  const describedBy = messages.length > 0 ? `${id}-messages` : undefined;
  const value = attributes.value === undefined || attributes.value === null ? '' : String(attributes.value);

  switch (attributes.type) {
    case 'hidden':
      return <input type="hidden" name={attributes.name} defaultValue={value} />;
    case 'submit':
      return (
        <button
          type="submit"
          name={attributes.name}
          value={value}
          disabled={attributes.disabled || isSubmitting}
          // A resend or remove button must not wait for the other fields of its form.
          formNoValidate={attributes.name !== 'method'}
          className={
            isSecondaryButton(attributes, node.group) ? identityClasses.secondaryButton : identityClasses.primaryButton
          }
        >
          {label}
        </button>
      );
    case 'button': {
      const trigger = parseWebAuthnTrigger(attributes);
      return (
        <button
          type="button"
          name={attributes.name}
          value={value}
          disabled={attributes.disabled || isSubmitting}
          className={identityClasses.primaryButton}
          onClick={() => {
            if (!trigger) return;
            runWebAuthnTrigger(trigger).then(
              (ran) => {
                if (!ran) toast.error('The security key helper has not loaded yet. Try again in a moment.');
              },
              (error: unknown) => toast.error(error instanceof Error ? error.message : String(error)),
            );
          }}
        >
          {label}
        </button>
      );
    }
    case 'checkbox':
      return (
        <div>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              name={attributes.name}
              defaultChecked={attributes.value === true || attributes.value === 'true'}
              required={attributes.required}
              disabled={attributes.disabled}
              aria-describedby={describedBy}
              className="size-4 rounded border-slate-300 text-sky-600 focus:ring-sky-500"
            />
            {label}
          </label>
          {describedBy && (
            <div id={describedBy}>
              {messages.map((message, index) => (
                <FlowMessage key={`${message.id}:${index}`} message={message} variant="inline" />
              ))}
            </div>
          )}
        </div>
      );
    default: {
      const invalid = messages.some((message) => message.type === 'error');
      return (
        <div>
          <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
            {label}
            {attributes.required && (
              <span aria-hidden className="text-red-600">
                {' *'}
              </span>
            )}
          </label>
          <input
            id={id}
            type={attributes.type}
            name={attributes.name}
            // Passwords are never sent back; everything else keeps what the server kept.
            defaultValue={attributes.type === 'password' ? undefined : value}
            required={attributes.required}
            disabled={attributes.disabled}
            autoComplete={attributes.autocomplete}
            pattern={attributes.pattern}
            maxLength={attributes.maxlength}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            className={identityClasses.input}
          />
          {describedBy && (
            <div id={describedBy}>
              {messages.map((message, index) => (
                <FlowMessage key={`${message.id}:${index}`} message={message} variant="inline" />
              ))}
            </div>
          )}
        </div>
      );
    }
  }
}

/** One Kratos UI node: an input, an image (TOTP QR code), a text (secrets), a script or a link. */
export function FlowNode(props: FlowNodeProps) {
  const { node, showMessages } = props;
  const { attributes } = node;
  const label = nodeLabel(node)?.text;
  const messages = showMessages ? node.messages : [];
  switch (attributes.node_type) {
    case 'input':
      return <InputNode {...props} attributes={attributes} />;
    case 'img':
      return (
        <figure className="flex flex-col items-center gap-2">
          <img
            src={attributes.src}
            width={attributes.width}
            height={attributes.height}
            alt={label ?? attributes.id}
            data-testid={`flow-img-${attributes.id}`}
            className="rounded-md border border-slate-200 bg-white p-2"
          />
          {label && <figcaption className="text-xs text-slate-600">{label}</figcaption>}
        </figure>
      );
    case 'text': {
      const secrets = lookupSecretsOf(attributes.text);
      return (
        <div data-testid={`flow-text-${attributes.id}`}>
          {label && <p className="mb-2 text-sm text-slate-700">{label}</p>}
          {secrets ? (
            <ul aria-label={label} className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {secrets.map((secret, index) => (
                <li key={`${secret}:${index}`}>
                  <code className="block rounded bg-slate-100 px-2 py-1 text-center font-mono text-sm text-slate-900">
                    {secret}
                  </code>
                </li>
              ))}
            </ul>
          ) : (
            <code className="block break-all rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900">
              {attributes.text.text}
            </code>
          )}
          {messages.map((message, index) => (
            <FlowMessage key={`${message.id}:${index}`} message={message} variant="inline" />
          ))}
        </div>
      );
    }
    case 'a':
      return (
        <a href={attributes.href} id={attributes.id} className={clsx(identityClasses.secondaryButton, 'no-underline')}>
          {attributes.title.text}
        </a>
      );
    case 'script':
      // React 19 loads an async script wherever it is rendered, once per src; the WebAuthn
      // helper it defines is what the node's trigger button calls.
      return (
        <script
          src={attributes.src}
          async
          id={attributes.id}
          type={attributes.type || undefined}
          crossOrigin={attributes.crossorigin === 'use-credentials' ? 'use-credentials' : 'anonymous'}
          referrerPolicy={
            attributes.referrerpolicy ? (attributes.referrerpolicy as HTMLAttributeReferrerPolicy) : undefined
          }
          integrity={attributes.integrity || undefined}
          nonce={attributes.nonce || undefined}
        />
      );
    default:
      return null;
  }
}
