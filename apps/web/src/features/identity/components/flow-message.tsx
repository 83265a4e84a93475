import { clsx } from 'clsx';
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import type { UiText } from '../api/flow-types';

const STYLES = {
  error: { box: 'border-red-200 bg-red-50 text-red-800', icon: CircleAlert },
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-800', icon: CircleCheck },
  info: { box: 'border-sky-200 bg-sky-50 text-sky-900', icon: Info },
} as const;

export interface FlowMessageProps {
  message: UiText;
  /** `inline` for a field's message under its input, `banner` for the flow's own messages. */
  variant?: 'banner' | 'inline';
  id?: string;
}

/** One Kratos message, styled by its type (error, success, info). */
export function FlowMessage({ message, variant = 'banner', id }: FlowMessageProps) {
  const type = message.type === 'error' || message.type === 'success' ? message.type : 'info';
  const style = STYLES[type];
  const Icon = style.icon;
  if (variant === 'inline') {
    return (
      <p
        id={id}
        data-message-id={message.id}
        data-message-type={type}
        className={clsx(
          'mt-1 text-xs',
          type === 'error' ? 'text-red-700' : type === 'success' ? 'text-emerald-700' : 'text-slate-600',
        )}
      >
        {message.text}
      </p>
    );
  }
  return (
    <div
      id={id}
      role={type === 'error' ? 'alert' : 'status'}
      data-message-id={message.id}
      data-message-type={type}
      className={clsx('flex items-start gap-2 rounded-md border px-3 py-2 text-sm', style.box)}
    >
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span className="min-w-0 break-words">{message.text}</span>
    </div>
  );
}

export interface FlowMessagesProps {
  messages: UiText[] | undefined;
}

/** A flow's `ui.messages`, above its forms. */
export function FlowMessages({ messages }: FlowMessagesProps) {
  if (!messages || messages.length === 0) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="flow-messages">
      {messages.map((message, index) => (
        <FlowMessage key={`${message.id}:${index}`} message={message} />
      ))}
    </div>
  );
}
